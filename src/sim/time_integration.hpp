#pragma once
// The Adams-Bashforth rules the sub-steps integrate with: their weights for a variable step, the
// rates of the last sub-steps they need, and the velocity a particle moves with (two-step, or the
// midpoint rule when there is no last rate). Stretching and advection share the two-step rule;
// the vortons' move may take the three-step one (fluid.advection_integrator three_step).
#include "core/math.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// Rates of the last sub-step, per particle, for the two-step rule (the vortons' last two for the
// three-step rule). Valid only for the particle set they were taken on: a remesh, a reset or a
// change of count drops them.
struct MotionHistory {
    std::vector<vec3> vortonVelocity;        // vortex velocity at each vorton, m/s
    std::vector<vec3> vortonVelocityBefore;  // the sub-step before's (three-step rule), m/s
    std::vector<vec3> stretching;            // d(omega)/dt from stretching and tilting, 1/s^2
    std::vector<mat3> stretchingMatrix;      // M of d(omega)/dt = M omega (exponential stretching), 1/s
    std::vector<vec3> tracerVelocity;        // m/s
    std::vector<vec3> tracerVelocityBefore;  // the sub-step before's (three-step rule), m/s
    float dt = 0.0f;                         // the sub-step they were used for, s; 0 = none
    float dtBefore = 0.0f;                   // the sub-step before it (vortonVelocityBefore's), s

    // The lengths of the last two sub-steps, as the rules read them.
    struct PastSteps {
        float dt = 0.0f, dtBefore = 0.0f;  // s; 0 = none
    };
    PastSteps pastSteps() const { return {dt, dtBefore}; }

    // The vortons' rates only (a remesh makes new vortons): the tracers are the same particles
    // in a flow that is continuous across the remesh, so they keep their last velocity and the
    // two-step rule (without it they would take the midpoint rule, a second lookup each).
    void clearVortons() {
        clearVortonVelocities();
        clearStretching();
    }
    void clearVortonVelocities() {
        vortonVelocity.clear();
        vortonVelocityBefore.clear();
    }
    void clearTracerVelocities() {
        tracerVelocity.clear();
        tracerVelocityBefore.clear();
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
    float beforePrevious = 0.0f;  // f_n-2's, three-step rule only
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

// The three-step rule for a step dt after steps h1 (last) and h2 (the one before): 3/5 of the
// two-step rule plus 2/5 of the three-step Adams-Bashforth rule, both for variable steps. At equal
// steps its weights are 5/3, -5/6, 1/6. Second order like the two-step rule, but a particle
// circling at theta radians a step keeps its orbit: its radius grows 1 + theta^4 / 4 a step
// under the two-step rule (0.24% at 0.3 rad), 1 + O(theta^6) here (0.007% at 0.3, 0.06% at 0.42).
// The price is a stability bound 0.75 instead of 1 on the negative real axis (compression). The
// velocity gradient's real eigenvalues, summing to zero, are at most sqrt(2/3) of its Frobenius
// norm, so the caller keeps the rule to sub-steps with max|grad u|_F dt <= kThreeStepStrainLimit
// (fastest compression 0.69 a step, where its largest root is 0.92). Without a usable step
// before, the two-step rule.
constexpr float kThreeStepStrainLimit = 0.85f;
inline StepWeights threeStepWeights(float dt, float h1, float h2) {
    const StepWeights two = adamsBashforthWeights(true, dt, h1);
    if (!two.twoStep() || !(h2 > 0.0f) || h1 > kLargestStepRatio * h2) return two;
    // The quadratic through f at 0, -h1 and -(h1 + h2), averaged over [0, dt].
    const float t2 = dt * dt / 3.0f, t1 = 0.5f * dt;
    const float w0 = (t2 + (2.0f * h1 + h2) * t1 + h1 * (h1 + h2)) / (h1 * (h1 + h2));
    const float w1 = -(t2 + (h1 + h2) * t1) / (h1 * h2);
    const float w2 = (t2 + h1 * t1) / ((h1 + h2) * h2);
    constexpr float share = 0.4f;  // of the three-step Adams-Bashforth rule: cancels the theta^4 term
    return {(1.0f - share) * two.current + share * w0, (1.0f - share) * two.previous + share * w1, share * w2};
}

// A vorton a wall moved in the last collision pass: its last rate belongs to where it was
// before the wall put it back, so it takes the one-step rule.
inline bool movedByWall(const Vortons& v, size_t i) { return v.hitWall.size() == v.size() && v.hitWall[i]; }

// Velocity a particle at x moves with for a step dt: the two-step rule from its velocity in the
// field now and last sub-step's (`previous`, replaced by now's), else the midpoint rule in the
// frozen field. With `before` (the rate before the last, replaced by the last) the three-step
// weights' third term is added.
template <class Flow>
vec3 stepVelocityFrom(const vec3& now, const Flow& flow, const vec3& x, float dt, StepWeights w, vec3& previous,
                      vec3* before = nullptr) {
    vec3 v = w.twoStep() ? w.current * now + w.previous * previous : flow(x + 0.5f * dt * now);
    if (before) {
        v += w.beforePrevious * *before;
        *before = previous;
    }
    previous = now;
    return v;
}

}  // namespace vfx
