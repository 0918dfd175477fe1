#pragma once
// Wall fields: how far particles are from the nearest wall (part 16's SPH changes its gradient
// form near walls), and how much of a kernel's or a grid point's support lies in fluid rather
// than in a body. The SPH and grid phases read them to correct sums that walls cut short.
#include "bodies/body_motion.hpp"
#include "core/uniform_grid.hpp"

#include <vector>

namespace vfx {

// Signed distance of each position to the nearest body surface, capped at maxProximity.
void computeWallProximity(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions, float maxProximity,
                          std::vector<float>& proximity);

// Share of an SPH kernel of support h at each position that lies in fluid rather than in a body
// (1 away from walls): the product over bodies of each body's share. A container's share is the
// product over its faces of the flat-wall share, so edges and corners count every wall; a
// solid polytope misses the product of its faces' complements (the kernel inside all its
// half-spaces); spheres use the flat-wall share at their surface distance. Clamped at >= 0.05.
void computeWallKernelShare(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions, float h,
                            std::vector<float>& share);

// Share of each grid point's trilinear (cloud-in-cell) support, one spacing per axis, that lies
// in fluid rather than in a body (flat-wall shares multiplied as in computeWallKernelShare): the
// coverage a point would have if fluid filled every place it can be. 1 away from walls.
void computeGridFluidShare(const std::vector<RigidBody>& bodies, const GridShape& shape, UniformGrid<float>& share);

}  // namespace vfx
