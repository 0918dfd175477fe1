// Buoyancy of bodies (sim/body_buoyancy.hpp): a lone body accelerates at the reduced gravity, the
// displaced mass of a body across two layers, and a ball swinging about the interface.
#include "bodies/body_motion.hpp"
#include "body_helpers.hpp"
#include "sim/body_buoyancy.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace vfx {
namespace {

using test::makeBody;

// One step of a lone body from rest in uniform fluid: a = g (1 - rho_fluid / rho_body).
float accelerationAlone(float bodyDensity, float ambient) {
    std::vector<RigidBody> bodies{makeBody(makeSphereShape(0.3f, false), bodyDensity, vec3(0, 1, 0))};
    FluidParams fluid;
    fluid.ambientDensity = ambient;
    const UniformGrid<float> empty;  // no vortons: nothing on the grid, fluid is ambient
    const float dt = 0.01f;
    applyBuoyancyAndGravity(bodies, empty, fluid);
    integrateBodies(bodies, dt, dt);
    return bodies[0].velocity.y / dt;
}

TEST(BodyBuoyancy, LoneBodyAcceleratesAtReducedGravity) {
    const float g = 9.8f;
    for (float rho : {2.5f, 1.2f, 1.0f, 0.8f, 0.3f}) {
        const float expected = -g * (1.0f - 1.0f / rho);
        const float a = accelerationAlone(rho, 1.0f);
        EXPECT_NEAR(a, expected, 0.01f * std::max(std::abs(expected), 0.01f)) << "body density " << rho;
    }
    EXPECT_LT(accelerationAlone(1.5f, 1.0f), 0.0f);  // heavy sinks
    EXPECT_GT(accelerationAlone(0.5f, 1.0f), 0.0f);  // light rises
    EXPECT_EQ(accelerationAlone(1.0f, 1.0f), 0.0f);  // equal stays
}

TEST(BodyBuoyancy, LoneBodyInASimulationWithNoVortons) {
    for (float rho : {2.0f, 0.5f, 1.0f}) {
        Simulation sim;
        sim.bodies().push_back(makeBody(makeSphereShape(0.25f, false), rho, vec3(0, 0, 0)));
        const float dt = 0.01f;
        for (int s = 0; s < 10; ++s) sim.step(dt);
        const float a = sim.bodies()[0].velocity.y / (10 * dt);
        const float expected = -9.8f * (1.0f - 1.0f / rho);
        EXPECT_NEAR(a, expected, 0.01f * std::max(std::abs(expected), 0.01f)) << "body density " << rho;
    }
}

// Density deviation grid with a two-layer profile: `below` under y = 0, `above` over it.
UniformGrid<float> twoLayerGrid(float below, float above) {
    GridShape shape;
    shape.minCorner = vec3(-2.05f, -2.05f, -2.05f);
    shape.spacing = vec3(0.1f);
    shape.points = ivec3(42);  // y = 0 falls midway between two points
    UniformGrid<float> grid(shape);
    for (int z = 0; z < 42; ++z)
        for (int y = 0; y < 42; ++y)
            for (int x = 0; x < 42; ++x) grid.at(x, y, z) = shape.pointPosition(x, y, z).y < 0.0f ? below : above;
    return grid;
}

TEST(BodyBuoyancy, DisplacedMassHalfInEachOfTwoLayers) {
    FluidParams fluid;
    fluid.ambientDensity = 1.0f;
    const UniformGrid<float> grid = twoLayerGrid(0.4f, -0.1f);
    const RigidBody ball = makeBody(makeSphereShape(0.5f, false), 1.0f, vec3(0.0f));
    const float volume = sphereVolume(0.5f);
    // Half the ball in fluid of density 1.4, half in 0.9.
    EXPECT_NEAR(displacedMass(ball, grid, fluid), 0.5f * (1.4f + 0.9f) * volume, 1e-4f);
    // Wholly in one layer.
    EXPECT_NEAR(displacedMass(makeBody(makeSphereShape(0.5f, false), 1.0f, vec3(0, -1, 0)), grid, fluid), 1.4f * volume,
                1e-4f);
    EXPECT_NEAR(displacedMass(makeBody(makeSphereShape(0.5f, false), 1.0f, vec3(0, 1, 0)), grid, fluid), 0.9f * volume,
                1e-4f);
    // A box reaches its half height along gravity, so the same holds for it.
    const RigidBody box = makeBody(makeBoxShape(vec3(0.3f, 0.5f, 0.3f), false), 1.0f);
    EXPECT_NEAR(displacedMass(box, grid, fluid), 0.5f * (1.4f + 0.9f) * box.shape.volume(), 1e-4f);
    // Samples outside the grid see ambient fluid: top sample at y = 2.2 is uncovered.
    const RigidBody high = makeBody(makeSphereShape(0.5f, false), 1.0f, vec3(0, 1.7f, 0));
    EXPECT_NEAR(displacedMass(high, grid, fluid), (1.0f + (-0.1f - 0.1f + 0.0f) / 3.0f) * volume, 1e-4f);
}

TEST(BodyBuoyancy, BallOscillatesAboutTheInterfaceOfTwoLayers) {
    // Intermediate density: sinks through the light layer, rises out of the heavy one. With
    // buoyancy alone (no fluid drag) the motion is an undamped swing about the interface.
    FluidParams fluid;
    const UniformGrid<float> grid = twoLayerGrid(0.2f, -0.2f);
    std::vector<RigidBody> bodies{makeBody(makeSphereShape(0.2f, false), 1.0f, vec3(0, 1.0f, 0))};
    float lowest = 1e9f, highest = -1e9f;
    double sum = 0.0;
    const int steps = 2000;
    for (int s = 0; s < steps; ++s) {
        applyBuoyancyAndGravity(bodies, grid, fluid);
        integrateBodies(bodies, (s + 1) * 0.01, 0.01f);
        lowest = std::min(lowest, bodies[0].position.y);
        highest = std::max(highest, bodies[0].position.y);
        sum += bodies[0].position.y;
    }
    EXPECT_NEAR(lowest, -1.0f, 0.05f);  // the mirror image of the start
    EXPECT_NEAR(highest, 1.0f, 0.05f);
    EXPECT_NEAR(sum / steps, 0.0, 0.1);  // centred on the interface
}

}  // namespace
}  // namespace vfx
