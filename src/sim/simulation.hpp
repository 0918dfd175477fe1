#pragma once
// The Simulation facade: owns particles, bodies, grids and parameters, and advances them one
// step at a time. The demo and the headless runner only call step() and read state.
#include "bodies/body.hpp"
#include "core/cell_partition.hpp"
#include "core/profiler.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

#include <tbb/task_arena.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {

class FluidMethodStep;

// The phases of a step, in the order they run. phaseName() spells them for the timers, the
// stats CSV's ms_<phase> columns and NonFiniteError; nothing else names a phase.
enum class Phase { Remesh, Grid, Velocity, Stretching, Walls, Density, Baroclinic, Diffusion, Sph, Advection, Bodies };
constexpr size_t kPhaseCount = size_t(Phase::Bodies) + 1;
const char* phaseName(Phase phase);

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

// Conserved quantities and totals (double precision, deterministic order).
struct Diagnostics {
    double kineticEnergy = 0.0;  // 0.5 * sum |u|^2 (rho0 + rho') V over vortons
    // Kinetic energy of the whole unbounded flow the vorticity induces, rho0 * sum u . (x x omega) V
    // (the vorticity form of 1/2 integral |u|^2 over all space, fluid at rest far away), with u
    // solved at the vortons now: unlike the sum over vortons it does not depend on where
    // particles happen to sit, nor on how the last step blended velocities.
    double fieldEnergy = 0.0;
    dvec3 circulation{0.0};      // sum omega V
    dvec3 linearImpulse{0.0};    // 0.5 * sum x x omega V
    dvec3 angularImpulse{0.0};   // 1/3 * sum x x (x x omega V)
    double massParticles = 0.0;  // sum rho' V over vortons
    double massGrid = 0.0;       // sum of the density-deviation grid times cell volume
    double maxSpeed = 0.0;       // over vortons
    // The irrotational flow moving solids push aside (sim/body_coupling PotentialFlow), which the
    // vorticity does not carry: its kinetic energy sum 1/2 m_a W^2 and momentum sum m_a W.
    double potentialFlowEnergy = 0.0;
    dvec3 potentialFlowMomentum{0.0};
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
    Tracers& tracers() { return tracers_; }
    const Tracers& tracers() const { return tracers_; }
    std::vector<RigidBody>& bodies() { return bodies_; }
    const std::vector<RigidBody>& bodies() const { return bodies_; }

    // Empties particles and bodies and restarts the clock (step 0, time 0); keeps parameters.
    void reset();

    // 0 = all hardware threads. Results are identical for any value.
    void setThreads(int threads);
    int threads() const { return threads_; }

    // Advances by frameDt in as many sub-steps as fluid.cfl_limit and fluid.strain_limit ask
    // for (at most fluid.max_substeps). Throws NonFiniteError if any phase produced a
    // non-finite value.
    void step(float frameDt);
    int lastSubsteps() const { return lastSubsteps_; }  // sub-steps the last step() took
    long remeshCount() const { return remeshCount_; }   // remeshes since reset()
    long stepCount() const { return stepCount_; }
    double time() const { return time_; }

    Diagnostics diagnostics() const;
    const PhaseTimers& timers() const { return timers_; }
    double lastStepMs() const { return lastStepMs_; }

    // Grids of the last step (for drawing and tests).
    const UniformGrid<vec3>& velocityGrid() const { return velocityGrid_; }
    // Velocity gradient on the grid points: column j holds du/dx_j.
    const UniformGrid<mat3>& jacobianGrid() const { return jacobianGrid_; }
    const UniformGrid<float>& densityGrid() const { return densityGrid_; }
    // Grid density gradient (poisoned) of the last step. With density_gradient = sph the step does
    // not need it: it is then computed on first request, from the last density grid, unpoisoned.
    const UniformGrid<vec3>& densityGradientGrid() const;
    // The field the grid density gradient differentiates: densityGrid() itself, or with
    // fluid.coverage_density its coverage-normalised version (computed on each call).
    const UniformGrid<float>& buoyancyDensityGrid() const;
    const std::vector<float>& wallProximity() const { return walls_.proximity; }
    // Each vorton's subgrid (Smagorinsky) eddy viscosity of the last sub-step, m^2/s; empty when
    // fluid.subgrid_coefficient is 0 or diffusion is off.
    const std::vector<float>& eddyViscosity() const;
    const GridShape& gridShape() const { return gridShape_; }
    const CellPartition& partition() const { return partition_; }

    // Velocity induced by all vortons at arbitrary points with the selected solver (no grid).
    void velocityAtPoints(const std::vector<vec3>& points, std::vector<vec3>& out) const;

private:
    template <typename F>
    void runPhase(Phase phase, F&& body);
    void checkFinite(Phase phase) const;
    void substep(float dt);
    int substepsFor(float remaining, int taken) const;
    bool remeshDue() const;
    void remesh();
    void updateGrid();
    void computeVelocityGrid();
    void solveVelocityGrid();
    void stretchAndTilt(float dt);
    void computeWallFields(const FluidMethodStep& method);
    void depositDensity();
    void computeDensityGradient();
    void differentiateDensityGrid() const;
    struct DepositScales {
        float heavy = 1.0f, light = 1.0f;
    };
    DepositScales keepDepositedMass(UniformGrid<float>& field, const UniformGrid<float>* fluidShare) const;
    void generateBaroclinicVorticity(float dt);
    void diffuse(float dt);
    void computeSph(const FluidMethodStep& method, float dt);
    bool gravityActsOnGrid() const;
    void advect(const FluidMethodStep& method, float dt);
    void packFlowAndDensity();  // the tracers' lookup grid: velocity and density side by side
    void advectVortons(const FluidMethodStep& method, bool leavingHybrid, float dt);
    void interactWithBodies(float dt);

    FluidParams fluid_;
    Vortons vortons_;
    Tracers tracers_;
    std::vector<RigidBody> bodies_;

    GridShape gridShape_;
    UniformGrid<vec3> velocityGrid_;
    UniformGrid<mat3> jacobianGrid_;
    UniformGrid<float> densityGrid_;
    mutable UniformGrid<vec3> densityGradientGrid_;
    mutable bool densityGradientGridStale_ = false;
    CellPartition partition_;  // vortons by velocity-grid cell
    WallFields walls_;

    PhaseTimers timers_;
    double lastStepMs_ = 0.0;
    long stepCount_ = 0;
    double time_ = 0.0;
    double substepTime_ = 0.0;  // time at the start of the running sub-step
    int lastSubsteps_ = 0;
    long substepCount_ = 0;  // sub-steps since reset(): SPH method history is kept per sub-step
    long remeshCount_ = 0;
    float strainSinceRemesh_ = 0.0f;  // integral of max|S| dt since the last remesh
    float remeshSpacing_ = 0.0f;      // lattice spacing, set at the first remesh
    size_t remeshBaseCount_ = 0;      // vortons before the first remesh (the budget's unit)
    float maxGridSpeed_ = 0.0f;       // of the last velocity solve, m/s
    float maxGridStrain_ = 0.0f;      // Frobenius norm of grad u, 1/s
    float maxGridStrainRate_ = 0.0f;  // Frobenius norm of its symmetric part S, 1/s
    int threads_ = 0;
    std::unique_ptr<tbb::task_arena> arena_;
    struct Workspace;  // solver scratch (tree, SPH, PSE buffers)
    std::unique_ptr<Workspace> work_;
};

}  // namespace vfx
