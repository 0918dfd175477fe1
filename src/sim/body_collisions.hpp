#pragma once
// Particles colliding with bodies and containers (parts 4, 14): vortons and tracers pushed out
// of bodies, the no-slip vorticity of vortons in contact with a wall, and the momentum they hand
// to bodies that do not yield.
#include "bodies/body_motion.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// Pushes vortons and tracers that penetrate a body back to its surface (1e-4 of its size on the
// fluid side) with the body's surface velocity. At kinematic bodies and containers it also
// reassigns vorton vorticity for no-slip and records the fluid's push on the body (impulse,
// angularImpulse); a dynamic solid only keeps the particles out, its momentum exchange is its
// drag (exchangeDragWithFluid). Race-free, deterministic.
// Details:
// - Kinematic bodies are met at their end-of-step pose (clock + dt), so after this call no
//   particle is outside a container by more than round-off, however fast it moves.
// - Solids are processed before containers, so containers have the last word.
// - Vortons in contact (pushed, or with their core radius overlapping the wall) carry the no-slip
//   wall sheet (see wallSheetVorticity), shared among the vortons on the same wall patch, in place
//   of the sheet they carried from the last step (Vortons::wallSheet), and record
//   hitWall/hitNormal; the spin angular momentum they gain goes to the body.
// - Tracers are massless (passive): they move but exchange nothing.
// - Vortons in sph/hybrid mode lose the part of their SPH velocity driving into the wall.
void collideParticlesWithBodies(std::vector<RigidBody>& bodies, Vortons& vortons, Tracers& tracers,
                                const FluidParams& fluid, float dt);

// The no-slip wall sheet gamma = n x (u - u_wall) carried over a vorton's share of the wall, as
// the tangential vorticity it adds: gamma / V^(1/3) (V the vorton volume, sigma its contact
// radius). A building block of collideParticlesWithBodies.
vec3 wallSheetVorticity(const vec3& normalIntoFluid, const vec3& slip, float sigma);

}  // namespace vfx
