#include "sim/energy_budget.hpp"

#include "core/grid_differences.hpp"
#include "core/parallel.hpp"

namespace vfx {

namespace {

// (8 (u(+h) - u(-h)) - (u(+2h) - u(-2h))) / 12h at index k along the axis of `stride`.
vec3 fourthOrderDerivative(const UniformGrid<vec3>& u, size_t k, size_t stride, float inv12h) {
    return (8.0f * (u[k + stride] - u[k - stride]) - (u[k + 2 * stride] - u[k - 2 * stride])) * inv12h;
}

// Sum of |curl u|^2 over one plane z of the grid: du/dx_axis fourth-order where two points lie on
// each side along the axis, else the centred or one-sided difference of core/grid_differences.hpp.
double planeEnstrophy(const UniformGrid<vec3>& u, int z) {
    const GridShape& s = u.shape();
    const ivec3 n = s.points;
    const size_t stride[3] = {1, size_t(n.x), size_t(n.x) * size_t(n.y)};
    const vec3 inv12h = 1.0f / (12.0f * s.spacing);
    double sum = 0.0;
    for (int y = 0; y < n.y; ++y)
        for (int x = 0; x < n.x; ++x) {
            const ivec3 p(x, y, z);
            const size_t k = s.index(x, y, z);
            mat3 g;
            for (int a = 0; a < 3; ++a) {
                const bool deep = !s.flatAxis(a) && p[a] >= 2 && p[a] <= n[a] - 3;
                g[a] = deep ? fourthOrderDerivative(u, k, stride[a], inv12h[a]) : axisDerivative(u, x, y, z, a);
            }
            const dvec3 w(curlOf(g));
            sum += glm::dot(w, w);
        }
    return sum;
}

}  // namespace

double resolvedEnstrophy(const UniformGrid<vec3>& velocity) {
    const GridShape& shape = velocity.shape();
    if (velocity.size() != shape.pointCount()) return 0.0;  // no step has solved it yet
    return double(shape.cellVolume()) * deterministicReduce<double>(
                                            size_t(shape.points.z), 0.0,
                                            [&](size_t b, size_t e) {
                                                double s = 0.0;
                                                for (size_t z = b; z < e; ++z) s += planeEnstrophy(velocity, int(z));
                                                return s;
                                            },
                                            [](double x, double y) { return x + y; }, 4);
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
