// vortonfx-sim: runs a scene headless, writes stats, dumps and a progress bar (sim_stats.cpp,
// sim_dump.cpp, sim_progress.cpp; --bench in sim_bench.cpp). This file is the command line.
//   vortonfx-sim SCENE.json [--steps N] [--dt S] [--threads N] [--set path=value]... [--max-memory GB]
//                [--dump FILE.json] [--stats FILE.csv [--energy-changes]] [--every K] [--quiet] [--params-markdown]
//                [--vdb DIR [--vdb-every K] [--vdb-voxel S] [--vdb-clear]]
//   vortonfx-sim --bench [--threads N]
// Exit 0 on success, 2 on bad input (nothing written), 3 when the simulation produced a
// non-finite value (the message names the step and the phase), 4 when writing an output failed
// (the message names the file; earlier files of that name are unchanged), 1 when memory ran out
// or the program failed (the message says which). docs/runner.md lists them.
#include "app/sim_bench.hpp"
#include "app/sim_bench_frames.hpp"
#include "app/sim_dump.hpp"
#include "app/sim_outputs.hpp"
#include "app/sim_progress.hpp"
#include "app/sim_stats.hpp"
#include "core/text_format.hpp"
#include "export/vdb_bake.hpp"
#include "scene/scene.hpp"
#include "scene/schema.hpp"
#include "sim/fluid_method.hpp"
#include "sim/simulation.hpp"

#include <CLI/CLI.hpp>
#include <vortonfx/version.hpp>

#include <cfloat>
#include <charconv>
#include <chrono>
#include <new>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace vfx;
namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitNonFinite = 3;
constexpr int kExitWriteFailed = 4;

constexpr long kMostThreads = 1024;

// Bad command-line or scene input; the message is shown as is.
struct BadInput {
    std::string message;
};

// An output that could not be written during or after the run; the message names the file.
struct WriteFailed {
    std::string message;
};

struct Options {
    std::string scenePath;
    std::string steps, dt, threads, every;  // raw text: checked here for messages naming the flag
    std::vector<std::string> sets;
    std::string dumpPath, statsPath;
    std::string vdbDir, vdbEvery, vdbVoxel;  // raw text, like the numbers above
    std::string maxMemory;
    bool dumpGiven = false, statsGiven = false, vdbGiven = false;  // an empty path is an error, not "none"
    bool vdbClear = false;
    bool energyChanges = false;
    bool quiet = false;
    bool paramsMarkdown = false;
    bool bench = false;
    bool benchFrames = false;
    std::string benchVortons, benchCsv;  // raw text, checked where used
    bool benchCsvGiven = false;
};

struct RunSettings {
    long steps = 0;
    float dt = 0.01f;
    int threads = 0;  // 0 = all hardware threads
    long every = 1;
};

// --- flag values -------------------------------------------------------------------------------

long parseWhole(const std::string& flag, const std::string& text, long minimum, const char* expected,
                long maximum = std::numeric_limits<long>::max()) {
    long value = 0;
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, value);
    if (text.empty() || result.ec != std::errc() || result.ptr != end || value < minimum || value > maximum)
        throw BadInput{flag + ": must be " + expected + ", got \"" + text + "\""};
    return value;
}

float parsePositive(const std::string& flag, const std::string& text, const char* unit) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || !(value > 0.0) || value > 1e6)
        throw BadInput{flag + ": must be a number > 0 and <= 1e6 (" + unit + "), got \"" + text + "\""};
    if (value < double(FLT_MIN))  // a float would hold it as 0 or a subnormal
        throw BadInput{flag + ": must be a number > 0 and <= 1e6 (" + unit + "), got \"" + text +
                       "\", too small for single precision (smallest magnitude " + formatNumber(double(FLT_MIN)) + ")"};
    return float(value);
}

int parseThreads(const Options& o) {
    return o.threads.empty()
               ? 0
               : int(parseWhole("--threads", o.threads, 1, "a whole number from 1 to 1024", kMostThreads));
}

RunSettings settingsFrom(const Options& o, const Scene& scene) {
    RunSettings s;
    s.steps = o.steps.empty() ? scene.time.steps : parseWhole("--steps", o.steps, 0, "a whole number >= 0");
    s.dt = o.dt.empty() ? scene.time.dt : parsePositive("--dt", o.dt, "seconds");
    s.threads = parseThreads(o);
    s.every = o.every.empty() ? 1 : parseWhole("--every", o.every, 1, "a whole number >= 1");
    return s;
}

