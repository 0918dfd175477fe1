#include "sim/sphere_closure.hpp"

#include "core/dense_lu.hpp"

#include <cmath>

namespace vfx {

namespace {

// 100 sources at 0.45 R fitted at 256 points leave, of a field of degree l on the surface, under
// 0.1% for l <= 3, 0.5% for l = 5 and 2% for l = 6 between the points; sources nearer the centre
// fit low degrees better but detail worse, and their strengths cancel more (condition 6,000).
constexpr int kCollocationPoints = 256;
constexpr int kSources = 100;
constexpr double kSourceRadius = 0.45;  // of the sphere's radius
constexpr double kInverseFourPi = 0.07957747154594767;

// n points spread evenly over the unit sphere (a Fibonacci lattice).
std::vector<dvec3> fibonacciDirections(int n) {
    std::vector<dvec3> d(static_cast<size_t>(n));
    const double golden = 3.141592653589793 * (3.0 - std::sqrt(5.0));
    for (int i = 0; i < n; ++i) {
        const double y = 1.0 - (2.0 * i + 1.0) / n, ring = std::sqrt(1.0 - y * y), angle = golden * i;
        d[size_t(i)] = dvec3(ring * std::cos(angle), y, ring * std::sin(angle));
    }
    return d;
}

// The unit sphere's fit, shared by every sphere (the kernel scales as 1/R^2): the damped
// least-squares map from normal speeds at the collocation points to source strengths,
// (A^T A + lambda^2 I)^-1 A^T, row-major kSources x kCollocationPoints.
struct UnitFit {
    std::vector<dvec3> normals, sources;
    std::vector<double> map;
};

const UnitFit& unitFit() {
    static const UnitFit fit = [] {
        UnitFit f;
        f.normals = fibonacciDirections(kCollocationPoints);
        for (const dvec3& d : fibonacciDirections(kSources)) f.sources.push_back(kSourceRadius * d);
        const size_t q = size_t(kCollocationPoints), s = size_t(kSources);
        std::vector<double> a(q * s);
        for (size_t i = 0; i < q; ++i)
            for (size_t j = 0; j < s; ++j) {
                const dvec3 r = f.normals[i] - f.sources[j];
                const double distance = glm::length(r);
                a[i * s + j] = kInverseFourPi * glm::dot(f.normals[i], r) / (distance * distance * distance);
            }
        std::vector<double> normal(s * s, 0.0);
        double trace = 0.0;
        for (size_t j = 0; j < s; ++j)
            for (size_t k = 0; k < s; ++k) {
                for (size_t i = 0; i < q; ++i) normal[j * s + k] += a[i * s + j] * a[i * s + k];
                if (j == k) trace += normal[j * s + k];
            }
        // Damping of 1e-12 of the mean squared singular value (the smallest is 1/6,000^2 of the
        // largest): it leaves the fit as it is and keeps the solve bounded in round-off.
        for (size_t j = 0; j < s; ++j) normal[j * s + j] += 1e-12 * trace / double(s);
        DenseLu lu;
        lu.factorise(normal, int(s));
        f.map.assign(s * q, 0.0);
        std::vector<double> column(s);
        for (size_t i = 0; i < q; ++i) {
            for (size_t j = 0; j < s; ++j) column[j] = a[i * s + j];
            lu.solve(column);
            for (size_t j = 0; j < s; ++j) f.map[j * q + i] = column[j];
        }
        return f;
    }();
    return fit;
}

// Outside 0.9 R (points on the surface, rounded either way, see the flow there; the sources at
// 0.45 R stay well away) and within the reach.
bool withinReach(const vec3& r, float radius) {
    const float r2 = glm::dot(r, r);
    return r2 > 0.81f * radius * radius && r2 < kClosureReach * kClosureReach * radius * radius;
}

}  // namespace

std::vector<vec3> closureCollocationPoints(const vec3& centre, float radius) {
    std::vector<vec3> points;
    for (const dvec3& n : unitFit().normals) points.push_back(centre + radius * vec3(n));
    return points;
}

SphereClosure fitSphereClosure(const vec3& centre, float radius, const vec3& velocity,
                               const std::vector<vec3>& flowAtPoints) {
    const UnitFit& fit = unitFit();
    const size_t q = fit.normals.size(), s = fit.sources.size();
    // The normal speed to cancel. Its mean, a net flux, no source inside the sphere can give a
    // divergence-free flow; yet the flow the vortons induce, interpolated from a grid, carries one
    // (a steady 0.003 m/s into a ball resting in a layered tank, 3-5% of the peak speed there). A
    // point source at the centre cancels it; the sources on the inner sphere cancel the rest.
    std::vector<double> speed(q);
    double mean = 0.0;
    for (size_t i = 0; i < q; ++i) {
        speed[i] = glm::dot(dvec3(velocity) - dvec3(flowAtPoints[i]), fit.normals[i]);
        mean += speed[i] / double(q);
    }
    SphereClosure closure;
    const double scale = double(radius) * double(radius);  // the kernel falls as 1/R^2
    for (size_t j = 0; j < s; ++j) {
        double strength = 0.0;
        for (size_t i = 0; i < q; ++i) strength += fit.map[j * q + i] * (speed[i] - mean);
        closure.sources.emplace_back(centre + radius * vec3(fit.sources[j]), float(scale * strength));
    }
    // A source q at the centre sends q / (4 pi R^2) through every point of the surface.
    closure.sources.emplace_back(centre, float(mean * 4.0 * 3.141592653589793 * scale));
    return closure;
}

vec3 closureVelocity(const SphereClosure& closure, const vec3& centre, float radius, const vec3& x) {
    if (closure.sources.empty() || !withinReach(x - centre, radius)) return vec3(0.0f);
    vec3 u(0.0f);
    for (const vec4& source : closure.sources) {
        const vec3 r = x - vec3(source);
        const float distance2 = glm::dot(r, r);
        u += (source.w * float(kInverseFourPi) / (distance2 * std::sqrt(distance2))) * r;
    }
    return u;
}

mat3 closureGradient(const SphereClosure& closure, const vec3& centre, float radius, const vec3& x) {
    mat3 gradient(0.0f);
    if (closure.sources.empty() || !withinReach(x - centre, radius)) return gradient;
    for (const vec4& source : closure.sources) {
        // d u_i / d x_j = q / (4 pi) (delta_ij / r^3 - 3 r_i r_j / r^5): symmetric and traceless.
        const vec3 r = x - vec3(source);
        const float inverse2 = 1.0f / glm::dot(r, r);
        const float scale = source.w * float(kInverseFourPi) * inverse2 * std::sqrt(inverse2);
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i)
                gradient[j][i] += scale * ((i == j ? 1.0f : 0.0f) - 3.0f * r[i] * r[j] * inverse2);
    }
    return gradient;
}

}  // namespace vfx
