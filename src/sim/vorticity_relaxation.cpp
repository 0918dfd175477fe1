#include "sim/vorticity_relaxation.hpp"

#include "core/neighbour_search.hpp"
#include "sim/remesh_totals.hpp"

#include <cmath>

namespace vfx {

float relaxationFraction(float rate, float dt) { return rate > 0.0f ? -std::expm1(-rate * dt) : 0.0f; }

vec3 curlOfGradient(const mat3& g) { return {g[1][2] - g[2][1], g[2][0] - g[0][2], g[0][1] - g[1][0]}; }

namespace {

// The part of omega across the resolved direction shrinks by `fraction`; the part along it, with its
// sign, stays (a remeshed node's negative M4' share is not turned into new circulation).
vec3 turnedToward(const vec3& omega, const vec3& resolved, float fraction) {
    const float resolvedLength = glm::length(resolved);
    if (!(resolvedLength > 0.0f)) return omega;
    const vec3 along = resolved / resolvedLength;
    const vec3 parallel = glm::dot(omega, along) * along;
    return parallel + (1.0f - fraction) * (omega - parallel);
}

}  // namespace

void relaxTowardResolvedVorticity(const std::vector<mat3>& gradient, float fraction, Vortons& v) {
    if (!(fraction > 0.0f)) return;
    const VortonTotals before = vortonTotals(v);
    parallelForEachStable(
        0, v.size(),
        [&](size_t i) { v.vorticity[i] = turnedToward(v.vorticity[i], curlOfGradient(gradient[i]), fraction); }, 2048);
    restoreTotals(v, before);
}

}  // namespace vfx
