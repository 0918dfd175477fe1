// Benchmarks for the fluid-body coupling: body buoyancy per body per step (part 9 quotes ~2 us),
// drag with its impulse to the fluid per body, the potential flow a moving body pushes aside per
// particle, particle collision cost per particle per body, and the article's Figure 7: PoisonDensityGradient
// serial / atomic / partitioned (plus the racy naive version and the article's float
// compare-and-swap version, both for comparison only) at the sloshing tank's size and at 4x and
// 16x the particles, on 1 and 2 threads.
//
//   ./vortonfx_bench --benchmark_filter='Poison|Buoyancy|Collide|Drag|PotentialFlow'
#include "sim/body_coupling.hpp"
#include "bodies/shapes.hpp"
#include "core/parallel.hpp"
#include "scene/scene.hpp"
#include "sim/potential_flow_lanes.hpp"
#include "sim/simulation.hpp"
#include "sim/sphere_closure.hpp"

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>

namespace vfx {
namespace {

RigidBody benchBody(CollisionShape shape, MotionKind motion, float density = 1.2f) {
    RigidBody body;
    body.shape = std::move(shape);
    body.motion = motion;
    body.density = density;
    finalizeBodyMass(body);
    return body;
}

// --- body buoyancy -----------------------------------------------------------------------------

void BM_BodyBuoyancy(benchmark::State& state) {
    const bool box = state.range(0) == 1;
    GridShape shape;
    shape.minCorner = vec3(-1.0f);
    shape.spacing = vec3(2.0f / 31.0f);
    shape.points = ivec3(32);
    UniformGrid<float> density(shape);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> unit(-0.3f, 0.3f);
    for (float& d : density.values()) d = unit(rng);
    std::vector<RigidBody> bodies{benchBody(
        box ? makeBoxShape(vec3(0.2f, 0.3f, 0.2f), false) : makeSphereShape(0.3f, false), MotionKind::Dynamic)};
    bodies[0].orientation = glm::angleAxis(0.3f, glm::normalize(vec3(1, 1, 0)));
    FluidParams fluid;
    for (auto _ : state) {
        applyBuoyancyAndGravity(bodies, density, fluid);
        bodies[0].force = vec3(0.0f);
        benchmark::DoNotOptimize(bodies[0].lastDisplacedMass);
    }
    state.SetItemsProcessed(state.iterations());  // items = bodies
    state.SetLabel(box ? "box" : "sphere");
}
BENCHMARK(BM_BodyBuoyancy)->Arg(0)->Arg(1);

// Buoyancy read on the fluid side (with the deposit's coverage), as the simulation does it.
void BM_BodyBuoyancyFluidSide(benchmark::State& state) {
    GridShape shape;
    shape.minCorner = vec3(-1.0f);
    shape.spacing = vec3(2.0f / 31.0f);
    shape.points = ivec3(32);
    UniformGrid<float> density(shape, 0.3f), coverage(shape, 1.0f);
    std::vector<RigidBody> bodies{benchBody(makeSphereShape(0.3f, false), MotionKind::Dynamic)};
    FluidParams fluid;
    for (auto _ : state) {
        applyBuoyancyAndGravity(bodies, density, fluid, &coverage);
        bodies[0].force = vec3(0.0f);
        benchmark::DoNotOptimize(bodies[0].lastDisplacedMass);
    }
    state.SetItemsProcessed(state.iterations());  // items = bodies
}
BENCHMARK(BM_BodyBuoyancyFluidSide);

// --- drag and its impulse to the fluid ----------------------------------------------------------

// One dynamic sphere moving through a lattice of `count` vortons: the shell sums scan every
// vorton, the ring injection only the shell. Items = vortons scanned per body.
void BM_DragExchange(benchmark::State& state) {
    const size_t count = size_t(state.range(0));
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, size_t(state.range(1)));
    Vortons vortons;
    const int n = int(std::cbrt(double(count)) + 0.5);
    const float h = 2.0f / float(n);
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                vortons.add(vec3(-1.0f) + h * (vec3(float(x), float(y), float(z)) + 0.5f), vec3(0.0f), h, 0.0f,
                            h * h * h);
    GridShape shape = GridShape::fitBox(vec3(-1.0f), vec3(1.0f), count, 0.0f);
    UniformGrid<vec3> still(shape, vec3(0.0f));
    std::vector<RigidBody> bodies{benchBody(makeSphereShape(0.3f, false), MotionKind::Dynamic, 2.0f)};
    FluidParams fluid;
    for (auto _ : state) {
        bodies[0].velocity = vec3(2.0f, 0.0f, 0.0f);
        bodies[0].impulse = vec3(0.0f);
        exchangeDragWithFluid(bodies, vortons, still, fluid, 2.0f * h, 0.01f);
        benchmark::DoNotOptimize(bodies[0].impulse);
    }
    state.SetItemsProcessed(state.iterations() * int64_t(vortons.size()));
}
BENCHMARK(BM_DragExchange)->ArgsProduct({{4096, 32768}, {1, 2}})->ArgNames({"vortons", "threads"})->UseRealTime();

// The potential flow of one moving sphere over `count` particles: its velocity and gradient at
// each (what advection and stretching add, eight particles at a time as the step sums them) and
// the impulse it exchanges with them, once per sub-step. With tank 1 the sphere carries its
// closure (400 sources) and sits in a box of side 2.4 whose 26 images of it reach every
// particle, as in sinking_ball. Items = particles per body.
void BM_PotentialFlow(benchmark::State& state) {
    const size_t count = size_t(state.range(0));
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, size_t(state.range(1)));
    Vortons vortons;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    while (vortons.size() < count) {
        const vec3 p(unit(rng), unit(rng), unit(rng));
        if (glm::length(p) > 0.35f) vortons.add(p, vec3(unit(rng), unit(rng), unit(rng)), 0.05f, 0.0f, 1e-4f);
    }
    PotentialFlow f;
    f.radius = 0.3f;
    f.relativeVelocity = vec3(2.0f, 0.0f, 0.0f);
    f.addedMass = 0.05f;
    if (state.range(2)) {
        std::vector<vec3> flow;
        for (const vec3& p : closureCollocationPoints(f.centre, f.radius)) flow.push_back(vec3(p.y, 0.5f * p.x, 0.0f));
        f.closure = fitSphereClosure(f.centre, f.radius, f.relativeVelocity, flow);
    }
    std::vector<PotentialFlow> flows{f};
    if (state.range(2)) mirrorInBoxWalls(flows, BoxContainer{AxisBox{vec3(-1.2f), vec3(1.2f)}});
    std::vector<vec3> velocity(count);
    std::vector<mat3> gradient(count);
    for (auto _ : state) {
        std::fill(velocity.begin(), velocity.end(), vec3(0.0f));
        std::fill(gradient.begin(), gradient.end(), mat3(0.0f));
        addPotentialFlowVelocities(flows, vortons.position, velocity);
        addPotentialFlowGradients(flows, vortons.position, gradient);
        benchmark::DoNotOptimize(impulseRateFromPotentialFlows(flows, vortons));
        benchmark::DoNotOptimize(velocity.data());
    }
    state.counters["images"] = double(flows[0].mirrors.size());
    state.SetItemsProcessed(state.iterations() * int64_t(count));
}
BENCHMARK(BM_PotentialFlow)
    ->ArgsProduct({{4096, 32768}, {1, 2}, {0, 1}})
    ->ArgNames({"particles", "threads", "tank"})
    ->UseRealTime();

