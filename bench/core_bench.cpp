// Google Benchmark suite for the vortex core and fluid buoyancy.
//
//  BM_DyeDropStep      whole Simulation::step of the dye drop (heavy ball radius 0.5, deviation
//                      0.5) at 4k/16k/64k vortons, 0 or 100k tracers, 1 or 2 threads; per-phase
//                      milliseconds (sim.timers()) are reported as counters ms_<phase>.
//  BM_TreeVelocityOnGrid   VortonTree build + blocked velocity on the step's grid (the velocity phase).
//  BM_TreeBuild        VortonTree build alone (Morton sort, nodes, moments).
//  BM_TreeVelocityAtVortons  velocity at the vortons themselves, blocked in Morton order or one
//                      traversal per point (arg per_point): what the flow's energy needs.
//  BM_Diagnostics      Simulation::diagnostics(): energy, impulse, circulation (the demo's Stats
//                      panel, the CSV rows).
//  BM_DirectVelocityOnGrid direct summation at the same points (4k and 16k only: O(N^2)).
//  BM_PseDiffusion     one PSE diffusion pass.
//  BM_Remesh           one M4' remesh of the warmed-up drop onto its own mean spacing.
//  BM_VorticityRelaxation  fluid.vorticity_relaxation's pass: turn toward curl u, restore totals.
//  BM_Stretching       the stretching phase's explicit pass (transpose scheme, two-step rule) at the
//                      vortons, from grad u looked up on the step's grid.
//  BM_LatticeCarry     remesh_trigger lattice's pass: each vorton's deformation gradient carried by
//                      exp(grad u dt) and its lattice reduced, the largest stretch found.
//  BM_TracerAdvection  the tracers' pass of the advection phase (lookup in the packed velocity and
//                      density grid, three-step rule) for 32k and 256k tracers in the drop.
//
// All wall-clock (UseRealTime), in ms. The default run takes well under 2 minutes; narrow it
// with --benchmark_filter (e.g. 'DyeDropStep.*vortons:16384').
#include "core/math.hpp"
#include "sim/diffusion.hpp"
#include "sim/dynamic_coefficient.hpp"
#include "sim/params.hpp"
#include "sim/remesh.hpp"
#include "sim/grid_lookups.hpp"
#include "sim/lattice_distortion.hpp"
#include "sim/simulation.hpp"
#include "sim/stretching.hpp"
#include "sim/tracer_advection.hpp"
#include "sim/velocity_solver.hpp"
#include "sim/vorticity_relaxation.hpp"
#include "../tests/test_helpers.hpp"

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace vfx {
namespace {

constexpr float kDt = 0.01f;
constexpr size_t kTracers = 100000;

// The dye-drop scene: a still heavy ball that sinks and rolls up into a ring.
void buildDyeDrop(Simulation& sim, size_t vortons, size_t tracers) {
    const vec3 centre(0.0f, 1.0f, 0.0f);
    test::addBall(sim.vortons(), test::BallSpec{centre, 0.5f, vortons, 0.5f, vec3(0.0f), 1});
    if (tracers) test::addTracerBall(sim.editTracers(), centre, 0.5f, tracers, 2);
}

// A few steps so the drop has vorticity (a still ball has none and every solver is trivial).
void warmUp(Simulation& sim, int steps) {
    for (int k = 0; k < steps; ++k) sim.step(kDt);
}

void BM_DyeDropStep(benchmark::State& state) {
    const size_t vortons = size_t(state.range(0));
    const size_t tracers = size_t(state.range(1));
    const int threads = int(state.range(2));
    Simulation sim;
    sim.setThreads(threads);
    buildDyeDrop(sim, vortons, tracers);
    warmUp(sim, 2);
    std::map<std::string, double> phaseMs;
    for (auto _ : state) {
        sim.step(kDt);
        for (const PhaseTimers::Phase& p : sim.timers().phases()) phaseMs[p.name] += p.lastMs;
    }
    for (const auto& [name, ms] : phaseMs)
        state.counters["ms_" + name] = benchmark::Counter(ms, benchmark::Counter::kAvgIterations);
    state.counters["vortons"] = double(vortons);
    state.counters["tracers"] = double(tracers);
    state.counters["threads"] = threads;
    state.counters["grid_points"] = double(sim.gridShape().pointCount());
}

// The author's dye drop (ball radius 1, deviation +10, |g| = 10, nu = 0.01) at his frame step
// 1/30 s: ms per frame including every sub-step and remesh the stable core takes, from 1 s into
// the fall (the drop is moving and rolled up) over the next frames. Counters: sub-steps per
// frame and vortons (remeshing changes the count within the budget).
void BM_AuthorsDyeDropFrame(benchmark::State& state) {
    const size_t vortons = size_t(state.range(0));
    const int threads = int(state.range(1));
    Simulation sim;
    sim.setThreads(threads);
    sim.fluid().gravity = vec3(0.0f, -10.0f, 0.0f);
    sim.fluid().viscosity = 0.01f;
    test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f, 5.0f, 0.0f), 1.0f, vortons, 10.0f, vec3(0.0f), 1});
    const float frame = 1.0f / 30.0f;
    for (int k = 0; k < 30; ++k) sim.step(frame);
    double substeps = 0.0;
    for (auto _ : state) {
        sim.step(frame);
        substeps += sim.lastSubsteps();
    }
    state.counters["substeps"] = benchmark::Counter(substeps, benchmark::Counter::kAvgIterations);
    state.counters["vortons"] = double(sim.vortons().size());
    state.counters["threads"] = threads;
}

