#include "sim/grid_lookups.hpp"

#include "core/lane_stencils.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace vfx {
namespace {

using lanes::kLanes;

// Points [first, first + count), count <= kLanes (lanes past count repeat the last point).
template <typename T>
VFX_LANES_INLINE void interpolateBlock(const T* values, const lanes::LaneGrid& grid, const vec3* points, size_t first,
                                       size_t count, T* out) {
    const lanes::Stencils stencils = lanes::stencilsOf(grid, lanes::loadPoints(points, first, count));
    for (size_t l = 0; l < count; ++l) out[first + l] = lanes::interpolateLane(values, grid, stencils, int(l));
}

VFX_SIMD_KERNEL void interpolateVectors(const vec3* values, const lanes::LaneGrid& grid, const vec3* points,
                                        size_t first, size_t count, vec3* out) {
    interpolateBlock(values, grid, points, first, count, out);
}

VFX_SIMD_KERNEL void interpolateMatrices(const mat3* values, const lanes::LaneGrid& grid, const vec3* points,
                                         size_t first, size_t count, mat3* out) {
    interpolateBlock(values, grid, points, first, count, out);
}

// Every block of kLanes points if `marked` is null, else the blocks holding a marked point (the
// others read zero).
template <typename T, typename Kernel>
void interpolateAll(const UniformGrid<T>& grid, const std::vector<vec3>& points, std::vector<T>& out,
                    const Kernel& kernel, const std::vector<uint8_t>* marked = nullptr) {
    const size_t n = points.size();
    out.resize(n);
    const size_t width = size_t(kLanes);
    const auto wanted = [&](size_t first) { return !marked || lanes::blockHoldsMark(*marked, first); };
    const GridShape& shape = grid.shape();
    if (shape.anyFlatAxis()) {
        parallelForEach(
            0, n, [&](size_t i) { out[i] = wanted(i - i % width) ? grid.interpolate(points[i]) : T(0.0f); }, 2048);
        return;
    }
    const lanes::LaneGrid laneGrid(shape);
    const size_t blocks = (n + width - 1) / width;
    parallelForEach(
        0, blocks,
        [&](size_t b) {
            const size_t first = b * width, count = std::min(width, n - first);
            if (wanted(first))
                kernel(grid.values().data(), laneGrid, points.data(), first, count, out.data());
            else
                std::fill(out.begin() + std::ptrdiff_t(first), out.begin() + std::ptrdiff_t(first + count), T(0.0f));
        },
        256);
}

}  // namespace

void interpolateAtPoints(const UniformGrid<vec3>& grid, const std::vector<vec3>& points, std::vector<vec3>& out) {
    interpolateAll(grid, points, out, interpolateVectors);
}

void interpolateAtPoints(const UniformGrid<mat3>& grid, const std::vector<vec3>& points, std::vector<mat3>& out) {
    interpolateAll(grid, points, out, interpolateMatrices);
}

void interpolateAtMarkedBlocks(const UniformGrid<vec3>& grid, const std::vector<vec3>& points,
                               const std::vector<uint8_t>& marked, std::vector<vec3>& out) {
    if (marked.size() != points.size()) throw std::logic_error("interpolateAtMarkedBlocks: one mark a point");
    interpolateAll(grid, points, out, interpolateVectors, &marked);
}

}  // namespace vfx
