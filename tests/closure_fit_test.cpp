// The joint fit of sphere closures and the GMRES solver it uses: GMRES solves a non-symmetric
// system to its tolerance in at most n steps; a sphere at rest near a floor in a stream parallel to
// it, whose dipole's image in the floor sends flow through the sphere, is closed only when its
// closure's fit sees its own image; two spheres side by side in a stream close each other.
#include "bodies/shapes.hpp"
#include "body_helpers.hpp"
#include "core/gmres.hpp"
#include "sim/closure_fit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace vfx {
namespace {

// A = I + a random perturbation of norm below 1: non-symmetric, well conditioned.
TEST(Gmres, SolvesANonSymmetricSystemToItsTolerance) {
    const size_t n = 30;
    std::mt19937 random(11);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> a(n * n), b(n);
    for (size_t i = 0; i < n; ++i) {
        b[i] = uniform(random);
        for (size_t j = 0; j < n; ++j) a[i * n + j] = (i == j ? 1.0 : 0.0) + 0.1 * uniform(random);
    }
    const auto apply = [&](const std::vector<double>& v, std::vector<double>& out) {
        out.assign(n, 0.0);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) out[i] += a[i * n + j] * v[j];
    };
    std::vector<double> x;
    const GmresResult result = solveGmres(apply, b, x, int(n), 1e-10);
    EXPECT_LE(result.iterations, int(n));  // exact arithmetic would finish by n
    std::vector<double> ax;
    apply(x, ax);
    double residual = 0.0, norm = 0.0;
    for (size_t i = 0; i < n; ++i) {
        residual += (ax[i] - b[i]) * (ax[i] - b[i]);
        norm += b[i] * b[i];
    }
    EXPECT_LT(std::sqrt(residual), 1e-9 * std::sqrt(norm));
}

PotentialFlow sphereInStream(const vec3& centre, float radius, const vec3& stream, size_t body) {
    PotentialFlow f;
    f.centre = centre;
    f.radius = radius;
    f.relativeVelocity = -stream;  // the body at rest in the stream
    f.body = body;
    return f;
}

// The largest normal speed of stream + flows over many points of each sphere's surface.
float worstNormalSpeed(const std::vector<PotentialFlow>& flows, const vec3& stream) {
    std::mt19937 random(5);
    std::normal_distribution<float> normal;
    float worst = 0.0f;
    for (const PotentialFlow& f : flows)
        for (int k = 0; k < 2000; ++k) {
            const vec3 n = glm::normalize(vec3(normal(random), normal(random), normal(random)));
            const vec3 p = f.centre + f.radius * n;
            worst = std::max(worst, std::abs(glm::dot(stream + potentialFlowVelocity(flows, p), n)));
        }
    return worst;
}

// Every sphere's collocation points, sphere after sphere.
std::vector<vec3> collocationPoints(const std::vector<PotentialFlow>& flows) {
    std::vector<vec3> points;
    for (const PotentialFlow& f : flows)
        for (const vec3& p : closureCollocationPoints(f.centre, f.radius)) points.push_back(p);
    return points;
}

// Fits the closures of all the flows (each a sphere's) in a uniform stream.
void fitInStream(std::vector<PotentialFlow>& flows, const std::vector<size_t>& spheres, const vec3& stream,
                 const std::vector<RigidBody>& bodies) {
    const std::vector<vec3> points = collocationPoints(flows);
    fitClosures(flows, spheres, points, std::vector<vec3>(points.size(), stream), bodies);
}

// A ball of radius 0.2 with its centre 0.3 above the floor (y = 0) of a large box, in a stream of
// 1 m/s along the floor. Its dipole cancels the stream at its surface, but the dipole's image in
// the floor sends flow through it (of order (R / 2h)^3 = 4% of the stream). A closure fitted as if
// the wall were not there is nothing and leaves all of it; fitted with its own image, what is left
// is the fit's error on that smooth field: at most 0.2% of it (degree <= 5, sphere_closure.cpp).
TEST(ClosureFit, ABallNearTheFloorInAStreamIsClosedWithItsImage) {
    const vec3 stream(1.0f, 0.0f, 0.0f);
    const std::vector<RigidBody> bodies{test::makeBody(makeSphereShape(0.2f, false), 2.0f, vec3(0.0f, 0.3f, 0.0f))};
    std::vector<PotentialFlow> flows{sphereInStream(vec3(0.0f, 0.3f, 0.0f), 0.2f, stream, 0)};
    mirrorInBoxWalls(flows, BoxContainer{AxisBox{vec3(-10.0f, 0.0f, -10.0f), vec3(10.0f, 20.0f, 10.0f)}});
    const float dipoleOnly = worstNormalSpeed(flows, stream);
    std::vector<PotentialFlow> unaware = flows;
    unaware[0].mirrors.clear();
    fitInStream(unaware, {0}, stream, bodies);
    unaware[0].mirrors = flows[0].mirrors;
    fitInStream(flows, {0}, stream, bodies);
    EXPECT_GT(dipoleOnly, 0.02f);
    EXPECT_GT(worstNormalSpeed(unaware, stream), 0.5f * dipoleOnly);
    EXPECT_LT(worstNormalSpeed(flows, stream), 2e-3f * dipoleOnly);
}

// Two balls of radius 0.2, 0.5 apart centre to centre, across a 1 m/s stream in open fluid: each
// dipole sends flow through the other (of order (R / d)^3 = 6% of the stream); fitted jointly,
// at most the fit's 0.2% of it is left.
TEST(ClosureFit, TwoBallsSideBySideCloseEachOther) {
    const vec3 stream(1.0f, 0.0f, 0.0f);
    const std::vector<RigidBody> bodies{test::makeBody(makeSphereShape(0.2f, false), 2.0f, vec3(0.0f, 0.0f, -0.25f)),
                                        test::makeBody(makeSphereShape(0.2f, false), 2.0f, vec3(0.0f, 0.0f, 0.25f))};
    std::vector<PotentialFlow> flows{sphereInStream(bodies[0].position, 0.2f, stream, 0),
                                     sphereInStream(bodies[1].position, 0.2f, stream, 1)};
    const float dipolesOnly = worstNormalSpeed(flows, stream);
    fitInStream(flows, {0, 1}, stream, bodies);
    EXPECT_GT(dipolesOnly, 0.03f);
    EXPECT_LT(worstNormalSpeed(flows, stream), 2e-3f * dipolesOnly);
}

}  // namespace
}  // namespace vfx
