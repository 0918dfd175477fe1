// vortonfx-sim: runs a scene headless, writes stats, dumps and a progress bar (sim_stats.cpp,
// sim_dump.cpp, sim_progress.cpp; --bench in sim_bench.cpp). This file is the command line.
//   vortonfx-sim SCENE.json [--steps N] [--dt S] [--threads N] [--set path=value]...
//                [--dump FILE.json] [--stats FILE.csv] [--every K] [--quiet] [--params-markdown]
//                [--vdb DIR [--vdb-every K] [--vdb-voxel S]]
//   vortonfx-sim --bench [--threads N]
// Exit 0 on success, 2 on bad input (nothing written), 3 when the simulation produced a
// non-finite value (the message names the step and the phase).
#include "app/sim_bench.hpp"
#include "app/sim_dump.hpp"
#include "app/sim_progress.hpp"
#include "app/sim_stats.hpp"
#include "export/vdb_bake.hpp"
#include "scene/scene.hpp"
#include "scene/schema.hpp"
#include "sim/simulation.hpp"

#include <CLI/CLI.hpp>
#include <vortonfx/version.hpp>

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace vfx;
namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitNonFinite = 3;
constexpr int kExitFailure = 1;

// Bad command-line or scene input; the message is shown as is.
struct BadInput {
    std::string message;
};

struct Options {
    std::string scenePath;
    std::string steps, dt, threads, every;  // raw text: checked here for messages naming the flag
    std::vector<std::string> sets;
    std::string dumpPath, statsPath;
    std::string vdbDir, vdbEvery, vdbVoxel;  // raw text, like the numbers above
    bool quiet = false;
    bool paramsMarkdown = false;
    bool bench = false;
};

struct RunSettings {
    long steps = 0;
    float dt = 0.01f;
    int threads = 0;  // 0 = all hardware threads
    long every = 1;
};

// --- flag values -------------------------------------------------------------------------------

long parseWhole(const std::string& flag, const std::string& text, long minimum, const char* expected) {
    long value = 0;
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, value);
    if (text.empty() || result.ec != std::errc() || result.ptr != end || value < minimum)
        throw BadInput{flag + ": must be " + expected + ", got \"" + text + "\""};
    return value;
}

float parsePositive(const std::string& flag, const std::string& text, const char* unit) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || !(value > 0.0) || value > 1e6)
        throw BadInput{flag + ": must be a number > 0 (" + unit + "), got \"" + text + "\""};
    return float(value);
}

// An output file may only be created after all input is known good, so check its directory now.
void checkOutputPath(const std::string& flag, const std::string& path) {
    if (path.empty()) return;
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec)) throw BadInput{flag + ": \"" + path + "\" is a directory, expected a file name"};
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) throw BadInput{flag + ": directory \"" + dir.string() + "\" does not exist"};
    if (access(dir.c_str(), W_OK) != 0) throw BadInput{flag + ": directory \"" + dir.string() + "\" is not writable"};
}

RunSettings settingsFrom(const Options& o, const Scene& scene) {
    RunSettings s;
    s.steps = o.steps.empty() ? scene.time.steps : parseWhole("--steps", o.steps, 0, "a whole number >= 0");
    s.dt = o.dt.empty() ? scene.time.dt : parsePositive("--dt", o.dt, "seconds");
    s.threads = o.threads.empty() ? 0 : int(parseWhole("--threads", o.threads, 1, "a whole number >= 1"));
    s.every = o.every.empty() ? 1 : parseWhole("--every", o.every, 1, "a whole number >= 1");
    return s;
}

// The bake's settings, checked (directory created and tried) before the simulation starts.
std::optional<VdbBakeSettings> bakeSettingsFrom(const Options& o) {
    if (o.vdbDir.empty()) {
        if (!o.vdbEvery.empty() || !o.vdbVoxel.empty())
            throw BadInput{std::string(o.vdbEvery.empty() ? "--vdb-voxel" : "--vdb-every") + ": needs --vdb DIR"};
        return std::nullopt;
    }
    VdbBakeSettings b;
    b.directory = o.vdbDir;
    b.name = fs::path(o.scenePath).stem().string();
    if (b.name.empty()) b.name = "scene";
    b.every = o.vdbEvery.empty() ? 1 : parseWhole("--vdb-every", o.vdbEvery, 1, "a whole number of steps >= 1");
    b.voxelSize = o.vdbVoxel.empty() ? 0.0f : parsePositive("--vdb-voxel", o.vdbVoxel, "metres");
    try {
        checkVdbBake(b);
    } catch (const BakeError& e) {
        throw BadInput{e.what()};
    }
    return b;
}

