#pragma once
// The advection phase's moves through the step's grid flow: the vortex velocity on the grid plus
// the flows moving bodies push aside, integrated by the two-step Adams-Bashforth rule
// (sim/time_integration.hpp), second order in time in a flow that changes as it moves (a ring's
// swirl travels with the ring). Without a last rate (the first step, a vorton's first after a
// remesh, or adams_bashforth off) particles take the midpoint rule in the frozen grid field,
// second order along curved streamlines but first order in the field's own change. The fluid
// methods (sim/fluid_method.hpp) decide which velocities move the vortons.
#include "core/uniform_grid.hpp"
#include "sim/body_coupling.hpp"
#include "sim/particles.hpp"
#include "sim/time_integration.hpp"
#include "sim/tracer_advection.hpp"

#include <optional>
#include <vector>

namespace vfx {

// The flow particles move with in a sub-step, on the step's grid.
struct StepFlow {
    const GridShape& grid;
    const UniformGrid<vec3>& velocity;         // vortex velocity at the grid points, m/s
    const UniformGrid<float>& density;         // density deviation rho', kg/m^3 (tracer colour)
    const std::vector<PotentialFlow>& pushed;  // the flows moving bodies push aside
    bool adamsBashforth;                       // fluid.adams_bashforth: the two-step rule if it can
    // fluid.advection_integrator exponential: the velocity gradient at each vorton, which then
    // moves by the exponential step (sim/linear_flow_step.hpp); null = the explicit rules.
    const std::vector<mat3>* gradientAtVortons = nullptr;
    // With the exponential move: the last sub-step's velocity grid (null or empty: none), from
    // which the move reads how the flow changes in time at each vorton's place.
    const UniformGrid<vec3>* previousVelocity = nullptr;
    // fluid.advection_integrator three_step: the vortons keep their last two rates and take the
    // three-step rule where they have both, on sub-steps whose max|grad u| dt allows it.
    bool threeStep = false;
    bool threeStepAllowed = false;
    // fluid.advection_integrator exponential_in_cores: the exponential move only for the vortons
    // in vortex cores (rotation over strain), the three-step rule for the others.
    bool exponentialInCoresOnly = false;

    vec3 velocityAt(const vec3& x) const {
        return pushed.empty() ? velocity.interpolate(x) : velocity.interpolate(x) + potentialFlowVelocity(pushed, x);
    }
};

// The velocities that move the vortons in a sub-step.
struct VortonVelocity {
    bool vortex = true;  // the step's flow, by the two-step rule
    bool sph = false;    // plus each vorton's SPH velocity
};

class GridFlowAdvection {
public:
    // Moves every tracer one sub-step in the flow and colours it with the density deviation where
    // it starts; history.tracerVelocity holds u_n-1 on entry and u_n on return. Returns the moved
    // tracers' bounds where the pass in lanes found them (the common sub-steps), none where it took
    // the generic per-tracer path.
    std::optional<MovedTracerBounds> moveTracers(const StepFlow& flow, Tracers& tracers, MotionHistory& history,
                                                 float dt);
    // The same with the past sub-steps' lengths given, reading and writing only the history's
    // tracer rates and this object's tracer state: it may run beside moveVortons (and the other
    // vorton phases) of the same sub-step, with `past` taken before either starts.
    std::optional<MovedTracerBounds> moveTracers(const StepFlow& flow, Tracers& tracers, MotionHistory& history,
                                                 MotionHistory::PastSteps past, float dt);
    // Moves every vorton one sub-step with the velocities asked for; history.vortonVelocity as the
    // tracers' (cleared without the vortex velocity), and history.dt becomes dt.
    void moveVortons(const StepFlow& flow, VortonVelocity velocity, Vortons& vortons, MotionHistory& history, float dt);

private:
    void packFlowAndDensity(const StepFlow& flow);
    void moveExponentially(const StepFlow& flow, const Vortons& vortons, MotionHistory& history, StepWeights w,
                           float dt, bool coresOnly);
    void readEulerianChange(const StepFlow& flow, const Vortons& vortons, float previousDt,
                            const std::vector<uint8_t>* onlyBlocksOf);
    // Cores-only mode: which vortons the exponential move takes (those in vortex cores).
    void markCores(const std::vector<mat3>& gradient);

    UniformGrid<FlowAndDensity> packed_;     // the tracers' lookup grid: velocity and density side by side
    std::vector<vec3> flowAtVortons_;        // the grid's velocity at each vorton
    std::vector<vec3> exponentialVelocity_;  // each vorton's velocity over the sub-step by the exponential move
    std::vector<uint8_t> inCore_;            // cores-only mode: the vortons the exponential move takes
    std::vector<vec3> lastVortonVelocity_;   // the vortons' last rates, kept for the three-step rule in cores-only mode
    std::vector<vec3> previousFlowAtVortons_;  // the last sub-step's grid velocity at each vorton
    std::vector<vec3> eulerianChange_;         // du/dt at each vorton's place, from the two grids (empty: none)
    std::vector<vec3> pushedAtTracers_;        // what moving bodies push aside, at each tracer
};

}  // namespace vfx
