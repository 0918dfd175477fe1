// Bodies in motion (bodies/body_motion.hpp): contact distances and contact points of moved and
// turned bodies, removing wall-normal components in any order, kinematic bodies on their path,
// and dynamic bodies integrated inside containers.
#include "bodies/body_motion.hpp"
#include "bodies/shapes.hpp"
#include "body_helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace vfx {
namespace {

using test::makeBody;
using test::makeContainer;

RigidBody makeSolidBox(const vec3& halfExtents) {
    RigidBody body;
    body.shape = makeBoxShape(halfExtents, false);
    finalizeBodyMass(body);
    return body;
}

// --- point vs polytope, hand-computed ----------------------------------------------------------
// Box of half extents (1, 2, 3). Contact distance = largest plane distance times parity.

TEST(ContactGeometry, SolidBoxDistances) {
    const RigidBody box = makeSolidBox(vec3(1, 2, 3));
    vec3 n;
    EXPECT_NEAR(contactDistance(box, vec3(0.5f, 0, 0), &n), -0.5f, 1e-6f);  // inside: nearest face x = 1
    EXPECT_NEAR(n.x, 1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(box, vec3(0, -1.5f, 2.9f), &n), -0.1f, 1e-6f);  // inside near z = 3
    EXPECT_NEAR(n.z, 1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(box, vec3(3, 0, 0), &n), 2.0f, 1e-6f);        // outside
    EXPECT_NEAR(contactDistance(box, vec3(1, 0.3f, 0), &n), 0.0f, 1e-6f);     // on a face
    EXPECT_NEAR(contactDistance(box, vec3(1.2f, 2.1f, 0), &n), 0.2f, 1e-6f);  // near an edge: largest plane
    EXPECT_NEAR(n.x, 1.0f, 1e-6f);
    const BodyContact c = contactWithBody(box, vec3(1.2f, 0.5f, -1));
    EXPECT_NEAR(glm::length(c.point - vec3(1.0f, 0.5f, -1)), 0.0f, 1e-6f);  // contact point on the face
}

TEST(ContactGeometry, HoleBoxDistances) {
    const RigidBody tank = makeContainer(vec3(1, 2, 3));
    vec3 n;
    EXPECT_NEAR(contactDistance(tank, vec3(0.5f, 0, 0), &n), 0.5f, 1e-6f);  // free, 0.5 from the x wall
    EXPECT_NEAR(n.x, -1.0f, 1e-6f);                                         // normal into the fluid
    EXPECT_NEAR(contactDistance(tank, vec3(0, 0, 0), &n), 1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(tank, vec3(3, 0, 0), &n), -2.0f, 1e-6f);  // escaped: penetration 2
    EXPECT_NEAR(contactDistance(tank, vec3(0, 2, 0), &n), 0.0f, 1e-6f);   // on the lid
    EXPECT_NEAR(n.y, -1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(tank, vec3(1.2f, 2.1f, 0), &n), -0.2f, 1e-6f);  // outside near an edge
    const BodyContact c = contactWithBody(tank, vec3(0.7f, -1.0f, 0.0f));
    EXPECT_NEAR(glm::length(c.point - vec3(1.0f, -1.0f, 0.0f)), 0.0f, 1e-6f);
}

TEST(ContactGeometry, RotatedAndMovedBodies) {
    RigidBody tank = makeContainer(vec3(1, 2, 3), vec3(5, 0, 0));
    tank.orientation = glm::angleAxis(kPi / 2.0f, vec3(0, 0, 1));  // local x now points along world y
    vec3 n;
    // World (5, 0.6, 0) is local (0.6, 0, 0): 0.4 from the local x wall, whose inward normal is world -y.
    EXPECT_NEAR(contactDistance(tank, vec3(5, 0.6f, 0), &n), 0.4f, 1e-5f);
    EXPECT_NEAR(n.y, -1.0f, 1e-5f);
    // World (6.5, 0, 0) is local (0, -1.5, 0): 0.5 from the local y = -2 wall.
    EXPECT_NEAR(contactDistance(tank, vec3(6.5f, 0, 0), &n), 0.5f, 1e-5f);
    EXPECT_NEAR(n.x, -1.0f, 1e-5f);
    EXPECT_NEAR(contactDistance(tank, vec3(5, 1.3f, 0)), -0.3f, 1e-5f);
    RigidBody solid = makeSolidBox(vec3(1, 2, 3));
    solid.orientation = glm::angleAxis(kPi / 4.0f, vec3(0, 1, 0));
    // Along the diagonal of the x-z plane, (1, 0, 1)/sqrt2 * r is local (r, 0, 0)... rotated by 45 deg.
    EXPECT_NEAR(contactDistance(solid, vec3(std::sqrt(0.5f), 0, -std::sqrt(0.5f)) * 1.5f), 0.5f, 1e-5f);
}

TEST(ContactGeometry, SphereSolidAndHole) {
    RigidBody ball;
    ball.shape = makeSphereShape(0.5f, false);
    ball.position = vec3(1, 0, 0);
    finalizeBodyMass(ball);
    vec3 n;
    EXPECT_NEAR(contactDistance(ball, vec3(1, 0.8f, 0), &n), 0.3f, 1e-6f);
    EXPECT_NEAR(n.y, 1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(ball, vec3(1.2f, 0, 0)), -0.3f, 1e-6f);
    RigidBody bowl;
    bowl.shape = makeSphereShape(0.5f, true);
    bowl.motion = MotionKind::Kinematic;
    finalizeBodyMass(bowl);
    EXPECT_NEAR(contactDistance(bowl, vec3(0.2f, 0, 0), &n), 0.3f, 1e-6f);
    EXPECT_NEAR(n.x, -1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(bowl, vec3(0, -0.9f, 0)), -0.4f, 1e-6f);
}

// --- wall-normal components (what poisoning removes at walls) ------------------------------------

TEST(Poisoning, ComponentRemovalIsOrderIndependent) {
    const vec3 g(0.3f, -1.2f, 2.0f);
    const vec3 a = glm::normalize(vec3(1, 0.2f, 0)), b = glm::normalize(vec3(0.1f, 1, 0));
    const vec3 ab[] = {a, b, a}, ba[] = {b, a, b};
    const vec3 r1 = removeNormalComponents(g, ab, 3), r2 = removeNormalComponents(g, ba, 3);
    EXPECT_NEAR(glm::length(r1 - r2), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(r1, a), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(r1, b), 0.0f, 1e-5f);
    EXPECT_NEAR(r1.z, 2.0f, 1e-5f);
}

// --- kinematic motion -------------------------------------------------------------------------

TEST(KinematicMotion, OscillatesAndRotatesAboutTheRestPose) {
    RigidBody body = makeBody(makeBoxShape(vec3(1.0f), true), 1.0f, vec3(0, 1, 0), MotionKind::Kinematic);
    body.kinematic.amplitude = vec3(0.3f, 0, 0);
    body.kinematic.angularAmplitude = vec3(0, 0, 0.2f);
    body.kinematic.period = 2.0f;
    std::vector<RigidBody> bodies{body};
    integrateBodies(bodies, 0.5, 0.01f);  // quarter period: full swing
    EXPECT_NEAR(bodies[0].position.x, 0.3f, 1e-6f);
    EXPECT_NEAR(bodies[0].position.y, 1.0f, 1e-6f);
    EXPECT_NEAR(glm::angle(bodies[0].orientation), 0.2f, 1e-5f);
    EXPECT_NEAR(glm::length(bodies[0].velocity), 0.0f, 1e-6f);
    integrateBodies(bodies, 1.0, 0.01f);  // half period: back through the rest pose at full speed
    EXPECT_NEAR(bodies[0].position.x, 0.0f, 1e-6f);
    EXPECT_NEAR(bodies[0].velocity.x, -0.3f * kPi, 1e-5f);
    EXPECT_NEAR(bodies[0].angularVelocity.z, -0.2f * kPi, 1e-5f);
    EXPECT_EQ(bodies[0].inverseMass, 0.0f);
}

TEST(KinematicMotion, AccelerationIsTheSecondDerivativeOfThePath) {
    // x = A sin(2 pi t / T) + v t: a = -A (2 pi / T)^2 sin(2 pi t / T), the drift adds none.
    RigidBody body = makeBody(makeBoxShape(vec3(1.0f), true), 1.0f, vec3(0.0f), MotionKind::Kinematic);
    body.kinematic.amplitude = vec3(0.1f, 0.0f, 0.05f);
    body.kinematic.velocity = vec3(0.0f, 0.3f, 0.0f);
    body.kinematic.period = 1.6f;
    const double omega = 2.0 * M_PI / 1.6;
    // Up to 1.5 m/s^2 returned in single precision: good to a few 1e-7.
    for (double t : {0.0, 0.2, 0.4, 1.1}) {
        const vec3 a = kinematicAcceleration(body, t);
        EXPECT_NEAR(a.x, -0.1 * omega * omega * std::sin(omega * t), 1e-5);
        EXPECT_NEAR(a.y, 0.0, 1e-6);
        EXPECT_NEAR(a.z, -0.05 * omega * omega * std::sin(omega * t), 1e-5);
    }
    body.kinematic.period = 0.0f;  // a fixed pose, or a steady drift
    EXPECT_EQ(kinematicAcceleration(body, 0.7), vec3(0.0f));
}

TEST(KinematicMotion, DriftsWithItsInitialVelocity) {
    RigidBody body;
    body.shape = makeSphereShape(0.2f, false);
    body.motion = MotionKind::Kinematic;
    body.velocity = vec3(1.0f, 0.0f, 0.0f);
    finalizeBodyMass(body);
    std::vector<RigidBody> bodies{body};
    integrateBodies(bodies, 2.0, 0.01f);
    EXPECT_NEAR(bodies[0].position.x, 2.0f, 1e-6f);
    EXPECT_NEAR(bodies[0].velocity.x, 1.0f, 1e-6f);
}

// --- bodies inside containers --------------------------------------------------------------

// Drops (and throws) a dynamic body inside a container under gravity with no fluid, for `steps`
// steps of 0.01 s; returns the largest distance any of its points got outside the cavity.
float worstEscape(RigidBody body, RigidBody tank, int steps, RigidBody* finalBody = nullptr, float film = 0.0f) {
    std::vector<RigidBody> bodies{tank, body};
    float worst = 0.0f;
    for (int s = 1; s <= steps; ++s) {
        bodies[1].force += vec3(0.0f, -9.8f, 0.0f) * bodies[1].mass;
        integrateBodies(bodies, 0.01 * s, 0.01f, film);
        for (const vec3& n :
             {vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0), vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1)}) {
            // Farthest point of the body along n against the tank's face along n (axis-aligned box tank).
            const vec3 local = glm::conjugate(bodies[1].orientation) * n;
            float reach = bodies[1].shape.radius;
            if (bodies[1].shape.kind == ShapeKind::Polytope) {
                reach = -1e30f;
                for (const vec3& v : bodies[1].shape.vertices) reach = std::max(reach, glm::dot(v, local));
            }
            const float face = glm::dot(bodies[0].position, n) + 0.5f;
            worst = std::max(worst, glm::dot(bodies[1].position, n) + reach - face);
        }
    }
    if (finalBody) *finalBody = bodies[1];
    return worst;
}