// --- summary -------------------------------------------------------------------------------------

// sum |omega| V: the scale circulation drift is measured against (a ring's net circulation is 0).
double vorticityStrength(const Vortons& v) {
    double sum = 0.0;
    for (size_t i = 0; i < v.size(); ++i) sum += double(glm::length(v.vorticity[i])) * double(v.volume(i));
    return sum;
}

std::string relative(double drift, double scale) {
    if (!(scale > 1e-30)) return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, " (%.2e relative)", drift / scale);
    return buf;
}

void printSummary(const std::string& scenePath, long steps, double wallSeconds, double msTotal, const Simulation& sim,
                  const Diagnostics& start, double startStrength) {
    const Diagnostics end = sim.diagnostics();
    const double circulationDrift = glm::length(end.circulation - start.circulation);
    const double impulseDrift = glm::length(end.linearImpulse - start.linearImpulse);
    std::printf("%s: %ld steps in %.2f s wall, %.3f ms/step mean; %zu vortons, %zu tracers, %zu bodies\n",
                scenePath.c_str(), steps, wallSeconds, steps ? msTotal / double(steps) : 0.0, sim.vortons().size(),
                sim.tracers().size(), sim.bodies().size());
    // Both are conserved only by free vortex dynamics: say so when something else acts.
    const FluidParams& f = sim.fluid();
    std::string note;
    if (f.baroclinic && glm::length(f.gravity) > 0.0f) note = "buoyancy generates vorticity";
    if (!sim.bodies().empty()) note += std::string(note.empty() ? "" : ", ") + "bodies exchange momentum";
    if (f.method != FluidMethod::Vpm) note += std::string(note.empty() ? "" : ", ") + "SPH forces act";
    if (!note.empty()) note = "; not conserved here: " + note;
    std::printf("  circulation drift |dC| = %.3e m^4/s%s%s\n", circulationDrift,
                relative(circulationDrift, startStrength).c_str(), note.c_str());
    std::printf("  linear impulse drift |dI| = %.3e m^5/s%s%s\n", impulseDrift,
                relative(impulseDrift, glm::length(start.linearImpulse)).c_str(), note.c_str());
}

// --- the run ---------------------------------------------------------------------------------

int run(const Options& o) {
    if (o.scenePath.empty()) throw BadInput{"SCENE: a scene file is required (see --help)"};
    Scene scene;
    try {
        scene = loadScene(o.scenePath, o.sets);
    } catch (const SceneError& e) {
        throw BadInput{e.what()};
    }
    const RunSettings s = settingsFrom(o, scene);
    checkOutputPath("--dump", o.dumpPath);
    checkOutputPath("--stats", o.statsPath);
    if (!o.dumpPath.empty() && fs::path(o.dumpPath) == fs::path(o.statsPath))
        throw BadInput{"--dump and --stats: both name \"" + o.dumpPath + "\", expected two different files"};

    Simulation sim;
    sim.setThreads(s.threads);
    try {
        buildSimulation(scene, sim);
    } catch (const SceneError& e) {
        throw BadInput{e.what()};
    }
    const std::optional<VdbBakeSettings> bakeSettings = bakeSettingsFrom(o);  // creates the directory: last check
    const Diagnostics start = sim.diagnostics();
    const double startStrength = vorticityStrength(sim.vortons());

    std::optional<StatsWriter> stats;
    if (!o.statsPath.empty()) stats.emplace(o.statsPath);
    std::optional<VdbBaker> baker;
    if (bakeSettings) baker.emplace(*bakeSettings);
    Progress progress(s.steps, !o.quiet);
    double msTotal = 0.0;
    const auto wallStart = std::chrono::steady_clock::now();
    for (long step = 1; step <= s.steps; ++step) {
        try {
            sim.step(s.dt);
        } catch (const NonFiniteError& e) {
            if (stats) stats->finish(sim);
            std::fprintf(stderr,
                         "\nvortonfx-sim: %s: the simulation produced a non-finite value at step %ld in phase \"%s\"; "
                         "no dump written (try a smaller --dt)\n",
                         o.scenePath.c_str(), e.step, e.phase.c_str());
            return kExitNonFinite;
        }
        msTotal += sim.lastStepMs();
        if (stats && step % s.every == 0) stats->row(sim);
        if (baker && baker->due(sim.stepCount())) {
            try {
                baker->writeFrame(sim);
            } catch (const BakeError& e) {
                if (stats) stats->finish(sim);
                std::fprintf(stderr, "\nvortonfx-sim: --vdb: %s; the %d frame(s) before it are complete\n", e.what(),
                             baker->framesWritten());
                return kExitBadInput;
            }
        }
        progress.update(step, msTotal / double(step),
                        baker ? "  " + std::to_string(baker->framesWritten()) + " VDB frames" : std::string());
    }
    const double wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    if (stats) stats->finish(sim);
    if (!o.dumpPath.empty()) writeDump(o.dumpPath, sim);
    if (!o.quiet) printSummary(o.scenePath, s.steps, wallSeconds, msTotal, sim, start, startStrength);
    if (!o.quiet && baker)
        std::printf("  baked %d OpenVDB frames: %s ... %s\n", baker->framesWritten(),
                    baker->framesWritten() ? baker->framePath(1).c_str() : "-",
                    baker->framesWritten() ? baker->framePath(baker->framesWritten()).c_str() : "-");
    return kExitOk;
}

