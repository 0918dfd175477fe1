#pragma once
// Vortex stretching and tilting, d(omega)/dt = M omega with M = grad u in the form
// fluid.stretching_scheme names (classic (omega . grad) u, its transpose, or their mean), one
// sub-step for every vorton.
//   explicit:     omega += dt (a M_n omega_n + b M_n-1 omega_n-1), the two-step Adams-Bashforth rule
//                 (Euler without adams_bashforth); stable while max|grad u| dt stays below about 1.
//   exponential:  omega = exp(dt M_half) omega, M_half the matrix extrapolated to the sub-step's
//                 middle from this sub-step's and the last one's (second-order Magnus; Blanes,
//                 Casas, Oteo & Ros, Phys. Rep. 470, 2009). Exact for a frozen gradient, so a
//                 rotating or compressing strain never grows omega however long the sub-step.
#include "sim/params.hpp"
#include "sim/particles.hpp"
#include "sim/potential_flow.hpp"
#include "sim/time_integration.hpp"

#include <vector>

namespace vfx {

struct StretchingInputs {
    const std::vector<mat3>& gradient;         // grad u at each vorton, column j = du/dx_j, 1/s
    const std::vector<PotentialFlow>& pushed;  // flows moving bodies push aside
    StretchingScheme scheme;
    StretchingIntegrator integrator;
    bool twoStep;  // fluid.adams_bashforth
    // Stretch the vorticity the velocity solver sees (curl u at the vorton) instead of the vorton's
    // own: the box solver's wall images cancel a wall-hugging vorton's tangential vorticity, which
    // then induces no flow and would grow under stretching with nothing to check it.
    bool stretchResolvedVorticity = false;
};

// M of d(omega)/dt = M omega for the scheme, from J (column j = du/dx_j, so J omega = (omega . grad) u).
mat3 stretchingMatrix(StretchingScheme scheme, const mat3& j);

void stretchVortons(const StretchingInputs& in, Vortons& vortons, MotionHistory& history, float dt);

}  // namespace vfx
