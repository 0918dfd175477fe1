// vortonfx-sim: runs a scene headless, writes stats, dumps and a progress bar.
//   vortonfx-sim SCENE.json [--steps N] [--dt S] [--threads N] [--set path=value]...
//                [--dump FILE.json] [--stats FILE.csv] [--every K] [--quiet] [--params-markdown]
//                [--vdb DIR [--vdb-every K] [--vdb-voxel S]]
//   vortonfx-sim --bench [--threads N]
// Exit 0 on success, 2 on bad input (nothing written), 3 when the simulation produced a
// non-finite value (the message names the step and the phase).
#include "app/sim_bench.hpp"
#include "export/vdb_bake.hpp"
#include "scene/scene.hpp"
#include "core/text_format.hpp"
#include "scene/schema.hpp"
#include "sim/simulation.hpp"

#include <CLI/CLI.hpp>
#include <vortonfx/version.hpp>

#include <unistd.h>

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

// --- stats CSV -----------------------------------------------------------------------------------

std::string columnName(const std::string& text) {
    std::string out;
    for (unsigned char c : text) out += std::isalnum(c) ? char(std::tolower(c)) : '_';
    return out;
}

// Ten significant digits: enough to reproduce a run's figures from its CSV.
std::string number(double v) { return formatNumber(v, 10); }

class StatsWriter {
public:
    explicit StatsWriter(const std::string& path) : out_(path) {
        if (!out_) throw std::runtime_error("--stats: cannot create \"" + path + "\"");
    }

    // The phase set is known after the first step; the header is written with the first row.
    void row(const Simulation& sim) {
        if (!headerWritten_) writeHeader(sim);
        const Diagnostics d = sim.diagnostics();
        std::string line = std::to_string(sim.stepCount()) + "," + number(sim.time()) + "," + number(sim.lastStepMs()) +
                           "," + std::to_string(sim.vortons().size()) + "," + std::to_string(sim.tracers().size()) +
                           "," + number(d.kineticEnergy);
        for (const dvec3& v : {d.circulation, d.linearImpulse, d.angularImpulse})
            line += "," + number(v.x) + "," + number(v.y) + "," + number(v.z);
        line += "," + number(d.massParticles) + "," + number(d.massGrid) + "," + number(d.maxSpeed);
        line += "," + number(d.fieldEnergy) + "," + std::to_string(sim.lastSubsteps()) + "," +
                std::to_string(sim.remeshCount()) + "," + number(d.potentialFlowEnergy);
        for (const std::string& phase : phases_) line += "," + number(sim.timers().lastMs(phase));
        for (const RigidBody& b : sim.bodies())
            if (!b.name.empty())
                line += "," + number(b.position.x) + "," + number(b.position.y) + "," + number(b.position.z);
        line += "," VORTONFX_VERSION;  // the file has no other place for metadata that CSV readers keep
        out_ << line << '\n';
        out_.flush();
    }

    void finish(const Simulation& sim) {
        if (!headerWritten_) writeHeader(sim);
        out_.flush();
        if (!out_) throw std::runtime_error("--stats: writing the file failed");
    }

private:
    void writeHeader(const Simulation& sim) {
        std::string header = "step,time,ms_step,vortons,tracers,kinetic_energy";
        for (const char* q : {"circulation", "impulse", "angular_impulse"})
            header += std::string(",") + q + "_x," + q + "_y," + q + "_z";
        header += ",mass_particles,mass_grid,max_speed,field_energy,substeps,remeshes,potential_flow_energy";
        for (const PhaseTimers::Phase& p : sim.timers().phases()) {
            phases_.push_back(p.name);
            header += ",ms_" + columnName(p.name);
        }
        for (const RigidBody& b : sim.bodies())
            if (!b.name.empty()) {
                const std::string c = "body_" + columnName(b.name);
                header += "," + c + "_x," + c + "_y," + c + "_z";
            }
        header += ",vortonfx_version";
        out_ << header << '\n';
        headerWritten_ = true;
    }

    std::ofstream out_;
    bool headerWritten_ = false;
    std::vector<std::string> phases_;
};

