#pragma once
// The rates of subgrid-scale eddy viscosity models: nu_t = (C Delta)^2 D(grad u), with Delta the width of
// the filter the vortons see the flow through and D a rate (1/s) built from the resolved
// velocity gradient. They differ in which flows they leave alone:
//   smagorinsky  D = |S| = sqrt(2 S:S) (Smagorinsky 1963): every strained flow, laminar or not.
//   vreman       D = sqrt(B_beta / a:a) (Vreman 2004): zero where grad u has rank one (pure shear).
//   wale         D from the traceless square of grad u (Nicoud & Ducros 1999): zero in pure shear,
//                but not in solid rotation.
//   sigma        D = s3 (s1 - s2)(s2 - s3) / s1^2 from the singular values s1 >= s2 >= s3 of
//                grad u (Nicoud, Baya Toda, Cabrit, Bose & Lee 2011): zero in any two-component
//                flow, pure shear, solid rotation and isotropic expansion, so a laminar vortex
//                core (locally a planar swirl) is left alone while three-dimensional,
//                turbulent gradients are drained.
// All are scaled from one strength, the Smagorinsky-equivalent C_s: each model's constant is
// the one its authors calibrated on decaying isotropic turbulence against Smagorinsky's 0.165.
#include "core/math.hpp"

namespace vfx {

// Each takes grad u with column j holding du/dx_j (GLM column-major: g[j][i] = du_i/dx_j) and
// returns the model's rate D times its constant over Smagorinsky's, so that
// nu_t = (C_s Delta)^2 * rate, in 1/s.
float smagorinskyRate(const mat3& g);
float vremanRate(const mat3& g);
float waleRate(const mat3& g);
float sigmaRate(const mat3& g);
// Singular values of g, largest first.
vec3 singularValues(const mat3& g);

}  // namespace vfx
