#pragma once
// The two-step Adams-Bashforth rule the sub-steps integrate with: its weights for a variable step,
// the rates of the last sub-step it needs, and the velocity a particle moves with (two-step, or
// the midpoint rule when there is no last rate). Stretching and advection share them.
#include "core/math.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// Rates of the last sub-step, per particle, for the two-step rule. Valid only for the particle
// set they were taken on: a remesh, a reset or a change of count drops them.
struct MotionHistory {
    std::vector<vec3> vortonVelocity;    // vortex velocity at each vorton, m/s
    std::vector<vec3> stretching;        // d(omega)/dt from stretching and tilting, 1/s^2
    std::vector<mat3> stretchingMatrix;  // M of d(omega)/dt = M omega (exponential stretching), 1/s
    std::vector<vec3> tracerVelocity;    // m/s
    float dt = 0.0f;                     // the sub-step they were used for, s; 0 = none

    // The vortons' rates only (a remesh makes new vortons): the tracers are the same particles
    // in a flow that is continuous across the remesh, so they keep their last velocity and the
    // two-step rule (without it they would take the midpoint rule, a second lookup each).
    void clearVortons() {
        vortonVelocity.clear();
        clearStretching();
    }
    void clearStretching() {
        stretching.clear();
        stretchingMatrix.clear();
    }
};

// Weights of x += dt (current f_n + previous f_n-1): the variable-step two-step Adams-Bashforth
// rule for a step dt after one of previousDt (second order), or the one-step rule without one.
struct StepWeights {
    float current = 1.0f;
    float previous = 0.0f;
    bool twoStep() const { return previous != 0.0f; }
};

// A step more than twice the last one extrapolates the old rate too far (the weight of f_n-1
// grows with the ratio): such a step, rare (a frame's sub-step count halving), is one-step.
constexpr float kLargestStepRatio = 2.0f;

inline StepWeights adamsBashforthWeights(bool twoStep, float dt, float previousDt) {
    if (!twoStep || !(previousDt > 0.0f) || dt > kLargestStepRatio * previousDt) return {};
    const float r = dt / previousDt;
    return {1.0f + 0.5f * r, -0.5f * r};
}

// A vorton a wall moved in the last collision pass: its last rate belongs to where it was
// before the wall put it back, so it takes the one-step rule.
inline bool movedByWall(const Vortons& v, size_t i) { return v.hitWall.size() == v.size() && v.hitWall[i]; }

// Velocity a particle at x moves with for a step dt: the two-step rule from its velocity in the
// field now and last sub-step's (`previous`, replaced by now's), else the midpoint rule in the
// frozen field.
template <class Flow>
vec3 stepVelocityFrom(const vec3& now, const Flow& flow, const vec3& x, float dt, StepWeights w, vec3& previous) {
    const vec3 v = w.twoStep() ? w.current * now + w.previous * previous : flow(x + 0.5f * dt * now);
    previous = now;
    return v;
}

}  // namespace vfx
