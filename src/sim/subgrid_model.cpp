#include "sim/subgrid_model.hpp"

#include "core/grid_differences.hpp"
#include "core/parallel.hpp"
#include "sim/subgrid_rates.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vfx {

// The velocity kernel max(|r|, sigma) is the field of vorticity spread uniformly over a ball of
// radius sigma (variance sigma^2 / 5); the grid samples that field and trilinear interpolation
// rebuilds it with a tent of half-width h_grid (variance h_grid^2 / 6). The two act in series,
// so their variances add (docs/method.md: why not the larger of the two).
float resolvedFilterWidth(float coreRadius, float gridSpacing) {
    return std::sqrt(12.0f * (coreRadius * coreRadius / 5.0f + gridSpacing * gridSpacing / 6.0f));
}

float meanCoreRadius(const std::vector<float>& coreRadius) {
    if (coreRadius.empty()) return 0.0f;
    const double sum = deterministicReduce<double>(
        coreRadius.size(), 0.0,
        [&](size_t b, size_t e) {
            double s = 0.0;
            for (size_t i = b; i < e; ++i) s += double(coreRadius[i]);
            return s;
        },
        [](double a, double c) { return a + c; });
    return float(sum / double(coreRadius.size()));
}

namespace {

// (C Delta)^2 |S| at vorton i for the squared coefficient c2.
float smagorinskyAt(const ResolvedFlowAtVortons& flow, size_t i, float c2) {
    const float ss = strainRateSquared(flow.velocityGradient[i]);
    const float width = resolvedFilterWidth(flow.coreRadius[i], flow.gridSpacing);
    return c2 * width * width * std::sqrt(2.0f * ss);
}

}  // namespace

// The strain the flow cannot resolve cascades to scales below its filter width, where nothing
// represents it; the eddy viscosity drains it there instead of letting stretching pile it up.
void smagorinskyEddyViscosity(const ResolvedFlowAtVortons& flow, float coefficient, std::vector<float>& eddyViscosity) {
    const size_t count = flow.coreRadius.size();
    eddyViscosity.resize(count);
    const float c2 = coefficient * coefficient;
    parallelForEach(
        0, count, [&](size_t i) { eddyViscosity[i] = smagorinskyAt(flow, i, c2); }, 2048);
}

float localSmagorinskyEddyViscosity(const ResolvedFlowAtVortons& flow, const UniformGrid<float>& coefficientSquared,
                                    const std::vector<vec3>& positions, std::vector<float>& eddyViscosity) {
    const size_t count = flow.coreRadius.size();
    eddyViscosity.resize(count);
    // The largest is the same whatever order the blocks finish in.
    const float largest = deterministicReduce<float>(
        count, 0.0f,
        [&](size_t b, size_t e) {
            float block = 0.0f;
            for (size_t i = b; i < e; ++i) {
                const float c2 = std::max(coefficientSquared.interpolate(positions[i]), 0.0f);
                eddyViscosity[i] = smagorinskyAt(flow, i, c2);
                block = std::max(block, c2);
            }
            return block;
        },
        [](float a, float c) { return std::max(a, c); }, 2048);
    return std::sqrt(largest);
}

void subgridEddyViscosity(SubgridModel model, const ResolvedFlowAtVortons& flow, float coefficient,
                          std::vector<float>& eddyViscosity) {
    eddyViscosity.clear();
    if (model == SubgridModel::None || !(coefficient > 0.0f)) return;
    if (model == SubgridModel::Smagorinsky) {
        smagorinskyEddyViscosity(flow, coefficient, eddyViscosity);
        return;
    }
    if (model == SubgridModel::Dynamic || model == SubgridModel::DynamicLocal)
        throw std::logic_error(
            "subgrid model: the dynamic models find their coefficient from the grid flow "
            "(Simulation::dynamicEddyViscosity), not from subgrid_coefficient");
    float (*rate)(const mat3&) = model == SubgridModel::Vreman ? vremanRate
                                 : model == SubgridModel::Wale ? waleRate
                                                               : sigmaRate;
    const size_t count = flow.coreRadius.size();
    eddyViscosity.resize(count);
    const float c2 = coefficient * coefficient;
    parallelForEach(
        0, count,
        [&](size_t i) {
            const float width = resolvedFilterWidth(flow.coreRadius[i], flow.gridSpacing);
            eddyViscosity[i] = c2 * width * width * rate(flow.velocityGradient[i]);
        },
        2048);
}

}  // namespace vfx
