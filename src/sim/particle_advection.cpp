#include "sim/particle_advection.hpp"

#include "core/neighbour_search.hpp"  // parallelForEachStable
#include "core/parallel.hpp"
#include "core/simd_lanes.hpp"
#include "sim/exponential_advection.hpp"
#include "sim/grid_lookups.hpp"
#include "sim/potential_flow_lanes.hpp"

#include <algorithm>
#include <stdexcept>

namespace vfx {

namespace {

// The rule a particle set takes this sub-step.
struct StepRule {
    StepWeights weights;
    bool keepBefore = false;  // the rate before the last is kept (three_step's history)
};

// The rule from the past rates the set's particles have (`last`, `before`), which are sized for
// this sub-step: the two-step rule where each has a last rate, the three-step rule where it also
// has the one before and the sub-step allows it; three_step keeps the one before wherever there is
// a last one.
StepRule prepareStep(const StepFlow& flow, size_t count, std::vector<vec3>& last, std::vector<vec3>& before,
                     MotionHistory::PastSteps past, float dt) {
    const bool twoStep = flow.adamsBashforth && last.size() == count;
    const bool threeStep = twoStep && flow.threeStep && flow.threeStepAllowed && before.size() == count;
    const StepRule rule{
        threeStep ? threeStepWeights(dt, past.dt, past.dtBefore) : adamsBashforthWeights(twoStep, dt, past.dt),
        twoStep && flow.threeStep};
    before.resize(rule.keepBefore ? count : 0);
    last.resize(count);
    return rule;
}

// A vortex core, by the rotation and strain parts Omega and S of the velocity gradient J:
// |S|^2 < 2 |Omega|^2, with |S|^2 = (|J|^2 + tr(J J)) / 2 and |Omega|^2 = (|J|^2 - tr(J J)) / 2.
// Hunt, Wray & Moin's Q criterion (1988) takes |S|^2 < |Omega|^2; the factor 2 also takes a core's
// skirt, where a coarse lattice puts many of its vortons (a thin ring held to 9,000 vortons moved
// at 0.941 of the thin-ring speed under 1, 0.959 under 2 and 0.960 under 4, and the author's drop
// stayed within 3.5% of its reference under each; docs/method.md).
constexpr float kCoreStrainToRotation = 2.0f;

bool inVortexCore(const mat3& j) {
    float trace = 0.0f, norm = 0.0f;
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            trace += j[a][b] * j[b][a];
            norm += j[a][b] * j[a][b];
        }
    return norm + trace < kCoreStrainToRotation * (norm - trace);
}

}  // namespace

// (parallelForEachStable: one compiled copy of the arithmetic, so FMA contraction cannot make
// results depend on the thread count.)
std::optional<MovedTracerBounds> GridFlowAdvection::moveTracers(const StepFlow& flow, Tracers& tracers,
                                                                MotionHistory& history, float dt) {
    return moveTracers(flow, tracers, history, history.pastSteps(), dt);
}

