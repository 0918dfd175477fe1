#include "sim/simulation.hpp"

#include "sim/body_coupling.hpp"
#include "core/parallel.hpp"
#include "sim/param_declarations.hpp"
#include "sim/baroclinic.hpp"
#include "sim/diffusion.hpp"
#include "sim/fluid_method.hpp"
#include "sim/grid_lookups.hpp"
#include "sim/remesh.hpp"
#include "sim/sph.hpp"
#include "sim/tracer_advection.hpp"
#include "sim/velocity_solver.hpp"

#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace vfx {

NonFiniteError::NonFiniteError(long stepIndex, const std::string& phaseName)
    : std::runtime_error("non-finite value at step " + std::to_string(stepIndex) + " in phase " + phaseName),
      step(stepIndex),
      phase(phaseName) {}

// Rates of the last sub-step, per particle, for the two-step Adams-Bashforth rule. Valid only
// for the particle set they were taken on: a remesh, a reset or a change of count drops them.
struct MotionHistory {
    std::vector<vec3> vortonVelocity;  // vortex velocity at each vorton
    std::vector<vec3> stretching;      // d(omega)/dt from stretching and tilting
    std::vector<vec3> tracerVelocity;
    float dt = 0.0f;  // the sub-step they were used for; 0 = none

    void clear() {
        dt = 0.0f;
        clearVortons();
        tracerVelocity.clear();
    }
    // The vortons' rates only (a remesh makes new vortons): the tracers are the same particles
    // in a flow that is continuous across the remesh, so they keep their last velocity and the
    // two-step rule (without it they would take the midpoint rule, a second lookup each).
    void clearVortons() {
        vortonVelocity.clear();
        stretching.clear();
    }
};

// Weights of x += dt (current f_n + previous f_n-1): the variable-step two-step Adams-Bashforth
// rule for a step dt after one of previousDt (second order), or the one-step rule without one.
struct StepWeights {
    float current = 1.0f;
    float previous = 0.0f;
    bool twoStep() const { return previous != 0.0f; }
};
// A step more than twice the last one extrapolates the old rate too far (the weight of f_n-1
// grows with the ratio): such a step, rare (a frame's sub-step count halving), is one-step.
constexpr float kLargestStepRatio = 2.0f;
StepWeights adamsBashforthWeights(bool twoStep, float dt, float previousDt) {
    if (!twoStep || !(previousDt > 0.0f) || dt > kLargestStepRatio * previousDt) return {};
    const float r = dt / previousDt;
    return {1.0f + 0.5f * r, -0.5f * r};
}

// A vorton a wall moved in the last collision pass: its last rate belongs to where it was
// before the wall put it back, so it takes the one-step rule.
bool movedByWall(const Vortons& v, size_t i) { return v.hitWall.size() == v.size() && v.hitWall[i]; }

// Velocity a particle at x moves with for a step dt: the two-step rule from its velocity in the
// field now and last sub-step's (`previous`, replaced by now's), else the midpoint rule in the
// frozen field.
template <class Flow>
vec3 stepVelocityFrom(const vec3& now, const Flow& flow, const vec3& x, float dt, StepWeights w, vec3& previous) {
    const vec3 v = w.twoStep() ? w.current * now + w.previous * previous : flow(x + 0.5f * dt * now);
    previous = now;
    return v;
}

// What the vortons of one cell deposit at each of its 8 corners (corner index x + 2y + 4z).
struct CornerSums {
    float mass[8] = {};
    float volume[8] = {};
};

struct Simulation::Workspace {
    VortonTree tree;
    SphFluid sph;
    PseDiffusion pse;
    Remesher remesher;
    BaroclinicTransfer baroclinic;
    std::vector<float> eddyViscosity;  // subgrid viscosity of each vorton
    std::vector<vec3> gridPoints;
    std::vector<vec3> scratch;
    UniformGrid<FlowAndDensity> flowAndDensity;  // the tracers' packed lookup grid
    std::vector<CornerSums> cellCornerSums;      // the density deposit's per-cell sums
    std::vector<float> massDeviation;
    std::vector<float> volume;
    UniformGrid<float> coverage;        // vorton volume per cell volume at each grid point
    UniformGrid<float> gradientSource;  // the field whose gradient drives buoyancy
    UniformGrid<float> fluidShare;      // share of each grid point's support in fluid (with bodies)
    std::vector<float> rampArgument;    // the coverage ramp's argument at each grid point
    std::vector<float> rampFilled;      // scratch for filling it into walls
    // The velocity gradient at each vorton, looked up by stretching; diffusion's eddy viscosity
    // reuses it while the vortons have not moved (the same sub-step).
    std::vector<mat3> jacobianAtVortons;
    bool jacobianAtVortonsCurrent = false;
    std::vector<vec3> flowAtVortons;         // the grid's velocity at each vorton, for advection
    std::vector<PotentialFlow> pushedFlows;  // this sub-step's flows moving bodies push aside
    std::vector<dvec3> pushedImpulseRates;   // and the rate each changes the vortons' impulse
    MotionHistory history;
};

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

void Simulation::reset() {
    vortons_.clear();
    tracers_.resize(0);
    bodies_.clear();
    stepCount_ = 0;
    time_ = 0.0;
    substepTime_ = 0.0;
    lastStepMs_ = 0.0;
    lastSubsteps_ = 0;
    substepCount_ = 0;
    remeshCount_ = 0;
    strainSinceRemesh_ = 0.0f;
    remeshSpacing_ = 0.0f;
    remeshBaseCount_ = 0;
    walls_ = {};
    velocityGrid_ = {};
    jacobianGrid_ = {};
    densityGrid_ = {};
    densityGradientGrid_ = {};
    densityGradientGridStale_ = false;
    timers_ = PhaseTimers{};
    registerPhases(timers_);
    Workspace* fresh = new Workspace();
    work_.reset(fresh);  // drops SPH method history and solver scratch
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
    // Only advection and the body phase move tracers: the other phases skip their (many) positions.
    const bool includeTracers = phase == Phase::Advection || phase == Phase::Bodies;
    bool ok = allFinite(vortons_.position) && allFinite(vortons_.vorticity) && allFinite(vortons_.velocity) &&
              (!includeTracers || allFinite(tracers_.position));
    for (const RigidBody& b : bodies_)
        ok = ok && isFinite(b.position) && isFinite(b.velocity) && isFinite(b.angularVelocity);
    if (!ok) throw NonFiniteError(stepCount_ + 1, phaseName(phase));
}

