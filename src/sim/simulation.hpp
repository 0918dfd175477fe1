#pragma once
// The Simulation facade: owns particles, bodies, grids and parameters, and advances them one
// step at a time. The demo and the headless runner only call step() and read state.
#include "bodies/body.hpp"
#include "core/cell_partition.hpp"
#include "core/profiler.hpp"
#include "core/uniform_grid.hpp"
#include "sim/diagnostics.hpp"
#include "sim/energy_budget.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"
#include "sim/phases.hpp"
#include "sim/potential_flow.hpp"

#include <tbb/task_arena.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {

struct BoxContainer;

class FluidMethodStep;
struct RemeshSettings;
struct ResolvedFlowAtVortons;
struct StepFlow;

// Where each vorton stands relative to the walls of the containers and solids: the Walls
// phase produces it, density, baroclinic and SPH phases read it.
struct WallFields {
    std::vector<float> proximity;    // signed distance to the nearest wall (1e30 without bodies)
    std::vector<float> kernelShare;  // SPH kernel share on the fluid side (empty: not needed this step)
};

// Thrown by step() when a phase produced NaN or infinity; the state is left as it was then.
class NonFiniteError : public std::runtime_error {
public:
    NonFiniteError(long step, const std::string& phase);
    long step;
    std::string phase;
};

class Simulation {
public:
    Simulation();
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    FluidParams& fluid() { return fluid_; }
    const FluidParams& fluid() const { return fluid_; }
    Vortons& vortons() { return vortons_; }
    const Vortons& vortons() const { return vortons_; }
    const Tracers& tracers() const { return tracers_; }
    // The tracers to change (add, move, replace): the next step then scans their positions, where
    // it otherwise takes their bounds from the pass that last moved them. Call it for each edit;
    // a reference kept past a step() does not tell the next step that they changed.
    Tracers& editTracers();
    std::vector<RigidBody>& bodies() { return bodies_; }
    const std::vector<RigidBody>& bodies() const { return bodies_; }

    // Empties particles and bodies and restarts the clock (step 0, time 0); keeps parameters.
    void reset();
    // fluid().quality changed since the last step writes its level's values at the next step;
    // this marks the current level as written (a scene loader that applied it itself).
    void markQualityApplied() { appliedQuality_ = fluid_.quality; }

    // Remeshes now if the vortons are more than the level allows: above fluid.max_vortons, or
    // more than fluid.vorton_budget (below 1) of them before any remesh. A loader calls it so
    // the count is within the level from the start and no frame pays that remesh. VPM only.
    void fitVortonsToLevel();

    // Takes one frame of frameDt and puts back every particle, body, clock, history and count as
    // they were: the workspaces keep the memory that frame sized and touched, so the first real
    // frame costs what the later ones do (a fresh 2,176-vorton drop's first frame took 2.5-3.8
    // times the median in first allocations and page faults). The frames that follow are the same
    // bits as without it. A loader calls it after fitVortonsToLevel(); a frame that fails is left
    // for the first real one to report.
    void prepareFirstFrame(float frameDt);

    // 0 = all hardware threads. Results are identical for any value.
    void setThreads(int threads);
    int threads() const { return threads_; }

    // Advances by frameDt in as many sub-steps as fluid.cfl_limit and fluid.strain_limit ask
    // for (at most fluid.max_substeps). Throws NonFiniteError if any phase produced a
    // non-finite value.
    void step(float frameDt);
    int lastSubsteps() const { return lastSubsteps_; }  // sub-steps the last step() took
    long remeshCount() const { return remeshCount_; }   // remeshes since reset()
    // Under remesh_split: the last frame sized a coarser lattice, and the next lays the vortons on it.
    bool remeshPending() const { return remeshSizedAtStep_ >= 0; }
    long stepCount() const { return stepCount_; }
    double time() const { return time_; }

    Diagnostics diagnostics() const;
    const PhaseTimers& timers() const { return timers_; }
    double lastStepMs() const { return lastStepMs_; }
    // Of the last step's velocity phases, the ms spent on the density gradient and baroclinic
    // rates found beside the tree (the grid's baroclinic sharing); 0 where their own phases did it.
    double lastBaroclinicRatesMs() const { return lastBaroclinicRatesMs_; }

