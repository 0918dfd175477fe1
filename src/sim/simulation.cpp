#include "sim/simulation.hpp"

#include "bodies/body_motion.hpp"
#include "core/grid_differences.hpp"
#include "core/parallel.hpp"
#include "core/parallel_invoke.hpp"
#include "sim/baroclinic.hpp"
#include "sim/body_coupling.hpp"
#include "sim/box_container.hpp"
#include "sim/density_field.hpp"
#include "sim/diffusion.hpp"
#include "sim/fluid_method.hpp"
#include "sim/grid_lookups.hpp"
#include "sim/lattice_distortion.hpp"
#include "sim/param_declarations.hpp"
#include "sim/particle_advection.hpp"
#include "sim/quality.hpp"
#include "sim/remesh.hpp"
#include "sim/remesh_history.hpp"
#include "sim/sph.hpp"
#include "sim/stretching.hpp"
#include "sim/subgrid_model.hpp"
#include "sim/vorticity_relaxation.hpp"
#include "sim/time_integration.hpp"
#include "sim/simulation_workspace.hpp"

#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <utility>

namespace vfx {

NonFiniteError::NonFiniteError(long stepIndex, const std::string& phaseName)
    : std::runtime_error("non-finite value at step " + std::to_string(stepIndex) + " in phase " + phaseName),
      step(stepIndex),
      phase(phaseName) {}

const char* const kPhaseNames[kPhaseCount] = {"remesh",     "grid",      "velocity", "stretching", "walls", "density",
                                              "baroclinic", "diffusion", "sph",      "advection",  "bodies"};

// Timers (and the CSV columns made from them) list every phase from the first step on, whether
// or not this scene's first step runs it.
void registerPhases(PhaseTimers& timers) {
    for (const char* name : kPhaseNames) timers.slot(name);
}

const char* phaseName(Phase phase) { return kPhaseNames[size_t(phase)]; }

Simulation::Simulation() : work_(std::make_unique<Workspace>()) {
    setThreads(0);
    registerPhases(timers_);
}
Simulation::~Simulation() = default;

Tracers& Simulation::editTracers() {
    work_->knownTracerBounds.reset();
    return tracers_;
}

void Simulation::reset() {
    vortons_.clear();
    tracers_.resize(0);
    work_->knownTracerBounds.reset();
    bodies_.clear();
    stepCount_ = 0;
    time_ = 0.0;
    substepTime_ = 0.0;
    lastStepMs_ = 0.0;
    lastSubsteps_ = 0;
    substepCount_ = 0;
    remeshCount_ = 0;
    strainSinceRemesh_ = 0.0f;
    latticeStrain_ = 0.0f;
    latticeMaps_.clear();
    spreadSinceRemesh_ = 0.0f;
    undiffused_ = 0.0f;
    framesSinceDiffusion_ = 0;
    remeshSpacing_ = 0.0f;
    remeshSizedAtStep_ = -1;
    remeshSizedAhead_ = false;
    sizedSpacing_ = 0.0f;
    strainDemand_ = strainDemandBefore_ = 0.0f;
    work_->wallSources.clear();
    remeshBaseCount_ = 0;
    walls_ = {};
    velocityGrid_ = {};
    jacobianGrid_ = {};
    timers_ = PhaseTimers{};
    registerPhases(timers_);
    work_ = std::make_unique<Workspace>();  // drops the density field, both histories and solver scratch
    energyBudget_ = {};
    energyMarkCurrent_ = false;
    lastDynamicCoefficient_ = 0.0f;
}

void Simulation::setThreads(int threads) {
    threads_ = threads;
    const int count = threads > 0 ? threads : tbb::info::default_concurrency();
    arena_ = std::make_unique<tbb::task_arena>(count);
}

template <typename F>
void Simulation::runPhase(Phase phase, F&& body) {
    {
        ScopedPhase timer(timers_, timers_.slot(phaseName(phase)));
        body();
    }
    checkFinite(phase);
}

namespace {

// True if no component is Inf or NaN: an all-ones exponent field. Integer tests without
// branches, so the scan vectorises (it runs after every phase).
bool allFinite(const std::vector<vec3>& v) {
    static_assert(sizeof(vec3) == 3 * sizeof(float), "vec3 is three packed floats");
    return deterministicReduce<bool>(
        v.size(), true,
        [&](size_t b, size_t e) {
            const size_t count = 3 * (e - b);
            const float* data = &v[b].x;
            uint32_t bad = 0;
            for (size_t k = 0; k < count; ++k) {
                uint32_t bits;
                std::memcpy(&bits, data + k, sizeof bits);
                bad |= uint32_t((bits & 0x7f800000u) == 0x7f800000u);
            }
            return bad == 0;
        },
        [](bool a, bool c) { return a && c; }, 16384);
}

}  // namespace

void Simulation::checkFinite(Phase phase) const {
    // Only advection and the body phase move tracers: the other phases skip their (many) positions,
    // as does advection where its pass found them all finite.
    const std::optional<MovedTracerBounds>& moved = work_->knownTracerBounds;
    const bool includeTracers =
        !tracersMovingBeside_ && ((phase == Phase::Advection && !(moved && moved->finite)) || phase == Phase::Bodies);
    bool ok = allFinite(vortons_.position) && allFinite(vortons_.vorticity) && allFinite(vortons_.velocity) &&
              (!includeTracers || allFinite(tracers_.position));
    for (const RigidBody& b : bodies_)
        ok = ok && isFinite(b.position) && isFinite(b.velocity) && isFinite(b.angularVelocity);
    if (!ok) throw NonFiniteError(stepCount_ + 1, phaseName(phase));
}

void Simulation::applyQualityIfChanged() {
    if (fluid_.quality == appliedQuality_) return;
    applyQuality(fluid_.quality, fluid_);
    appliedQuality_ = fluid_.quality;
}

void Simulation::step(float frameDt) {
    applyQualityIfChanged();
    requireValidParams(fluid_);  // the panels and an embedding engine edit fluid() in place
    if (fluid_.velocitySolver == VelocitySolver::Box) requireBoxContainer(bodies_);  // before any phase runs
    const auto start = std::chrono::steady_clock::now();
    timers_.beginStep();
    lastBaroclinicRatesMs_ = 0.0;
    energyMarkCurrent_ = false;  // an engine may have edited the vortons since the last step
    const double frameStart = time_;
    substepTime_ = time_;
    int taken = 0;
    arena_->execute([&] {
        float remaining = frameDt;
        ++framesSinceDiffusion_;
        const long remeshesBefore = remeshCount_;
        keepRemeshSizedAheadIfDue();
        const bool remeshEarly = remeshWouldHoldSubsteps();  // with the parameters as they are now
        for (bool last = false; !last; ++taken) {
            if (taken == 0 && remeshEarly)
                remeshMeasured(false);  // laid at once: it is for this frame
            else if (remeshDue())
                remeshMeasured(true);
            runPhase(Phase::Grid, [&] { updateGrid(); });
            keepVelocityGridForExponentialMove();
            runPhase(Phase::Velocity, [&] { computeVelocityGrid(); });
            if (taken == 0) {
                strainDemandBefore_ = strainDemand_;
                strainDemand_ = maxGridStrain_ * frameDt / fluid_.strainLimit;
            }
            const int stepsLeft = substepsFor(remaining, taken);
            last = stepsLeft == 1;
            const float dt = last ? remaining : remaining / float(stepsLeft);
            remaining -= dt;
            undiffused_ += dt;
            const bool remeshWork = remeshCount_ != remeshesBefore || remeshSizedAtStep_ == stepCount_;
            const bool diffuseNow = !fluid_.diffusionPerFrame || (last && diffusionDue(remeshWork));
            substep(dt, diffuseNow ? undiffused_ : 0.0f);
            if (diffuseNow) {
                undiffused_ = 0.0f;
                framesSinceDiffusion_ = 0;
            }
        }
        if (firstRemeshDueNextFrame()) runPhase(Phase::Remesh, [&] { sizeFirstRemeshAhead(); });
    });
    ++stepCount_;
    time_ = frameStart + double(frameDt);
    lastSubsteps_ = taken;
    timers_.endStep();
    lastStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The exponential move reads how the flow changed at each vorton's place since the last sub-step
// from that sub-step's grid (sim/exponential_advection.hpp): it is swapped aside rather than
// copied, since the velocity phase reshapes velocityGrid_ and writes every point. Other rules
// keep none.
void Simulation::keepVelocityGridForExponentialMove() {
    if (readsGradientToMove(fluid_.advectionIntegrator))
        std::swap(work_->previousVelocityGrid, velocityGrid_);
    else
        work_->previousVelocityGrid = {};
}

// The sub-step's phases from stretching to the vortons' move (and the tracers', unless they
// move beside these phases).
void Simulation::runVortonPhases(const FluidMethodStep& method, float dt, float diffusionDt) {
    if (fluid_.stretching) {
        runPhase(Phase::Stretching, [&] { stretchAndTilt(dt); });
        measureEnergyChange(&MeasuredEnergyChanges::stretching);
        if (relaxationFraction(fluid_.vorticityRelaxation, dt) > 0.0f) {
            runPhase(Phase::Stretching, [&] { relaxVorticity(dt); });
            measureEnergyChange(&MeasuredEnergyChanges::relaxation);
        }
    } else
        work_->history.clearStretching();  // a later stretching step has no last rate
    carryLatticeDistortion(dt);
    runPhase(Phase::Walls, [&] { computeWallFields(method); });
    runPhase(Phase::Density, [&] {
        if (!baroclinicRatesPrepared_) computeDensityGradient();  // of the gather the velocity phase made
    });
    if (fluid_.baroclinic) {
        runPhase(Phase::Baroclinic, [&] { generateBaroclinicVorticity(dt); });
        measureEnergyChange(&MeasuredEnergyChanges::baroclinic);
    }
    if (diffusionDt > 0.0f && fluid_.diffusion && (fluid_.viscosity > 0.0f || subgridActive())) {
        runPhase(Phase::Diffusion, [&] { diffuse(diffusionDt); });
        measureEnergyChange(&MeasuredEnergyChanges::diffusion);
    }
    runMethodPhases(method, dt);
    measureEnergyChange(&MeasuredEnergyChanges::advection);
}

// The tracers' move through the sub-step's grid flow, run beside the vorton phases: it reads only
// what the velocity phase left (the velocity and density grids, the flows bodies push aside) and
// the past sub-steps' lengths taken here, which those phases do not change, and writes only the
// tracers and their rates, which those phases do not read. A second thread, idle through the
// vortons' serial parts (the tree's build, the small per-vorton passes), moves tracers instead:
// with 32,768 tracers on the 2,176-vorton drop they are a tenth of a frame's work. The results
// are the same as in turn, for any thread count.
void Simulation::moveTracersBeside(float dt, const std::function<void()>& vortonPhases) {
    const StepFlow flow = gridStepFlow(dt);
    const MotionHistory::PastSteps past = work_->history.pastSteps();
    std::optional<MovedTracerBounds> moved;
    tracersMovingBeside_ = true;
    try {
        parallelInvoke([&] { moved = work_->advection.moveTracers(flow, tracers_, work_->history, past, dt); },
                       vortonPhases);
    } catch (...) {
        tracersMovingBeside_ = false;
        throw;
    }
    tracersMovingBeside_ = false;
    work_->knownTracerBounds = moved;
    if (!(moved ? moved->finite : allFinite(tracers_.position)))
        throw NonFiniteError(stepCount_ + 1, phaseName(Phase::Advection));
}

void Simulation::substep(float dt, float diffusionDt) {
    const FluidMethodStep& method = fluidMethodStep(fluid_.method);
    work_->jacobianAtVortonsCurrent = false;
    // The impulse each flow a moving body pushes aside (found with the velocity grid) exchanges
    // with the vortons as it moves and stretches them, measured before it does.
    work_->pushedImpulseRates = impulseRateFromPotentialFlows(work_->pushedFlows, vortons_);
    markEnergyIfStale();
    if (method.tracersFollowGridFlow() && tracers_.size() > 0)
        moveTracersBeside(dt, [&] { runVortonPhases(method, dt, diffusionDt); });
    else
        runVortonPhases(method, dt, diffusionDt);
    if (fluid_.gravity != vec3(0.0f) && method.buoyancyActs(fluid_))
        energyBudget_.addBuoyancy(vortons_, fluid_.gravity, dt);
    if (!bodies_.empty()) {
        runPhase(Phase::Bodies, [&] { interactWithBodies(dt); });
        measureEnergyChange(&MeasuredEnergyChanges::bodies);
    }
    substepTime_ += dt;
    ++substepCount_;
    strainSinceRemesh_ = method.strainAfterSubstep(strainSinceRemesh_, maxGridStrainRate_, dt);
    const float spacing = remeshSpacing_ > 0.0f ? remeshSpacing_ : vortons_.meanSpacing();
    spreadSinceRemesh_ += diffusionSpreadRate(fluid_.viscosity, spacing) * dt;
}

// Sub-steps still needed to cover `remaining` seconds, from the flow just computed: the fastest
// flow may cross at most cfl_limit grid spacings and the strongest strain act for at most
// strain_limit per sub-step (explicit stretching and advection stay accurate and stable), and
// under sph and hybrid the SPH forces' fastest oscillation turn at most kSphStepFrequencyLimit
// radians, and no sub-step longer than max_substep_dt (to 0.1%, so that a frame step a few
// roundings past a multiple of it takes that multiple), up to max_substeps for the whole frame.
int Simulation::substepsFor(float remaining, int taken) const {
    const float h = std::min({gridShape_.spacing.x, gridShape_.spacing.y, gridShape_.spacing.z});
    float rate = std::max(maxGridSpeed_ / (fluid_.cflLimit * h), maxGridStrain_ / fluid_.strainLimit);
    if (vortons_.size() > 0 && fluidMethodStep(fluid_.method).sphForcesAct())
        rate = std::max(rate, sphFastestFrequency(fluid_) / kSphStepFrequencyLimit);
    double wanted = std::ceil(double(remaining) * double(rate) - 1e-6);
    if (fluid_.maxSubstepDt > 0.0f)
        wanted = std::max(wanted, std::ceil(double(remaining) / double(fluid_.maxSubstepDt) - 1e-3));
    const int budget = std::max(fluid_.maxSubsteps - taken, 1);
    return int(std::clamp(wanted, 1.0, double(budget)));
}

// Under the lattice trigger, each vorton's neighbourhood is carried through the sub-step in the
// velocity gradient at it, before the vortons move.
void Simulation::carryLatticeDistortion(float dt) {
    if (fluid_.remeshTrigger != RemeshTrigger::Lattice || !fluidMethodStep(fluid_.method).mayRemesh(fluid_)) {
        latticeMaps_.clear();
        return;
    }
    // Vortons a remesh would leave out (below remesh_threshold of the largest) do not count.
    runPhase(Phase::Remesh, [&] {
        latticeStrain_ =
            carryLatticeMaps(velocityGradientAtVortons(), vortons_, dt, fluid_.remeshThreshold, latticeMaps_);
    });
}

// A remesh phase, its change of the field energy measured (when measuring) once its values are checked.
void Simulation::remeshMeasured(bool mayDefer) {
    markEnergyIfStale();
    const long before = remeshCount_;
    runPhase(Phase::Remesh, [&] { remesh(mayDefer); });
    if (remeshCount_ != before) measureEnergyChange(&MeasuredEnergyChanges::remesh);
}

// --- 1. grid sized to all particles ----------------------------------------------------------

namespace {

struct Bounds {
    vec3 lo{1e30f}, hi{-1e30f};
    bool empty() const { return lo.x > hi.x; }
    Bounds joined(const Bounds& o) const { return {glm::min(lo, o.lo), glm::max(hi, o.hi)}; }
    Bounds widened(float by) const { return {lo - vec3(by), hi + vec3(by)}; }
};

Bounds boundsOf(const std::vector<vec3>& points) {
    return deterministicReduce<Bounds>(
        points.size(), Bounds{},
        [&](size_t s, size_t e) {
            Bounds r;
            for (size_t i = s; i < e; ++i) {
                r.lo = glm::min(r.lo, points[i]);
                r.hi = glm::max(r.hi, points[i]);
            }
            return r;
        },
        [](const Bounds& a, const Bounds& c) { return a.joined(c); });
}

// Empty layers of points the grid keeps beyond the cells a vorton deposits its density on: the
// centred differences then sum by parts exactly, so the grid's baroclinic source carries exactly
// the impulse rate g sum(rho' V) / rho0 (with a deposit on the faces, one-sided differences there
// broke it by up to 11%).
constexpr float kEmptyLayers = 2.0f;

// Whole spacings h to add past a face `gap` from the outermost vorton so it lies at least
// kEmptyLayers spacings inside (by a margin over rounding: a vorton exactly on a point would
// deposit on it).
int layersShortOf(float gap, float h) { return std::max(0, int(std::ceil(kEmptyLayers * 1.001f - gap / h))); }

}  // namespace

void Simulation::updateGrid() {
    const Bounds vortonBox = boundsOf(vortons_.position);
    const std::optional<MovedTracerBounds>& moved = work_->knownTracerBounds;
    Bounds all = vortonBox.joined(moved ? Bounds{moved->lo, moved->hi} : boundsOf(tracers_.position));
    if (all.empty()) all = Bounds{vec3(-1.0f), vec3(1.0f)};  // no particles: a nominal grid
    // Pad by the largest core so every vorton's influence region is inside the grid.
    float maxSigma = 0.0f;
    for (float s : vortons_.radius) maxSigma = std::max(maxSigma, s);
    const Bounds padded = all.widened(maxSigma);
    gridShape_ = GridShape::fitBox(padded.lo, padded.hi, size_t(fluid_.gridCellTarget(double(vortons_.size()))), 1e-4f);
    // Rounding up each axis can take the count past the cap: then the finest grid within it.
    if (fluid_.maxGridCells > 0 && gridShape_.cellCount() > size_t(fluid_.maxGridCells))
        gridShape_ = GridShape::fitBoxAtMost(padded.lo, padded.hi, size_t(fluid_.maxGridCells), 1e-4f);
    // VPM deposits by cloud-in-cell, on the corners of each vorton's cell, so layers of points
    // at least kEmptyLayers spacings past every vorton stay empty: each face gains the layers
    // the core's padding and the rounding left short of that. SPH interpolates over its kernel,
    // and bodies weigh the density near their walls by the fluid share of cut cells: with either,
    // every face gains kEmptyLayers layers past the padded box.
    const bool cloudInCell =
        fluidMethodStep(fluid_.method).method() == FluidMethod::Vpm && bodies_.empty() && !vortonBox.empty();
    for (int a = 0; a < 3; ++a) {
        if (gridShape_.flatAxis(a)) continue;
        const float h = gridShape_.spacing[a];
        const float highFace = gridShape_.minCorner[a] + float(gridShape_.points[a] - 1) * h;
        const int below = cloudInCell ? layersShortOf(vortonBox.lo[a] - gridShape_.minCorner[a], h) : int(kEmptyLayers);
        const int above = cloudInCell ? layersShortOf(highFace - vortonBox.hi[a], h) : int(kEmptyLayers);
        gridShape_.minCorner[a] -= float(below) * h;
        gridShape_.points[a] += below + above;
    }
    partition_.build(gridShape_, vortons_.position);
}

// --- 3. stretching and tilting ---------------------------------------------------------------

void Simulation::stretchAndTilt(float dt) {
    const StretchingInputs in{velocityGradientAtVortons(), work_->pushedFlows,
                              fluid_.stretchingScheme,     fluid_.stretchingIntegrator,
                              fluid_.adamsBashforth,       fluid_.velocitySolver == VelocitySolver::Box};
    stretchVortons(in, vortons_, work_->history, dt);
}

// Vorticity relaxation after stretching, with the gradient stretching read (fluid.vorticity_relaxation).
void Simulation::relaxVorticity(float dt) {
    relaxTowardResolvedVorticity(velocityGradientAtVortons(), relaxationFraction(fluid_.vorticityRelaxation, dt),
                                 vortons_);
}

// The velocity gradient at each vorton, looked up once per sub-step (stretching and the subgrid
// model read it while the vortons have not moved).
const std::vector<mat3>& Simulation::velocityGradientAtVortons() {
    std::vector<mat3>& gradient = work_->jacobianAtVortons;
    if (!work_->jacobianAtVortonsCurrent || gradient.size() != vortons_.size()) {
        interpolateAtPoints(jacobianGrid_, vortons_.position, gradient);
        work_->jacobianAtVortonsCurrent = true;
    }
    return gradient;
}

// --- 5. viscous diffusion ---------------------------------------------------------------------

void Simulation::diffuse(float dt) {
    std::vector<float>& eddy = work_->eddyViscosity;
    eddy.clear();
    const std::vector<mat3>& gradient = velocityGradientAtVortons();
    if (subgridActive()) {
        const ResolvedFlowAtVortons resolved{gradient, vortons_.radius, gridShape_.spacing.x};
        if (fluid_.subgridModel == SubgridModel::Dynamic || fluid_.subgridModel == SubgridModel::DynamicLocal)
            dynamicEddyViscosity(resolved, eddy);
        else
            subgridEddyViscosity(fluid_.subgridModel, resolved, fluid_.subgridCoefficient, eddy);
    }
    energyBudget_.addDiffusion(vortons_, gradient, velocityGrid_, fluid_.viscosity, eddy, fluid_.ambientDensity, dt);
    work_->pse.apply(vortons_, fluid_.viscosity, dt, eddy);
}

// Smagorinsky's eddy viscosity with Germano's coefficient for the flow now (global, or per grid
// point for dynamic_local), at the filter width of the vortons' mean core, never above
// fluid.subgrid_coefficient.
void Simulation::dynamicEddyViscosity(const ResolvedFlowAtVortons& resolved, std::vector<float>& eddy) {
    const float width = resolvedFilterWidth(meanCoreRadius(vortons_.radius), gridShape_.spacing.x);
    const float ceiling = fluid_.subgridCoefficient;
    if (fluid_.subgridModel == SubgridModel::DynamicLocal) {
        UniformGrid<float>& c2 = work_->dynamicCoefficientGrid;
        work_->dynamic.computeLocal(velocityGrid_, jacobianGrid_, width, ceiling * ceiling, c2);
        lastDynamicCoefficient_ = localSmagorinskyEddyViscosity(resolved, c2, vortons_.position, eddy);
        return;
    }
    const float c2 = work_->dynamic.compute(velocityGrid_, jacobianGrid_, width);
    lastDynamicCoefficient_ = std::min(std::sqrt(c2), ceiling);
    smagorinskyEddyViscosity(resolved, lastDynamicCoefficient_, eddy);
}

const std::vector<float>& Simulation::eddyViscosity() const { return work_->eddyViscosity; }

// --- 6. the fluid method's phases: SPH (sph, hybrid) and advection ----------------------------

void Simulation::runMethodPhases(const FluidMethodStep& method, float dt) {
    StepFlow flow = gridStepFlow(dt);
    if (readsGradientToMove(fluid_.advectionIntegrator)) {
        flow.gradientAtVortons = &velocityGradientAtVortons();
        flow.previousVelocity = &work_->previousVelocityGrid;
    }
    const FluidMethodStep& previous = methodBefore(work_->lastSphPhase, substepCount_);
    FluidStepState state{fluid_,
                         vortons_,
                         tracers_,
                         flow,
                         walls_.kernelShare,
                         work_->sph,
                         work_->advection,
                         work_->history,
                         previous,
                         work_->lastSphPhase,
                         substepCount_,
                         work_->knownTracerBounds,
                         tracersMovingBeside_};
    const PhaseRunner run = [this](Phase phase, const std::function<void()>& body) { runPhase(phase, body); };
    method.runOwnPhases(run, state, dt);
    runPhase(Phase::Advection, [&] {
        if (!tracersMovingBeside_) work_->knownTracerBounds.reset();  // the grid flow's move of the tracers sets it
        method.advect(state, dt);
    });
}

// The sub-step's grid flow as the velocity and density phases left it, for the explicit rules
// (the exponential move's fields are added by the caller that moves vortons with it).
StepFlow Simulation::gridStepFlow(float dt) const {
    StepFlow flow{gridShape_, velocityGrid_, work_->density.densityGrid(), work_->pushedFlows, fluid_.adamsBashforth};
    flow.threeStep = fluid_.advectionIntegrator == AdvectionIntegrator::ThreeStep ||
                     fluid_.advectionIntegrator == AdvectionIntegrator::ExponentialInCores;
    flow.exponentialInCoresOnly = fluid_.advectionIntegrator == AdvectionIntegrator::ExponentialInCores;
    flow.threeStepAllowed = maxGridStrain_ * dt <= kThreeStepStrainLimit;
    return flow;
}

}  // namespace vfx
