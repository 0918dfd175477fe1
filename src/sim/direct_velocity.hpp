#pragma once
// Velocity from vorticity by direct summation (the Biot-Savart law with a Rankine-like core):
//   u(x) = 1/(4 pi) sum_i (omega_i V_i) x r_i / max(|r_i|, sigma_i)^3,  r_i = x - x_i.
// O(N M) for N vortons and M points: the accuracy reference of the tree (velocity_solver.hpp).
#include "core/math.hpp"
#include "sim/particles.hpp"

#include <algorithm>
#include <vector>

namespace vfx {

// Velocity induced at x by one vorton of strength alpha = omega V at xi with core radius sigma.
inline vec3 vortonVelocity(const vec3& x, const vec3& xi, const vec3& alpha, float sigma) {
    const vec3 r = x - xi;
    const float dist = std::max(glm::length(r), sigma);
    const float inv = 1.0f / (4.0f * kPi * dist * dist * dist);
    return glm::cross(alpha, r) * inv;
}

// Velocity at each point, summed over every vorton.
void directVelocity(const Vortons& vortons, const std::vector<vec3>& points, std::vector<vec3>& out);

}  // namespace vfx
