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

void build(const nlohmann::json& document, Simulation& sim, int threads) {
    sim.setThreads(threads);
    buildSimulation(parseScene(document, document.value("name", "bench")), sim);
}

// The fastest of a phase's timings: what the work costs when nothing else on the machine gets in
// its way (other load only ever adds time).
double fastest(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

// Steady cost of one step over a window of `measured` steps: the fastest (what the work costs
// when nothing else on the machine gets in its way), the median (a remesh step costs more), each
// phase's fastest, and the vorton counts the window ran with. Remeshing changes the count (the
// heavy drop's first remesh turns 16,384 vortons into about 21,500, its later ones into more),
// so every window says which counts its figures are for.
constexpr int kMeasuredSteps = 10;
struct StepCost {
    double ms = 0.0;        // fastest step
    double medianMs = 0.0;  // median step
    std::map<std::string, double> phaseMs;
    size_t fewestVortons = 0, mostVortons = 0;  // over the measured steps
    long firstStep = 0;                         // number of the first measured step (from 1)
};

std::string vortonCounts(const StepCost& c) {
    return c.fewestVortons == c.mostVortons ? std::to_string(c.fewestVortons)
                                            : std::to_string(c.fewestVortons) + "-" + std::to_string(c.mostVortons);
}

StepCost measureSteps(Simulation& sim, float dt, long stepsTaken, int measured = kMeasuredSteps) {
    std::vector<double> total;
    std::map<std::string, std::vector<double>> phases;
    StepCost cost;
    cost.firstStep = stepsTaken + 1;
    cost.fewestVortons = sim.vortons().size();
    for (int k = 0; k < measured; ++k) {
        sim.step(dt);
        total.push_back(sim.lastStepMs());
        for (const PhaseTimers::Phase& p : sim.timers().phases()) phases[p.name].push_back(p.lastMs);
        // A step's cost is for the count it started with and the count a remesh inside it made.
        cost.fewestVortons = std::min(cost.fewestVortons, sim.vortons().size());
        cost.mostVortons = std::max(cost.mostVortons, sim.vortons().size());
    }
    cost.ms = fastest(total);
    std::sort(total.begin(), total.end());
    cost.medianMs = total[total.size() / 2];
    for (auto& [name, ms] : phases) cost.phaseMs[name] = fastest(ms);
    return cost;
}

// Steps 6-15 with exactly the scene's vortons, the ball already falling (a still ball has no
// vorticity yet and every solver is trivial). Remeshing is off for these runs: diffusion would
// remesh the finest drop here, 65,536 vortons at h 0.02 m, by step 10.
constexpr int kWarmSteps = 5;
StepCost timeStepsAtSceneCount(nlohmann::json document, int threads) {
    document["fluid"]["remesh_strain"] = 0.0;
    Simulation sim;
    build(document, sim, threads);
    const float dt = float(document["time"]["dt"].get<double>());
    for (int k = 0; k < kWarmSteps; ++k) sim.step(dt);
    return measureSteps(sim, dt, kWarmSteps);
}

// After the first remesh: the steps that follow the one that remeshed, with the lattice's count.
StepCost timeStepsAfterFirstRemesh(const nlohmann::json& document, int threads) {
    Simulation sim;
    build(document, sim, threads);
    const float dt = float(document["time"]["dt"].get<double>());
    constexpr long kMostWarmSteps = 200;
    long taken = 0;
    while (sim.remeshCount() == 0 && taken < kMostWarmSteps) {
        sim.step(dt);
        ++taken;
    }
    return measureSteps(sim, dt, taken);
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
        sim.step(dt);
        ms += sim.lastStepMs();
        substeps += sim.lastSubsteps();
    }
    return {ms / frames, substeps / frames, sim.vortons().size()};
}

constexpr int kTreeAccuracySteps = 20;

