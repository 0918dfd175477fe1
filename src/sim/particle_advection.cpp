#include "sim/particle_advection.hpp"

#include "core/neighbour_search.hpp"  // parallelForEachStable
#include "core/parallel.hpp"
#include "sim/grid_lookups.hpp"
#include "sim/linear_flow_step.hpp"

#include <stdexcept>

namespace vfx {

namespace {

// The velocity of the exponential move (sim/linear_flow_step.hpp) over dt. The flow's change in
// time at a fixed point is what the change along the path since the last sub-step leaves after
// the move through the gradient: g = (u_n - exp(J dt_n-1) u_n-1) / dt_n-1, zero in any steady
// linear flow (there u_n = exp(J dt) u_n-1 exactly). Without a last rate the field is frozen
// (g = 0). `previous` is replaced by now's velocity.
vec3 exponentialStepVelocity(const vec3& now, const mat3& gradient, bool twoStep, float previousDt, float dt,
                             vec3& previous) {
    const vec3 change =
        twoStep ? (now - exponentialTimes(gradient * previousDt, previous)) * (1.0f / previousDt) : vec3(0.0f);
    previous = now;
    return linearFlowDisplacement(gradient, now, change, dt) * (1.0f / dt);
}

}  // namespace

// (parallelForEachStable: one compiled copy of the arithmetic, so FMA contraction cannot make
// results depend on the thread count.)
void GridFlowAdvection::moveTracers(const StepFlow& flow, Tracers& tracers, MotionHistory& history, float dt) {
    const bool twoStep = flow.adamsBashforth && history.tracerVelocity.size() == tracers.size();
    const StepWeights w = adamsBashforthWeights(twoStep, dt, history.dt);
    history.tracerVelocity.resize(tracers.size());
    // One pass over the (many) tracers: one lookup gives the velocity and the colour.
    packFlowAndDensity(flow);
    const UniformGrid<FlowAndDensity>& packed = packed_;
    if (w.twoStep() && flow.pushed.empty() && !packed.shape().anyFlatAxis()) {
        // The common sub-step: one lookup per tracer, eight tracers' stencils at a time.
        advanceTracersTwoStep(packed, TwoStepWeights{w.current, w.previous}, dt, tracers, history.tracerVelocity);
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
            const vec3 v = stepVelocityFrom(now, velocityAt, x, dt, w, history.tracerVelocity[i]);
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
    const StepWeights w = adamsBashforthWeights(twoStep, dt, history.dt);
    history.vortonVelocity.resize(vortons.size());
    // The grid's velocity at every vorton, looked up for all of them at once.
    std::vector<vec3>& gridFlow = flowAtVortons_;
    if (velocity.vortex) interpolateAtPoints(flow.velocity, vortons.position, gridFlow);
    const auto velocityAt = [&](const vec3& x) { return flow.velocityAt(x); };
    const std::vector<PotentialFlow>& pushed = flow.pushed;
    parallelForEachStable(
        0, vortons.size(),
        [&](size_t i) {
            const vec3 x = vortons.position[i];
            vec3 v(0.0f);
            if (velocity.vortex) {
                const vec3 now = pushed.empty() ? gridFlow[i] : gridFlow[i] + potentialFlowVelocity(pushed, x);
                const StepWeights use = movedByWall(vortons, i) ? StepWeights{} : w;
                v = flow.gradientAtVortons ? exponentialStepVelocity(now, (*flow.gradientAtVortons)[i], use.twoStep(),
                                                                     history.dt, dt, history.vortonVelocity[i])
                                           : stepVelocityFrom(now, velocityAt, x, dt, use, history.vortonVelocity[i]);
            }
            if (velocity.sph) v += vortons.sphVelocity[i];
            vortons.velocity[i] = v;
            vortons.position[i] = x + dt * v;
        },
        2048);
    if (!velocity.vortex) history.vortonVelocity.clear();  // nothing recorded: no past to use later
    history.dt = dt;
}

}  // namespace vfx