// --- collisions --------------------------------------------------------------------------------

// Particles in a cube of side 2 around one body: a solid sphere, a solid box, or a box hole.
// Each iteration restores the particles, so every run resolves the same penetrations.
void BM_CollideParticles(benchmark::State& state) {
    const int kind = int(state.range(0));
    const size_t count = size_t(state.range(1));
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, size_t(state.range(2)));
    std::vector<RigidBody> bodies;
    if (kind == 0) bodies.push_back(benchBody(makeSphereShape(0.5f, false), MotionKind::Dynamic));
    if (kind == 1) bodies.push_back(benchBody(makeBoxShape(vec3(0.4f, 0.5f, 0.3f), false), MotionKind::Dynamic));
    if (kind == 2) bodies.push_back(benchBody(makeBoxShape(vec3(0.9f), true), MotionKind::Kinematic));
    bodies[0].velocity = vec3(0.5f, 0.0f, 0.0f);
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    Vortons start;
    for (size_t i = 0; i < count; ++i) {
        start.add(vec3(unit(rng), unit(rng), unit(rng)), vec3(unit(rng), unit(rng), unit(rng)), 0.02f, 0.1f);
        start.velocity.back() = vec3(unit(rng), unit(rng), unit(rng));
    }
    FluidParams fluid;
    Tracers none;
    Vortons v = start;
    for (auto _ : state) {
        state.PauseTiming();
        v = start;
        state.ResumeTiming();
        collideParticlesWithBodies(bodies, v, none, fluid, 0.01f);
        bodies[0].impulse = bodies[0].angularImpulse = vec3(0.0f);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(count));  // particle-body pairs
    const char* names[] = {"solid sphere", "solid box", "box container"};
    state.SetLabel(names[kind]);
}
BENCHMARK(BM_CollideParticles)
    ->ArgsProduct({{0, 1, 2}, {65536}, {1, 2}})
    ->ArgNames({"shape", "vortons", "threads"})
    ->Unit(benchmark::kMicrosecond);

// --- Figure 7: PoisonDensityGradient ----------------------------------------------------------

// State of the sloshing tank after a few steps (vortons hitting its walls, the density gradient
// grid and the partition of the vortons into its cells), at `scale` times the preset's vortons.
struct PoisonCase {
    std::vector<RigidBody> bodies;
    Vortons vortons;
    UniformGrid<vec3> gradient;
    CellPartition partition;
    size_t hits = 0;
};

