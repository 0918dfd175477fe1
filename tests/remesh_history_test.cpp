// The two-step rule's last velocity for vortons a remesh made: in a steady solid rotation
// u = Omega x r, a new vorton's last velocity is the velocity where its fluid was a sub-step
// earlier, a rotation by -Omega dt back along its circle.
#include "sim/remesh_history.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace vfx {
namespace {

constexpr float kOmega = 2.0f;  // rad/s, about +z

vec3 rotationFlow(const vec3& x) { return vec3(-kOmega * x.y, kOmega * x.x, 0.0f); }

UniformGrid<vec3> rotatingFlow() {
    const GridShape shape = GridShape::fitBox(vec3(-2.0f), vec3(2.0f), 40 * 40 * 40, 1e-4f);
    UniformGrid<vec3> velocity(shape);
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x)
                velocity[shape.index(x, y, z)] = rotationFlow(shape.pointPosition(x, y, z));
    return velocity;
}

TEST(RemeshHistory, NewVortonsTakeTheVelocityOfTheirFluidASubStepEarlier) {
    const UniformGrid<vec3> velocity = rotatingFlow();
    const std::vector<PotentialFlow> none;
    Vortons vortons;
    const std::vector<vec3> at = {vec3(1.0f, 0.0f, 0.3f), vec3(-0.4f, 0.7f, -0.5f), vec3(0.2f, -1.1f, 0.0f)};
    for (const vec3& x : at) vortons.add(x, vec3(0.1f, 0.2f, 1.0f), 0.1f, 0.0f, 1e-3f);
    MotionHistory history;
    history.dt = 0.05f;
    history.stretching.assign(7, vec3(1.0f));  // the old vortons' rates
    carryVelocityAcrossRemesh({velocity, none, {}}, vortons, history);
    ASSERT_EQ(history.vortonVelocity.size(), at.size());
    EXPECT_TRUE(history.stretching.empty()) << "stretching restarts with Euler";
    const float angle = -kOmega * history.dt;
    for (size_t i = 0; i < at.size(); ++i) {
        const vec3 x = at[i];
        const vec3 before(std::cos(angle) * x.x - std::sin(angle) * x.y, std::sin(angle) * x.x + std::cos(angle) * x.y,
                          x.z);
        const vec3 expected = rotationFlow(before);
        // The midpoint step back errs from the rotation by (Omega dt)^3 / 6 of the radius (1.7e-4
        // here) and the grid holds the linear field exactly; held to 3 times that for rounding.
        const float bound = 3.0f * std::pow(kOmega * history.dt, 3.0f) / 6.0f;
        EXPECT_LT(glm::length(history.vortonVelocity[i] - expected), bound * kOmega * glm::length(x)) << i;
        // The velocity here, what a restart would use, is Omega dt = 0.1 of it away.
        EXPECT_GT(glm::length(rotationFlow(x) - expected), 0.05f * kOmega * glm::length(x)) << i;
    }
}

// A vorton whose fluid came through where a wall now is (the wall stopped it) takes the last flow
// at its own place: the grid's flow behind a wall is not the fluid's.
TEST(RemeshHistory, BehindAWallTheLastFlowIsTakenWhereTheVortonIs) {
    const UniformGrid<vec3> velocity = rotatingFlow();
    const std::vector<PotentialFlow> none;
    Vortons vortons;
    const vec3 x(0.05f, 0.5f, 0.0f);  // moving along -x at 1 m/s: a sub-step ago it was at x = 0.1
    vortons.add(x, vec3(0.0f, 0.0f, 1.0f), 0.1f, 0.0f, 1e-3f);
    MotionHistory history;
    history.dt = 0.05f;
    const auto fluidBelowAWall = [](const vec3& p) { return p.x < 0.06f; };
    carryVelocityAcrossRemesh({velocity, none, fluidBelowAWall}, vortons, history);
    ASSERT_EQ(history.vortonVelocity.size(), 1u);
    EXPECT_LT(glm::length(history.vortonVelocity[0] - rotationFlow(x)), 1e-5f);
}

TEST(RemeshHistory, OneStepRulesWhenTheOldVortonsHadNone) {
    const UniformGrid<vec3> velocity = rotatingFlow();
    const std::vector<PotentialFlow> none;
    Vortons vortons;
    vortons.add(vec3(0.5f, 0.5f, 0.0f), vec3(0.0f, 0.0f, 1.0f), 0.1f, 0.0f, 1e-3f);
    FluidParams fluid;
    MotionHistory history;
    history.dt = 0.02f;
    carryHistoryAcrossRemesh(fluid, 3, {velocity, none, {}}, vortons, history);  // no last velocities
    EXPECT_TRUE(history.vortonVelocity.empty());
    history.vortonVelocity.assign(3, vec3(0.0f));
    carryHistoryAcrossRemesh(fluid, 3, {velocity, none, {}}, vortons, history);
    EXPECT_EQ(history.vortonVelocity.size(), 1u);
    // The exponential move reads the flow's change in time from the last velocity too: carried.
    history.vortonVelocity.assign(3, vec3(0.0f));
    fluid.advectionIntegrator = AdvectionIntegrator::Exponential;
    carryHistoryAcrossRemesh(fluid, 3, {velocity, none, {}}, vortons, history);
    EXPECT_EQ(history.vortonVelocity.size(), 1u);
    history.vortonVelocity.assign(3, vec3(0.0f));
    fluid.adamsBashforth = false;
    carryHistoryAcrossRemesh(fluid, 3, {velocity, none, {}}, vortons, history);
    EXPECT_TRUE(history.vortonVelocity.empty());
}

}  // namespace
}  // namespace vfx
