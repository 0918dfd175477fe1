#include "scene/scene_budget.hpp"

#include "core/text_format.hpp"
#include "scene/scene_geometry.hpp"
#include "sim/fluid_method.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace vfx {
namespace {

// Bytes per item, measured with vortonfx-sim (peak resident size against counts, 2 threads) and
// rounded up: a vorton with its solver workspace, a tracer, a point of the velocity grid with the
// fields on it; and the program with no particles.
constexpr double kBytesPerVorton = 480.0;
constexpr double kBytesPerTracer = 48.0;
constexpr double kBytesPerGridPoint = 200.0;
constexpr double kBytesOfProgram = 40.0 * 1048576.0;

// Points of the grid Simulation::updateGrid fits around the particles: about vortons x
// grid_cells_per_vorton cells (at least 64, at most max_grid_cells), spaced at least 1e-4 m
// apart, plus two layers of padding on each side. In double so no extent can overflow.
double gridPointsFor(const Scene& scene, const vec3& lo, const vec3& hi, double vortons) {
    const double target = scene.fluid.gridCellTarget(vortons);
    double extent[3], volume = 1.0;
    for (int a = 0; a < 3; ++a) {
        extent[a] = std::max(double(hi[a]) - double(lo[a]), 1e-4);
        volume *= extent[a];
    }
    const double spacing = std::max(std::cbrt(volume / target), 1e-4);
    double points = 1.0;
    for (double e : extent) points *= std::max(1.0, std::ceil(e / spacing)) + 1.0 + 4.0;
    return points;
}

double physicalMemory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 0.0;
}

std::string countText(double n) { return formatNumber(n, n < 1e7 ? 7 : 3); }

}  // namespace

MemoryBudget defaultMemoryBudget(const std::string& hint) {
    MemoryBudget budget{0.5 * physicalMemory(), "half of this machine's memory"};
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        (budget.bytes <= 0.0 || 0.5 * double(limit.rlim_cur) < budget.bytes))
        budget = {0.5 * double(limit.rlim_cur), "half of the address-space limit (ulimit -v)"};
    budget.source += hint;
    return budget;
}

MemoryEstimate estimateSceneMemory(const Scene& scene) {
    MemoryEstimate e;
    vec3 lo(1e30f), hi(-1e30f);
    float maxSigma = 0.0f;
    for (const RegionDesc& r : scene.vortons) {
        e.vortons += double(r.count);
        const float overlap = scene.fluid.coreOverlap;
        maxSigma = std::max(maxSigma, vortonCoreRadius(ringSeedingTube(r, overlap), size_t(r.count), overlap));
    }
    for (const RegionDesc& r : scene.tracers) e.tracers += double(r.count);
    for (const auto* regions : {&scene.vortons, &scene.tracers})
        for (const RegionDesc& r : *regions) {
            vec3 rlo, rhi;
            regionBounds(r, rlo, rhi);
            lo = glm::min(lo, rlo);
            hi = glm::max(hi, rhi);
        }
    if (lo.x > hi.x) lo = vec3(-1.0f), hi = vec3(1.0f);
    e.lo = lo - vec3(maxSigma);
    e.hi = hi + vec3(maxSigma);
    // Remeshing may raise the vorton count to vorton_budget times its start (VPM only).
    const FluidParams& f = scene.fluid;
    const bool remeshes = fluidMethodStep(f.method).mayRemesh(f);
    e.peakVortons = e.vortons * (remeshes ? std::max(1.0, double(f.vortonBudget)) : 1.0);
    e.gridPoints = gridPointsFor(scene, e.lo, e.hi, e.peakVortons);
    e.bytes = kBytesOfProgram + kBytesPerVorton * e.peakVortons + kBytesPerTracer * e.tracers +
              kBytesPerGridPoint * e.gridPoints;
    return e;
}

std::string formatBytes(double bytes) {
    if (bytes >= 1e12) return formatNumber(bytes / 1e12, 3) + " TB";
    if (bytes >= 1e9) return formatNumber(bytes / 1e9, 3) + " GB";
    if (bytes >= 1e6) return formatNumber(bytes / 1e6, 3) + " MB";
    return formatNumber(bytes / 1e3, 3) + " kB";
}

void checkSceneMemory(const Scene& scene, const MemoryBudget& budget, const SceneReporter& r) {
    if (budget.bytes <= 0.0) return;
    const MemoryEstimate e = estimateSceneMemory(scene);
    if (e.bytes <= budget.bytes) return;
    std::string what = "this scene needs about " + formatBytes(e.bytes) + " (" + countText(e.vortons) + " vortons";
    if (e.peakVortons > e.vortons)
        what += ", up to " + countText(e.peakVortons) + " after remeshing (fluid.vorton_budget " +
                formatNumber(scene.fluid.vortonBudget) + ")";
    what += ", " + countText(e.tracers) + " tracers, a velocity grid of " + countText(e.gridPoints) + " points over " +
            formatVec(e.lo) + " to " + formatVec(e.hi) + "); the limit is " + formatBytes(budget.bytes) + ", " +
            budget.source;
    // Blame the largest region's count, unless the grid (regions far apart) costs the most.
    const double particles = kBytesPerVorton * e.peakVortons + kBytesPerTracer * e.tracers;
    std::string pointer;
    if (particles >= kBytesPerGridPoint * e.gridPoints) {
        double largest = -1.0;
        for (const auto& [key, regions, cost] : {std::tuple{"vortons", &scene.vortons, kBytesPerVorton},
                                                 std::tuple{"tracers", &scene.tracers, kBytesPerTracer}})
            for (size_t i = 0; i < regions->size(); ++i)
                if (cost * double((*regions)[i].count) > largest) {
                    largest = cost * double((*regions)[i].count);
                    pointer = childPointer(childPointer(childPointer("", key), i), "count");
                }
    }
    r.fail(pointer, what);
}

}  // namespace vfx
