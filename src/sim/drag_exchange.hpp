#pragma once
// Drag between dynamic solids and the fluid, with the momentum the body loses given to the fluid
// as vorticity in a shell around it (part 4's momentum balance: the fluid gains as vortex impulse
// what the body loses).
#include "bodies/body_motion.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// Drag and spin drag between each dynamic solid and the fluid, with the momentum and angular
// momentum the body loses given to the fluid:
// - drag: the sphere drag law (Clift-Gauvin C_d at the body's Reynolds number) on the body's
//   velocity relative to the flow at its centre;
// - spin drag: the rotating-sphere torque law (Stokes' 8 pi mu r^3 Omega below rotational
//   Reynolds number 32, Sawatzki's fit above) on the body's spin relative to the flow's local
//   rotation (half its curl) there;
// both with the body taken as the sphere of its volume, scaled by how much fluid surrounds it in a
// shell of `shellThickness` (vortex particles: the share of the shell the walls leave to fluid;
// SPH and hybrid: the particles' volume there), and integrated implicitly (never reversing the
// relative motion).
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

}  // namespace vfx
