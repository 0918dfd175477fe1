#include "sim/energy_budget.hpp"

#include "core/parallel.hpp"

namespace vfx {

double resolvedEnstrophy(const UniformGrid<mat3>& velocityGradient) {
    const double cell = double(velocityGradient.shape().cellVolume());
    return cell * deterministicReduce<double>(
                      velocityGradient.size(), 0.0,
                      [&](size_t b, size_t e) {
                          double s = 0.0;
                          for (size_t k = b; k < e; ++k) {
                              const dvec3 w(curlOf(velocityGradient[k]));
                              s += glm::dot(w, w);
                          }
                          return s;
                      },
                      [](double x, double y) { return x + y; }, 8192);
}

void EnergyBudget::addDiffusion(const Vortons& vortons, const std::vector<mat3>& gradientAtVortons,
                                const UniformGrid<mat3>& gradientGrid, float viscosity,
                                const std::vector<float>& eddyViscosity, float ambientDensity, float dt) {
    if (viscosity > 0.0f)
        viscousLoss += double(ambientDensity) * double(viscosity) * resolvedEnstrophy(gradientGrid) * double(dt);
    if (eddyViscosity.size() != vortons.size()) return;
    const double eddyEnstrophy = deterministicReduce<double>(
        vortons.size(), 0.0,
        [&](size_t b, size_t e) {
            double s = 0.0;
            for (size_t i = b; i < e; ++i) {
                const dvec3 w(curlOf(gradientAtVortons[i]));
                s += double(eddyViscosity[i]) * glm::dot(w, w) * double(vortons.volume(i));
            }
            return s;
        },
        [](double x, double y) { return x + y; });
    subgridLoss += double(ambientDensity) * eddyEnstrophy * double(dt);
}

void EnergyBudget::addBuoyancy(const Vortons& vortons, const vec3& gravity, float dt) {
    const dvec3 g(gravity);
    const double work = deterministicReduce<double>(
        vortons.size(), 0.0,
        [&](size_t b, size_t e) {
            double s = 0.0;
            for (size_t i = b; i < e; ++i)
                s += double(vortons.density[i]) * double(vortons.volume(i)) * glm::dot(g, dvec3(vortons.velocity[i]));
            return s;
        },
        [](double x, double y) { return x + y; });
    buoyancyWork += work * double(dt);
}

}  // namespace vfx
