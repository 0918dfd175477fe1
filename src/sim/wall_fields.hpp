#pragma once
// Wall fields: how far particles are from the nearest wall (part 16's SPH changes its gradient
// form near walls), and how much of a kernel's or a grid point's support lies in fluid rather
// than in a body. The SPH and grid phases read them to correct sums that walls cut short.
#include "bodies/body_motion.hpp"
#include "core/uniform_grid.hpp"

#include <functional>
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
// The same share for one point of a lattice of spacing h; with containersOnly, the share the
// containers (hole bodies) leave, solids not counted.
float latticePointFluidShare(const std::vector<RigidBody>& bodies, const vec3& point, float h,
                             bool containersOnly = false);

// Whether a point lies in fluid: outside every solid and inside every container (on a wall
// counts as in). The bodies are read when it is called, so they must outlive it.
std::function<bool(const vec3&)> fluidRegionOf(const std::vector<RigidBody>& bodies);

// latticePointFluidShare over the containers alone, or -1 within h of a solid. Remeshing sets
// the volume of the nodes by a container's walls from it; by a solid a node keeps the volume
// deposited on it (set from the share, a spinning ball's fluid took 6% less angular momentum
// than the ball gave in 1 s, against 2%).
std::function<float(const vec3&, float)> containerShareOf(const std::vector<RigidBody>& bodies);

}  // namespace vfx