// --- dump JSON -----------------------------------------------------------------------------------

// Streams the struct-of-arrays dump; floats in their shortest form that reads back exactly.
class DumpWriter {
public:
    explicit DumpWriter(std::ostream& out) : out_(out) {}

    void write(const Simulation& sim) {
        const Vortons& v = sim.vortons();
        const Tracers& t = sim.tracers();
        out_ << "{\"vortonfx_version\":\"" VORTONFX_VERSION "\",\"step\":" << sim.stepCount()
             << ",\"time\":" << nlohmann::json(sim.time()).dump() << ",\n\"vortons\":{";
        vectors("position", v.position);
        out_ << ",\n";
        vectors("velocity", v.velocity);
        out_ << ",\n";
        vectors("vorticity", v.vorticity);
        out_ << ",\n";
        scalars("density", v.density);
        out_ << ",\n";
        scalars("radius", v.radius);
        out_ << ",\n";
        scalars("volume", v.volumes);
        out_ << ",\n";
        vectors("density_gradient", v.densityGradient);
        out_ << "},\n\"tracers\":{";
        vectors("position", t.position);
        out_ << ",\n";
        scalars("density", t.density);
        out_ << "},\n\"bodies\":[";
        for (size_t i = 0; i < sim.bodies().size(); ++i) {
            const RigidBody& b = sim.bodies()[i];
            out_ << (i ? ",\n" : "\n") << "{\"name\":" << nlohmann::json(b.name).dump() << ",\"position\":";
            vec(b.position);
            out_ << ",\"velocity\":";
            vec(b.velocity);
            out_ << ",\"orientation\":[";
            real(b.orientation.w), out_ << ',', real(b.orientation.x), out_ << ',', real(b.orientation.y), out_ << ',',
                real(b.orientation.z);
            out_ << "]}";
        }
        out_ << "]}\n";
    }

private:
    void real(float x) {
        if (!std::isfinite(x)) {  // JSON has no NaN; a finite run never gets here
            out_ << "null";
            return;
        }
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, x);
        out_.write(buf, r.ptr - buf);
    }
    void vec(const vec3& p) {
        out_ << '[';
        real(p.x), out_ << ',', real(p.y), out_ << ',', real(p.z);
        out_ << ']';
    }
    void vectors(const char* key, const std::vector<vec3>& values) {
        out_ << '"' << key << "\":[";
        for (size_t i = 0; i < values.size(); ++i) {
            if (i) out_ << ',';
            vec(values[i]);
        }
        out_ << ']';
    }
    void scalars(const char* key, const std::vector<float>& values) {
        out_ << '"' << key << "\":[";
        for (size_t i = 0; i < values.size(); ++i) {
            if (i) out_ << ',';
            real(values[i]);
        }
        out_ << ']';
    }
    std::ostream& out_;
};

void writeDump(const std::string& path, const Simulation& sim) {
    std::ofstream out(path);
    if (!out) throw std::runtime_error("--dump: cannot create \"" + path + "\"");
    DumpWriter(out).write(sim);
    out.flush();
    if (!out) throw std::runtime_error("--dump: writing \"" + path + "\" failed");
}

// --- progress and summary --------------------------------------------------------------------

class Progress {
public:
    Progress(long total, bool enabled) : total_(total), enabled_(enabled && total > 0 && isatty(fileno(stderr))) {}

    void update(long done, double msPerStep, const std::string& extra = "") {
        if (!enabled_) return;
        const auto now = std::chrono::steady_clock::now();
        if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
        last_ = now;
        const int width = 30;
        const int filled = int(double(width) * double(done) / double(total_));
        std::fprintf(stderr, "\r[%s%s] %ld/%ld steps  %.2f ms/step  ETA %.1f s%s   ",
                     std::string(size_t(filled), '#').c_str(), std::string(size_t(width - filled), '.').c_str(), done,
                     total_, msPerStep, double(total_ - done) * msPerStep / 1000.0, extra.c_str());
        if (done == total_) std::fputc('\n', stderr);
        std::fflush(stderr);
    }

private:
    long total_;
    bool enabled_;
    std::chrono::steady_clock::time_point last_{};
};

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
