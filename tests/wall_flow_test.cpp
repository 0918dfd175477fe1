// Flow through walls (sim/wall_flow.hpp) and the surface points it is measured at
// (bodies/surface_samples.hpp): points on every face and on the sphere, the speed of a moving
// wall through fluid at rest, and a vortex ring's axial flow against the thin-ring formula.
#include "bodies/shapes.hpp"
#include "bodies/surface_samples.hpp"
#include "sim/simulation.hpp"
#include "sim/wall_flow.hpp"
#include "body_helpers.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace vfx {
namespace {

using test::addVortexRing;
using test::makeMovingBody;
using test::RingSpec;

TEST(SurfaceSamples, ASphereGetsTheCountAskedForEvenlyOverItsSurface) {
    const std::vector<SurfaceSample> samples = surfaceSamples(makeSphereShape(2.0f, true), 1024);
    ASSERT_EQ(samples.size(), 1024u);
    dvec3 normalSum(0.0);
    for (const SurfaceSample& s : samples) {
        EXPECT_NEAR(glm::length(s.position), 2.0f, 1e-5f);
        EXPECT_NEAR(glm::dot(s.normal, glm::normalize(s.position)), 1.0f, 1e-6f);
        normalSum += dvec3(s.normal);
    }
    // Evenly spread: the normals cancel. The lattice is symmetric in y; in x and z the sum of unit
    // vectors turned by the golden angle stays below 1 / (2 sin(golden / 2)) = 0.6 in length, so
    // over 1,024 points the mean is under 6e-4.
    EXPECT_LT(glm::length(normalSum) / double(samples.size()), 1e-3);
}

TEST(SurfaceSamples, ABoxIsSampledOnEveryFaceInProportionToItsArea) {
    const vec3 half(2.0f, 1.0f, 0.5f);
    const CollisionShape box = makeBoxShape(half, false);
    const std::vector<SurfaceSample> samples = surfaceSamples(box, 2048);
    // Near the target, never far above it: the box's area is below its circumscribed sphere's.
    EXPECT_GT(samples.size(), 300u);
    EXPECT_LT(samples.size(), 2048u * 11u / 10u);
    int perAxis[3] = {0, 0, 0};
    bool faceCentreSampled = false;
    for (const SurfaceSample& s : samples) {
        const int axis = std::abs(s.normal.x) > 0.5f ? 0 : std::abs(s.normal.y) > 0.5f ? 1 : 2;
        ++perAxis[axis];
        EXPECT_NEAR(std::abs(s.position[axis]), half[axis], 1e-5f);  // on its face
        EXPECT_TRUE(glm::all(glm::lessThanEqual(glm::abs(s.position), half + vec3(1e-5f))));
        faceCentreSampled |= glm::length(s.position - vec3(0.0f, half.y, 0.0f)) < 1e-6f;
    }
    EXPECT_TRUE(faceCentreSampled);
    // Faces across z of 4 x 2 m, across y of 4 x 1 m, across x of 2 x 1 m: counts in the ratio
    // 8 : 4 : 2, to within the lattice's edge rows. At the spacing s = 0.18 m a face of a x b
    // holds about (a/s + 1)(b/s + 1) points, which moves the three shares by 0.012, 0.011 and
    // 0.023 from the areas' ratio; 0.04 leaves room for rounding rows to whole points.
    const double total = double(samples.size());
    EXPECT_NEAR(perAxis[2] / total, 8.0 / 14.0, 0.04);
    EXPECT_NEAR(perAxis[1] / total, 4.0 / 14.0, 0.04);
    EXPECT_NEAR(perAxis[0] / total, 2.0 / 14.0, 0.04);
}

TEST(WallFlow, AWallMovingThroughFluidAtRestCrossesItAtItsOwnSpeed) {
    Simulation sim;
    sim.bodies().push_back(makeMovingBody(makeBoxShape(vec3(1.0f), true), vec3(0.3f, 0.0f, 0.0f)));
    const std::vector<WallFlowSample> samples = measureWallFlow(sim);
    EXPECT_FLOAT_EQ(largestWallNormalSpeed(samples), 0.3f);
    for (const WallFlowSample& s : samples) EXPECT_NEAR(s.normalSpeed, 0.3f * std::abs(s.normal.x), 1e-6f);
    EXPECT_DOUBLE_EQ(sim.diagnostics().wallNormalSpeed, double(largestWallNormalSpeed(samples)));
}

TEST(WallFlow, AFreeSpaceRingCrossesAWallAheadAtTheThinRingAxialSpeed) {
    // A ring (R 1, Gamma 1) in a box whose top face is z = 2 ahead of it: with nothing to stop it,
    // the flow crosses the face fastest on the axis, at Gamma R^2 / (2 (R^2 + z^2)^(3/2)).
    Simulation sim;
    sim.fluid().velocitySolver = VelocitySolver::Direct;
    RingSpec ring;
    ring.coreRadius = 0.1f;
    addVortexRing(sim.vortons(), ring);
    sim.bodies().push_back(makeMovingBody(makeBoxShape(vec3(3.0f, 2.0f, 3.0f), true), vec3(0.0f)));
    const double z = 2.0, expected = 1.0 / (2.0 * std::pow(1.0 + z * z, 1.5));
    // The finite core changes the far field by O((a/d)^2) = 0.2% and the random vortons' placing
    // by about as much: within 1%.
    EXPECT_NEAR(largestWallNormalSpeed(measureWallFlow(sim)), expected, 0.01 * expected);
}

}  // namespace
}  // namespace vfx
