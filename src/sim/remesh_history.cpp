#include "sim/remesh_history.hpp"

#include "core/neighbour_search.hpp"

namespace vfx {

namespace {

vec3 velocityAt(const LastSubstepFlow& flow, const vec3& x) {
    const vec3 u = flow.velocity.interpolate(x);
    return flow.pushed.empty() ? u : u + potentialFlowVelocity(flow.pushed, x);
}

}  // namespace

void carryVelocityAcrossRemesh(const LastSubstepFlow& flow, const Vortons& vortons, MotionHistory& history) {
    history.clearStretching();
    history.vortonVelocityBefore.clear();  // one past rate is carried: the two-step rule next
    carryVelocityToNewVortons(flow, vortons, 0, history);
}

void carryVelocityToNewVortons(const LastSubstepFlow& flow, const Vortons& vortons, size_t first,
                               MotionHistory& history) {
    const float dt = history.dt;
    history.vortonVelocity.resize(vortons.size());
    parallelForEachStable(
        first, vortons.size(),
        [&](size_t i) {
            const vec3 x = vortons.position[i];
            // Where this fluid was a sub-step ago (second order: the step back with the velocity
            // half-way, from a first guess with the velocity here).
            const vec3 guess = x - dt * velocityAt(flow, x);
            const vec3 before = x - dt * velocityAt(flow, 0.5f * (x + guess));
            const bool inFluid = !flow.inFluid || (flow.inFluid(guess) && flow.inFluid(before));
            history.vortonVelocity[i] = velocityAt(flow, inFluid ? before : x);
        },
        2048);
}

void carryHistoryAcrossRemesh(const FluidParams& fluid, size_t countBefore, const LastSubstepFlow& flow,
                              const Vortons& vortons, MotionHistory& history) {
    const bool ranTwoStep = fluid.adamsBashforth && history.dt > 0.0f && history.vortonVelocity.size() == countBefore &&
                            flow.velocity.size() > 0;
    if (ranTwoStep)
        carryVelocityAcrossRemesh(flow, vortons, history);
    else
        history.clearVortons();  // new particles have no past
}

}  // namespace vfx