TEST(BodiesInContainers, FallingBallRestsOnTheFloorAndNeverLeaves) {
    const RigidBody tank = makeBody(makeBoxShape(vec3(0.5f), true), 1.0f, vec3(0.0f), MotionKind::Kinematic);
    RigidBody ball = makeBody(makeSphereShape(0.1f, false), 2.0f, vec3(0.0f, 0.2f, 0.0f));
    ball.velocity = vec3(3.0f, 0.0f, -2.0f);  // thrown at the walls too
    RigidBody final;
    EXPECT_LT(worstEscape(ball, tank, 300, &final), 1e-5f);
    EXPECT_NEAR(final.position.y, -0.4f, 1e-4f) << "rests on the floor";
    EXPECT_LT(std::abs(final.velocity.y), 1e-4f);
}

// With a contact film of 0.1 the ball, thrown at the walls, rests a tenth of its radius above the
// floor.
TEST(BodiesInContainers, ABallRestsOnTheContactFilmAboveTheFloor) {
    const RigidBody tank = makeBody(makeBoxShape(vec3(0.5f), true), 1.0f, vec3(0.0f), MotionKind::Kinematic);
    RigidBody ball = makeBody(makeSphereShape(0.1f, false), 2.0f, vec3(0.0f, 0.2f, 0.0f));
    ball.velocity = vec3(3.0f, 0.0f, -2.0f);
    RigidBody final;
    EXPECT_LT(worstEscape(ball, tank, 300, &final, 0.1f), 1e-5f);
    EXPECT_NEAR(final.position.y, -0.4f + 0.01f, 1e-4f) << "rests on the film";
}

