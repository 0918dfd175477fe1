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

// Sum of |curl u|^2 over one plane z of the grid: by fixed strides two points in from every face,
// curlDerivative nearer them.
double planeEnstrophy(const UniformGrid<vec3>& u, int z) {
    const GridShape& s = u.shape();
    const ivec3 n = s.points;
    const size_t stride[3] = {1, size_t(n.x), size_t(n.x) * size_t(n.y)};
    const vec3 inv12h = 1.0f / (12.0f * s.spacing);
    const bool deepPlane = !s.anyFlatAxis() && z >= 2 && z <= n.z - 3;
    double sum = 0.0;
    for (int y = 0; y < n.y; ++y)
        for (int x = 0; x < n.x; ++x) {
            mat3 g;
            if (deepPlane && y >= 2 && y <= n.y - 3 && x >= 2 && x <= n.x - 3) {
                const size_t k = s.index(x, y, z);
                for (int a = 0; a < 3; ++a) {
                    const size_t s1 = stride[a], s2 = 2 * stride[a];
                    g[a] = (8.0f * (u[k + s1] - u[k - s1]) - (u[k + s2] - u[k - s2])) * inv12h[a];
                }
            } else {
                for (int a = 0; a < 3; ++a) g[a] = curlDerivative(u, ivec3(x, y, z), a);
            }
            const dvec3 w(curlOf(g));
            sum += glm::dot(w, w);
        }
    return sum;
}

}  // namespace

double resolvedEnstrophy(const UniformGrid<vec3>& velocity) {
    const GridShape& shape = velocity.shape();
    if (velocity.size() == 0 || velocity.size() != shape.pointCount()) return 0.0;  // no step has solved it yet
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
