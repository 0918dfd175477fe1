#pragma once
// Relaxation of each vorton's vorticity toward the direction of the resolved field's, curl u of
// the grid velocity (after Pedrizzetti 1992 and Alvarez & Ning 2022, "Reviving the vortex
// particle method"; their form turns omega onto curl u keeping |omega|, which would turn the
// negative M4' shares beside a remeshed core into new circulation, so here only the part of omega
// across curl u decays and the part along it, sign included, stays). The particles' vorticity drifts away from the curl of
// the velocity it induces (the particle field stops being divergence-free); stretching in the
// transpose form then precesses each vorton about the resolved vorticity and amplifies the
// misaligned part. Damping the part of omega across curl u at `rate` removes that part only: a
// coherent vortex, whose vortons already point along its resolved vorticity, is left as it is.
#include "core/math.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// Share of the misalignment one sub-step of dt removes at `rate` (1/s): 1 - exp(-rate dt).
float relaxationFraction(float rate, float dt);

// The part of omega_i across curl u_i shrinks by `fraction` (0..1), the part along it stays;
// gradient[i] is grad u at vorton i (column j = du/dx_j). Vortons with no resolved vorticity are
// left alone. Total vorticity and linear impulse are then restored with the least correction
// (sim/remesh_totals), so the relaxation conserves what the inviscid flow conserves.
void relaxTowardResolvedVorticity(const std::vector<mat3>& gradient, float fraction, Vortons& vortons);

// curl u from grad u (column j = du/dx_j), 1/s.
vec3 curlOfGradient(const mat3& gradient);

}  // namespace vfx