TEST(BodiesInContainers, TiltedBoxStaysInsideAShakenTank) {
    RigidBody tank = makeBody(makeBoxShape(vec3(0.5f), true), 1.0f, vec3(0.0f), MotionKind::Kinematic);
    tank.kinematic.amplitude = vec3(0.2f, 0.0f, 0.0f);
    tank.kinematic.period = 0.5f;
    RigidBody box = makeBody(makeBoxShape(vec3(0.1f, 0.05f, 0.08f), false), 2.0f, vec3(0.0f, 0.1f, 0.0f));
    box.orientation = glm::angleAxis(0.4f, glm::normalize(vec3(1.0f, 2.0f, 0.5f)));
    EXPECT_LT(worstEscape(box, tank, 300), 1e-5f);
}

TEST(BodiesInContainers, BodyOutsideAContainerIsLeftAlone) {
    const RigidBody tank = makeBody(makeBoxShape(vec3(0.5f), true), 1.0f, vec3(0.0f), MotionKind::Kinematic);
    const RigidBody ball = makeBody(makeSphereShape(0.1f, false), 2.0f, vec3(2.0f, 0.0f, 0.0f));
    std::vector<RigidBody> bodies{tank, ball};
    bodies[1].force = vec3(0.0f, -9.8f, 0.0f) * bodies[1].mass;
    integrateBodies(bodies, 0.01, 0.01f);
    EXPECT_FLOAT_EQ(bodies[1].position.x, 2.0f);
    EXPECT_LT(bodies[1].position.y, 0.0f) << "falls freely outside";
}

}  // namespace
}  // namespace vfx
