// Cost of baking one OpenVDB frame (volumes + tracer points, written to a temporary directory)
// of the dye drop, against vorton and tracer counts: what --vdb adds to a run per frame.
//
//  BM_VdbBakeFrame/vortons:V/tracers:T/voxel_mm:S   ms per frame file pair (S = 0: the simulation's grid)
#include "export/vdb_bake.hpp"
#include "sim/simulation.hpp"
#include "../tests/test_helpers.hpp"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace vfx {
namespace {

void BM_VdbBakeFrame(benchmark::State& state) {
    const size_t vortons = size_t(state.range(0));
    const size_t tracers = size_t(state.range(1));
    Simulation sim;
    sim.setThreads(2);
    const vec3 centre(0.0f, 1.0f, 0.0f);
    test::addBall(sim.vortons(), test::BallSpec{centre, 0.5f, vortons, 0.5f, vec3(0.0f), 1});
    test::addTracerBall(sim.editTracers(), centre, 0.5f, tracers, 2);
    for (int k = 0; k < 3; ++k) sim.step(0.01f);

    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("vfx_bake_bench_" + std::to_string(::getpid()));
    VdbBakeSettings settings;
    settings.directory = dir.string();
    settings.name = "drop";
    settings.voxelSize = float(state.range(2)) * 0.001f;
    {
        VdbBaker baker(settings);
        for (auto _ : state) baker.writeFrame(sim);
    }
    std::filesystem::remove_all(dir);
    state.counters["vortons"] = double(vortons);
    state.counters["tracers"] = double(tracers);
}
BENCHMARK(BM_VdbBakeFrame)
    ->ArgsProduct({{4096, 16384}, {65536, 262144}, {0, 20}})
    ->ArgNames({"vortons", "tracers", "voxel_mm"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace vfx