// The tree's velocity on the step's grid (what the velocity phase computes) against direct
// summation, for the vortons of a heavy drop 20 steps into its fall, at several opening angles:
// RMS error relative to the RMS speed, and the fastest of 5 tree builds + evaluations.
void treeAccuracyTable(long vortons, int threads, std::FILE* out) {
    Simulation sim;
    build(heavyDrop(vortons, 0), sim, threads);
    for (int k = 0; k < kTreeAccuracySteps; ++k) sim.step(0.01f);
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
                 vortons, sim.vortons().size(), kTreeAccuracySteps, points.size(), threads,
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

void heavyDropRow(const char* when, int threads, const StepCost& c, std::FILE* out) {
    std::fprintf(out, "| %s | %d | %s | %ld-%ld | %.2f | %.2f | %.0f | %s |\n", when, threads, vortonCounts(c).c_str(),
                 c.firstStep, c.firstStep + kMeasuredSteps - 1, c.ms, c.medianMs, 1000.0 / c.medianMs,
                 phaseList(c).c_str());
    std::fflush(out);
}

void heavyDropTable(int threads, std::FILE* out) {
    std::fprintf(out,
                 "\nHeavy drop, 16,384 vortons + 262,144 tracers, dt 0.01: %d steps while it holds the scene's "
                 "vortons, and %d after the step of its first remesh (which adds vortons); the fastest and the "
                 "median step, each phase's fastest\n",
                 kMeasuredSteps, kMeasuredSteps);
    std::fprintf(out,
                 "| when | threads | vortons | steps | ms per step, fastest | median | steps per s (median) | "
                 "phases (ms) |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
    const nlohmann::json document = heavyDrop(16384, 262144);
    const StepCost oneBefore = timeStepsAtSceneCount(document, 1);
    heavyDropRow("scene's count", 1, oneBefore, out);
    const StepCost oneAfter = timeStepsAfterFirstRemesh(document, 1);
    heavyDropRow("after remesh", 1, oneAfter, out);
    if (threads > 1) {
        const StepCost manyBefore = timeStepsAtSceneCount(document, threads);
        heavyDropRow("scene's count", threads, manyBefore, out);
        const StepCost manyAfter = timeStepsAfterFirstRemesh(document, threads);
        heavyDropRow("after remesh", threads, manyAfter, out);
        std::fprintf(out,
                     "speed-up on %d threads (fastest steps): %.2fx at the scene's count, %.2fx after the remesh\n",
                     threads, oneBefore.ms / manyBefore.ms, oneAfter.ms / manyAfter.ms);
    }
}

// Each count's steps 6-15, before any remesh, so the step costs exactly N vortons.
void vortonScalingTable(int threads, std::FILE* out) {
    std::fprintf(out,
                 "\nGrowth with vortons (heavy drop, no tracers, %d threads): ms per step (fastest of steps %d-%d, "
                 "before any remesh), and that divided by N log N relative to 4,096 vortons (1.0 = N log N "
                 "growth)\n",
                 threads, kWarmSteps + 1, kWarmSteps + kMeasuredSteps);
    std::fprintf(out, "| vortons | ms per step | relative to N log N |\n|---:|---:|---:|\n");
    double base = 0.0;
    for (long n : {4096L, 16384L, 65536L}) {
        const StepCost c = timeStepsAtSceneCount(heavyDrop(n, 0), threads);
        const double count = double(c.mostVortons);
        const double perNLogN = c.ms / (count * std::log2(count));
        if (base == 0.0) base = perNLogN;
        std::fprintf(out, "| %s | %.2f | %.2f |\n", vortonCounts(c).c_str(), c.ms, perNLogN / base);
        std::fflush(out);
    }
}

// Tracers are moved and coloured in the advection phase: their cost is what it and the density
// phase (where they were coloured before) add over the same drop without tracers.
void tracerScalingTable(int threads, std::FILE* out) {
    std::fprintf(out,
                 "\nGrowth with tracers (heavy drop, 16,384 vortons, %d threads, fastest of steps %d-%d, before any "
                 "remesh)\n",
                 threads, kWarmSteps + 1, kWarmSteps + kMeasuredSteps);
    std::fprintf(out,
                 "| tracers | ms per step | advection + density, ms | ns per tracer per step |\n"
                 "|---:|---:|---:|---:|\n");
    double base = 0.0;
    for (long t : {0L, 65536L, 262144L}) {
        const StepCost c = timeStepsAtSceneCount(heavyDrop(16384, t), threads);
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
    } catch (const NonFiniteError&) {
        std::fprintf(stderr, "vortonfx-sim --bench: a case produced a non-finite value\n");
        return 3;
    }
    return 0;
}

}  // namespace vfx
