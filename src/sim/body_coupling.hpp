#pragma once
// Fluid-body coupling (parts 4, 9, 13, 14): particle collisions with momentum exchange,
// no-slip vorticity, the wall fields the fluid phases read, body buoyancy and density-gradient
// poisoning. The Simulation calls these in step order; the bodies themselves (shapes, motion)
// know nothing of the fluid.
#include "bodies/body_motion.hpp"
#include "core/cell_partition.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

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

// Pushes vortons and tracers that penetrate a body back to its surface (1e-4 of its size on the
// fluid side) with the body's surface velocity. At kinematic bodies and containers it also
// reassigns vorton vorticity for no-slip and records the fluid's push on the body (impulse,
// angularImpulse); a dynamic solid only keeps the particles out, its momentum exchange is its
// drag (exchangeDragWithFluid). Race-free, deterministic.
// Details:
// - Kinematic bodies are met at their end-of-step pose (clock + dt), so after this call no
//   particle is outside a container by more than round-off, however fast it moves.
// - Solids are processed before containers, so containers have the last word.
// - Vortons in contact (pushed, or with their core radius overlapping the wall) get the no-slip
//   vorticity (see noSlipVorticity), shared among the vortons on the same wall patch, and record
//   hitWall/hitNormal; the spin angular momentum they gain goes to the body.
// - Tracers are massless (passive): they move but exchange nothing.
// - Vortons in sph/hybrid mode lose the part of their SPH velocity driving into the wall.
void collideParticlesWithBodies(std::vector<RigidBody>& bodies, Vortons& vortons, Tracers& tracers,
                                const FluidParams& fluid, float dt);

// Drag and spin drag between each dynamic solid and the fluid, with the momentum and angular
// momentum the body loses given to the fluid:
// - drag: the sphere drag law (Clift-Gauvin C_d at the body's Reynolds number) on the body's
//   velocity relative to the flow at its centre;
// - spin drag: the rotating-sphere torque law (Stokes' 8 pi mu r^3 Omega below rotational
//   Reynolds number 32, Sawatzki's fit above) on the body's spin relative to the flow's local
//   rotation (half its curl) there;
// both with the body taken as the sphere of its volume, scaled by how much fluid fills a shell of
// `shellThickness` around it, and integrated implicitly (never reversing the relative motion).
// The shell's vortons receive vorticity whose impulse rho0 dI and angular impulse rho0 dA (about
// the origin) are exactly minus the body's changes of momentum and angular momentum, with the
// total vorticity unchanged. A body with fewer than 8 vortons around it exchanges nothing.
// Sets each dynamic solid's addedMass (1/2 rho0 V times the cover), which the drag's implicit
// step and the body's integration count as inertia.
// returnedImpulse (per body, m^4/s, may be empty) is impulse to give back to the fluid around
// the body besides the drag's: what the body's potential flow took from the vortons' impulse
// this step by moving and stretching them (its interaction with the near wake, which the drag law
// already accounts for), so that flow changes where vorticity goes, not how much impulse it holds.
void exchangeDragWithFluid(std::vector<RigidBody>& bodies, Vortons& vortons, const UniformGrid<vec3>& velocity,
                           const FluidParams& fluid, float shellThickness, float dt,
                           const std::vector<dvec3>& returnedImpulse = {});

// The irrotational flow a dynamic solid pushes aside as it moves through the fluid: the potential
// flow of the sphere of its volume moving at its velocity relative to the flow at its centre (W).
// Outside the sphere it is the dipole R^3 / (2 r^3) (3 (W.r^) r^ - W), whose normal velocity at
// the surface is W's (no flow through the body), whose kinetic energy is 1/2 m_a W^2 and whose
// momentum is m_a W, with m_a = 1/2 rho0 V the body's added mass; inside it is W. With partial
// fluid cover (the body's addedMass below 1/2 rho0 V) W is scaled by the cover. Beyond 12 radii,
// where it is below W / 3000, it is left out.
struct PotentialFlow {
    vec3 centre{0.0f};
    float radius = 0.0f;
    vec3 relativeVelocity{0.0f};  // W, m/s
    float addedMass = 0.0f;       // kg
    size_t body = 0;              // index of the body in the list it came from
    double energy() const { return 0.5 * double(addedMass) * double(glm::dot(relativeVelocity, relativeVelocity)); }
    dvec3 momentum() const { return double(addedMass) * dvec3(relativeVelocity); }
};

// One flow per dynamic solid with fluid around it (addedMass > 0, set by exchangeDragWithFluid).
std::vector<PotentialFlow> potentialFlows(const std::vector<RigidBody>& bodies, const UniformGrid<vec3>& velocity,
                                          const FluidParams& fluid);

// Sum of the flows' velocities at a point.
vec3 potentialFlowVelocity(const std::vector<PotentialFlow>& flows, const vec3& x);

// Sum of the flows' velocity gradients at a point (column j holds du/dx_j), for stretching.
mat3 potentialFlowGradient(const std::vector<PotentialFlow>& flows, const vec3& x);

// For each flow, the rate at which it changes the vortons' impulse 1/2 sum x x omega V by moving
// them and stretching their vorticity (the vortices' own flow conserves their impulse).
std::vector<dvec3> impulseRateFromPotentialFlows(const std::vector<PotentialFlow>& flows, const Vortons& vortons);

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

// Removes the wall-normal component of the density gradient near walls (fluid.poisoning):
// - hits: at the 8 grid points of the cell of each vorton that hit a wall, for the walls the
//   vorton touches (within its core radius). Variants serial / atomic (compare-and-swap) /
//   partitioned (even then odd z-slabs of `partition`, no atomics) give bitwise identical results.
// - walls: at every grid point inside a body or within fluid.poisonTestRadius of a wall
//   (0 = two grid spacings), for every wall face within that reach.
// Several walls at one point (edges, corners) remove the whole span of their normals.
void poisonDensityGradient(UniformGrid<vec3>& densityGradient, const std::vector<RigidBody>& bodies,
                           const Vortons& vortons, const CellPartition& partition, const FluidParams& fluid);

// --- building block of the functions above (also used by tests) ---

// Vorton vorticity after a wall contact: the normal part is kept, the tangential part becomes
// the no-slip wall sheet gamma = n x (u - u_wall) carried over the vorton's share of the wall,
// omega_t = gamma / V^(1/3) (V the vorton volume).
vec3 noSlipVorticity(const vec3& vorticity, const vec3& normalIntoFluid, const vec3& slip, float sigma);

}  // namespace vfx
