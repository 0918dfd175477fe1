// Particles against bodies (sim/body_collisions.hpp): vortons take the no-slip vorticity and the
// body the fluid's push, no particle stays inside a solid or leaves a shaken container, and any
// thread count gives the same bits.
#include "bodies/body_motion.hpp"
#include "body_helpers.hpp"
#include "sim/body_buoyancy.hpp"
#include "sim/body_collisions.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace vfx {
namespace {

using test::makeBody;
using test::makeContainer;

TEST(FluidBodyInteraction, VortonsTakeNoSlipVorticityAndTorqueGoesToAKinematicBody) {
    FluidParams fluid;
    fluid.gravity = vec3(0.0f);
    std::vector<RigidBody> bodies{makeBody(makeSphereShape(0.5f, false), 1.0f, vec3(0.0f), MotionKind::Kinematic)};
    Vortons v;
    Tracers t;
    // A vorton slightly inside the top of the ball, sliding along +x.
    v.add(vec3(0.0f, 0.49f, 0.0f), vec3(0.0f, 2.0f, 0.0f), 0.05f, 0.0f);
    v.velocity[0] = vec3(1.0f, 0.0f, 0.0f);
    collideParticlesWithBodies(bodies, v, t, fluid, 0.01f);
    EXPECT_GT(v.position[0].y, 0.5f);
    EXPECT_EQ(v.hitWall[0], 1);
    EXPECT_NEAR(v.hitNormal[0].y, 1.0f, 1e-5f);
    // normal part kept (2 along y), tangential part the wall sheet (y x x) / V^(1/3) = -z / V^(1/3)
    const float side = std::cbrt(v.volume(0));
    EXPECT_NEAR(v.vorticity[0].y, 2.0f, 1e-4f);
    EXPECT_NEAR(v.vorticity[0].z, -1.0f / side, 1e-3f);
    EXPECT_NEAR(v.vorticity[0].x, 0.0f, 1e-6f);
    // Its circulation is the sheet's over the vorton's share of the wall: |omega| V = slip * side^2.
    EXPECT_NEAR(std::abs(v.vorticity[0].z) * v.volume(0), 1.0f * side * side, 1e-5f);
    // The body records the fluid's push: the slip momentum along +x and its moment about the
    // centre (negative z: +x force at the contact height, +y) minus the spin the vorton gained.
    const float m = v.volume(0);
    const float sigma = 0.05f;
    EXPECT_NEAR(bodies[0].impulse.x, m * 1.0f, 1e-6f);
    const float expectedTorque = -v.position[0].y * m * 1.0f - 0.2f * m * sigma * sigma * (-1.0f / side);
    EXPECT_NEAR(bodies[0].angularImpulse.z, expectedTorque, 1e-4f * std::abs(expectedTorque));
}

TEST(FluidBodyInteraction, NoParticleStaysInsideASolid) {
    FluidParams fluid;
    fluid.gravity = vec3(0.0f);
    std::vector<RigidBody> bodies{makeBody(makeSphereShape(0.4f, false), 1.0f, vec3(0.6f, 0, 0)),
                                  makeBody(makeBoxShape(vec3(0.3f, 0.2f, 0.4f), false), 1.0f, vec3(-0.5f, 0, 0))};
    bodies[1].orientation = glm::angleAxis(0.6f, glm::normalize(vec3(1, 1, 0)));
    bodies[0].velocity = vec3(0.0f, 3.0f, 0.0f);
    bodies[1].angularVelocity = vec3(0.0f, 0.0f, 4.0f);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    Vortons v;
    Tracers t;
    for (int i = 0; i < 20000; ++i) {
        const vec3 p(unit(rng) * 1.1f, unit(rng) * 0.6f, unit(rng) * 0.6f);
        v.add(p, vec3(unit(rng), unit(rng), unit(rng)), 0.02f, 0.1f * unit(rng));
        v.velocity.back() = vec3(unit(rng), unit(rng), unit(rng)) * 5.0f;
        t.add(p * 0.9f);
        t.velocity.back() = vec3(unit(rng), unit(rng), unit(rng)) * 5.0f;
    }
    collideParticlesWithBodies(bodies, v, t, fluid, 0.01f);
    size_t inside = 0;
    for (const RigidBody& b : bodies)
        for (size_t i = 0; i < v.size(); ++i) {
            inside += contactDistance(b, v.position[i]) < 0.0f;
            inside += contactDistance(b, t.position[i]) < 0.0f;
        }
    EXPECT_EQ(inside, 0u);
}

// Runs a collision pass on a fixed random set-up under a TBB thread limit.
struct CollisionSnapshot {
    Vortons v;
    Tracers t;
    std::vector<RigidBody> bodies;
};

CollisionSnapshot collideWithThreads(int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
    CollisionSnapshot s;
    FluidParams fluid;
    s.bodies = {makeBody(makeSphereShape(0.4f, false), 1.3f, vec3(0.3f, 0, 0)),
                makeBody(makeBoxShape(vec3(1.0f), true), 1.0f, vec3(0.0f), MotionKind::Kinematic)};
    s.bodies[0].velocity = vec3(1.0f, -2.0f, 0.5f);
    s.bodies[0].angularVelocity = vec3(0.0f, 3.0f, 1.0f);
    s.bodies[1].kinematic.amplitude = vec3(0.5f, 0, 0);
    s.bodies[1].kinematic.period = 0.5f;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> unit(-1.2f, 1.2f);
    for (int i = 0; i < 50000; ++i) {
        s.v.add(vec3(unit(rng), unit(rng), unit(rng)), vec3(unit(rng), unit(rng), unit(rng)), 0.03f, 0.2f * unit(rng));
        s.v.velocity.back() = vec3(unit(rng), unit(rng), unit(rng));
        s.t.add(vec3(unit(rng), unit(rng), unit(rng)));
    }
    for (int step = 0; step < 3; ++step) {
        collideParticlesWithBodies(s.bodies, s.v, s.t, fluid, 0.01f);
        applyBuoyancyAndGravity(s.bodies, UniformGrid<float>(), fluid);
        integrateBodies(s.bodies, (step + 1) * 0.01, 0.01f);
    }
    return s;
}

TEST(FluidBodyInteraction, OneAndTwoThreadsGiveIdenticalResults) {
    const CollisionSnapshot a = collideWithThreads(1);
    const CollisionSnapshot b = collideWithThreads(2);
    EXPECT_TRUE(test::bitwiseEqual(a.v.position, b.v.position));
    EXPECT_TRUE(test::bitwiseEqual(a.v.vorticity, b.v.vorticity));
    EXPECT_TRUE(test::bitwiseEqual(a.v.hitWall, b.v.hitWall));
    EXPECT_TRUE(test::bitwiseEqual(a.t.position, b.t.position));
    for (size_t k = 0; k < a.bodies.size(); ++k) {
        EXPECT_EQ(std::memcmp(&a.bodies[k].position, &b.bodies[k].position, sizeof(vec3)), 0);
        EXPECT_EQ(std::memcmp(&a.bodies[k].velocity, &b.bodies[k].velocity, sizeof(vec3)), 0);
        EXPECT_EQ(std::memcmp(&a.bodies[k].angularVelocity, &b.bodies[k].angularVelocity, sizeof(vec3)), 0);
    }
}

// --- containment under motion ------------------------------------------------------------------

// A container swinging and turning fast: every particle is inside after every collision pass.
size_t escapedAfterShaking(int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
    RigidBody tank = makeContainer(vec3(0.8f, 0.5f, 0.4f));
    tank.kinematic.amplitude = vec3(0.6f, 0.2f, 0.0f);
    tank.kinematic.angularAmplitude = vec3(0.3f, 0.0f, 0.6f);
    tank.kinematic.period = 0.3f;  // peak wall speed about 13 m/s
    std::vector<RigidBody> bodies{tank};
    FluidParams fluid;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    Vortons v;
    Tracers t;
    for (int i = 0; i < 20000; ++i) {
        v.add(vec3(unit(rng) * 0.7f, unit(rng) * 0.4f, unit(rng) * 0.3f), vec3(0.0f), 0.03f, 0.5f);
        t.add(vec3(unit(rng) * 0.7f, unit(rng) * 0.4f, unit(rng) * 0.3f));
    }
    const float dt = 0.01f;
    const float tolerance = 1e-5f * 0.8f;
    size_t escaped = 0;
    for (int step = 0; step < 300; ++step) {
        // Stand-in for advection: particles keep drifting toward the walls.
        for (size_t i = 0; i < v.size(); ++i) {
            v.velocity[i] = vec3(unit(rng), unit(rng), unit(rng)) * 3.0f;
            v.position[i] += v.velocity[i] * dt;
            t.position[i] += vec3(unit(rng), unit(rng), unit(rng)) * 0.03f;
        }
        collideParticlesWithBodies(bodies, v, t, fluid, dt);
        integrateBodies(bodies, (step + 1) * dt, dt);
        for (size_t i = 0; i < v.size(); ++i) {
            escaped += contactDistance(bodies[0], v.position[i]) < -tolerance;
            escaped += contactDistance(bodies[0], t.position[i]) < -tolerance;
        }
    }
    return escaped;
}

TEST(Containers, NoParticleEscapesAShakenContainerAtAnyThreadCount) {
    EXPECT_EQ(escapedAfterShaking(1), 0u);
    EXPECT_EQ(escapedAfterShaking(2), 0u);
}

}  // namespace
}  // namespace vfx
