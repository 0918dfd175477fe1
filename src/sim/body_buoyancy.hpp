#pragma once
// Body buoyancy (part 9): the fluid mass a body displaces, gravity minus buoyancy on dynamic
// bodies, and the fluid's density filled into the place a solid empties in the buoyancy field.
#include "bodies/body_motion.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"

#include <vector>

namespace vfx {

// Fills a solid body's place in the buoyancy field (the vortons' mean density deviation) with
// the fluid's density around it: inside the body and within one and a half grid spacings of its
// surface, where the collisions leave no fluid to cover the grid. Without it the emptied place
// reads as ambient fluid, a bubble in heavy fluid, and its baroclinic source stirs the fluid
// around a body that should float still. The scales are those the field around was given
// (Simulation's keepDepositedMass), so the filled place matches it.
void fillSolidsWithSurroundingDensity(UniformGrid<float>& meanDeviation, const std::vector<RigidBody>& bodies,
                                      const UniformGrid<float>& deposit, const UniformGrid<float>& coverage,
                                      const FluidParams& fluid, float heavyScale = 1.0f, float lightScale = 1.0f);

// Displaced mass of a body: the body volume times the fluid density around it. With the
// deposit's coverage grid (vorton volume per cell volume) the density is read on the body's
// fluid side, one and a half grid spacings beyond its surface above, below and around it, as
// deposited mass over covering volume, so neither the interior the collisions empty nor points
// outside the fluid bias it, and a linear stratification averages to its value at the centre.
// Without it (Gourlay's part 9): the deposit at the centre and one reach below and above,
// averaged. 0 for containers.
float displacedMass(const RigidBody& body, const UniformGrid<float>& densityDeviation, const FluidParams& fluid,
                    const UniformGrid<float>* coverage = nullptr);

// Adds gravity minus buoyancy, g (m_body - m_displaced), to each dynamic body's force.
void applyBuoyancyAndGravity(std::vector<RigidBody>& bodies, const UniformGrid<float>& densityDeviation,
                             const FluidParams& fluid, const UniformGrid<float>* coverage = nullptr);

}  // namespace vfx
