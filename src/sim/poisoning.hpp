#pragma once
// Density-gradient poisoning at walls (part 14): the wall-normal part of the grid's density
// gradient removed where the grid cannot see a wall, so still stratified fluid in a container
// does not spin up from the spurious gradient at its sides.
#include "bodies/body_motion.hpp"
#include "core/cell_partition.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// Removes the wall-normal component of the density gradient near walls (fluid.poisoning):
// - hits: at the 8 grid points of the cell of each vorton that hit a wall, for the walls the
//   vorton touches (within its core radius). Variants serial / atomic (compare-and-swap) /
//   partitioned (even then odd z-slabs of `partition`, no atomics) give bitwise identical results.
// - walls: at every grid point inside a body or within fluid.poisonTestRadius of a wall
//   (0 = two grid spacings), for every wall face within that reach.
// Several walls at one point (edges, corners) remove the whole span of their normals. Each normal
// counts only by its part across gravity: the gradient along gravity drives no vorticity, and
// removing it at a curved or tilted wall would leave a horizontal gradient where layers meet it.
void poisonDensityGradient(UniformGrid<vec3>& densityGradient, const std::vector<RigidBody>& bodies,
                           const Vortons& vortons, const CellPartition& partition, const FluidParams& fluid);

}  // namespace vfx
