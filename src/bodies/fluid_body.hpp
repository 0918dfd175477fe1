#pragma once
// Fluid-body interaction (parts 4, 9, 13, 14): contact geometry, particle collisions with
// momentum exchange, body buoyancy, body integration and density-gradient poisoning.
// Owned by src/bodies; the Simulation calls these in step order.
#include "bodies/body.hpp"
#include "core/cell_partition.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// Signed distance from a world point to the body's fluid boundary: positive where the point
// is free (outside a solid, inside a hole's cavity), negative when penetrating.
// normalIntoFluid (optional) gets the unit contact normal pointing from the wall into the fluid.
float contactDistance(const RigidBody& body, const vec3& worldPoint, vec3* normalIntoFluid = nullptr);

// Signed distance of each position to the nearest body surface, capped at maxProximity.
void computeWallProximity(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions,
                          float maxProximity, std::vector<float>& proximity);

// Pushes vortons and tracers that penetrate a body back to its surface with the body's surface
// velocity, reassigns vorton vorticity for no-slip, and accumulates the momentum change on the
// body (impulse, angularImpulse). Records hitWall/hitNormal for vortons. Race-free, deterministic.
void collideParticlesWithBodies(std::vector<RigidBody>& bodies, Vortons& vortons, Tracers& tracers,
                                const FluidParams& fluid, float dt);

// Displaced mass of a body sampled from the density-deviation grid (ambient where uncovered).
float displacedMass(const RigidBody& body, const UniformGrid<float>& densityDeviation,
                    const FluidParams& fluid);

// Adds gravity minus buoyancy, g (m_body - m_displaced), to each dynamic body's force.
void applyBuoyancyAndGravity(std::vector<RigidBody>& bodies, const UniformGrid<float>& densityDeviation,
                             const FluidParams& fluid);

// Integrates dynamic bodies (forces, impulses, torques) and poses kinematic ones at time t+dt.
void integrateBodies(std::vector<RigidBody>& bodies, double timeAfterStep, float dt);

// Removes the wall-normal component of the density gradient near walls (fluid.poisoning).
void poisonDensityGradient(UniformGrid<vec3>& densityGradient, const std::vector<RigidBody>& bodies,
                           const Vortons& vortons, const CellPartition& partition, const FluidParams& fluid);

}  // namespace vfx
