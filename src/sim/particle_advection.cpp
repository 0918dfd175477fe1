#include "sim/particle_advection.hpp"

#include "core/neighbour_search.hpp"  // parallelForEachStable
#include "core/parallel.hpp"
#include "sim/exponential_advection.hpp"
#include "sim/grid_lookups.hpp"

#include <stdexcept>

namespace vfx {

// (parallelForEachStable: one compiled copy of the arithmetic, so FMA contraction cannot make
// results depend on the thread count.)
void GridFlowAdvection::moveTracers(const StepFlow& flow, Tracers& tracers, MotionHistory& history, float dt) {
    const size_t n = tracers.size();
    const bool twoStep = flow.adamsBashforth && history.tracerVelocity.size() == n;
    const bool threeStep =
        twoStep && flow.threeStep && flow.threeStepAllowed && history.tracerVelocityBefore.size() == n;
    const StepWeights w =
        threeStep ? threeStepWeights(dt, history.dt, history.dtBefore) : adamsBashforthWeights(twoStep, dt, history.dt);
    // The three-step rule keeps the rate before the last one too, where there is a last one.
    const bool keepBefore = twoStep && flow.threeStep;
    history.tracerVelocityBefore.resize(keepBefore ? n : 0);
    history.tracerVelocity.resize(n);
    // One pass over the (many) tracers: one lookup gives the velocity and the colour.
    packFlowAndDensity(flow);
    const UniformGrid<FlowAndDensity>& packed = packed_;
    if (w.twoStep() && flow.pushed.empty() && !packed.shape().anyFlatAxis()) {
        // The common sub-step: one lookup per tracer, eight tracers' stencils at a time.
        advanceTracersTwoStep(packed, TwoStepWeights{w.current, w.previous, w.beforePrevious}, dt, tracers,
                              history.tracerVelocity, keepBefore ? &history.tracerVelocityBefore : nullptr);
        return;
    }
    const auto velocityAt = [&](const vec3& x) { return flow.velocityAt(x); };
    parallelForEachStable(
        0, tracers.size(),
        [&](size_t i) {
            const vec3 x = tracers.position[i];
            const FlowAndDensity found = packed.interpolate(x);
            vec3 now(found[0], found[1], found[2]);
            if (!flow.pushed.empty()) now += potentialFlowVelocity(flow.pushed, x);
            tracers.density[i] = found[3];
            const vec3 last = history.tracerVelocity[i];
            vec3 v = stepVelocityFrom(now, velocityAt, x, dt, w, history.tracerVelocity[i]);
            if (keepBefore) {
                v += w.beforePrevious * history.tracerVelocityBefore[i];
                history.tracerVelocityBefore[i] = last;
            }
            tracers.velocity[i] = v;
            tracers.position[i] = x + dt * v;
        },
        4096);
}

// The velocity and density grids side by side on the step's grid (both are laid on it every
// sub-step, after the velocity and density phases).
void GridFlowAdvection::packFlowAndDensity(const StepFlow& flow) {
    UniformGrid<FlowAndDensity>& packed = packed_;
    packed.reshape(flow.grid);  // every point is written below
    if (flow.velocity.size() != packed.size() || flow.density.size() != packed.size())
        throw std::logic_error("advection: the velocity and density grids are not on the step's grid");
    parallelForEach(
        0, packed.size(),
        [&](size_t k) {
            const vec3 u = flow.velocity[k];
            packed[k] = FlowAndDensity{u.x, u.y, u.z, flow.density[k]};
        },
        8192);
}

void GridFlowAdvection::moveVortons(const StepFlow& flow, VortonVelocity velocity, Vortons& vortons,
                                    MotionHistory& history, float dt) {
    const bool twoStep = flow.adamsBashforth && history.vortonVelocity.size() == vortons.size();
    const bool threeStep =
        twoStep && flow.threeStep && flow.threeStepAllowed && history.vortonVelocityBefore.size() == vortons.size();
    const StepWeights w =
        threeStep ? threeStepWeights(dt, history.dt, history.dtBefore) : adamsBashforthWeights(twoStep, dt, history.dt);
    // The three-step rule keeps the rate before the last one too, where there is a last one.
    const bool keepBefore = twoStep && flow.threeStep;
    history.vortonVelocityBefore.resize(keepBefore ? vortons.size() : 0);
    history.vortonVelocity.resize(vortons.size());
    // The grid's velocity at every vorton, looked up for all of them at once.
    std::vector<vec3>& gridFlow = flowAtVortons_;
    if (velocity.vortex) interpolateAtPoints(flow.velocity, vortons.position, gridFlow);
    const std::vector<PotentialFlow>& pushed = flow.pushed;
    const bool exponential = velocity.vortex && flow.gradientAtVortons;
    if (exponential) moveExponentially(flow, vortons, history, w, dt);
    const auto velocityAt = [&](const vec3& x) { return flow.velocityAt(x); };
    parallelForEachStable(
        0, vortons.size(),
        [&](size_t i) {
            const vec3 x = vortons.position[i];
            vec3 v(0.0f);
            if (exponential) {
                v = exponentialVelocity_[i];
            } else if (velocity.vortex) {
                const vec3 now = pushed.empty() ? gridFlow[i] : gridFlow[i] + potentialFlowVelocity(pushed, x);
                const StepWeights use = movedByWall(vortons, i) ? StepWeights{} : w;
                if (keepBefore) {
                    const vec3 last = history.vortonVelocity[i];
                    v = stepVelocityFrom(now, velocityAt, x, dt, use, history.vortonVelocity[i]);
                    v += use.beforePrevious * history.vortonVelocityBefore[i];
                    history.vortonVelocityBefore[i] = last;
                } else {
                    v = stepVelocityFrom(now, velocityAt, x, dt, use, history.vortonVelocity[i]);
                }
            }
            if (velocity.sph) v += vortons.sphVelocity[i];
            vortons.velocity[i] = v;
            vortons.position[i] = x + dt * v;
        },
        2048);
    if (!velocity.vortex) history.clearVortonVelocities();  // nothing recorded: no past to use later
    history.dtBefore = history.dt;
    history.dt = dt;
}

// The exponential move's velocities for every vorton, eight at a time (sim/exponential_advection):
// the flow at each (the grid's plus what moving bodies push aside).
void GridFlowAdvection::moveExponentially(const StepFlow& flow, const Vortons& vortons, MotionHistory& history,
                                          StepWeights w, float dt) {
    std::vector<vec3>& now = flowAtVortons_;
    if (!flow.pushed.empty())
        parallelForEach(
            0, vortons.size(), [&](size_t i) { now[i] += potentialFlowVelocity(flow.pushed, vortons.position[i]); },
            1024);
    exponentialMoveVelocities({now, *flow.gradientAtVortons, vortons.hitWall, w.twoStep(), history.dt, dt},
                              history.vortonVelocity, exponentialVelocity_);
}

}  // namespace vfx
