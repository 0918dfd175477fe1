#include "sim/sphere_closure.hpp"

#include "core/dense_lu.hpp"
#include "core/parallel.hpp"
#include "core/simd_lanes.hpp"

#include <algorithm>
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
// solve bounded in round-off. The kernel's columns are copied contiguous first, so the normal
// matrix's s^2 / 2 dot products stream through memory, and the q solves run side by side.
std::vector<double> leastSquaresMap(const std::vector<double>& a, size_t q, size_t s) {
    std::vector<double> columns(s * q);
    for (size_t i = 0; i < q; ++i)
        for (size_t j = 0; j < s; ++j) columns[j * q + i] = a[i * s + j];
    // Four dot products at a time: independent sums the processor overlaps.
    std::vector<double> normal(s * s, 0.0);
    parallelForEach(
        0, s,
        [&](size_t j) {
            const double* cj = &columns[j * q];
            size_t k = j;
            for (; k + 4 <= s; k += 4) {
                const double *c0 = &columns[k * q], *c1 = c0 + q, *c2 = c1 + q, *c3 = c2 + q;
                double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
                for (size_t i = 0; i < q; ++i) {
                    s0 += cj[i] * c0[i];
                    s1 += cj[i] * c1[i];
                    s2 += cj[i] * c2[i];
                    s3 += cj[i] * c3[i];
                }
                normal[j * s + k] = s0, normal[j * s + k + 1] = s1, normal[j * s + k + 2] = s2,
                               normal[j * s + k + 3] = s3;
            }
            for (; k < s; ++k) {
                const double* ck = &columns[k * q];
                double sum = 0.0;
                for (size_t i = 0; i < q; ++i) sum += cj[i] * ck[i];
                normal[j * s + k] = sum;
            }
        },
        8);
    for (size_t j = 0; j < s; ++j)
        for (size_t k = 0; k < j; ++k) normal[j * s + k] = normal[k * s + j];
    double trace = 0.0;
    for (size_t j = 0; j < s; ++j) trace += normal[j * s + j];
    for (size_t j = 0; j < s; ++j) normal[j * s + j] += 1e-12 * trace / double(s);
    DenseLu lu;
    lu.factorise(normal, int(s));
    // The q right-hand sides (the kernel's rows) in blocks of kBlock, solved side by side.
    constexpr size_t kBlock = 64;
    std::vector<double> map(s * q, 0.0);
    parallelForEach(
        0, (q + kBlock - 1) / kBlock,
        [&](size_t block) {
            const size_t first = block * kBlock, count = std::min(kBlock, q - first);
            std::vector<double> rhs(s * count);
            for (size_t j = 0; j < s; ++j)
                for (size_t c = 0; c < count; ++c) rhs[j * count + c] = a[(first + c) * s + j];
            lu.solveMany(rhs.data(), count);
            for (size_t j = 0; j < s; ++j)
                for (size_t c = 0; c < count; ++c) map[j * q + first + c] = rhs[j * count + c];
        },
        1);
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
        parallelForEach(
            0, c,
            [&](size_t a) {
                for (size_t i = 0; i < k; ++i)
                    for (size_t j = 0; j < s; ++j) f.farMap[a * s + j] += coarse[a * k + i] * fine[i * s + j];
            },
            1);
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

void prepareSphereClosures() { unitFit(); }

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
            // Four partial sums (every fourth point each): independent chains the processor overlaps.
            const double* row = &fit.map[j * q];
            double partial[4] = {0.0, 0.0, 0.0, 0.0};
            size_t i = 0;
            for (; i + 4 <= q; i += 4)
                for (size_t k = 0; k < 4; ++k) partial[k] += row[i + k] * (normalSpeeds[i + k] - mean);
            for (; i < q; ++i) partial[0] += row[i] * (normalSpeeds[i] - mean);
            strengths[j] = scale * ((partial[0] + partial[1]) + (partial[2] + partial[3]));
        },
        16);
    // A source Q at the centre sends Q / (4 pi R^2) through every point of the surface.
    strengths[s] = mean * 4.0 * kPiDouble * scale;
    return strengths;
}

namespace {

SourceLanes lanesOf(const std::vector<vec4>& sources) {
    SourceLanes out;
    const size_t padded = (sources.size() + size_t(lanes::kLanes) - 1) / size_t(lanes::kLanes) * size_t(lanes::kLanes);
    // Padding: no strength, far enough that its distance is finite and its term exactly zero.
    out.x.assign(padded, 1e6f), out.y.assign(padded, 1e6f), out.z.assign(padded, 1e6f);
    out.strength.assign(padded, 0.0f);
    for (size_t i = 0; i < sources.size(); ++i) {
        out.x[i] = sources[i].x, out.y[i] = sources[i].y, out.z[i] = sources[i].z;
        out.strength[i] = sources[i].w * float(kInverseFourPi);
    }
    return out;
}

}  // namespace

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
    closure.nearLanes = lanesOf(closure.sources);
    closure.farLanes = lanesOf(closure.farSources);
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

namespace {

// The sum of the sources' flows at x, q r / |r|^3, eight sources at a time.
VFX_SIMD_KERNEL vec3 sourcesVelocity(const SourceLanes& s, const vec3& x) {
    using lanes::Lanes;
    const Lanes px = lanes::splat(x.x), py = lanes::splat(x.y), pz = lanes::splat(x.z);
    Lanes ux{}, uy{}, uz{};
    for (size_t b = 0; b < s.x.size(); b += size_t(lanes::kLanes)) {
        const Lanes rx = px - lanes::load(&s.x[b]), ry = py - lanes::load(&s.y[b]), rz = pz - lanes::load(&s.z[b]);
        const Lanes distance2 = rx * rx + ry * ry + rz * rz;
        const Lanes scale = lanes::load(&s.strength[b]) / (distance2 * lanes::sqrtLanes(distance2));
        ux += scale * rx;
        uy += scale * ry;
        uz += scale * rz;
    }
    return vec3(lanes::addLanes(ux), lanes::addLanes(uy), lanes::addLanes(uz));
}

}  // namespace

vec3 closureVelocity(const SphereClosure& closure, const vec3& centre, float radius, const vec3& x) {
    if (closure.sources.empty() || !withinReach(x - centre, radius)) return vec3(0.0f);
    const vec3 r = x - centre;
    const bool near = glm::dot(r, r) < kClosureNear * kClosureNear * radius * radius;
    return sourcesVelocity(near ? closure.nearLanes : closure.farLanes, x);
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