MemoryBudget memoryBudgetFrom(const Options& o) {
    if (o.maxMemory.empty()) return defaultMemoryBudget("; --max-memory GB sets another");
    return {1e9 * double(parsePositive("--max-memory", o.maxMemory, "gigabytes")), "set by --max-memory"};
}

std::string bakeName(const Options& o) {
    const std::string name = fs::path(o.scenePath).stem().string();
    return name.empty() ? "scene" : name;
}

// The bake's settings, checked (directory created and tried, earlier frames refused unless
// --vdb-clear) before the simulation starts.
std::optional<VdbBakeSettings> bakeSettingsFrom(const Options& o) {
    if (!o.vdbGiven) {
        if (!o.vdbEvery.empty() || !o.vdbVoxel.empty() || o.vdbClear)
            throw BadInput{std::string(!o.vdbEvery.empty()   ? "--vdb-every"
                                       : !o.vdbVoxel.empty() ? "--vdb-voxel"
                                                             : "--vdb-clear") +
                           ": needs --vdb DIR"};
        return std::nullopt;
    }
    VdbBakeSettings b;
    b.directory = o.vdbDir;
    b.name = bakeName(o);
    b.every = o.vdbEvery.empty() ? 1 : parseWhole("--vdb-every", o.vdbEvery, 1, "a whole number of steps >= 1");
    b.voxelSize = o.vdbVoxel.empty() ? 0.0f : parsePositive("--vdb-voxel", o.vdbVoxel, "metres");
    b.staleFrames = o.vdbClear ? StaleFrames::Clear : StaleFrames::Refuse;
    try {
        checkVdbBake(b);
    } catch (const BakeError& e) {
        const bool stale = std::string(e.what()).find("earlier bake") != std::string::npos;
        throw BadInput{std::string(e.what()) + (stale ? ", or add --vdb-clear to delete them first" : "")};
    }
    return b;
}

// The file outputs, checked against each other and the scene, and created (as temporaries
// renamed into place at the end) before the run.
struct RunOutputs {
    std::optional<AtomicFile> dump;
    std::optional<StatsWriter> stats;
    std::optional<VdbBaker> baker;
};

// Checks every output path and creates the files' temporaries (cheap: before the scene is built).
void openFiles(const Options& o, RunOutputs& out) {
    std::vector<OutputPath> files;
    if (o.dumpGiven) files.push_back({"--dump", o.dumpPath});
    if (o.statsGiven) files.push_back({"--stats", o.statsPath});
    try {
        checkOutputPaths(files, {o.scenePath}, BakePath{o.vdbGiven ? o.vdbDir : "", bakeName(o)});
        if (o.dumpGiven) out.dump.emplace(o.dumpPath);
        if (o.statsGiven) out.stats.emplace(o.statsPath);
    } catch (const OutputPathError& e) {
        throw BadInput{e.what()};
    } catch (const FileWriteError& e) {
        throw BadInput{std::string(out.dump || !o.dumpGiven ? "--stats: " : "--dump: ") + e.what()};
    }
}

// The bake creates its directory: the last check, once the scene is known to build.
void openBake(const Options& o, RunOutputs& out) {
    if (const std::optional<VdbBakeSettings> bake = bakeSettingsFrom(o)) {
        try {
            out.baker.emplace(*bake);
        } catch (const BakeError& e) {
            throw BadInput{e.what()};
        }
    }
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
    if (fluidMethodStep(f.method).sphForcesAct()) note += std::string(note.empty() ? "" : ", ") + "SPH forces act";
    if (!note.empty()) note = "; not conserved here: " + note;
    std::printf("  circulation drift |dC| = %.3e m^4/s%s%s\n", circulationDrift,
                relative(circulationDrift, startStrength).c_str(), note.c_str());
    std::printf("  linear impulse drift |dI| = %.3e m^5/s%s%s\n", impulseDrift,
                relative(impulseDrift, glm::length(start.linearImpulse)).c_str(), note.c_str());
}

// --- the run ---------------------------------------------------------------------------------

