#include "sim/energy_budget.hpp"

#include "core/grid_differences.hpp"
#include "core/parallel.hpp"

namespace vfx {

namespace {

// du/dx_axis at a grid point: fourth-order centred with two points each side, else the centred
// or one-sided difference of core/grid_differences.hpp.
vec3 curlDerivative(const UniformGrid<vec3>& u, ivec3 p, int axis) {
    const GridShape& s = u.shape();
    if (s.flatAxis(axis) || p[axis] < 2 || p[axis] > s.points[axis] - 3) return axisDerivative(u, p.x, p.y, p.z, axis);
    ivec3 step(0);
    step[axis] = 1;
    const auto at = [&](int k) {
        const ivec3 q = p + k * step;
        return u.at(q.x, q.y, q.z);
    };
    return (8.0f * (at(1) - at(-1)) - (at(2) - at(-2))) * (1.0f / (12.0f * s.spacing[axis]));
}

}  // namespace

double resolvedEnstrophy(const UniformGrid<vec3>& velocity) {
    const GridShape& shape = velocity.shape();
    const double cell = double(shape.cellVolume());
    return cell * deterministicReduce<double>(
                      velocity.size(), 0.0,
                      [&](size_t b, size_t e) {
                          double s = 0.0;
                          for (size_t k = b; k < e; ++k) {
                              const size_t nx = size_t(shape.points.x), ny = size_t(shape.points.y);
                              const ivec3 p(int(k % nx), int((k / nx) % ny), int(k / (nx * ny)));
                              const mat3 g(curlDerivative(velocity, p, 0), curlDerivative(velocity, p, 1),
                                           curlDerivative(velocity, p, 2));
                              const dvec3 w(curlOf(g));
                              s += glm::dot(w, w);
                          }
                          return s;
                      },
                      [](double x, double y) { return x + y; }, 8192);
}

void EnergyBudget::addDiffusion(const Vortons& vortons, const std::vector<mat3>& gradientAtVortons,
                                const UniformGrid<vec3>& velocityGrid, float viscosity,
                                const std::vector<float>& eddyViscosity, float ambientDensity, float dt) {
    if (viscosity > 0.0f)
        viscousLoss += double(ambientDensity) * double(viscosity) * resolvedEnstrophy(velocityGrid) * double(dt);
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