void Simulation::step(float frameDt) {
    requireValidParams(fluid_);  // the panels and an embedding engine edit fluid() in place
    const auto start = std::chrono::steady_clock::now();
    timers_.beginStep();
    const double frameStart = time_;
    substepTime_ = time_;
    int taken = 0;
    arena_->execute([&] {
        float remaining = frameDt;
        for (bool last = false; !last; ++taken) {
            if (remeshDue()) runPhase(Phase::Remesh, [&] { remesh(); });
            runPhase(Phase::Grid, [&] { updateGrid(); });
            runPhase(Phase::Velocity, [&] { computeVelocityGrid(); });
            const int stepsLeft = substepsFor(remaining, taken);
            last = stepsLeft == 1;
            const float dt = last ? remaining : remaining / float(stepsLeft);
            remaining -= dt;
            substep(dt);
        }
    });
    ++stepCount_;
    time_ = frameStart + double(frameDt);
    lastSubsteps_ = taken;
    timers_.endStep();
    lastStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void Simulation::substep(float dt) {
    const FluidMethodStep& method = fluidMethodStep(fluid_.method);
    work_->jacobianAtVortonsCurrent = false;
    // The impulse each flow a moving body pushes aside (found with the velocity grid) exchanges
    // with the vortons as it moves and stretches them, measured before it does.
    work_->pushedImpulseRates = impulseRateFromPotentialFlows(work_->pushedFlows, vortons_);
    if (fluid_.stretching)
        runPhase(Phase::Stretching, [&] { stretchAndTilt(dt); });
    else
        work_->history.stretching.clear();  // a later stretching step has no last rate
    runPhase(Phase::Walls, [&] { computeWallFields(method); });
    runPhase(Phase::Density, [&] {
        depositDensity();
        computeDensityGradient();
    });
    if (fluid_.baroclinic) runPhase(Phase::Baroclinic, [&] { generateBaroclinicVorticity(dt); });
    if (fluid_.diffusion && (fluid_.viscosity > 0.0f || fluid_.subgridCoefficient > 0.0f))
        runPhase(Phase::Diffusion, [&] { diffuse(dt); });
    if (method.sphPressure()) runPhase(Phase::Sph, [&] { computeSph(method, dt); });
    runPhase(Phase::Advection, [&] { advect(method, dt); });
    if (!bodies_.empty()) runPhase(Phase::Bodies, [&] { interactWithBodies(dt); });
    substepTime_ += dt;
    ++substepCount_;
    if (method.remeshes())
        strainSinceRemesh_ += maxGridStrainRate_ * dt;
    else
        strainSinceRemesh_ = 0.0f;
}

// Sub-steps still needed to cover `remaining` seconds, from the flow just computed: the fastest
// flow may cross at most cfl_limit grid spacings and the strongest strain act for at most
// strain_limit per sub-step (explicit stretching and advection stay accurate and stable), up to
// max_substeps for the whole frame.
int Simulation::substepsFor(float remaining, int taken) const {
    const float h = std::min({gridShape_.spacing.x, gridShape_.spacing.y, gridShape_.spacing.z});
    const float rate = std::max(maxGridSpeed_ / (fluid_.cflLimit * h), maxGridStrain_ / fluid_.strainLimit);
    const double wanted = std::ceil(double(remaining) * double(rate) - 1e-6);
    const int budget = std::max(fluid_.maxSubsteps - taken, 1);
    return int(std::clamp(wanted, 1.0, double(budget)));
}

bool Simulation::remeshDue() const {
    return fluid_.remeshStrain > 0.0f && fluidMethodStep(fluid_.method).remeshes() &&
           strainSinceRemesh_ >= fluid_.remeshStrain && vortons_.size() > 0;
}

void Simulation::remesh() {
    strainSinceRemesh_ = 0.0f;
    if (!(remeshSpacing_ > 0.0f)) {
        // The lattice is set at the first remesh (the mean particle spacing), so later remeshes
        // land on the same lattice until the budget makes it coarser.
        double volumeSum = 0.0;
        for (float v : vortons_.volumes) volumeSum += v;
        remeshSpacing_ = float(std::cbrt(volumeSum / double(vortons_.size())));
        remeshBaseCount_ = vortons_.size();
    }
    RemeshSettings settings;
    settings.spacing = remeshSpacing_;
    settings.maxCount = fluid_.vortonBudget > 0.0f
                            ? std::max<size_t>(size_t(double(fluid_.vortonBudget) * double(remeshBaseCount_)), 1)
                            : 0;
    settings.coreOverlap = fluid_.coreOverlap > 0.0f ? fluid_.coreOverlap : 1.5f;
    settings.threshold = fluid_.remeshThreshold;
    // With bodies, the lattice leaves out what lies inside solids or outside containers.
    Remesher::FluidRegion fluidRegion;
    if (!bodies_.empty())
        fluidRegion = [this](const vec3& p) {
            for (const RigidBody& body : bodies_)
                if (mayTouchBody(body, p, 0.0f) && contactDistance(body, p) < 0.0f) return false;
            return true;
        };
    if (!work_->remesher.apply(vortons_, settings, fluidRegion)) return;
    work_->history.clearVortons();  // new particles have no past
    remeshSpacing_ = work_->remesher.lastSpacing();
    ++remeshCount_;
}

// --- 1. grid sized to all particles ----------------------------------------------------------

void Simulation::updateGrid() {
    vec3 lo(1e30f), hi(-1e30f);
    auto grow = [&](const std::vector<vec3>& pts) {
        struct Box {
            vec3 lo, hi;
        };
        Box b = deterministicReduce<Box>(
            pts.size(), Box{vec3(1e30f), vec3(-1e30f)},
            [&](size_t s, size_t e) {
                Box r{vec3(1e30f), vec3(-1e30f)};
                for (size_t i = s; i < e; ++i) {
                    r.lo = glm::min(r.lo, pts[i]);
                    r.hi = glm::max(r.hi, pts[i]);
                }
                return r;
            },
            [](Box a, Box c) {
                return Box{glm::min(a.lo, c.lo), glm::max(a.hi, c.hi)};
            });
        lo = glm::min(lo, b.lo);
        hi = glm::max(hi, b.hi);
    };
    grow(vortons_.position);
    grow(tracers_.position);
    if (lo.x > hi.x) {
        lo = vec3(-1.0f);
        hi = vec3(1.0f);
    }  // no particles: a nominal grid
    // Pad by the largest core so every vorton's influence region is inside the grid.
    float maxSigma = 0.0f;
    for (float s : vortons_.radius) maxSigma = std::max(maxSigma, s);
    lo -= vec3(maxSigma);
    hi += vec3(maxSigma);
    const size_t target = std::max<size_t>(size_t(float(vortons_.size()) * fluid_.gridCellsPerVorton), 64);
    gridShape_ = GridShape::fitBox(lo, hi, target, 1e-4f);
    // Two empty layers of points around everything deposited: the centred differences then sum
    // by parts exactly, so the grid's baroclinic source carries exactly the impulse rate
    // g sum(rho' V) / rho0 (with a deposit on the faces, one-sided differences there broke it
    // by up to 11%).
    for (int a = 0; a < 3; ++a) {
        if (gridShape_.flatAxis(a)) continue;
        gridShape_.minCorner[a] -= 2.0f * gridShape_.spacing[a];
        gridShape_.points[a] += 4;
    }
    partition_.build(gridShape_, vortons_.position);
}

// --- 2. velocity on the grid points ----------------------------------------------------------

// S:S for the strain rate S, the symmetric part of the velocity gradient j.
static inline __attribute__((always_inline)) float strainRateSquared(const mat3& j) {
    const mat3 strain = 0.5f * (j + glm::transpose(j));
    return glm::dot(strain[0], strain[0]) + glm::dot(strain[1], strain[1]) + glm::dot(strain[2], strain[2]);
}

// Centred difference along one axis, one-sided at the faces, zero along a flat axis.
template <typename T>
static T axisDerivative(const UniformGrid<T>& g, int x, int y, int z, int axis) {
    const GridShape& s = g.shape();
    if (s.flatAxis(axis)) return T{};
    ivec3 p(x, y, z), lo = p, hi = p;
    lo[axis] = std::max(p[axis] - 1, 0);
    hi[axis] = std::min(p[axis] + 1, s.points[axis] - 1);
    const float h = float(hi[axis] - lo[axis]) * s.spacing[axis];
    return (g.at(hi.x, hi.y, hi.z) - g.at(lo.x, lo.y, lo.z)) * (1.0f / h);
}

// Gradient of a grid field at every point: component (or column) a is d/dx_a, so a float field
// gives a vec3 and a vec3 field a mat3 whose column j holds du/dx_j.
template <typename T, typename Gradient>
static void differentiate(const UniformGrid<T>& field, UniformGrid<Gradient>& out) {
    const GridShape& shape = field.shape();
    out.reshape(shape);  // every point is written below
    const ivec3 n = shape.points;
    const bool solid = !shape.anyFlatAxis();
    const size_t stride[3] = {1, size_t(n.x), size_t(n.x) * size_t(n.y)};
    // 1 / (2 h): the same factor axisDerivative takes for a centred difference.
    const float invSpan[3] = {1.0f / (2.0f * shape.spacing.x), 1.0f / (2.0f * shape.spacing.y),
                              1.0f / (2.0f * shape.spacing.z)};
    parallelForEach(
        0, size_t(n.z),
        [&](size_t zi) {
            const int z = int(zi);
            for (int y = 0; y < n.y; ++y)
                for (int x = 0; x < n.x; ++x) {
                    Gradient g;
                    const bool interior = solid && x > 0 && y > 0 && z > 0 && x < n.x - 1 && y < n.y - 1 && z < n.z - 1;
                    if (interior) {
                        const size_t k = shape.index(x, y, z);
                        for (int a = 0; a < 3; ++a) g[a] = (field[k + stride[a]] - field[k - stride[a]]) * invSpan[a];
                    } else {
                        for (int a = 0; a < 3; ++a) g[a] = axisDerivative(field, x, y, z, a);
                    }
                    out.at(x, y, z) = g;
                }
        },
        1);
}

void Simulation::computeVelocityGrid() {
    solveVelocityGrid();
    // The Jacobian serves stretching and, with the speed, sets the sub-step size.
    differentiate(velocityGrid_, jacobianGrid_);
    struct Limits {
        float speed2 = 0.0f, gradient2 = 0.0f, strain2 = 0.0f;
    };
    const Limits l = deterministicReduce<Limits>(
        velocityGrid_.size(), Limits{},
        [&](size_t b, size_t e) {
            Limits r;
            for (size_t k = b; k < e; ++k) {
                const vec3 u = velocityGrid_[k];
                const mat3& j = jacobianGrid_[k];
                r.speed2 = std::max(r.speed2, glm::dot(u, u));
                r.gradient2 = std::max(r.gradient2, glm::dot(j[0], j[0]) + glm::dot(j[1], j[1]) + glm::dot(j[2], j[2]));
                r.strain2 = std::max(r.strain2, strainRateSquared(j));
            }
            return r;
        },
        [](Limits a, Limits c) {
            return Limits{std::max(a.speed2, c.speed2), std::max(a.gradient2, c.gradient2),
                          std::max(a.strain2, c.strain2)};
        },
        8192);
    // Frobenius norms: they bound every eigenvalue of grad u (rotation included, which explicit
    // sub-steps must also resolve) and of its symmetric part S (what distorts the particle set).
    maxGridSpeed_ = std::sqrt(l.speed2);
    // The flows moving bodies push aside this sub-step; each is fastest at the body's sides, at
    // 3/2 of its relative speed.
    work_->pushedFlows = potentialFlows(bodies_, velocityGrid_, fluid_);
    for (const PotentialFlow& f : work_->pushedFlows) {
        const bool inGrid = velocityGrid_.shape().encloses(f.centre);
        const float around = inGrid ? glm::length(velocityGrid_.interpolate(f.centre)) : 0.0f;
        maxGridSpeed_ = std::max(maxGridSpeed_, around + 1.5f * glm::length(f.relativeVelocity));
    }
    maxGridStrain_ = std::sqrt(l.gradient2);
    maxGridStrainRate_ = std::sqrt(l.strain2);
}

void Simulation::solveVelocityGrid() {
    velocityGrid_.reshape(gridShape_);  // both solvers write every point
    if (fluid_.velocitySolver == VelocitySolver::Tree) {
        work_->tree.build(vortons_);
        work_->tree.velocityOnGrid(gridShape_, velocityGrid_.values(), fluid_.treeOpeningAngle);
        return;
    }
    std::vector<vec3>& points = work_->gridPoints;
    points.resize(gridShape_.pointCount());
    const ivec3 n = gridShape_.points;
    parallelForEach(
        0, size_t(n.z),
        [&](size_t z) {
            for (int y = 0; y < n.y; ++y)
                for (int x = 0; x < n.x; ++x)
                    points[gridShape_.index(x, y, int(z))] = gridShape_.pointPosition(x, y, int(z));
        },
        1);
    velocityAtPoints(points, velocityGrid_.values());
}

void Simulation::velocityAtPoints(const std::vector<vec3>& points, std::vector<vec3>& out) const {
    if (fluid_.velocitySolver == VelocitySolver::Direct) {
        directVelocity(vortons_, points, out);
        return;
    }
    work_->tree.build(vortons_);
    work_->tree.velocity(points, out, fluid_.treeOpeningAngle);
}

// --- 3. stretching and tilting ---------------------------------------------------------------

void Simulation::stretchAndTilt(float dt) {
    // J * omega = (omega . grad) u with column j of J holding du/dx_j (computed with the velocity).
    MotionHistory& history = work_->history;
    const bool twoStep = fluid_.adamsBashforth && history.stretching.size() == vortons_.size();
    const StepWeights weights = adamsBashforthWeights(twoStep, dt, history.dt);
    history.stretching.resize(vortons_.size());
    // Moving bodies' potential flow stretches and tilts vortex lines too.
    const std::vector<PotentialFlow>& pushed = work_->pushedFlows;
    std::vector<mat3>& gradient = work_->jacobianAtVortons;
    interpolateAtPoints(jacobianGrid_, vortons_.position, gradient);
    work_->jacobianAtVortonsCurrent = true;
    parallelForEachStable(
        0, vortons_.size(),
        [&](size_t i) {
            const vec3 x = vortons_.position[i];
            const mat3 j = pushed.empty() ? gradient[i] : gradient[i] + potentialFlowGradient(pushed, x);
            const vec3 w = vortons_.vorticity[i];
            vec3 rate;
            switch (fluid_.stretchingScheme) {
                case StretchingScheme::Classic:
                    rate = j * w;
                    break;
                case StretchingScheme::Transpose:
                    rate = glm::transpose(j) * w;
                    break;
                default:
                    rate = 0.5f * (j * w + glm::transpose(j) * w);
                    break;
            }
            const vec3 previous = history.stretching[i];
            history.stretching[i] = rate;
            const StepWeights use = movedByWall(vortons_, i) ? StepWeights{} : weights;
            vortons_.vorticity[i] = w + dt * (use.current * rate + use.previous * previous);
        },
        1024);
}

// --- 4. density deviation on the grid, its gradient, baroclinic generation --------------------

// Walls phase: each vorton's distance to the nearest wall (for poisoning and the SPH gradient's
// wall treatment) and, when an SPH sum runs this step, its kernel's share on the fluid side.
void Simulation::computeWallFields(const FluidMethodStep& method) {
    if (bodies_.empty()) {
        walls_.proximity.assign(vortons_.size(), 1e30f);
        walls_.kernelShare.clear();
        return;
    }
    const float reach = std::max(fluid_.sphInfluenceRadius, gridShape_.spacing.x);
    computeWallProximity(bodies_, vortons_.position, reach, walls_.proximity);
    if (method.needsWallKernelShare(fluid_))
        computeWallKernelShare(bodies_, vortons_.position, fluid_.sphInfluenceRadius, walls_.kernelShare);
    else
        walls_.kernelShare.clear();
}

// Density phase, first half: the vortons' mass deviation and volume deposited on the grid.
void Simulation::depositDensity() {
    // Gather formulation of the trilinear scatter: each grid point sums the vortons of the (up to)
    // 8 cells that touch it. Race-free, thread-count independent, and every vorton's 8 weights
    // still sum to one, so the grid carries exactly the particles' mass deviation.
    densityGrid_.reshape(gridShape_);  // every point is written below, as is the coverage
    const float invCellVolume = 1.0f / gridShape_.cellVolume();
    const ivec3 n = gridShape_.points;
    const ivec3 cells = gridShape_.cells();
    std::vector<vec3>& fraction = work_->scratch;
    std::vector<float>& massDeviation = work_->massDeviation;
    fraction.resize(vortons_.size());
    massDeviation.resize(vortons_.size());
    std::vector<float>& volume = work_->volume;
    volume.resize(vortons_.size());
    work_->coverage.reshape(gridShape_);
    parallelForEach(
        0, vortons_.size(),
        [&](size_t i) {
            gridShape_.cellOf(vortons_.position[i], &fraction[i]);
            volume[i] = vortons_.volume(i);
            massDeviation[i] = vortons_.density[i] * volume[i];
        },
        4096);
    // Each cell first sums what its vortons give each of its 8 corners (one visit per vorton),
    // then each grid point adds up the corners it is of the (up to) 8 cells around it.
    const std::vector<uint32_t>& sorted = partition_.sortedIndices();
    std::vector<CornerSums>& cellSums = work_->cellCornerSums;
    reserveWithHeadroom(cellSums, partition_.cellCount());
    cellSums.resize(partition_.cellCount());  // each cell's sums start from zero in its own item
    parallelForEach(
        0, cellSums.size(),
        [&](size_t cell) {
            CornerSums& sums = cellSums[cell];
            sums = CornerSums{};
            for (uint32_t k = partition_.begin(cell); k < partition_.end(cell); ++k) {
                const uint32_t i = sorted[k];
                const vec3& f = fraction[i];
                for (int corner = 0; corner < 8; ++corner) {
                    const float w = (corner & 1 ? f.x : 1.0f - f.x) * (corner & 2 ? f.y : 1.0f - f.y) *
                                    (corner & 4 ? f.z : 1.0f - f.z);
                    sums.mass[corner] += w * massDeviation[i];
                    sums.volume[corner] += w * volume[i];
                }
            }
        },
        256);
    parallelForEach(
        0, size_t(n.z),
        [&](size_t zi) {
            const int z = int(zi);
            for (int y = 0; y < n.y; ++y)
                for (int x = 0; x < n.x; ++x) {
                    float sum = 0.0f, covered = 0.0f;
                    const bool inside = x > 0 && y > 0 && z > 0 && x < cells.x && y < cells.y && z < cells.z;
                    if (inside) {
                        // All 8 cells around the point exist: fixed strides from the first, in
                        // the same order as the general loop below.
                        const size_t sy = size_t(cells.x), sz = size_t(cells.x) * size_t(cells.y);
                        const CornerSums* first = &cellSums[partition_.cellIndex(ivec3(x - 1, y - 1, z - 1))];
                        for (int dz = 0; dz < 2; ++dz)
                            for (int dy = 0; dy < 2; ++dy)
                                for (int dx = 0; dx < 2; ++dx) {
                                    const CornerSums& sums = first[size_t(dz) * sz + size_t(dy) * sy + size_t(dx)];
                                    const int corner = (1 - dx) + 2 * (1 - dy) + 4 * (1 - dz);
                                    sum += sums.mass[corner];
                                    covered += sums.volume[corner];
                                }
                        densityGrid_.at(x, y, z) = sum * invCellVolume;
                        work_->coverage.at(x, y, z) = covered * invCellVolume;
                        continue;
                    }
                    for (int cz = std::max(z - 1, 0); cz <= std::min(z, cells.z - 1); ++cz)
                        for (int cy = std::max(y - 1, 0); cy <= std::min(y, cells.y - 1); ++cy)
                            for (int cx = std::max(x - 1, 0); cx <= std::min(x, cells.x - 1); ++cx) {
                                const int corner = (x - cx) + 2 * (y - cy) + 4 * (z - cz);
                                const CornerSums& sums = cellSums[partition_.cellIndex(ivec3(cx, cy, cz))];
                                sum += sums.mass[corner];
                                covered += sums.volume[corner];
                            }
                    densityGrid_.at(x, y, z) = sum * invCellVolume;
                    work_->coverage.at(x, y, z) = covered * invCellVolume;
                }
        },
        1);
}

// Density phase, second half: the density gradient at the vortons, from the grid (poisoned near
// walls if asked) or from SPH sums. (Tracers take their colour from the density grid in the
// advection phase, from the same grid lookup that moves them.)
void Simulation::computeDensityGradient() {
    const bool sphGradient = fluid_.densityGradient == GradientSource::Sph && vortons_.size() > 0;
    densityGradientGridStale_ = sphGradient;
    if (!sphGradient) differentiateDensityGrid();
    if (sphGradient) {
        work_->sph.update(vortons_, fluid_);
        work_->sph.densityGradient(vortons_, walls_.proximity, walls_.kernelShare, fluid_, vortons_.densityGradient);
    } else {
        if (fluid_.poisoning != Poisoning::None && !bodies_.empty())
            poisonDensityGradient(densityGradientGrid_, bodies_, vortons_, partition_, fluid_);
        interpolateAtPoints(densityGradientGrid_, vortons_.position, vortons_.densityGradient);
    }
}

void Simulation::differentiateDensityGrid() const {
    differentiate(buoyancyDensityGrid(), densityGradientGrid_);
    densityGradientGridStale_ = false;
}

const UniformGrid<float>& Simulation::buoyancyDensityGrid() const {
    if (!fluid_.coverageDensity || work_->coverage.size() != densityGrid_.size()) return densityGrid_;
    // The deposited mass deviation is rho' times the share of the cell the vortons cover, and
    // that share is noisy at grid scale wherever vortons are not on a perfect lattice: inside a
    // tank of uniform heavy fluid its gradient stirs the fluid, the stirring disorders the
    // vortons, and the noise grows (measured: kinetic energy 1e-7 -> 5e-2 J over 1 000 steps).
    // The mean density of the vortons at a point (mass / volume) has no such noise, and the
    // coverage enters only through a ramp that is exactly 1 where the fluid is fully covered,
    // so only real edges of the dyed fluid (and walls, which poisoning handles) keep a gradient
    // - with the same total jump rho' across them. Same tank: 5e-14 J.
    // A wall is not an edge of the fluid: coverage is measured against the share of each point's
    // support that lies in fluid, so points by a wall (whose support reaches into it) keep the
    // fluid's full density, the same all along the wall, instead of a ramp that varies with how
    // the vortons happen to sit there (measured: that ramp stirred a resting two-layer tank to
    // 0.6 m/s within 8 s).
    const bool walls = !bodies_.empty();
    if (walls) computeGridFluidShare(bodies_, gridShape_, work_->fluidShare);
    UniformGrid<float>& g = work_->gradientSource;
    g.reset(gridShape_, 0.0f);
    // First the ramp's argument where the fluid is (-1 marks points mostly inside a wall), ...
    constexpr float kBare = 0.25f, kCovered = 0.75f;  // coverage ramp ends
    const auto ramp = [](float covered, float expected) {
        return std::clamp((covered / expected - kBare) / (kCovered - kBare), 0.0f, 1.0f);
    };
    const UniformGrid<float>& share = work_->fluidShare;
    std::vector<float>& argument = work_->rampArgument;
    argument.resize(g.size());
    parallelForEach(
        0, g.size(),
        [&](size_t k) {
            const float covered = work_->coverage[k];
            if (walls && share[k] < 0.5f)
                argument[k] = -1.0f;
            else
                argument[k] = covered > 0.0f ? ramp(covered, walls ? share[k] : 1.0f) : 0.0f;
        },
        4096);
    // ... then a point inside a wall takes the ramp of the fluid beside it (the largest over its
    // neighbours in fluid), and a point one further in that of the points so filled: their own
    // coverage is a sliver that varies along the wall with how the vortons sit there, and read
    // alone it made the density there vary along the wall.
    const ivec3 n = gridShape_.points;
    const auto largestNeighbour = [&](const std::vector<float>& values, size_t k) {
        const size_t nx = size_t(n.x), ny = size_t(n.y);
        const ivec3 p(int(k % nx), int((k / nx) % ny), int(k / (nx * ny)));
        float largest = -1.0f;
        for (int axis = 0; axis < 3; ++axis)
            for (int side : {-1, 1}) {
                ivec3 q = p;
                q[axis] += side;
                if (q[axis] >= 0 && q[axis] < n[axis])
                    largest = std::max(largest, values[gridShape_.index(q.x, q.y, q.z)]);
            }
        return largest;
    };
    if (walls) {
        std::vector<float>& filled = work_->rampFilled;
        for (int layer = 0; layer < 2; ++layer) {
            filled = argument;
            parallelForEach(
                0, g.size(),
                [&](size_t k) {
                    if (argument[k] < 0.0f && work_->coverage[k] > 0.0f) filled[k] = largestNeighbour(argument, k);
                },
                4096);
            std::swap(filled, argument);
        }
    }
    parallelForEach(
        0, g.size(),
        [&](size_t k) {
            const float covered = work_->coverage[k];
            if (covered <= 0.0f) return;
            const float t = argument[k] >= 0.0f ? argument[k] : ramp(covered, std::max(share[k], 1e-4f));
            g[k] = densityGrid_[k] / covered * (t * t * (3.0f - 2.0f * t));
        },
        4096);
    const DepositScales scales = keepDepositedMass(g, walls ? &work_->fluidShare : nullptr);
    if (walls)
        fillSolidsWithSurroundingDensity(g, bodies_, densityGrid_, work_->coverage, fluid_, scales.heavy, scales.light);
    return g;
}

// The ramp moves where an edge's mass sits (a random layout's thin edge loses up to 8% of it),
// and the impulse the baroclinic source makes is g times the mass the differentiated field
// holds. Scaling the heavy and the light parts of the field to the deposited heavy and light
// mass restores that total exactly without bringing back the grid-scale noise. With walls the
// sums run over the points in fluid only (fluidShare >= 1/2): the field reaches into the walls
// with the fluid's density there (so the wall sees no jump), and that is not mass to take from
// the fluid.
Simulation::DepositScales Simulation::keepDepositedMass(UniformGrid<float>& field,
                                                        const UniformGrid<float>* fluidShare) const {
    struct Sums {
        double rawHeavy = 0.0, rawLight = 0.0, heavy = 0.0, light = 0.0;
    };
    const Sums sums = deterministicReduce<Sums>(
        field.size(), Sums{},
        [&](size_t b, size_t e) {
            Sums s;
            for (size_t k = b; k < e; ++k) {
                if (fluidShare && (*fluidShare)[k] < 0.5f) continue;
                const double raw = densityGrid_[k], value = field[k];
                (raw > 0.0 ? s.rawHeavy : s.rawLight) += raw;
                (value > 0.0 ? s.heavy : s.light) += value;
            }
            return s;
        },
        [](Sums a, const Sums& c) {
            return Sums{a.rawHeavy + c.rawHeavy, a.rawLight + c.rawLight, a.heavy + c.heavy, a.light + c.light};
        },
        16384);
    // Where most of a part's mass sits on barely covered points (a few scattered vortons) the
    // ramp removes most of it; scaling the rest up would pile it onto those points, so such a
    // part is left as the ramp made it.
    auto restoring = [](double raw, double kept) {
        const double scale = kept != 0.0 ? raw / kept : 1.0;
        return float(scale >= 0.5 && scale <= 2.0 ? scale : 1.0);
    };
    const float heavyScale = restoring(sums.rawHeavy, sums.heavy);
    const float lightScale = restoring(sums.rawLight, sums.light);
    parallelForEach(
        0, field.size(), [&](size_t k) { field[k] *= field[k] > 0.0f ? heavyScale : lightScale; }, 8192);
    return {heavyScale, lightScale};
}

const UniformGrid<vec3>& Simulation::densityGradientGrid() const {
    if (densityGradientGridStale_) differentiateDensityGrid();
    return densityGradientGrid_;
}

bool Simulation::gravityActsOnGrid() const {
    // Boussinesq generation needs gravity along some axis the grid actually spans.
    for (int a = 0; a < 3; ++a)
        if (!gridShape_.flatAxis(a) && std::abs(fluid_.gravity[a]) > 1e-12f) return true;
    return false;
}

void Simulation::generateBaroclinicVorticity(float dt) {
    if (!gravityActsOnGrid()) return;
    const vec3 g = fluid_.gravity;
    if (fluid_.baroclinicSharing && fluid_.densityGradient == GradientSource::Grid) {
        work_->baroclinic.apply(densityGradientGrid_, partition_, g, fluid_.ambientDensity, dt, vortons_);
        return;
    }
    if (fluid_.baroclinicSharing && vortons_.size() > 0) {
        work_->sph.addBaroclinicVorticity(vortons_, walls_.proximity, vortons_.densityGradient, g,
                                          fluid_.ambientDensity, dt);
        return;
    }
    const float scale = dt / fluid_.ambientDensity;
    parallelForEach(
        0, vortons_.size(),
        [&](size_t i) { vortons_.vorticity[i] += scale * glm::cross(vortons_.densityGradient[i], g); }, 2048);
}

// --- 5. viscous diffusion ---------------------------------------------------------------------

// The width Delta of the filter through which the vortons see the flow, as Smagorinsky's model
// means it: the box width with the filter's second moment (Delta^2 = 12 x variance per axis).
// Two filters act in series and their variances add. The velocity kernel max(|r|, sigma) is the
// field of vorticity spread uniformly over a ball of radius sigma (variance sigma^2 / 5); the grid
// samples that field and trilinear interpolation rebuilds it with a tent of half-width h_grid
// (variance h_grid^2 / 6). Taking the larger of sigma and h_grid alone made the model 3 times too
// weak: the 65,536-vorton dye drop preset at 1/30 s piled vorticity up at its cores from step 130.
static float resolvedFilterWidth(float coreRadius, float gridSpacing) {
    return std::sqrt(12.0f * (coreRadius * coreRadius / 5.0f + gridSpacing * gridSpacing / 6.0f));
}

void Simulation::diffuse(float dt) {
    std::vector<float>& eddy = work_->eddyViscosity;
    eddy.clear();
    if (fluid_.subgridCoefficient > 0.0f) {
        // Smagorinsky: the strain the flow cannot resolve cascades to scales below its filter
        // width, where nothing represents it; an eddy viscosity (C_s Delta)^2 |S| (with
        // |S| = sqrt(2 S:S)) drains it there instead of letting stretching pile it up.
        eddy.resize(vortons_.size());
        const float c2 = fluid_.subgridCoefficient * fluid_.subgridCoefficient;
        const float gridSpacing = gridShape_.spacing.x;
        std::vector<mat3>& gradient = work_->jacobianAtVortons;
        if (!work_->jacobianAtVortonsCurrent || gradient.size() != vortons_.size()) {
            interpolateAtPoints(jacobianGrid_, vortons_.position, gradient);
            work_->jacobianAtVortonsCurrent = true;
        }
        parallelForEach(
            0, vortons_.size(),
            [&](size_t i) {
                const float ss = strainRateSquared(gradient[i]);
                const float width = resolvedFilterWidth(vortons_.radius[i], gridSpacing);
                eddy[i] = c2 * width * width * std::sqrt(2.0f * ss);
            },
            2048);
    }
    work_->pse.apply(vortons_, fluid_.viscosity, dt, eddy);
}

const std::vector<float>& Simulation::eddyViscosity() const { return work_->eddyViscosity; }

// --- 6. SPH -----------------------------------------------------------------------------------

void Simulation::computeSph(const FluidMethodStep& method, float dt) {
    if (vortons_.size() == 0) return;
    SphFluid& sph = work_->sph;
    const FluidMethod previous = sph.lastStep == substepCount_ - 1 ? sph.lastMethod : FluidMethod::Vpm;
    sph.carryVelocityAcrossSwitch(vortons_, previous, method.method(), velocityGrid_, dt);
    sph.update(vortons_, fluid_);
    sph.acceleration(vortons_, fluid_, walls_.kernelShare, dt, vortons_.sphAcceleration);
    sph.integrate(vortons_, method.sphBodyAcceleration(fluid_), dt);
    // Under sph the vortons' vorticity is that of the SPH flow. This keeps baroclinic generation
    // and stretching (which still run) from piling up vorticity nothing uses, gives tracers
    // the flow around the particles, and lets a switch back to vpm continue the motion.
    if (method.vorticityFromSph()) sph.vorticity(vortons_, vortons_.vorticity);
    sph.lastMethod = method.method();
    sph.lastStep = substepCount_;
}

// --- 7. advection -----------------------------------------------------------------------------

void Simulation::advect(const FluidMethodStep& method, float dt) {
    // Two-step Adams-Bashforth on the velocity at each particle: second order in time, in a flow
    // that changes as it moves (a ring's swirl travels with the ring). Without a last step (the
    // first, a vorton's first after a remesh, or adams_bashforth off): the midpoint rule in the
    // frozen grid field, second order along curved streamlines but first order in the field's
    // own change.
    // (parallelForEachStable: one compiled copy of the arithmetic, so FMA contraction cannot
    // make results depend on the thread count.)
    const UniformGrid<vec3>& u = velocityGrid_;
    // The particles move in the vortical flow plus the flow moving bodies push aside.
    const std::vector<PotentialFlow>& pushed = work_->pushedFlows;
    const auto flow = [&](const vec3& x) {
        return pushed.empty() ? u.interpolate(x) : u.interpolate(x) + potentialFlowVelocity(pushed, x);
    };
    MotionHistory& history = work_->history;
    SphFluid& sph = work_->sph;
    // Leaving hybrid for vpm, the SPH correction would vanish between two steps: it still moves
    // the vortons this step, and its vorticity joins theirs so the vortex velocity takes it over.
    const bool leavingHybrid = !method.sphPressure() && sph.lastMethod == FluidMethod::Hybrid &&
                               sph.lastStep == substepCount_ - 1 && vortons_.size() > 0;
    if (leavingHybrid) {
        sph.update(vortons_, fluid_);
        std::vector<vec3> correction;
        sph.vorticity(vortons_, correction);
        parallelForEach(
            0, vortons_.size(), [&](size_t i) { vortons_.vorticity[i] += correction[i]; }, 4096);
    }
    const bool vortexVelocity = method.vortexVelocity();
    // Tracers colour by the density deviation where they are at the start of the sub-step.
    if (method.sphPressure() && vortons_.size() > 0) {
        parallelForEach(
            0, tracers_.size(), [&](size_t i) { tracers_.density[i] = densityGrid_.interpolate(tracers_.position[i]); },
            4096);
        // Tracers follow the SPH flow too (interpolated from the partition computeSph built
        // from the positions before this advection).
        sph.interpolateToGrid(vortons_, gridShape_);
        sph.advectTracers(tracers_, u, vortexVelocity, dt);
        history.tracerVelocity.clear();
    } else {
        const bool twoStep = fluid_.adamsBashforth && history.tracerVelocity.size() == tracers_.size();
        const StepWeights w = adamsBashforthWeights(twoStep, dt, history.dt);
        history.tracerVelocity.resize(tracers_.size());
        // One pass over the (many) tracers: one lookup gives the velocity and the colour.
        packFlowAndDensity();
        const UniformGrid<FlowAndDensity>& packed = work_->flowAndDensity;
        if (w.twoStep() && pushed.empty() && !packed.shape().anyFlatAxis()) {
            // The common sub-step: one lookup per tracer, eight tracers' stencils at a time.
            advanceTracersTwoStep(packed, TwoStepWeights{w.current, w.previous}, dt, tracers_, history.tracerVelocity);
        } else {
            parallelForEachStable(
                0, tracers_.size(),
                [&](size_t i) {
                    const vec3 x = tracers_.position[i];
                    const FlowAndDensity found = packed.interpolate(x);
                    vec3 now(found[0], found[1], found[2]);
                    if (!pushed.empty()) now += potentialFlowVelocity(pushed, x);
                    tracers_.density[i] = found[3];
                    const vec3 v = stepVelocityFrom(now, flow, x, dt, w, history.tracerVelocity[i]);
                    tracers_.velocity[i] = v;
                    tracers_.position[i] = x + dt * v;
                },
                4096);
        }
    }
    advectVortons(method, leavingHybrid, dt);
}

// The velocity and density grids side by side on the step's grid (both are laid on gridShape_
// every sub-step, after the velocity and density phases).
void Simulation::packFlowAndDensity() {
    UniformGrid<FlowAndDensity>& packed = work_->flowAndDensity;
    packed.reshape(gridShape_);  // every point is written below
    if (velocityGrid_.size() != packed.size() || densityGrid_.size() != packed.size())
        throw std::logic_error("advection: the velocity and density grids are not on the step's grid");
    parallelForEach(
        0, packed.size(),
        [&](size_t k) {
            const vec3 u = velocityGrid_[k];
            packed[k] = FlowAndDensity{u.x, u.y, u.z, densityGrid_[k]};
        },
        8192);
}

void Simulation::advectVortons(const FluidMethodStep& method, bool leavingHybrid, float dt) {
    const UniformGrid<vec3>& u = velocityGrid_;
    const std::vector<PotentialFlow>& pushed = work_->pushedFlows;
    const auto flow = [&](const vec3& x) {
        return pushed.empty() ? u.interpolate(x) : u.interpolate(x) + potentialFlowVelocity(pushed, x);
    };
    MotionHistory& history = work_->history;
    const bool vortexVelocity = method.vortexVelocity();
    const bool sphVelocity = method.sphPressure() || leavingHybrid;
    const bool twoStep = fluid_.adamsBashforth && history.vortonVelocity.size() == vortons_.size();
    const StepWeights w = adamsBashforthWeights(twoStep, dt, history.dt);
    history.vortonVelocity.resize(vortons_.size());
    // The grid's velocity at every vorton, looked up for all of them at once.
    std::vector<vec3>& gridFlow = work_->flowAtVortons;
    if (vortexVelocity) interpolateAtPoints(u, vortons_.position, gridFlow);
    parallelForEachStable(
        0, vortons_.size(),
        [&](size_t i) {
            const vec3 x = vortons_.position[i];
            vec3 v(0.0f);
            if (vortexVelocity) {
                const vec3 now = pushed.empty() ? gridFlow[i] : gridFlow[i] + potentialFlowVelocity(pushed, x);
                const StepWeights use = movedByWall(vortons_, i) ? StepWeights{} : w;
                v = stepVelocityFrom(now, flow, x, dt, use, history.vortonVelocity[i]);
            }
            if (sphVelocity) v += vortons_.sphVelocity[i];
            vortons_.velocity[i] = v;
            vortons_.position[i] = x + dt * v;
        },
        2048);
    if (!vortexVelocity) history.vortonVelocity.clear();  // nothing recorded: no past to use later
    history.dt = dt;
}

// --- 8. bodies --------------------------------------------------------------------------------

void Simulation::interactWithBodies(float dt) {
    collideParticlesWithBodies(bodies_, vortons_, tracers_, fluid_, dt);
    // What the flows the bodies push aside did to the vortons' impulse this step returns to the
    // fluid around them (the drag law already holds the body's interaction with its near wake).
    std::vector<dvec3> returned(bodies_.size(), dvec3(0.0));
    const std::vector<PotentialFlow>& pushed = work_->pushedFlows;
    for (size_t k = 0; k < pushed.size(); ++k) returned[pushed[k].body] = -double(dt) * work_->pushedImpulseRates[k];
    // The shell that takes a body's wake impulse: two grid spacings of vortons around it.
    exchangeDragWithFluid(bodies_, vortons_, velocityGrid_, fluid_, 2.0f * gridShape_.spacing.x, dt, returned);
    applyBuoyancyAndGravity(bodies_, densityGrid_, fluid_, &work_->coverage);
    integrateBodies(bodies_, substepTime_ + dt, dt);
}

// --- diagnostics ------------------------------------------------------------------------------

Diagnostics Simulation::diagnostics() const {
    struct Sums {
        double energy = 0.0, fieldEnergy = 0.0, massParticles = 0.0, maxSpeed = 0.0;
        dvec3 circulation{0.0}, linear{0.0}, angular{0.0};
    };
    const double rho0 = fluid_.ambientDensity;
    // The flow's energy needs the velocity the vorticity induces now, at the vortons as they are:
    // the velocity the last step moved them with is a blend over the step (and a different blend
    // right after a remesh), which would make the measure jump with the integrator.
    std::vector<vec3> induced;
    if (!vortons_.position.empty()) velocityAtPoints(vortons_.position, induced);
    Sums s = deterministicReduce<Sums>(
        vortons_.size(), Sums{},
        [&](size_t b, size_t e) {
            Sums r;
            for (size_t i = b; i < e; ++i) {
                const double volume = vortons_.volume(i);
                const dvec3 x(vortons_.position[i]);
                const dvec3 strength = dvec3(vortons_.vorticity[i]) * volume;
                const dvec3 u(vortons_.velocity[i]);
                r.energy += 0.5 * glm::dot(u, u) * (rho0 + vortons_.density[i]) * volume;
                r.fieldEnergy += rho0 * glm::dot(dvec3(induced[i]), glm::cross(x, strength));
                r.massParticles += double(vortons_.density[i]) * volume;
                r.maxSpeed = std::max(r.maxSpeed, glm::length(u));
                r.circulation += strength;
                r.linear += 0.5 * glm::cross(x, strength);
                r.angular += (1.0 / 3.0) * glm::cross(x, glm::cross(x, strength));
            }
            return r;
        },
        [](Sums a, const Sums& c) {
            a.energy += c.energy;
            a.fieldEnergy += c.fieldEnergy;
            a.massParticles += c.massParticles;
            a.maxSpeed = std::max(a.maxSpeed, c.maxSpeed);
            a.circulation += c.circulation;
            a.linear += c.linear;
            a.angular += c.angular;
            return a;
        });
    Diagnostics d;
    d.kineticEnergy = s.energy;
    d.fieldEnergy = s.fieldEnergy;
    d.circulation = s.circulation;
    d.linearImpulse = s.linear;
    d.angularImpulse = s.angular;
    d.massParticles = s.massParticles;
    d.maxSpeed = s.maxSpeed;
    for (const PotentialFlow& f : potentialFlows(bodies_, velocityGrid_, fluid_)) {
        d.potentialFlowEnergy += f.energy();
        d.potentialFlowMomentum += f.momentum();
    }
    double gridSum = 0.0;
    for (float v : densityGrid_.values()) gridSum += v;
    d.massGrid = densityGrid_.size() ? gridSum * densityGrid_.shape().cellVolume() : 0.0;
    return d;
}

}  // namespace vfx
