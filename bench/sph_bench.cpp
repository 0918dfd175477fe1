// Part 16, Table 1: baroclinic generation per step (density gradient + generation) with the grid
// gradient and with the SPH gradient, for a drop in free space and a drop in a box.
//   article (Gourlay, 2012 hardware):  drop, no boundaries   grid 0.167 ms   SPH 0.515 ms
//                                      drop in box           grid 0.256 ms   SPH 0.655 ms
// Scene: scenes/drop_in_box.json (its drop and tracers; "free" drops the box). Each benchmark
// iteration is one Simulation::step; the reported time is the walls + density + baroclinic phases
// only (manual time), read from sim.timers(), plus the grid gradient's share of the velocity phase
// (its gradient and rates run there, beside the tree: Simulation::lastBaroclinicRatesMs). The drop is rebuilt every kStepsPerRun steps so
// it is always sampled over the same part of its fall. Args: {threads, box (0/1)}.
//   vortonfx_bench --benchmark_filter=Baroclinic
#include "scene/scene.hpp"
#include "sim/simulation.hpp"
#include "sim/sph.hpp"

#include <benchmark/benchmark.h>

#include <initializer_list>
#include <string>

namespace vfx {
namespace {

constexpr long kStepsPerRun = 100;

Scene dropScene(bool inBox) {
    Scene scene = loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/drop_in_box.json");
    if (!inBox) {
        scene.bodies.clear();
        scene.fluid.velocitySolver = VelocitySolver::Tree;  // the box solver needs its container
    }
    return scene;
}

// One benchmark iteration per step, timed (manual time) by the named phases only; the scene is
// rebuilt every kStepsPerRun steps so every run samples the same part of the drop's fall.
template <typename Rebuild>
void timeSteps(benchmark::State& state, Simulation& sim, const Rebuild& rebuild, float dt,
               std::initializer_list<Phase> phases) {
    rebuild();
    long steps = 0;
    double totalMs = 0.0;
    for (auto _ : state) {
        if (steps > 0 && steps % kStepsPerRun == 0) rebuild();
        sim.step(dt);
        ++steps;
        double ms = 0.0;
        for (Phase phase : phases) ms += sim.timers().lastMs(phaseName(phase));
        ms += sim.lastBaroclinicRatesMs();  // the grid's gradient and rates, found in the velocity phase
        totalMs += ms;
        state.SetIterationTime(ms * 1e-3);
    }
    state.counters["vortons"] = double(sim.vortons().size());
    state.counters["threads"] = sim.threads();
    state.counters["ms_per_step"] = totalMs / double(steps);
}

void runBaroclinic(benchmark::State& state, GradientSource source) {
    const int threads = int(state.range(0));
    const bool inBox = state.range(1) != 0;
    const Scene scene = dropScene(inBox);
    Simulation sim;
    sim.setThreads(threads);
    auto rebuild = [&] {
        buildSimulation(scene, sim);
        sim.fluid().densityGradient = source;
        sim.fluid().method = FluidMethod::Vpm;
        if (!inBox) sim.fluid().poisoning = Poisoning::None;
    };
    timeSteps(state, sim, rebuild, scene.time.dt, {Phase::Walls, Phase::Density, Phase::Baroclinic});
}

void BM_BaroclinicGridGradient(benchmark::State& state) { runBaroclinic(state, GradientSource::Grid); }
void BM_BaroclinicSphGradient(benchmark::State& state) { runBaroclinic(state, GradientSource::Sph); }

BENCHMARK(BM_BaroclinicGridGradient)
    ->ArgsProduct({{1, 2}, {0, 1}})
    ->ArgNames({"threads", "box"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(300);
BENCHMARK(BM_BaroclinicSphGradient)
    ->ArgsProduct({{1, 2}, {0, 1}})
    ->ArgNames({"threads", "box"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(300);

// The SPH fluid phase ("sph": partition, number density, pressure, viscosity, integration)
// under the sph and hybrid methods, same drop in the box. Args: {threads, method 1 = sph, 2 = hybrid}.
void BM_SphPhase(benchmark::State& state) {
    const int threads = int(state.range(0));
    const FluidMethod method = state.range(1) == 1 ? FluidMethod::Sph : FluidMethod::Hybrid;
    const Scene scene = dropScene(true);
    Simulation sim;
    sim.setThreads(threads);
    auto rebuild = [&] {
        buildSimulation(scene, sim);
        sim.fluid().method = method;
    };
    timeSteps(state, sim, rebuild, scene.time.dt, {Phase::Sph});
}
BENCHMARK(BM_SphPhase)
    ->ArgsProduct({{1, 2}, {1, 2}})
    ->ArgNames({"threads", "method"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(200);

}  // namespace
}  // namespace vfx
