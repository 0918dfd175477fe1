#include "sim/sphere_closure.hpp"

#include "core/dense_lu.hpp"
#include "core/parallel.hpp"

#include <cmath>

namespace vfx {

namespace {

// 400 sources at 0.7 R fitted at 1,024 points leave, of a field of degree l on the surface, under
// 0.2% for l <= 5 and 1% for l <= 9 between the points: the vortex flow a ball meets varies on
// the scale of the vortons' spacing, a radius or less, which 100 sources at 0.45 R (0.5% at
// l = 5, 2% at l = 6) could not follow: stratified_ball's ball let 1.1% of the peak speed through
// in the median step, 0.4% now. Sources nearer the surface follow finer detail but cancel more.
constexpr int kCollocationPoints = 1024;
constexpr int kSources = 400;
constexpr double kSourceRadius = 0.7;  // of the sphere's radius
// The coarse set: 64 sources at 0.45 R, fitted to the fine set's normal flow at 512 points on the
// sphere of kClosureNear radii, which fixes the flow outside it.
constexpr int kFarCheckPoints = 512;
constexpr int kFarSources = 64;
constexpr double kFarSourceRadius = 0.45;
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

// The normal speed at each of `points` (with outward `normals`) of a unit source at each of
// `sources`: row-major, points x sources.
std::vector<double> normalSpeedKernel(const std::vector<dvec3>& points, const std::vector<dvec3>& normals,
                                      const std::vector<dvec3>& sources) {
    const size_t q = points.size(), s = sources.size();
    std::vector<double> a(q * s);
    for (size_t i = 0; i < q; ++i)
        for (size_t j = 0; j < s; ++j) {
            const dvec3 r = points[i] - sources[j];
            const double distance = glm::length(r);
            a[i * s + j] = kInverseFourPi * glm::dot(normals[i], r) / (distance * distance * distance);
        }
    return a;
}

// The damped least-squares map (A^T A + lambda^2 I)^-1 A^T of a q x s kernel, row-major s x q.
// Damping of 1e-12 of the mean squared singular value leaves the fit as it is and keeps the
// solve bounded in round-off.
std::vector<double> leastSquaresMap(const std::vector<double>& a, size_t q, size_t s) {
    std::vector<double> normal(s * s, 0.0);
    parallelForEach(
        0, s,
        [&](size_t j) {
            for (size_t k = 0; k < s; ++k)
                for (size_t i = 0; i < q; ++i) normal[j * s + k] += a[i * s + j] * a[i * s + k];
        },
        8);
    double trace = 0.0;
    for (size_t j = 0; j < s; ++j) trace += normal[j * s + j];
    for (size_t j = 0; j < s; ++j) normal[j * s + j] += 1e-12 * trace / double(s);
    DenseLu lu;
    lu.factorise(normal, int(s));
    std::vector<double> map(s * q, 0.0), column(s);
    for (size_t i = 0; i < q; ++i) {
        for (size_t j = 0; j < s; ++j) column[j] = a[i * s + j];
        lu.solve(column);
        for (size_t j = 0; j < s; ++j) map[j * q + i] = column[j];
    }
    return map;
}

std::vector<dvec3> scaled(const std::vector<dvec3>& directions, double radius) {
    std::vector<dvec3> points;
    for (const dvec3& d : directions) points.push_back(radius * d);
    return points;
}

// The unit sphere's fits, shared by every sphere (the kernel scales as 1/R^2): `map` from normal
// speeds at the collocation points to the fine sources' strengths (kSources x
// kCollocationPoints), `farMap` from the fine strengths to the coarse ones (kFarSources x kSources).
struct UnitFit {
    std::vector<dvec3> normals, sources, farSources;
    std::vector<double> map, farMap;
};

const UnitFit& unitFit() {
    static const UnitFit fit = [] {
        UnitFit f;
        f.normals = fibonacciDirections(kCollocationPoints);
        f.sources = scaled(fibonacciDirections(kSources), kSourceRadius);
        f.farSources = scaled(fibonacciDirections(kFarSources), kFarSourceRadius);
        const size_t q = f.normals.size(), s = f.sources.size(), c = f.farSources.size();
        f.map = leastSquaresMap(normalSpeedKernel(f.normals, f.normals, f.sources), q, s);
        const std::vector<dvec3> checkNormals = fibonacciDirections(kFarCheckPoints);
        const std::vector<dvec3> check = scaled(checkNormals, double(kClosureNear));
        const size_t k = check.size();
        const std::vector<double> coarse = leastSquaresMap(normalSpeedKernel(check, checkNormals, f.farSources), k, c);
        const std::vector<double> fine = normalSpeedKernel(check, checkNormals, f.sources);
        f.farMap.assign(c * s, 0.0);
        for (size_t a = 0; a < c; ++a)
            for (size_t i = 0; i < k; ++i)
                for (size_t j = 0; j < s; ++j) f.farMap[a * s + j] += coarse[a * k + i] * fine[i * s + j];
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

std::vector<double> closureStrengths(float radius, const std::vector<double>& normalSpeeds) {
    const UnitFit& fit = unitFit();
    const size_t q = fit.normals.size(), s = fit.sources.size();
    // The mean normal speed, a net flux, no source inside the sphere can give a divergence-free
    // flow; yet the flow the vortons induce, interpolated from a grid, carries one (a steady
    // 0.003 m/s into a ball resting in a layered tank, 3-5% of the peak speed there). A point
    // source at the centre cancels it; the sources on the inner sphere cancel the rest.
    double mean = 0.0;
    for (double speed : normalSpeeds) mean += speed / double(q);
    const double scale = double(radius) * double(radius);  // the kernel falls as 1/R^2
    std::vector<double> strengths(s + 1);
    parallelForEach(
        0, s,
        [&](size_t j) {
            double strength = 0.0;
            for (size_t i = 0; i < q; ++i) strength += fit.map[j * q + i] * (normalSpeeds[i] - mean);
            strengths[j] = scale * strength;
        },
        16);
    // A source Q at the centre sends Q / (4 pi R^2) through every point of the surface.
    strengths[s] = mean * 4.0 * kPiDouble * scale;
    return strengths;
}

SphereClosure closureFromStrengths(const vec3& centre, float radius, const std::vector<double>& strengths) {
    const UnitFit& fit = unitFit();
    const size_t s = fit.sources.size();
    SphereClosure closure;
    for (size_t j = 0; j < s; ++j)
        closure.sources.emplace_back(centre + radius * vec3(fit.sources[j]), float(strengths[j]));
    for (size_t a = 0; a < fit.farSources.size(); ++a) {
        double strength = 0.0;
        for (size_t j = 0; j < s; ++j) strength += fit.farMap[a * s + j] * strengths[j];
        closure.farSources.emplace_back(centre + radius * vec3(fit.farSources[a]), float(strength));
    }
    const vec4 centreSource(centre, float(strengths[s]));
    closure.sources.push_back(centreSource);
    closure.farSources.push_back(centreSource);
    return closure;
}

SphereClosure fitSphereClosure(const vec3& centre, float radius, const vec3& velocity,
                               const std::vector<vec3>& flowAtPoints) {
    const std::vector<dvec3>& normals = unitFit().normals;
    std::vector<double> speeds(normals.size());
    for (size_t i = 0; i < normals.size(); ++i)
        speeds[i] = glm::dot(dvec3(velocity) - dvec3(flowAtPoints[i]), normals[i]);
    return closureFromStrengths(centre, radius, closureStrengths(radius, speeds));
}

namespace {

// The sources whose flow the closure gives at x: the fine set within kClosureNear radii, the
// coarse one beyond.
const std::vector<vec4>& sourcesSeenFrom(const SphereClosure& closure, const vec3& r, float radius) {
    return glm::dot(r, r) < kClosureNear * kClosureNear * radius * radius ? closure.sources : closure.farSources;
}

}  // namespace

vec3 closureVelocity(const SphereClosure& closure, const vec3& centre, float radius, const vec3& x) {
    if (closure.sources.empty() || !withinReach(x - centre, radius)) return vec3(0.0f);
    vec3 u(0.0f);
    for (const vec4& source : sourcesSeenFrom(closure, x - centre, radius)) {
        const vec3 r = x - vec3(source);
        const float distance2 = glm::dot(r, r);
        u += (source.w * float(kInverseFourPi) / (distance2 * std::sqrt(distance2))) * r;
    }
    return u;
}

mat3 closureGradient(const SphereClosure& closure, const vec3& centre, float radius, const vec3& x) {
    mat3 gradient(0.0f);
    if (closure.sources.empty() || !withinReach(x - centre, radius)) return gradient;
    for (const vec4& source : sourcesSeenFrom(closure, x - centre, radius)) {
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