// Arguments for one vorton count: with and without tracers, on 1 and 2 threads.
void dyeDropArgs(benchmark::internal::Benchmark* b, long vortons) {
    b->ArgNames({"vortons", "tracers", "threads"});
    for (long t : {0L, long(kTracers)})
        for (long threads : {1L, 2L}) b->Args({vortons, t, threads});
}

// The grid points of a warmed-up dye drop: what the velocity phase evaluates at.
struct VelocityCase {
    Simulation sim;
    std::vector<vec3> points;
    explicit VelocityCase(size_t vortons) {
        buildDyeDrop(sim, vortons, 0);
        warmUp(sim, 3);
        const GridShape& s = sim.gridShape();
        for (int z = 0; z < s.points.z; ++z)
            for (int y = 0; y < s.points.y; ++y)
                for (int x = 0; x < s.points.x; ++x) points.push_back(s.pointPosition(x, y, z));
    }
};

void BM_TreeVelocityOnGrid(benchmark::State& state) {
    VelocityCase c(size_t(state.range(0)));
    tbb::task_arena arena(int(state.range(1)));
    const float theta = FluidParams{}.treeOpeningAngle;
    VortonTree tree;
    std::vector<vec3> out;
    for (auto _ : state) {
        arena.execute([&] {
            tree.build(c.sim.vortons());
            tree.velocityOnGrid(c.sim.gridShape(), out, theta);  // blocked, as the velocity phase runs it
        });
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["grid_points"] = double(c.points.size());
    state.counters["nodes"] = double(tree.nodeCount());
}

void BM_TreeBuild(benchmark::State& state) {
    VelocityCase c(size_t(state.range(0)));
    tbb::task_arena arena(int(state.range(1)));
    VortonTree tree;
    for (auto _ : state) {
        arena.execute([&] { tree.build(c.sim.vortons()); });
        benchmark::DoNotOptimize(tree.nodeCount());
    }
    state.counters["nodes"] = double(tree.nodeCount());
}

void BM_TreeVelocityAtVortons(benchmark::State& state) {
    VelocityCase c(size_t(state.range(0)));
    tbb::task_arena arena(int(state.range(1)));
    const bool perPoint = state.range(2) != 0;
    const float theta = FluidParams{}.treeOpeningAngle;
    VortonTree tree;
    tree.build(c.sim.vortons());
    std::vector<vec3> out;
    for (auto _ : state) {
        arena.execute([&] {
            if (perPoint)
                tree.velocityPerPoint(c.sim.vortons().position, out, theta);
            else
                tree.velocity(c.sim.vortons().position, out, theta);
        });
        benchmark::DoNotOptimize(out.data());
    }
}

void BM_Diagnostics(benchmark::State& state) {
    VelocityCase c(size_t(state.range(0)));
    tbb::task_arena arena(int(state.range(1)));
    for (auto _ : state) {
        Diagnostics d;
        arena.execute([&] { d = c.sim.diagnostics(); });
        benchmark::DoNotOptimize(d);
    }
}

void BM_DirectVelocityOnGrid(benchmark::State& state) {
    VelocityCase c(size_t(state.range(0)));
    tbb::task_arena arena(int(state.range(1)));
    std::vector<vec3> out;
    for (auto _ : state) {
        arena.execute([&] { directVelocity(c.sim.vortons(), c.points, out); });
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["grid_points"] = double(c.points.size());
}

void BM_PseDiffusion(benchmark::State& state) {
    Simulation sim;
    buildDyeDrop(sim, size_t(state.range(0)), 0);
    warmUp(sim, 3);
    tbb::task_arena arena(int(state.range(1)));
    Vortons v = sim.vortons();
    PseDiffusion pse;
    for (auto _ : state) {
        arena.execute([&] { pse.apply(v, 0.001f, kDt); });
        benchmark::DoNotOptimize(v.vorticity.data());
    }
}

void BM_Remesh(benchmark::State& state) {
    Simulation sim;
    buildDyeDrop(sim, size_t(state.range(0)), 0);
    warmUp(sim, 3);
    tbb::task_arena arena(int(state.range(1)));
    double volume = 0.0;
    for (float v : sim.vortons().volumes) volume += v;
    RemeshSettings settings;
    settings.spacing = float(std::cbrt(volume / double(sim.vortons().size())));
    Remesher remesher;
    size_t made = 0;
    for (auto _ : state) {
        state.PauseTiming();
        Vortons v = sim.vortons();
        state.ResumeTiming();
        arena.execute([&] { remesher.apply(v, settings); });
        made = v.size();
    }
    state.counters["vortons_made"] = double(made);
}

// The pass's cost does not depend on the gradient's values: each vorton gets a fixed rotation
// and shear, so every vorton has a cross part to remove.
void BM_VorticityRelaxation(benchmark::State& state) {
    Simulation sim;
    buildDyeDrop(sim, size_t(state.range(0)), 0);
    warmUp(sim, 3);
    tbb::task_arena arena(int(state.range(1)));
    const std::vector<mat3> gradient(sim.vortons().size(), mat3(vec3(0, 1, 0.5f), vec3(-1, 0, 0), vec3(0, 0.3f, 0)));
    Vortons v = sim.vortons();
    for (auto _ : state) {
        arena.execute([&] { relaxTowardResolvedVorticity(gradient, 0.01f, v); });
        benchmark::DoNotOptimize(v.vorticity.data());
    }
}

// Germano's coefficient on the warmed-up drop's velocity grid, the dynamic models' extra work per
// sub-step: over the whole flow (dynamic, the default) and per grid point (dynamic_local).
void BM_DynamicCoefficient(benchmark::State& state) {
    Simulation sim;
    buildDyeDrop(sim, size_t(state.range(0)), 0);
    warmUp(sim, 3);
    tbb::task_arena arena(int(state.range(1)));
    DynamicCoefficient dynamic;
    for (auto _ : state) {
        float c2 = 0.0f;
        arena.execute([&] { c2 = dynamic.compute(sim.velocityGrid(), sim.jacobianGrid(), 0.1f); });
        benchmark::DoNotOptimize(c2);
    }
    state.counters["grid_points"] = double(sim.velocityGrid().size());
}

void BM_DynamicCoefficientLocal(benchmark::State& state) {
    Simulation sim;
    buildDyeDrop(sim, size_t(state.range(0)), 0);
    warmUp(sim, 3);
    tbb::task_arena arena(int(state.range(1)));
    DynamicCoefficient dynamic;
    UniformGrid<float> c2;
    for (auto _ : state) {
        arena.execute([&] { dynamic.computeLocal(sim.velocityGrid(), sim.jacobianGrid(), 0.1f, 0.0289f, c2); });
        benchmark::DoNotOptimize(c2.values().data());
    }
    state.counters["grid_points"] = double(sim.velocityGrid().size());
}

// The velocity gradient at the vortons of the dye drop built in `sim` and stepped a few times.
std::vector<mat3> gradientAtWarmedDrop(Simulation& sim, size_t vortons) {
    buildDyeDrop(sim, vortons, 0);
    warmUp(sim, 3);
    std::vector<mat3> gradient;
    interpolateAtPoints(sim.jacobianGrid(), sim.vortons().position, gradient);
    return gradient;
}

// Stretching costs the same whatever the rates: the drop's own gradient after a few steps.
void BM_Stretching(benchmark::State& state) {
    Simulation sim;
    const std::vector<mat3> gradient = gradientAtWarmedDrop(sim, size_t(state.range(0)));
    tbb::task_arena arena(int(state.range(1)));
    const std::vector<PotentialFlow> noBodies;
    const StretchingInputs in{gradient, noBodies, StretchingScheme::Transpose, StretchingIntegrator::Explicit,
                              true,     false};
    Vortons v = sim.vortons();
    MotionHistory history;
    for (auto _ : state) {
        arena.execute([&] { stretchVortons(in, v, history, kDt); });
        benchmark::DoNotOptimize(v.vorticity.data());
    }
}

// The gradient is the drop's at 1/30 s, so each sub-step's exponential takes a few squarings as in
// a game frame; the maps carry on from call to call as they do between remeshes.
void BM_LatticeCarry(benchmark::State& state) {
    Simulation sim;
    const std::vector<mat3> gradient = gradientAtWarmedDrop(sim, size_t(state.range(0)));
    tbb::task_arena arena(int(state.range(1)));
    std::vector<mat3> maps;
    for (auto _ : state) {
        float strain = 0.0f;
        arena.execute([&] { strain = carryLatticeMaps(gradient, sim.vortons(), 1.0f / 30.0f, 1e-3f, maps); });
        benchmark::DoNotOptimize(strain);
        if (strain > 3.0f) maps.clear();  // a remesh
    }
}

// The tracers move out and back (dt, then -dt) so they stay inside the drop's grid whatever the
// iteration count; every pass is a full lookup and three-step move.
void BM_TracerAdvection(benchmark::State& state) {
    Simulation sim;
    buildDyeDrop(sim, 4096, 0);
    warmUp(sim, 3);
    tbb::task_arena arena(int(state.range(1)));
    UniformGrid<FlowAndDensity> packed(sim.velocityGrid().shape());
    for (size_t k = 0; k < packed.size(); ++k) {
        const vec3 u = sim.velocityGrid()[k];
        packed[k] = FlowAndDensity{u.x, u.y, u.z, 0.0f};
    }
    Tracers tracers;
    test::addTracerBall(tracers, vec3(0.0f, 1.0f, 0.0f), 0.5f, size_t(state.range(0)), 2);
    std::vector<vec3> last(tracers.size(), vec3(0.0f)), before(tracers.size(), vec3(0.0f));
    const StepWeights threeStep{5.0f / 3.0f, -5.0f / 6.0f, 1.0f / 6.0f};
    float dt = kDt;
    for (auto _ : state) {
        arena.execute([&] { advanceTracersTwoStep(packed, threeStep, dt, tracers, last, &before); });
        dt = -dt;
        benchmark::DoNotOptimize(tracers.position.data());
    }
    state.counters["grid_points"] = double(packed.size());
}

void sizeThreadArgs(benchmark::internal::Benchmark* b, std::initializer_list<long> sizes) {
    b->ArgNames({"vortons", "threads"});
    for (long n : sizes)
        for (long threads : {1L, 2L}) b->Args({n, threads});
}

// One hot phase at 4k, 16k and 64k vortons on 1 and 2 threads, wall-clock milliseconds.
void phaseCases(benchmark::internal::Benchmark* b) {
    sizeThreadArgs(b, {4096, 16384, 65536});
    b->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(0.2);
}

// Fixed step counts (fewer for the big cases) keep the default run short.
BENCHMARK(BM_DyeDropStep)
    ->Apply([](benchmark::internal::Benchmark* b) { dyeDropArgs(b, 4096); })
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);
BENCHMARK(BM_DyeDropStep)
    ->Apply([](benchmark::internal::Benchmark* b) { dyeDropArgs(b, 16384); })
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(8);
BENCHMARK(BM_DyeDropStep)
    ->Apply([](benchmark::internal::Benchmark* b) { dyeDropArgs(b, 65536); })
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(BM_AuthorsDyeDropFrame)
    ->ArgNames({"vortons", "threads"})
    ->Args({4096, 2})
    ->Args({16384, 2})
    ->Args({65536, 2})
    ->Iterations(20)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_TreeVelocityOnGrid)->Apply(phaseCases);