const PoisonCase& sloshingCase(int scale) {
    static std::map<int, std::unique_ptr<PoisonCase>> cache;
    std::unique_ptr<PoisonCase>& entry = cache[scale];
    if (entry) return *entry;
    entry = std::make_unique<PoisonCase>();
    const std::string path = std::string(VFX_SOURCE_DIR) + "/scenes/sloshing_tank.json";
    const Scene base = loadScene(path);
    const int count = base.vortons.at(0).count * scale;
    const Scene scene = loadScene(path, {"vortons.0.count=" + std::to_string(count), "fluid.poisoning=hits"});
    Simulation sim;
    buildSimulation(scene, sim);
    for (int s = 0; s < 20; ++s) sim.step(scene.time.dt);
    entry->bodies = sim.bodies();
    entry->vortons = sim.vortons();
    entry->gradient = sim.densityGradientGrid();
    entry->partition.build(entry->gradient.shape(), entry->vortons.position);
    for (uint8_t h : entry->vortons.hitWall) entry->hits += h;
    return *entry;
}

// The article's naive parallel loop: every hit removes the normal component at its stencil
// points in place. Threads race on shared grid points: UNSAFE, results vary run to run.
void poisonNaiveUnsafe(UniformGrid<vec3>& gradient, const Vortons& v) {
    parallelForEach(
        0, v.size(),
        [&](size_t i) {
            if (!v.hitWall[i]) return;
            const TrilinearStencil s = trilinearStencil(gradient.shape(), v.position[i]);
            const vec3 n = v.hitNormal[i];
            for (int k = 0; k < s.count; ++k) gradient[s.index[k]] -= glm::dot(gradient[s.index[k]], n) * n;
        },
        256);
}

// Lock-free float add by compare-and-swap on the float's bits (the article's Float_FetchAndAdd).
inline void atomicFloatAdd(float& target, float increment) {
    uint32_t* bits = reinterpret_cast<uint32_t*>(&target);
    uint32_t seen = __atomic_load_n(bits, __ATOMIC_RELAXED);
    for (;;) {
        float value;
        std::memcpy(&value, &seen, sizeof(float));
        value += increment;
        uint32_t next;
        std::memcpy(&next, &value, sizeof(float));
        if (__atomic_compare_exchange_n(bits, &seen, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    }
}

// The article's thread-safe version: the removal is added with CAS float adds. No torn
// updates, but the result still depends on the order threads run (not deterministic).
void poisonArticleAtomic(UniformGrid<vec3>& gradient, const Vortons& v) {
    parallelForEach(
        0, v.size(),
        [&](size_t i) {
            if (!v.hitWall[i]) return;
            const TrilinearStencil s = trilinearStencil(gradient.shape(), v.position[i]);
            const vec3 n = v.hitNormal[i];
            for (int k = 0; k < s.count; ++k) {
                vec3& g = gradient[s.index[k]];
                const vec3 removal = -glm::dot(g, n) * n;
                for (int a = 0; a < 3; ++a) atomicFloatAdd(g[a], removal[a]);
            }
        },
        256);
}

enum Variant { Serial, Atomic, Partitioned, NaiveUnsafe, ArticleAtomic };

void BM_PoisonDensityGradient(benchmark::State& state) {
    const Variant variant = Variant(state.range(0));
    const int scale = int(state.range(1));
    const PoisonCase& c = sloshingCase(scale);
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, size_t(state.range(2)));
    FluidParams fluid;
    fluid.poisoning = Poisoning::Hits;
    fluid.poisonVariant = variant == Atomic        ? PoisonVariant::Atomic
                          : variant == Partitioned ? PoisonVariant::Partitioned
                                                   : PoisonVariant::Serial;
    UniformGrid<vec3> gradient = c.gradient;
    for (auto _ : state) {
        state.PauseTiming();
        gradient.values() = c.gradient.values();
        state.ResumeTiming();
        if (variant == NaiveUnsafe)
            poisonNaiveUnsafe(gradient, c.vortons);
        else if (variant == ArticleAtomic)
            poisonArticleAtomic(gradient, c.vortons);
        else
            poisonDensityGradient(gradient, c.bodies, c.vortons, c.partition, fluid);
        benchmark::ClobberMemory();
    }
    const char* names[] = {"serial", "atomic", "partitioned", "naive UNSAFE (racy)",
                           "article CAS float add (order-dependent)"};
    state.SetLabel(std::string(names[variant]) + ", " + std::to_string(c.vortons.size()) + " vortons, " +
                   std::to_string(c.hits) + " hits, " + std::to_string(c.gradient.size()) + " grid points");
}
BENCHMARK(BM_PoisonDensityGradient)
    ->ArgsProduct({{Serial, Atomic, Partitioned, NaiveUnsafe, ArticleAtomic}, {1, 4, 16}, {1, 2}})
    ->ArgNames({"variant", "scale", "threads"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace vfx
