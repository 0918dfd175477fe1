#pragma once
// Morton (Z-order) codes of points: 10 bits per axis over the cube around their bounding box,
// interleaved, so sorting by code puts points in octree order and neighbours near each other.
#include "core/math.hpp"

#include <cstdint>
#include <vector>

namespace vfx {

constexpr int kMortonDepth = 10;  // bits per axis in a Morton code: octree levels below the root

// (Morton code << 32 | index) of each position, sorted: the positions' octree order. Keys are
// unique, so the order is the same for any thread count. positions must not be empty.
std::vector<uint64_t> sortedMortonKeys(const std::vector<vec3>& positions);

}  // namespace vfx