BENCHMARK(BM_TreeBuild)->Apply(phaseCases);
BENCHMARK(BM_TreeVelocityAtVortons)
    ->ArgNames({"vortons", "threads", "per_point"})
    ->ArgsProduct({{4096, 16384, 65536}, {1, 2}, {0, 1}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.2);
BENCHMARK(BM_Diagnostics)->Apply(phaseCases);
BENCHMARK(BM_DirectVelocityOnGrid)
    ->Apply([](benchmark::internal::Benchmark* b) {
        sizeThreadArgs(b, {4096, 16384});
    })
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_PseDiffusion)->Apply(phaseCases);
BENCHMARK(BM_Remesh)->Apply(phaseCases);
BENCHMARK(BM_VorticityRelaxation)->Apply(phaseCases);
BENCHMARK(BM_DynamicCoefficient)->Apply(phaseCases);
BENCHMARK(BM_DynamicCoefficientLocal)->Apply(phaseCases);
BENCHMARK(BM_Stretching)->Apply(phaseCases);
BENCHMARK(BM_LatticeCarry)->Apply(phaseCases);
BENCHMARK(BM_TracerAdvection)
    ->Apply([](benchmark::internal::Benchmark* b) {
        b->ArgNames({"tracers", "threads"});
        for (long n : {32768L, 262144L})
            for (long threads : {1L, 2L}) b->Args({n, threads});
    })
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.2);

}  // namespace
}  // namespace vfx
