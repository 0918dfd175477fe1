// vortonfx-sim --bench: fixed scenes timed step by step with the simulation's own phase timers.
// Every case is a scene document like those in scenes/, built and stepped exactly as a run is.
#include "app/sim_bench.hpp"

#include "scene/scene.hpp"
#include "sim/simulation.hpp"
#include "sim/velocity_solver.hpp"

#include <nlohmann/json.hpp>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace vfx {
namespace {

// Gourlay's dye drop as his sample runs it: a lattice ball of radius 1 and density deviation +10
// in fluid of density 1, |g| = 10, nu = 0.01, at his frame step of 1/30 s.
nlohmann::json authorsDyeDrop(long vortons, long tracers) {
    return nlohmann::json::parse(R"({
      "name": "author's dye drop",
      "fluid": {"gravity": [0, -10, 0], "viscosity": 0.01, "ambient_density": 1.0},
      "time": {"dt": 0.0333333333},
      "vortons": [{"shape": "sphere", "center": [0, 5, 0], "radius": 1.0, "count": )" +
                                 std::to_string(vortons) + R"(, "density": 10.0, "layout": "lattice"}],
      "tracers": [{"shape": "sphere", "center": [0, 5, 0], "radius": 1.0, "count": )" +
                                 std::to_string(tracers) + R"(, "seed": 1}]})");
}

// The dye_drop preset's heavy drop (random ball of radius 0.5, deviation +0.5, nu = 0.001) with
// the given counts, at its own step of 0.01 s.
nlohmann::json heavyDrop(long vortons, long tracers) {
    nlohmann::json scene = nlohmann::json::parse(R"({
      "name": "heavy drop",
      "fluid": {"gravity": [0, -9.8, 0], "viscosity": 0.001, "ambient_density": 1.0},
      "time": {"dt": 0.01},
      "vortons": [{"shape": "sphere", "center": [0, 1, 0], "radius": 0.5, "count": 1, "density": 0.5, "seed": 1}],
      "tracers": [{"shape": "sphere", "center": [0, 1, 0], "radius": 0.5, "count": 1, "seed": 2}]})");
    scene["vortons"][0]["count"] = vortons;
    if (tracers > 0)
        scene["tracers"][0]["count"] = tracers;
    else
        scene.erase("tracers");
    return scene;
}

struct NonFiniteRun {};

void build(const nlohmann::json& document, Simulation& sim, int threads) {
    sim.setThreads(threads);
    buildSimulation(parseScene(document, document.value("name", "bench")), sim);
}

void advance(Simulation& sim, float dt) {
    try {
        sim.step(dt);
    } catch (const NonFiniteError&) {
        throw NonFiniteRun{};
    }
}

// The fastest of a phase's timings: what the work costs when nothing else on the machine gets in
// its way (other load only ever adds time).
double fastest(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

// Steady cost of one step: the fastest of `measured` steps after `warm` unmeasured ones, with
// each phase's fastest beside it. A still ball has no vorticity yet and every solver is trivial;
// by step 20 it is falling and has been remeshed once. The median step is printed beside the
// fastest: the steps differ (a remesh step costs more), and other load on the machine adds time.
constexpr int kWarmSteps = 20;
constexpr int kMeasuredSteps = 10;
struct StepCost {
    double ms = 0.0;        // fastest step
    double medianMs = 0.0;  // median step
    std::map<std::string, double> phaseMs;
    size_t vortons = 0;
};

StepCost timeSteps(const nlohmann::json& document, int threads, int warm = kWarmSteps, int measured = kMeasuredSteps) {
    Simulation sim;
    build(document, sim, threads);
    const float dt = float(document["time"]["dt"].get<double>());
    for (int k = 0; k < warm; ++k) advance(sim, dt);
    std::vector<double> total;
    std::map<std::string, std::vector<double>> phases;
    for (int k = 0; k < measured; ++k) {
        advance(sim, dt);
        total.push_back(sim.lastStepMs());
        for (const PhaseTimers::Phase& p : sim.timers().phases()) phases[p.name].push_back(p.lastMs);
    }
    StepCost cost;
    cost.ms = fastest(total);
    std::sort(total.begin(), total.end());
    cost.medianMs = total[total.size() / 2];
    for (auto& [name, ms] : phases) cost.phaseMs[name] = fastest(ms);
    cost.vortons = sim.vortons().size();
    return cost;
}

// A whole run from rest at the frame step: mean ms per frame including every sub-step and
// remesh (the cost a game pays), and the mean sub-steps per frame.
struct FrameCost {
    double msPerFrame = 0.0;
    double substeps = 0.0;
    size_t vortonsAtEnd = 0;
};

FrameCost timeFrames(const nlohmann::json& document, int threads, int frames) {
    Simulation sim;
    build(document, sim, threads);
    const float dt = float(document["time"]["dt"].get<double>());
    double ms = 0.0, substeps = 0.0;
    for (int k = 0; k < frames; ++k) {
        advance(sim, dt);
        ms += sim.lastStepMs();
        substeps += sim.lastSubsteps();
    }
    return {ms / frames, substeps / frames, sim.vortons().size()};
}

// The tree's velocity on the step's grid (what the velocity phase computes) against direct
// summation, for the vortons of a heavy drop 20 steps into its fall, at several opening angles:
// RMS error relative to the RMS speed, and the fastest of 5 tree builds + evaluations.
void treeAccuracyTable(long vortons, int threads, std::FILE* out) {
    Simulation sim;
    build(heavyDrop(vortons, 0), sim, threads);
    for (int k = 0; k < kWarmSteps; ++k) advance(sim, 0.01f);
    const GridShape& s = sim.gridShape();
    std::vector<vec3> points;
    for (int z = 0; z < s.points.z; ++z)
        for (int y = 0; y < s.points.y; ++y)
            for (int x = 0; x < s.points.x; ++x) points.push_back(s.pointPosition(x, y, z));
    std::vector<vec3> direct;
    tbb::task_arena arena(threads);
    arena.execute([&] { directVelocity(sim.vortons(), points, direct); });
    std::fprintf(out,
                 "\nTree velocity on the grid against direct summation (heavy drop, %ld vortons at start, %zu at "
                 "step %d, %zu grid points, %d threads; default opening angle %.2f)\n",
                 vortons, sim.vortons().size(), kWarmSteps, points.size(), threads,
                 double(sim.fluid().treeOpeningAngle));
    std::fprintf(out, "| opening angle | RMS error | ms (build + evaluate) |\n|---:|---:|---:|\n");
    for (float theta : {0.3f, 0.5f, 0.7f, 0.9f}) {
        std::vector<vec3> tree;
        double best = 1e30;
        for (int k = 0; k < 5; ++k) {
            const auto start = std::chrono::steady_clock::now();
            arena.execute([&] {
                VortonTree t;
                t.build(sim.vortons());
                t.velocityOnGrid(s, tree, theta);
            });
            best = std::min(
                best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        double error2 = 0.0, speed2 = 0.0;
        for (size_t i = 0; i < points.size(); ++i) {
            const vec3 d = tree[i] - direct[i];
            error2 += double(glm::dot(d, d));
            speed2 += double(glm::dot(direct[i], direct[i]));
        }
        std::fprintf(out, "| %.1f | %.3f%% | %.2f |\n", double(theta), 100.0 * std::sqrt(error2 / speed2), best);
        std::fflush(out);
    }
}

std::string phaseList(const StepCost& c) {
    std::vector<std::pair<double, std::string>> byCost;
    for (const auto& [name, ms] : c.phaseMs) byCost.push_back({ms, name});
    std::sort(byCost.rbegin(), byCost.rend());
    std::string out;
    char buf[64];
    for (const auto& [ms, name] : byCost) {
        if (ms < 0.05) continue;
        std::snprintf(buf, sizeof buf, "%s%s %.2f", out.empty() ? "" : ", ", name.c_str(), ms);
        out += buf;
    }
    return out;
}

void authorsDropTable(int threads, std::FILE* out) {
    std::fprintf(out,
                 "\nThe author's dye drop at his frame step 1/30 s, 32,768 tracers, %d threads: mean over the "
                 "first 90 frames (3 s), every sub-step and remesh included\n",
                 threads);
    std::fprintf(out,
                 "| vortons at start | ms per frame | sub-steps per frame | vortons at 3 s |\n|---:|---:|---:|---:|\n");
    for (long n : {2176L, 17256L}) {
        const FrameCost c = timeFrames(authorsDyeDrop(n, 32768), threads, 90);
        std::fprintf(out, "| %ld | %.1f | %.2f | %zu |\n", n, c.msPerFrame, c.substeps, c.vortonsAtEnd);
        std::fflush(out);
    }
}

void heavyDropTable(int threads, std::FILE* out) {
    std::fprintf(out,
                 "\nHeavy drop, 16,384 vortons + 262,144 tracers, dt 0.01: steps %d-%d (after the first "
                 "remesh), the fastest and the median; each phase's fastest\n",
                 kWarmSteps + 1, kWarmSteps + kMeasuredSteps);
    std::fprintf(out,
                 "| threads | ms per step, fastest | median | steps per s (median) | vortons after step %d | "
                 "phases (ms) |\n|---:|---:|---:|---:|---:|---|\n",
                 kWarmSteps + kMeasuredSteps);
    const nlohmann::json document = heavyDrop(16384, 262144);
    const StepCost one = timeSteps(document, 1);
    std::fprintf(out, "| 1 | %.2f | %.2f | %.0f | %zu | %s |\n", one.ms, one.medianMs, 1000.0 / one.medianMs,
                 one.vortons, phaseList(one).c_str());
    std::fflush(out);
    if (threads > 1) {
        const StepCost many = timeSteps(document, threads);
        std::fprintf(out, "| %d | %.2f | %.2f | %.0f | %zu | %s |\n", threads, many.ms, many.medianMs,
                     1000.0 / many.medianMs, many.vortons, phaseList(many).c_str());
        std::fprintf(out, "speed-up on %d threads: %.2fx\n", threads, one.ms / many.ms);
    }
}

void vortonScalingTable(int threads, std::FILE* out) {
    std::fprintf(
        out,
        "\nGrowth with vortons (heavy drop, no tracers, %d threads): ms per step (fastest of steps 21-30), and that "
        "divided by N log N relative to 4,096 vortons (1.0 = N log N growth)\n",
        threads);
    std::fprintf(out,
                 "| vortons at start | vortons after step %d | ms per step | relative to N log N |\n"
                 "|---:|---:|---:|---:|\n",
                 kWarmSteps + kMeasuredSteps);
    double base = 0.0;
    for (long n : {4096L, 16384L, 65536L}) {
        const StepCost c = timeSteps(heavyDrop(n, 0), threads);
        const double count = double(c.vortons);  // what the step costs for: the count after remeshing
        const double perNLogN = c.ms / (count * std::log2(count));
        if (base == 0.0) base = perNLogN;
        std::fprintf(out, "| %ld | %zu | %.2f | %.2f |\n", n, c.vortons, c.ms, perNLogN / base);
        std::fflush(out);
    }
}

// Tracers are moved and coloured in the advection phase: their cost is what it and the density
// phase (where they were coloured before) add over the same drop without tracers.
void tracerScalingTable(int threads, std::FILE* out) {
    std::fprintf(out, "\nGrowth with tracers (heavy drop, 16,384 vortons, %d threads, fastest of steps 21-30)\n",
                 threads);
    std::fprintf(out,
                 "| tracers | ms per step | advection + density, ms | ns per tracer per step |\n"
                 "|---:|---:|---:|---:|\n");
    double base = 0.0;
    for (long t : {0L, 65536L, 262144L}) {
        const StepCost c = timeSteps(heavyDrop(16384, t), threads);
        const double tracerPhases = c.phaseMs.at("advection") + c.phaseMs.at("density");
        if (t == 0) {
            base = tracerPhases;
            std::fprintf(out, "| 0 | %.2f | %.2f | - |\n", c.ms, tracerPhases);
        } else {
            std::fprintf(out, "| %ld | %.2f | %.2f | %.1f |\n", t, c.ms, tracerPhases,
                         (tracerPhases - base) * 1e6 / double(t));
        }
        std::fflush(out);
    }
}

}  // namespace

int runBenchmarks(int threads, std::FILE* out) {
    const int many = threads > 0 ? threads : tbb::info::default_concurrency();
    std::fprintf(out,
                 "vortonfx-sim --bench: %d hardware threads available; the heavy drop on 1 and %d threads, "
                 "the rest on %d\n",
                 tbb::info::default_concurrency(), many, many);
    try {
        heavyDropTable(many, out);
        tracerScalingTable(many, out);
        vortonScalingTable(many, out);
        treeAccuracyTable(16384, many, out);
        authorsDropTable(many, out);
    } catch (const NonFiniteRun&) {
        std::fprintf(stderr, "vortonfx-sim --bench: a case produced a non-finite value\n");
        return 3;
    }
    return 0;
}

}  // namespace vfx