    // Grids of the last step (for drawing and tests).
    const UniformGrid<vec3>& velocityGrid() const { return velocityGrid_; }
    // Velocity gradient on the grid points: column j holds du/dx_j.
    const UniformGrid<mat3>& jacobianGrid() const { return jacobianGrid_; }
    // Density deviation rho' deposited on the grid points, kg/m^3.
    const UniformGrid<float>& densityGrid() const;
    // Grid density gradient (poisoned near walls if asked) of the last step, kg/m^4. With
    // density_gradient = sph the step does not make it; computeDensityGradientGrid() does.
    const UniformGrid<vec3>& densityGradientGrid() const;
    // Makes the grid density gradient from the last density grid (unpoisoned) if the last step
    // did not (density_gradient = sph), for drawing.
    void computeDensityGradientGrid();
    // The field the grid density gradient was made from: densityGrid() itself, or with
    // fluid.coverage_density its coverage-normalised version.
    const UniformGrid<float>& buoyancyDensityGrid() const;
    const std::vector<float>& wallProximity() const { return walls_.proximity; }
    // Each vorton's subgrid eddy viscosity (fluid.subgrid_model) of the last diffusion phase, m^2/s;
    // empty when the model is none or its coefficient 0.
    const std::vector<float>& eddyViscosity() const;
    // Energy lost to viscosity and the subgrid model and gained from buoyancy since the last
    // reset (sim/energy_budget.hpp).
    const EnergyBudget& energyBudget() const { return energyBudget_; }
    // Measures the field energy after each phase that changes the vortons, into
    // energyBudget().measured: several velocity solves a sub-step, so off unless a caller studies
    // the budget. The flow's own results are the same either way.
    void setMeasureEnergyChanges(bool on);
    bool measuresEnergyChanges() const { return measureEnergyChanges_; }
    // The field energy rho0 sum u . (x x omega) V of the vortons as they are now, J.
    double fieldEnergyNow() const;
    // The Smagorinsky-equivalent coefficient the dynamic subgrid model found at the last sub-step
    // (dynamic_local: the largest a vorton took).
    float lastDynamicCoefficient() const { return lastDynamicCoefficient_; }
    const GridShape& gridShape() const { return gridShape_; }
    const CellPartition& partition() const { return partition_; }

    // Velocity induced by all vortons at arbitrary points with the selected solver (no grid).
    void velocityAtPoints(const std::vector<vec3>& points, std::vector<vec3>& out) const;
    // Velocity of the wall sources of the last sub-step (fluid.wall_sources) at a point; zero
    // when they are off.
    vec3 wallSourceVelocity(const vec3& x) const;
    // The flows the dynamic solids push aside for the particles and bodies as they are now, with
    // their images in a box container's walls (box solver) and each sphere's closure fitted
    // (fluid.close_solids).
    std::vector<PotentialFlow> pushedFlowsNow() const;

    // Writes fluid().quality's values if the level changed since they were last written (step()
    // does this first; a caller that sets the level and then other values calls it in between).
    void applyQualityIfChanged();

private:
    template <typename F>
    void runPhase(Phase phase, F&& body);
    void checkFinite(Phase phase) const;
    // diffusionDt: the time to diffuse over in this sub-step (its own dt; under diffusion_per_frame
    // the time since the last diffusion at the last sub-step of a diffusing frame, 0 on the others).
    void substep(float dt, float diffusionDt);
    void runVortonPhases(const FluidMethodStep& method, float dt, float diffusionDt);
    void moveTracersBeside(float dt, const std::function<void()>& vortonPhases);
    StepFlow gridStepFlow(float dt) const;
    bool diffusionDue(bool remeshedThisFrame) const;
    int substepsFor(float remaining, int taken) const;
    bool remeshDue() const;
    float strainForRemesh() const;
    void carryLatticeDistortion(float dt);
    bool aboveVortonCap() const;  // more vortons than fluid.max_vortons
    // mayDefer: under remesh_split, a remesh that must coarsen its lattice may stop at sizing
    // it and finish at the next frame's first sub-step.
    void remesh(bool mayDefer);
    void remeshMeasured(bool mayDefer);
    RemeshSettings remeshSettings(float spacing, size_t baseCount) const;
    // Under remesh_split: whether the next frame begins with the first remesh, and sizing its
    // lattice at the end of this one.
    bool firstRemeshDueNextFrame() const;
    void sizeFirstRemeshAhead();
    void keepRemeshSizedAheadIfDue();
    bool remeshTriggered() const;  // remesh as a timed, checked phase, its energy change measured
    void updateGrid();
    void computeVelocityGrid();
    void keepVelocityGridForExponentialMove();
    void solveVelocityGrid();
    BoxContainer solveInBoxContainer() const;
    void boxFlowAtPoints(const BoxContainer& container, const std::vector<vec3>& points, std::vector<vec3>& out) const;
    void keepFlowOffWalls();
    void solvedVortexFlowAt(const std::vector<vec3>& points, std::vector<vec3>& out) const;
    void completePushedFlows(std::vector<PotentialFlow>& flows, bool solveAgain) const;
    void stretchAndTilt(float dt);
    void relaxVorticity(float dt);
    const std::vector<mat3>& velocityGradientAtVortons();
    void computeWallFields(const FluidMethodStep& method);
    void computeDensityGradient();
    bool gravityActsOnGrid() const;
    vec3 buoyancyGravity() const;
    void generateBaroclinicVorticity(float dt);
    bool baroclinicRatesEarly() const;
    void prepareBaroclinicRates();
    void diffuse(float dt);
    void runMethodPhases(const FluidMethodStep& method, float dt);
    void interactWithBodies(float dt);
    void fillBodyShellsWithFluid(float reach);
    void extendHistoryToNewVortons(size_t first);

