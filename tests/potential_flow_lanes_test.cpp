// What moving bodies push aside, summed for eight points at a time (the tracers' and vortons'
// pass), is the flow potentialFlowVelocity gives one point at a time: the dipole, uniform inside
// the sphere, the closure's fine and coarse sources and every image in a container's walls.
#include "sim/potential_flow_lanes.hpp"
#include "sim/sphere_closure.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

namespace vfx {
namespace {

// A ball moving through a straining flow in a small tilted box: its closure is fitted, and the
// box's 26 images of it (faces, edges, corners) are all within reach.
std::vector<PotentialFlow> ballInATiltedBox() {
    BoxContainer tank{AxisBox{vec3(-0.5f, 0.0f, -0.5f), vec3(0.5f, 1.0f, 0.5f)}};
    tank.orientation = glm::angleAxis(glm::radians(20.0f), glm::normalize(vec3(1.0f, 2.0f, 0.5f)));
    tank.origin = vec3(0.3f, -0.2f, 0.1f);
    PotentialFlow f;
    f.centre = tank.origin + tank.orientation * vec3(0.1f, 0.3f, -0.05f);
    f.radius = 0.15f;
    f.relativeVelocity = vec3(0.3f, -1.0f, 0.2f);
    std::vector<vec3> flow;
    for (const vec3& p : closureCollocationPoints(f.centre, f.radius)) {
        const vec3 r = p - f.centre;
        flow.push_back(vec3(2.0f * r.x, -r.y, -r.z) + f.relativeVelocity);  // strain, and the ball's own flow
    }
    f.closure = fitSphereClosure(f.centre, f.radius, vec3(0.0f), flow);
    std::vector<PotentialFlow> flows{f};
    mirrorInBoxWalls(flows, tank);
    return flows;
}

// Points inside the ball, by its surface, among the fine and the coarse sources' reach and
// beyond: 1,003 of them (a last block of three).
std::vector<vec3> pointsAround(const PotentialFlow& ball, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::vector<vec3> points;
    for (int i = 0; i < 1003; ++i) {
        const float reach = (i % 5 == 0 ? 0.9f : i % 5 == 1 ? 2.0f : 5.0f) * ball.radius;
        points.push_back(ball.centre + reach * vec3(unit(rng), unit(rng), unit(rng)));
    }
    return points;
}

TEST(PotentialFlowLanes, EightPointsAtATimeGiveTheFlowOfOnePointAtATime) {
    const std::vector<PotentialFlow> flows = ballInATiltedBox();
    ASSERT_EQ(flows[0].mirrors.size(), 26u);
    const std::vector<vec3> points = pointsAround(flows[0], 11);
    std::vector<vec3> lanes(points.size(), vec3(1.0f, 2.0f, 3.0f));  // added to
    addPotentialFlowVelocities(flows, points, lanes);
    float worst = 0.0f, largest = 0.0f;
    for (size_t i = 0; i < points.size(); ++i) {
        const vec3 one = potentialFlowVelocity(flows, points[i]);
        worst = std::max(worst, glm::length(lanes[i] - vec3(1.0f, 2.0f, 3.0f) - one));
        largest = std::max(largest, glm::length(one));
    }
    std::cout << "worst " << worst << " largest " << largest << "\n";
    EXPECT_GT(largest, 0.5f);  // the points meet the flow
    // The same terms in another order: float round-off over a few hundred sources and 27 images.
    EXPECT_LT(worst, 1e-5f * largest);
}

TEST(PotentialFlowLanes, EightPointsAtATimeGiveTheGradientOfOnePointAtATime) {
    const std::vector<PotentialFlow> flows = ballInATiltedBox();
    const std::vector<vec3> points = pointsAround(flows[0], 13);
    std::vector<mat3> lanes(points.size(), mat3(1.0f));  // added to
    addPotentialFlowGradients(flows, points, lanes);
    float worst = 0.0f, largest = 0.0f;
    for (size_t i = 0; i < points.size(); ++i) {
        const mat3 one = potentialFlowGradient(flows, points[i]), difference = lanes[i] - mat3(1.0f) - one;
        for (int j = 0; j < 3; ++j) {
            worst = std::max(worst, glm::length(difference[j]));
            largest = std::max(largest, glm::length(one[j]));
        }
    }
    std::cout << "worst " << worst << " largest " << largest << "\n";
    EXPECT_GT(largest, 1.0f);
    EXPECT_LT(worst, 1e-5f * largest);
}

}  // namespace
}  // namespace vfx
