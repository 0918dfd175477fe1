#pragma once
// One time-step object per fluid method: vortex particles (vpm, parts 2-5), SPH pressure on the
// vortons (sph, parts 15, 16) and both (hybrid). Each owns the parts of a sub-step in which the
// methods differ: whether its particle set is remeshed, its own phases (the SPH phase), how its
// particles move in the advection phase, and what its SPH velocity means when the method changes
// at run time. The Simulation runs the phases every method shares and calls these hooks in step
// order; it never asks which method is in force.
#include "sim/params.hpp"
#include "sim/particle_advection.hpp"
#include "sim/particles.hpp"
#include "sim/phases.hpp"
#include "sim/sph.hpp"
#include "sim/time_integration.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace vfx {

class FluidMethodStep;

// The method and sub-step of the last SPH phase that ran: a method switch re-expresses the SPH
// velocity only across consecutive sub-steps.
struct SphPhaseRecord {
    FluidMethod method = FluidMethod::Vpm;
    long substep = -2;
};

// What a method's hooks read and write, lent by the Simulation for one sub-step.
struct FluidStepState {
    const FluidParams& fluid;
    Vortons& vortons;
    Tracers& tracers;
    const StepFlow& flow;                       // the step's grid flow and density
    const std::vector<float>& wallKernelShare;  // from the walls phase (empty: no walls)
    SphFluid& sph;                              // shared with the density and baroclinic phases
    GridFlowAdvection& advection;
    MotionHistory& history;
    // The method whose SPH phase ran in the previous sub-step, else vpm's.
    const FluidMethodStep& previous;
    SphPhaseRecord& lastSphPhase;
    long substep;  // sub-steps since reset
    // The bounds of the tracers as the grid flow's pass moved them (GridFlowAdvection::moveTracers);
    // left empty where they move otherwise.
    std::optional<MovedTracerBounds>& movedTracerBounds;
    // The Simulation moved the tracers beside this sub-step's other phases (tracersFollowGridFlow):
    // the advection phase leaves them be.
    bool tracersMoved = false;
};

// Times and checks one phase (the Simulation's runPhase).
using PhaseRunner = std::function<void(Phase, const std::function<void()>&)>;

class FluidMethodStep {
public:
    virtual ~FluidMethodStep() = default;
    virtual FluidMethod method() const = 0;
    // What the method does, for estimates and summaries: whether it may remesh (and so grow the
    // vorton count up to the budget), and whether SPH forces move the particles.
    virtual bool mayRemesh(const FluidParams&) const { return false; }
    virtual bool sphForcesAct() const { return false; }
    // Whether gravity acts on the density deviation: through baroclinic generation, or (sph) as
    // a body force on the particles.
    virtual bool buoyancyActs(const FluidParams& fluid) const { return fluid.baroclinic; }

    // Remesh phase: whether the particle set is due for a remesh onto a lattice, given the strain
    // integral max|S| dt since the last one.
    virtual bool remeshDue(float /*strainSinceRemesh*/, const FluidParams&) const { return false; }
    // The strain integral since the last remesh after a sub-step of dt at strain rate max|S| (1/s).
    virtual float strainAfterSubstep(float /*strainSinceRemesh*/, float /*strainRate*/, float /*dt*/) const {
        return 0.0f;
    }
    // Walls phase: whether an SPH sum this sub-step needs each vorton's kernel share on the
    // fluid side of the walls.
    virtual bool needsWallKernelShare(const FluidParams& fluid) const {
        return fluid.densityGradient == GradientSource::Sph;
    }
    // The method's own phases, after diffusion and before advection, each run through `run`.
    virtual void runOwnPhases(const PhaseRunner& /*run*/, FluidStepState& /*state*/, float /*dt*/) const {}
    // Advection phase: moves the vortons and tracers one sub-step.
    virtual void advect(FluidStepState& state, float dt) const = 0;
    // Whether the advection phase moves the tracers by the step's grid flow alone
    // (GridFlowAdvection::moveTracers), which no other phase of the sub-step changes: the
    // Simulation may then move them beside those phases.
    virtual bool tracersFollowGridFlow() const { return false; }

    // --- run-time switches ---
    // The whole velocity of a vorton under this method, from its SPH velocity and its vortex
    // velocity (m/s).
    virtual vec3 wholeVelocity(const vec3& sphVelocity, const vec3& vortexVelocity) const = 0;
    // Called by a following method without SPH forces: hands the SPH flow over to the vortex
    // flow. True if the vortons' SPH velocity must still move them this sub-step.
    virtual bool handOverSphFlow(FluidStepState& /*state*/) const { return false; }
};

// The object for a method (static instances; the objects hold no state).
const FluidMethodStep& fluidMethodStep(FluidMethod method);

// The method whose SPH phase ran in the sub-step before `substep`, else vpm's: the method a
// switch at `substep` leaves.
const FluidMethodStep& methodBefore(const SphPhaseRecord& lastSphPhase, long substep);

}  // namespace vfx
