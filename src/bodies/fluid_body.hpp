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
void computeWallProximity(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions, float maxProximity,
                          std::vector<float>& proximity);

// Share of an SPH kernel of support h at each position that lies in fluid rather than in a body
// (1 away from walls): the product over bodies of each body's share. A container's share is the
// product over its faces of the flat-wall share, so edges and corners count every wall; a
// solid polytope misses the product of its faces' complements (the kernel inside all its
// half-spaces); spheres use the flat-wall share at their surface distance. Clamped at >= 0.05.
void computeWallKernelShare(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions, float h,
                            std::vector<float>& share);

// Pushes vortons and tracers that penetrate a body back to its surface (1e-4 of its size on the
// fluid side) with the body's surface velocity, reassigns vorton vorticity for no-slip, and
// accumulates the momentum change on the body (impulse, angularImpulse). Race-free, deterministic.
// Details:
// - Kinematic bodies are met at their end-of-step pose (clock + dt), so after this call no
//   particle is outside a container by more than round-off, however fast it moves.
// - Solids are processed before containers, so containers have the last word.
// - Vortons in contact (pushed, or with their core radius overlapping the wall) get the no-slip
//   vorticity (see noSlipVorticity), shared among the vortons on the same wall patch, and record
//   hitWall/hitNormal; the spin angular momentum they gain goes to the body.
// - Momentum exchange with a dynamic body is perfectly inelastic and implicit: the body and the
//   pushed vortons (mass (rho0 + rho') V) end with one rigid motion conserving their linear and
//   angular momentum. Tracers are massless (passive): they move but exchange nothing.
// - Vortons in sph/hybrid mode lose the part of their SPH velocity driving into the wall.
void collideParticlesWithBodies(std::vector<RigidBody>& bodies, Vortons& vortons, Tracers& tracers,
                                const FluidParams& fluid, float dt);

// Displaced mass of a body sampled from the density-deviation grid at its centre and one
// "radius" (its reach along gravity) below and above, averaged (ambient where the grid does not
// cover a sample), plus the ambient density, times the body volume. 0 for containers.
float displacedMass(const RigidBody& body, const UniformGrid<float>& densityDeviation, const FluidParams& fluid);

// Adds gravity minus buoyancy, g (m_body - m_displaced), to each dynamic body's force.
void applyBuoyancyAndGravity(std::vector<RigidBody>& bodies, const UniformGrid<float>& densityDeviation,
                             const FluidParams& fluid);

// Integrates dynamic bodies (forces, impulses, torques) and poses kinematic ones at time t+dt.
// A dynamic body whose centre was inside a container's cavity is then kept wholly inside it:
// pushed back through any wall it crosses, losing its velocity out through that wall relative
// to the wall (inelastic contact; no friction or spin).
void integrateBodies(std::vector<RigidBody>& bodies, double timeAfterStep, float dt);

// Removes the wall-normal component of the density gradient near walls (fluid.poisoning):
// - hits: at the 8 grid points of the cell of each vorton that hit a wall, for the walls the
//   vorton touches (within its core radius). Variants serial / atomic (compare-and-swap) /
//   partitioned (even then odd z-slabs of `partition`, no atomics) give bitwise identical results.
// - walls: at every grid point inside a body or within fluid.poisonTestRadius of a wall
//   (0 = two grid spacings), for every wall face within that reach.
// Several walls at one point (edges, corners) remove the whole span of their normals.
void poisonDensityGradient(UniformGrid<vec3>& densityGradient, const std::vector<RigidBody>& bodies,
                           const Vortons& vortons, const CellPartition& partition, const FluidParams& fluid);

// --- building blocks of the functions above (also used by tests and benchmarks) ---

// Contact of a world point with a body (world frame): distance as contactDistance, the unit
// normal into the fluid, the contact point on the surface and the face index (-1: sphere).
struct BodyContact {
    float distance = 0.0f;
    vec3 normal{0.0f, 1.0f, 0.0f};
    vec3 point{0.0f};
    int feature = -1;
};
BodyContact contactWithBody(const RigidBody& body, const vec3& worldPoint);

// Broad phase (part 14): can a world point come within `reach` of the body's surface? Solids:
// inside the circumscribed sphere grown by reach; holes: outside the inscribed sphere shrunk by it.
bool mayTouchBody(const RigidBody& body, const vec3& worldPoint, float reach);

// Collision distance of a moving world point (world velocity): solids count only the faces
// the point moves deeper through relative to the body; holes count every face (part 14).
float collisionDistance(const RigidBody& body, const vec3& worldPoint, const vec3& worldVelocity,
                        vec3* normalIntoFluid = nullptr);

// Pose and velocities of a kinematic body at time t: rest pose, plus drift velocity * t, plus
// amplitude * sin(2 pi t / period), rotated by angularAmplitude * sin(2 pi t / period).
void setKinematicPose(RigidBody& body, double time);

// g minus its components along the span of the normals (Gram-Schmidt in the given order, so a
// corner removes both walls' components and repeated normals change nothing).
vec3 removeNormalComponents(const vec3& g, const vec3* normals, size_t count);

// Vorton vorticity after a wall contact: the normal part is kept, the tangential part becomes
// the no-slip wall sheet gamma = n x (u - u_wall) carried over the vorton's share of the wall,
// omega_t = gamma / V^(1/3) (V the vorton volume).
vec3 noSlipVorticity(const vec3& vorticity, const vec3& normalIntoFluid, const vec3& slip, float sigma);

}  // namespace vfx