    FluidParams fluid_;
    Quality appliedQuality_ = Quality::Custom;
    Vortons vortons_;
    Tracers tracers_;
    std::vector<RigidBody> bodies_;

    GridShape gridShape_;
    UniformGrid<vec3> velocityGrid_;
    UniformGrid<mat3> jacobianGrid_;
    CellPartition partition_;  // vortons by velocity-grid cell
    WallFields walls_;

    PhaseTimers timers_;
    double lastStepMs_ = 0.0;
    double lastBaroclinicRatesMs_ = 0.0;  // summed over the step's sub-steps
    long stepCount_ = 0;
    double time_ = 0.0;
    double substepTime_ = 0.0;  // time at the start of the running sub-step
    int lastSubsteps_ = 0;
    bool baroclinicRatesPrepared_ = false;  // by this sub-step's velocity phase: its density gradient too
    bool tracersMovingBeside_ = false;      // within moveTracersBeside: the vorton phases leave the tracers be
    long substepCount_ = 0;                 // sub-steps since reset(): SPH method history is kept per sub-step
    long remeshCount_ = 0;
    float strainSinceRemesh_ = 0.0f;  // integral of max|S| dt since the last remesh
    float latticeStrain_ = 0.0f;      // ln of the worst lattice stretch since it (sim/lattice_distortion.hpp)
    std::vector<mat3> latticeMaps_;   // each vorton's deformation gradient since it
    float undiffused_ = 0.0f;         // s of sub-steps not yet diffused (diffusion_per_frame)
    int framesSinceDiffusion_ = 0;    // frames whose time undiffused_ holds
    float spreadSinceRemesh_ = 0.0f;  // integral of 4 nu / h^2 dt since the last remesh
    float remeshSpacing_ = 0.0f;      // lattice spacing, set at the first remesh
    size_t remeshBaseCount_ = 0;      // vortons before the first remesh (the budget's unit)
    long remeshSizedAtStep_ = -1;     // frame (stepCount_) whose remesh sized a coarser lattice; -1: none due
    float sizedSpacing_ = 0.0f;       // the spacing it sized, m (remeshSpacing_ once the vortons are laid)
    bool remeshSizedAhead_ = false;   // that frame sized the first remesh for the next (sizeFirstRemeshAhead)
    // max|grad u| frame dt / strain_limit at the first sub-step of the last frame and of the one
    // before (the sub-steps the strain alone asked for).
    float strainDemand_ = 0.0f, strainDemandBefore_ = 0.0f;
    bool remeshWouldHoldSubsteps() const;
    float maxGridSpeed_ = 0.0f;       // of the last velocity solve, m/s
    float maxGridStrain_ = 0.0f;      // Frobenius norm of grad u, 1/s
    float maxGridStrainRate_ = 0.0f;  // Frobenius norm of its symmetric part S, 1/s
    int threads_ = 0;
    std::unique_ptr<tbb::task_arena> arena_;
    struct Workspace;  // the phases' solvers and their scratch (tree, density field, SPH, PSE, ...)
    std::unique_ptr<Workspace> work_;
    bool subgridActive() const { return fluid_.subgridModel != SubgridModel::None && fluid_.subgridCoefficient > 0.0f; }
    EnergyBudget energyBudget_;
    bool measureEnergyChanges_ = false;
    double energyMark_ = 0.0;         // field energy at the last measurement, J
    bool energyMarkCurrent_ = false;  // the vortons have not changed since it
    // Adds the change of the field energy since the last measurement to `into` (when measuring).
    void measureEnergyChange(double MeasuredEnergyChanges::*into);
    void markEnergyIfStale();  // measures the field energy if no measurement holds for the vortons now
    float lastDynamicCoefficient_ = 0.0f;
    void dynamicEddyViscosity(const ResolvedFlowAtVortons& resolved, std::vector<float>& eddy);
};

}  // namespace vfx