// A non-finite value stops the run: no dump, and the stats rows so far kept beside the stats file.
int reportNonFinite(const Options& o, const NonFiniteError& e, RunOutputs& out, const Simulation& sim) {
    std::string kept;
    if (out.stats) {
        try {
            kept = "; the stats rows up to it are in \"" + out.stats->keepAsFailed(sim) + "\", \"" + o.statsPath +
                   "\" is unchanged";
        } catch (const FileWriteError& w) {
            kept = "; --stats: " + std::string(w.what());
        }
    }
    std::fprintf(stderr,
                 "\nvortonfx-sim: %s: the simulation produced a non-finite value at step %ld in phase \"%s\"; "
                 "no dump written (try a smaller --dt)%s\n",
                 o.scenePath.c_str(), e.step, e.phase.c_str(), kept.c_str());
    return kExitNonFinite;
}

// Steps the simulation, writing stats rows and bake frames as they fall due. Returns the wall
// time, or throws NonFiniteError / WriteFailed.
double runSteps(const Options& o, const RunSettings& s, Simulation& sim, RunOutputs& out, double& msTotal) {
    Progress progress(s.steps, !o.quiet);
    const auto wallStart = std::chrono::steady_clock::now();
    for (long step = 1; step <= s.steps; ++step) {
        sim.step(s.dt);
        msTotal += sim.lastStepMs();
        try {
            if (out.stats && step % s.every == 0) out.stats->row(sim);
        } catch (const FileWriteError& e) {
            throw WriteFailed{"--stats: " + std::string(e.what())};
        }
        if (out.baker && out.baker->due(sim.stepCount())) {
            try {
                out.baker->writeFrame(sim);
            } catch (const BakeError& e) {
                throw WriteFailed{"--vdb: " + std::string(e.what()) + "; the " +
                                  std::to_string(out.baker->framesWritten()) + " frame(s) before it are complete"};
            }
        }
        progress.update(step, msTotal / double(step),
                        out.baker ? "  " + std::to_string(out.baker->framesWritten()) + " VDB frames" : std::string());
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
}

// Writes the stats and the dump to the end, then puts both under their names: a write that fails
// leaves every earlier file as it was.
void finishOutputs(RunOutputs& out, const Simulation& sim) {
    const char* flag = "--stats: ";
    try {
        if (out.stats) out.stats->finish(sim);
        flag = "--dump: ";
        if (out.dump) writeDump(*out.dump, sim);
        flag = "--stats: ";
        if (out.stats) out.stats->commit();
        flag = "--dump: ";
        if (out.dump) out.dump->commit();
    } catch (const FileWriteError& e) {
        throw WriteFailed{flag + std::string(e.what())};
    }
}

int run(const Options& o) {
    if (o.scenePath.empty()) throw BadInput{"SCENE: a scene file is required (see --help)"};
    Scene scene;
    try {
        scene = loadScene(o.scenePath, o.sets, memoryBudgetFrom(o));
    } catch (const SceneError& e) {
        throw BadInput{e.what()};
    }
    const RunSettings s = settingsFrom(o, scene);
    if (o.energyChanges && !o.statsGiven) throw BadInput{"--energy-changes: needs --stats FILE.csv"};
    RunOutputs out;
    openFiles(o, out);

    Simulation sim;
    sim.setThreads(s.threads);
    try {
        buildSimulation(scene, sim);
    } catch (const SceneError& e) {
        throw BadInput{e.what()};
    }
    sim.setMeasureEnergyChanges(o.energyChanges);
    openBake(o, out);
    if (out.baker && out.baker->framesCleared() > 0 && !o.quiet)
        std::printf("--vdb: deleted %d frame file(s) of an earlier bake in %s (--vdb-clear)\n",
                    out.baker->framesCleared(), o.vdbDir.c_str());
    const Diagnostics start = sim.diagnostics();
    const double startStrength = vorticityStrength(sim.vortons());

    double msTotal = 0.0, wallSeconds = 0.0;
    try {
        wallSeconds = runSteps(o, s, sim, out, msTotal);
    } catch (const NonFiniteError& e) {
        return reportNonFinite(o, e, out, sim);
    }
    finishOutputs(out, sim);
    if (!o.quiet) printSummary(o.scenePath, s.steps, wallSeconds, msTotal, sim, start, startStrength);
    const std::optional<VdbBaker>& baker = out.baker;
    if (!o.quiet && baker)
        std::printf("  baked %d OpenVDB frames: %s ... %s\n", baker->framesWritten(),
                    baker->framesWritten() ? baker->framePath(1).c_str() : "-",
                    baker->framesWritten() ? baker->framePath(baker->framesWritten()).c_str() : "-");
    return kExitOk;
}

// --bench takes no scene and no output files: only --threads applies.
int runBench(const Options& o) {
    if (!o.scenePath.empty()) throw BadInput{"--bench: takes no scene file, got \"" + o.scenePath + "\""};
    if (!o.steps.empty() || !o.dt.empty() || !o.sets.empty() || o.dumpGiven || o.statsGiven || !o.every.empty() ||
        o.vdbGiven || !o.vdbEvery.empty() || !o.vdbVoxel.empty() || o.vdbClear || !o.maxMemory.empty() ||
        o.energyChanges)
        throw BadInput{"--bench: runs fixed scenes; of the other flags only --threads applies"};
    return runBenchmarks(parseThreads(o), stdout);
}

// --bench-frames: the author's drop per quality level; --threads, --bench-vortons and --bench-csv apply.
std::vector<long> parseVortonCounts(const std::string& text) {
    std::vector<long> counts;
    std::stringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
        counts.push_back(parseWhole("--bench-vortons", item, 1,
                                    "a comma-separated list of whole numbers from 1 to 1000000", 1000000));
    if (counts.empty() || text.back() == ',')
        throw BadInput{"--bench-vortons: must be a comma-separated list of whole numbers from 1 to 1000000, got \"" +
                       text + "\""};
    return counts;
}

int runBenchFrames(const Options& o) {
    if (o.bench) throw BadInput{"--bench-frames: runs alone, not with --bench"};
    if (!o.scenePath.empty()) throw BadInput{"--bench-frames: takes no scene file, got \"" + o.scenePath + "\""};
    if (!o.steps.empty() || !o.dt.empty() || !o.sets.empty() || o.dumpGiven || o.statsGiven || !o.every.empty() ||
        o.vdbGiven || !o.vdbEvery.empty() || !o.vdbVoxel.empty() || o.vdbClear || !o.maxMemory.empty() ||
        o.energyChanges)
        throw BadInput{
            "--bench-frames: runs fixed scenes; of the other flags only --threads, --bench-vortons and --bench-csv apply"};
    FrameBenchOptions options;
    options.threads = parseThreads(o);
    if (!o.benchVortons.empty()) options.vortonCounts = parseVortonCounts(o.benchVortons);
    if (o.benchCsvGiven && o.benchCsv.empty()) throw BadInput{"--bench-csv: the path is empty"};
    std::optional<AtomicFile> csv;  // created first: a path that cannot be written fails before the runs
    try {
        if (o.benchCsvGiven) csv.emplace(o.benchCsv);
    } catch (const FileWriteError& e) {
        throw BadInput{"--bench-csv: " + std::string(e.what())};
    }
    options.csv = csv ? &*csv : nullptr;
    try {
        return runFrameBenchmarks(options, stdout);
    } catch (const FileWriteError& e) {
        throw WriteFailed{"--bench-csv: " + std::string(e.what())};
    }
}

// The path flags, to tell an empty path given from none.
struct PathFlags {
    CLI::Option* dump;
    CLI::Option* stats;
    CLI::Option* vdb;
    CLI::Option* benchCsv;
};

PathFlags describeOptions(CLI::App& app, Options& o) {
    app.add_option("SCENE", o.scenePath, "Scene file (JSON, see scenes/)")->type_name("SCENE.json");
    app.add_option("--steps", o.steps, "Number of steps (default: the scene's time.steps)")->type_name("N");
    app.add_option("--dt", o.dt, "Time step in seconds (default: the scene's time.dt)")->type_name("S");
    app.add_option("--threads", o.threads,
                   "Worker threads, 1 to 1024 (default: all cores); results do not depend on it")
        ->type_name("N");
    app.add_option("--set", o.sets,
                   "Override a scene field by dotted path, e.g. fluid.viscosity=0.01 or vortons.0.count=8192")
        ->type_name("PATH=VALUE")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_option("--max-memory", o.maxMemory,
                   "Refuse scenes estimated to need more than this many gigabytes (default: half the machine's)")
        ->type_name("GB");
    CLI::Option* dump =
        app.add_option("--dump", o.dumpPath, "Write the final state as struct-of-arrays JSON to this file")
            ->type_name("FILE.json");
    CLI::Option* stats = app.add_option("--stats", o.statsPath,
                                        "Write one CSV row of diagnostics and timings every K steps to this file")
                             ->type_name("FILE.csv");
    app.add_option("--every", o.every, "Steps between stats rows (default 1)")->type_name("K");
    app.add_flag("--energy-changes", o.energyChanges,
                 "With --stats: measure the field energy after each phase that changes the vortons (columns "
                 "energy_change_<phase>; several velocity solves a sub-step, which ms_step then includes)");
    CLI::Option* vdb =
        app.add_option("--vdb", o.vdbDir,
                       "Bake OpenVDB frames DIR/<scene>_0001.vdb ... (density, velocity, vorticity, tracers)")
            ->type_name("DIR");
    app.add_option("--vdb-every", o.vdbEvery, "Steps between baked frames (default 1)")->type_name("K");
    app.add_option("--vdb-voxel", o.vdbVoxel,
                   "Voxel size of the baked volumes in metres (default: the simulation's grid)")
        ->type_name("S");
    app.add_flag("--vdb-clear", o.vdbClear,
                 "Delete the frames of an earlier bake of this scene in DIR first (without it they are refused)");
    app.add_flag("--quiet,-q", o.quiet, "No progress bar and no summary");
    app.set_version_flag("--version", "vortonfx-sim " VORTONFX_VERSION);
    app.add_flag("--bench", o.bench,
                 "Time fixed scenes and print the speed table (ms per step and per frame, thread speed-up, growth "
                 "with vortons and tracers, tree error); --threads sets the many-thread count");
    app.add_flag("--bench-frames", o.benchFrames,
                 "Run the author's dye drop (32,768 tracers, 300 frames of 1/30 s) at each quality level and print "
                 "per-frame median, 99th percentile and worst ms, vorton counts, and the fall and impulse at 5 s "
                 "against the film level at 1/480 s (mean and spread of 4 runs at frame steps a few 1e-5 apart)");
    app.add_option("--bench-vortons", o.benchVortons,
                   "With --bench-frames: the drops' vorton counts (default 2176,17256)")
        ->type_name("N,N,...");
    CLI::Option* benchCsv =
        app.add_option("--bench-csv", o.benchCsv,
                       "With --bench-frames: write every run's ms per frame to this CSV (for plotting)")
            ->type_name("FILE.csv");
    app.add_flag("--params-markdown", o.paramsMarkdown,
                 "Print the scene parameter reference as a Markdown table and exit");
    return {dump, stats, vdb, benchCsv};
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"vortonfx-sim: runs a vortonfx scene headless and writes its final state and statistics."};
    Options o;
    const PathFlags paths = describeOptions(app, o);
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
    o.dumpGiven = paths.dump->count() > 0;
    o.statsGiven = paths.stats->count() > 0;
    o.vdbGiven = paths.vdb->count() > 0;
    o.benchCsvGiven = paths.benchCsv->count() > 0;
    if (o.paramsMarkdown) {
        std::cout << parameterReferenceMarkdown();
        return kExitOk;
    }
    try {
        if (o.benchFrames) return runBenchFrames(o);
        if (!o.benchVortons.empty() || o.benchCsvGiven)
            throw BadInput{std::string(o.benchCsvGiven ? "--bench-csv" : "--bench-vortons") +
                           ": only with --bench-frames"};
        if (o.bench) return runBench(o);
        return run(o);
    } catch (const BadInput& e) {
        std::fprintf(stderr, "vortonfx-sim: %s\n", oneLine(e.message).c_str());
        return kExitBadInput;
    } catch (const WriteFailed& e) {
        std::fprintf(stderr, "\nvortonfx-sim: %s\n", e.message.c_str());
        return kExitWriteFailed;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr,
                     "\nvortonfx-sim: %s: ran out of memory (the machine has less free than the scene's estimate, "
                     "or the run grew past it); outputs of earlier runs are unchanged\n",
                     o.scenePath.c_str());
        return kExitFailure;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "\nvortonfx-sim: %s: internal error (please report it with the scene): %s\n",
                     o.scenePath.c_str(), e.what());
        return kExitFailure;
    }
}