// --bench takes no scene and no output files: only --threads applies.
int runBench(const Options& o) {
    if (!o.scenePath.empty()) throw BadInput{"--bench: takes no scene file, got \"" + o.scenePath + "\""};
    if (!o.steps.empty() || !o.dt.empty() || !o.sets.empty() || !o.dumpPath.empty() || !o.statsPath.empty() ||
        !o.every.empty() || !o.vdbDir.empty() || !o.vdbEvery.empty() || !o.vdbVoxel.empty())
        throw BadInput{"--bench: runs fixed scenes; of the other flags only --threads applies"};
    const int threads = o.threads.empty() ? 0 : int(parseWhole("--threads", o.threads, 1, "a whole number >= 1"));
    return runBenchmarks(threads, stdout);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"vortonfx-sim: runs a vortonfx scene headless and writes its final state and statistics."};
    Options o;
    app.add_option("SCENE", o.scenePath, "Scene file (JSON, see scenes/)")->type_name("SCENE.json");
    app.add_option("--steps", o.steps, "Number of steps (default: the scene's time.steps)")->type_name("N");
    app.add_option("--dt", o.dt, "Time step in seconds (default: the scene's time.dt)")->type_name("S");
    app.add_option("--threads", o.threads, "Worker threads, >= 1 (default: all cores); results do not depend on it")
        ->type_name("N");
    app.add_option("--set", o.sets,
                   "Override a scene field by dotted path, e.g. fluid.viscosity=0.01 or vortons.0.count=8192")
        ->type_name("PATH=VALUE")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_option("--dump", o.dumpPath, "Write the final state as struct-of-arrays JSON to this file")
        ->type_name("FILE.json");
    app.add_option("--stats", o.statsPath, "Write one CSV row of diagnostics and timings every K steps to this file")
        ->type_name("FILE.csv");
    app.add_option("--every", o.every, "Steps between stats rows (default 1)")->type_name("K");
    app.add_option("--vdb", o.vdbDir,
                   "Bake OpenVDB frames DIR/<scene>_0001.vdb ... (density, velocity, vorticity, tracers)")
        ->type_name("DIR");
    app.add_option("--vdb-every", o.vdbEvery, "Steps between baked frames (default 1)")->type_name("K");
    app.add_option("--vdb-voxel", o.vdbVoxel,
                   "Voxel size of the baked volumes in metres (default: the simulation's grid)")
        ->type_name("S");
    app.add_flag("--quiet,-q", o.quiet, "No progress bar and no summary");
    app.set_version_flag("--version", "vortonfx-sim " VORTONFX_VERSION);
    app.add_flag("--bench", o.bench,
                 "Time fixed scenes and print the speed table (ms per step and per frame, thread speed-up, growth "
                 "with vortons and tracers, tree error); --threads sets the many-thread count");
    app.add_flag("--params-markdown", o.paramsMarkdown,
                 "Print the scene parameter reference as a Markdown table and exit");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForVersion& e) {
        std::cout << e.what() << "\n";
        return kExitOk;
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "vortonfx-sim: %s\nRun vortonfx-sim --help for usage.\n", e.what());
        return kExitBadInput;
    }
    if (o.paramsMarkdown) {
        std::cout << parameterReferenceMarkdown();
        return kExitOk;
    }
    try {
        if (o.bench) return runBench(o);
        return run(o);
    } catch (const BadInput& e) {
        std::fprintf(stderr, "vortonfx-sim: %s\n", e.message.c_str());
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vortonfx-sim: error: %s\n", e.what());
        return kExitFailure;
    }
}