std::optional<MovedTracerBounds> GridFlowAdvection::moveTracers(const StepFlow& flow, Tracers& tracers,
                                                                MotionHistory& history, MotionHistory::PastSteps past,
                                                                float dt) {
    const StepRule rule =
        prepareStep(flow, tracers.size(), history.tracerVelocity, history.tracerVelocityBefore, past, dt);
    const StepWeights w = rule.weights;
    // One pass over the (many) tracers: one lookup gives the velocity and the colour.
    packFlowAndDensity(flow);
    const UniformGrid<FlowAndDensity>& packed = packed_;
    // What moving bodies push aside, at every tracer, eight tracers at a time.
    const bool pushed = !flow.pushed.empty();
    if (pushed) {
        pushedAtTracers_.assign(tracers.size(), vec3(0.0f));
        addPotentialFlowVelocities(flow.pushed, tracers.position, pushedAtTracers_);
    }
    if (w.twoStep() && !packed.shape().anyFlatAxis()) {
        // The common sub-step: one lookup per tracer, eight tracers' stencils at a time.
        return advanceTracersTwoStep(packed, w, dt, tracers, history.tracerVelocity,
                                     rule.keepBefore ? &history.tracerVelocityBefore : nullptr,
                                     pushed ? &pushedAtTracers_ : nullptr);
    }
    if (!w.twoStep() && !pushed && !packed.shape().anyFlatAxis()) {
        // The first sub-step (no last rate yet): the midpoint rule, both lookups in lanes.
        return advanceTracersByMidpoint(packed, w, dt, tracers, history.tracerVelocity,
                                        rule.keepBefore ? &history.tracerVelocityBefore : nullptr);
    }
    const auto velocityAt = [&](const vec3& x) { return flow.velocityAt(x); };
    parallelForEachStable(
        0, tracers.size(),
        [&](size_t i) {
            const vec3 x = tracers.position[i];
            const FlowAndDensity found = packed.interpolate(x);
            vec3 now(found[0], found[1], found[2]);
            if (pushed) now += pushedAtTracers_[i];
            tracers.density[i] = found[3];
            vec3* before = rule.keepBefore ? &history.tracerVelocityBefore[i] : nullptr;
            const vec3 v = stepVelocityFrom(now, velocityAt, x, dt, w, history.tracerVelocity[i], before);
            tracers.velocity[i] = v;
            tracers.position[i] = x + dt * v;
        },
        4096);
    return std::nullopt;
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
    const StepRule rule = prepareStep(flow, vortons.size(), history.vortonVelocity, history.vortonVelocityBefore,
                                      history.pastSteps(), dt);
    const StepWeights w = rule.weights;
    // The grid's velocity at every vorton, and what moving bodies push aside there, looked up for
    // all of them at once.
    std::vector<vec3>& gridFlow = flowAtVortons_;
    const bool exponential = velocity.vortex && flow.gradientAtVortons;
    // In cores-only mode the exponential move replaces the last rates the three-step rule reads,
    // and it needs the flow's change in time only in the blocks of eight it moves.
    const bool coresOnly = exponential && flow.exponentialInCoresOnly;
    if (coresOnly) {
        lastVortonVelocity_ = history.vortonVelocity;
        markCores(*flow.gradientAtVortons);
    }
    if (velocity.vortex) {
        interpolateAtPoints(flow.velocity, vortons.position, gridFlow);
        if (exponential) readEulerianChange(flow, vortons, history.dt, coresOnly ? &inCore_ : nullptr);
        addPotentialFlowVelocities(flow.pushed, vortons.position, gridFlow);
    }
    if (exponential) moveExponentially(flow, vortons, history, w, dt, coresOnly);
    const auto velocityAt = [&](const vec3& x) { return flow.velocityAt(x); };
    parallelForEachStable(
        0, vortons.size(),
        [&](size_t i) {
            const vec3 x = vortons.position[i];
            vec3 v(0.0f);
            if (exponential && (!coresOnly || inCore_[i])) {
                v = exponentialVelocity_[i];
                if (coresOnly && rule.keepBefore) history.vortonVelocityBefore[i] = lastVortonVelocity_[i];
            } else if (velocity.vortex) {
                if (coresOnly) history.vortonVelocity[i] = lastVortonVelocity_[i];
                const vec3 now = gridFlow[i];
                const StepWeights use = movedByWall(vortons, i) ? StepWeights{} : w;
                vec3* before = rule.keepBefore ? &history.vortonVelocityBefore[i] : nullptr;
                v = stepVelocityFrom(now, velocityAt, x, dt, use, history.vortonVelocity[i], before);
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
// the flow at each (the grid's plus what moving bodies push aside, flowAtVortons_).
void GridFlowAdvection::moveExponentially(const StepFlow& flow, const Vortons& vortons, MotionHistory& history,
                                          StepWeights w, float dt, bool coresOnly) {
    const std::vector<vec3>& now = flowAtVortons_;
    ExponentialMoveInputs in{now, *flow.gradientAtVortons, vortons.hitWall, w.twoStep(), history.dt, dt};
    if (!eulerianChange_.empty()) in.eulerianChange = &eulerianChange_;
    if (coresOnly) in.only = &inCore_;
    exponentialMoveVelocities(in, history.vortonVelocity, exponentialVelocity_);
}

void GridFlowAdvection::markCores(const std::vector<mat3>& gradient) {
    inCore_.resize(gradient.size());
    parallelForEach(
        0, gradient.size(), [&](size_t i) { inCore_[i] = inVortexCore(gradient[i]) ? 1 : 0; }, 4096);
}

// How the grid's flow changed in time at each vorton's place over the last sub-step, (u_n(x) -
// u_n-1(x)) / dt_n-1, from this sub-step's grid velocity at the vortons (flowAtVortons_, before the
// bodies' flows are added) and the last sub-step's grid; zero where x was outside that grid and,
// given onlyBlocksOf, in every block of eight vortons none of which it marks.
void GridFlowAdvection::readEulerianChange(const StepFlow& flow, const Vortons& vortons, float previousDt,
                                           const std::vector<uint8_t>* onlyBlocksOf) {
    eulerianChange_.clear();
    if (!flow.previousVelocity || flow.previousVelocity->size() == 0 || !(previousDt > 0.0f)) return;
    const UniformGrid<vec3>& previous = *flow.previousVelocity;
    if (onlyBlocksOf)
        interpolateAtMarkedBlocks(previous, vortons.position, *onlyBlocksOf, previousFlowAtVortons_);
    else
        interpolateAtPoints(previous, vortons.position, previousFlowAtVortons_);
    const size_t n = vortons.size();
    eulerianChange_.resize(n);
    const float rate = 1.0f / previousDt;
    constexpr size_t kBlock = size_t(lanes::kLanes);
    parallelForEach(
        0, (n + kBlock - 1) / kBlock,
        [&](size_t b) {
            const size_t first = b * kBlock, end = std::min(first + kBlock, n);
            const bool read = !onlyBlocksOf || lanes::blockHoldsMark(*onlyBlocksOf, first);
            for (size_t i = first; i < end; ++i) {
                const bool inside = read && previous.shape().encloses(vortons.position[i]);
                eulerianChange_[i] = inside ? (flowAtVortons_[i] - previousFlowAtVortons_[i]) * rate : vec3(0.0f);
            }
        },
        512);
}

}  // namespace vfx
