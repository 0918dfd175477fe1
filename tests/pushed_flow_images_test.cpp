// Images of the flows dynamic solids push aside in a box container's walls: the dipole mirrored
// in the floor it is near sends no flow through the floor, nor, with the image across the edge,
// through the floor and the wall of a corner it is near; the images' gradient is the velocity's
// derivative, and only walls within the dipole's reach get an image.
#include "sim/potential_flow.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace vfx {
namespace {

PotentialFlow ballNearTheFloor() {
    PotentialFlow f;
    f.centre = vec3(0.1f, 0.2f, -0.05f);
    f.radius = 0.15f;
    f.relativeVelocity = vec3(0.3f, -1.0f, 0.2f);
    return f;
}

TEST(PushedFlowImages, ADipoleMirroredInTheFloorSendsNoFlowThroughIt) {
    // A box so large that only its floor (y = 0) is within the dipole's reach of 12 radii.
    std::vector<PotentialFlow> flows{ballNearTheFloor()};
    mirrorInBoxWalls(flows, BoxContainer{AxisBox{vec3(-10.0f, 0.0f, -10.0f), vec3(10.0f, 20.0f, 10.0f)}});
    ASSERT_EQ(flows[0].mirrors.size(), 1u);
    const std::vector<PotentialFlow> alone{ballNearTheFloor()};
    float worst = 0.0f, without = 0.0f;
    for (float x = -0.6f; x <= 0.6f; x += 0.05f)
        for (float z = -0.6f; z <= 0.6f; z += 0.05f) {
            const vec3 p(x, 0.0f, z);
            worst = std::max(worst, std::abs(potentialFlowVelocity(flows, p).y));
            without = std::max(without, std::abs(potentialFlowVelocity(alone, p).y));
        }
    EXPECT_GT(without, 0.1f);           // the dipole alone pushes fluid through the floor
    EXPECT_LT(worst, 1e-6f * without);  // with its image, nothing (round-off)
}

// Near the edge between the floor (y = 0) and a wall (x = -0.3): the floor's image alone would send
// flow through the wall, and the wall's through the floor; the image across the edge cancels both.
TEST(PushedFlowImages, ADipoleNearAnEdgeSendsNoFlowThroughEitherWall) {
    std::vector<PotentialFlow> flows{ballNearTheFloor()};
    mirrorInBoxWalls(flows, BoxContainer{AxisBox{vec3(-0.3f, 0.0f, -10.0f), vec3(10.0f, 20.0f, 10.0f)}});
    ASSERT_EQ(flows[0].mirrors.size(), 3u);  // the floor, the wall, the edge
    std::vector<PotentialFlow> facesOnly = flows;
    facesOnly[0].mirrors.pop_back();
    float floorFlow = 0.0f, wallFlow = 0.0f, wallFlowFacesOnly = 0.0f;
    for (float a = 0.0f; a <= 0.6f; a += 0.05f)
        for (float z = -0.6f; z <= 0.6f; z += 0.05f) {
            floorFlow = std::max(floorFlow, std::abs(potentialFlowVelocity(flows, vec3(a - 0.3f, 0.0f, z)).y));
            wallFlow = std::max(wallFlow, std::abs(potentialFlowVelocity(flows, vec3(-0.3f, a, z)).x));
            wallFlowFacesOnly =
                std::max(wallFlowFacesOnly, std::abs(potentialFlowVelocity(facesOnly, vec3(-0.3f, a, z)).x));
        }
    const float speed = glm::length(flows[0].relativeVelocity);
    EXPECT_GT(wallFlowFacesOnly, 1e-2f * speed);  // the floor's image crosses the wall
    EXPECT_LT(floorFlow, 1e-6f * speed);
    EXPECT_LT(wallFlow, 1e-6f * speed);
}

// The same edge in a box container tilted 35 degrees about (1, 2, 0.5) and moved: the images,
// taken in the box's frame, cancel the flow through both walls to round-off. The reflection
// R S R^T and the turned wall points carry a few float roundings (1e-7 each) that the upright
// box's exact signs do not, so the bound is 1e-5 of the speed instead of 1e-6.
TEST(PushedFlowImages, InATiltedBoxTheEdgesImagesCancelTheFlowThroughBothWalls) {
    BoxContainer tank{AxisBox{vec3(-0.3f, 0.0f, -10.0f), vec3(10.0f, 20.0f, 10.0f)}};
    tank.orientation = glm::angleAxis(glm::radians(35.0f), glm::normalize(vec3(1.0f, 2.0f, 0.5f)));
    tank.origin = vec3(0.3f, -0.2f, 0.1f);
    const auto world = [&](const vec3& x) { return tank.origin + tank.orientation * x; };
    PotentialFlow ball = ballNearTheFloor();
    ball.centre = world(ball.centre);
    std::vector<PotentialFlow> flows{ball};
    mirrorInBoxWalls(flows, tank);
    ASSERT_EQ(flows[0].mirrors.size(), 3u);
    const vec3 floorNormal = tank.orientation * vec3(0.0f, 1.0f, 0.0f);
    const vec3 wallNormal = tank.orientation * vec3(1.0f, 0.0f, 0.0f);
    float floorFlow = 0.0f, wallFlow = 0.0f;
    for (float a = 0.0f; a <= 0.6f; a += 0.05f)
        for (float z = -0.6f; z <= 0.6f; z += 0.05f) {
            const vec3 onFloor = world(vec3(a - 0.3f, 0.0f, z)), onWall = world(vec3(-0.3f, a, z));
            floorFlow = std::max(floorFlow, std::abs(glm::dot(potentialFlowVelocity(flows, onFloor), floorNormal)));
            wallFlow = std::max(wallFlow, std::abs(glm::dot(potentialFlowVelocity(flows, onWall), wallNormal)));
        }
    const float speed = glm::length(flows[0].relativeVelocity);
    EXPECT_LT(floorFlow, 1e-5f * speed);
    EXPECT_LT(wallFlow, 1e-5f * speed);
}

TEST(PushedFlowImages, TheImagesGradientIsTheVelocitysDerivative) {
    std::vector<PotentialFlow> flows{ballNearTheFloor()};
    mirrorInBoxWalls(flows, BoxContainer{AxisBox{vec3(-0.5f, 0.0f, -0.5f), vec3(0.5f, 1.0f, 0.5f)}});
    EXPECT_EQ(flows[0].mirrors.size(), 26u);  // 6 faces, 12 edges, 8 corners
    const float h = 1e-3f;
    for (const vec3& x : {vec3(0.3f, 0.05f, 0.1f), vec3(-0.2f, 0.5f, 0.3f), vec3(0.1f, 0.4f, -0.4f)}) {
        const mat3 g = potentialFlowGradient(flows, x);
        const float size = glm::length(g[0]) + glm::length(g[1]) + glm::length(g[2]);
        for (int j = 0; j < 3; ++j) {
            vec3 step(0.0f);
            step[j] = h;
            const vec3 difference =
                (potentialFlowVelocity(flows, x + step) - potentialFlowVelocity(flows, x - step)) / (2.0f * h);
            for (int i = 0; i < 3; ++i) EXPECT_NEAR(g[j][i], difference[i], 1e-2f * size);
        }
    }
}

}  // namespace
}  // namespace vfx
