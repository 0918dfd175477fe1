// Collision shapes and body material (bodies/shapes.hpp): the factories and their messages for bad
// input, polytopes from planes and from vertices, mass and inertia against the analytic formulas,
// live edits of a body's density and motion, and contact and collision distances in a shape's own
// frame.
#include "bodies/body_motion.hpp"
#include "bodies/shapes.hpp"
#include "body_helpers.hpp"
#include "core/enum_names.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {
namespace {

using test::makeBody;

std::string messageOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

// --- factories and bad input -----------------------------------------------------------------

TEST(BodyShapes, RejectsNonPositiveSizesWithClearMessages) {
    EXPECT_EQ(messageOf([] { makeSphereShape(-1.0f, false); }), "radius must be > 0, got -1");
    EXPECT_NE(messageOf([] { makeSphereShape(0.0f, false); }), "");
    EXPECT_NE(messageOf([] { makeSphereShape(std::nanf(""), false); }), "");
    EXPECT_EQ(messageOf([] { makeBoxShape(vec3(1.0f, 0.0f, 1.0f), false); }),
              "half_extents must all be > 0, got [1, 0, 1]");
    EXPECT_NE(messageOf([] { makeBoxShape(vec3(1.0f, 1.0f, -2.0f), true); }), "");
}

// --- live edits of a body's material (the Bodies panel) ---------------------------------------

// An oscillating, drifting kinematic body at t = 0.3 s, mid-swing (non-zero velocity).
RigidBody swingingKinematicBox() {
    RigidBody body = makeBody(makeBoxShape(vec3(0.2f), false), 2.0f, vec3(1.0f, 0.0f, 0.0f), MotionKind::Kinematic);
    body.kinematic.amplitude = vec3(0.0f, 0.5f, 0.0f);
    body.kinematic.angularAmplitude = vec3(0.0f, 0.0f, 0.3f);
    body.kinematic.period = 2.0f;
    body.kinematic.velocity = vec3(0.1f, 0.0f, 0.0f);
    setKinematicPose(body, 0.3);
    return body;
}

TEST(BodyEdits, DensityEditKeepsAKinematicBodysPath) {
    RigidBody edited = swingingKinematicBox();
    const RigidBody untouched = edited;
    ASSERT_GT(glm::length(edited.velocity), 0.1f);
    EXPECT_EQ(changeBodyMaterial(edited, 5.0f, MotionKind::Kinematic), "");
    EXPECT_FLOAT_EQ(edited.mass, 5.0f * 0.4f * 0.4f * 0.4f);
    RigidBody reference = untouched;
    for (double t : {0.5, 1.7, 4.0}) {
        setKinematicPose(edited, t);
        setKinematicPose(reference, t);
        EXPECT_EQ(edited.position, reference.position) << "t = " << t;
        EXPECT_EQ(edited.velocity, reference.velocity) << "t = " << t;
        EXPECT_EQ(edited.orientation, reference.orientation) << "t = " << t;
    }
}

TEST(BodyEdits, DensityEditKeepsADynamicBodysMotion) {
    RigidBody body = makeBody(makeSphereShape(0.2f, false), 2.0f, vec3(0.0f, 1.0f, 0.0f));
    body.position = vec3(0.3f, 0.4f, 0.5f);
    body.velocity = vec3(0.0f, -1.2f, 0.0f);
    const vec3 rest = body.restPosition;
    EXPECT_EQ(changeBodyMaterial(body, 0.5f, MotionKind::Dynamic), "");
    EXPECT_EQ(body.position, vec3(0.3f, 0.4f, 0.5f));
    EXPECT_EQ(body.velocity, vec3(0.0f, -1.2f, 0.0f));
    EXPECT_EQ(body.restPosition, rest);
    EXPECT_FLOAT_EQ(body.inverseMass, 1.0f / (0.5f * sphereVolume(0.2f)));
}

TEST(BodyEdits, ABodyMadeKinematicHoldsWhereItIs) {
    RigidBody body = makeBody(makeSphereShape(0.2f, false), 2.0f);
    body.kinematic.amplitude = vec3(0.3f, 0.0f, 0.0f);
    body.kinematic.period = 1.0f;
    body.clock = 0.2;
    body.position = vec3(0.7f, -0.4f, 0.1f);
    body.velocity = vec3(0.0f, -2.0f, 0.0f);
    EXPECT_EQ(changeBodyMaterial(body, 2.0f, MotionKind::Kinematic), "");
    EXPECT_EQ(body.inverseMass, 0.0f);
    setKinematicPose(body, 0.2);
    EXPECT_NEAR(glm::length(body.position - vec3(0.7f, -0.4f, 0.1f)), 0.0f, 1e-6f);
    setKinematicPose(body, 1.2);  // a period later: back at the same point, no drift
    EXPECT_NEAR(glm::length(body.position - vec3(0.7f, -0.4f, 0.1f)), 0.0f, 1e-5f);
}

TEST(BodyEdits, AContainerCannotBeMadeDynamicAndNothingChanges) {
    RigidBody tank = makeBody(makeBoxShape(vec3(1.0f), true), 1.0f, vec3(0.0f), MotionKind::Kinematic);
    const float mass = tank.mass;
    std::string message;
    EXPECT_NO_THROW(message = changeBodyMaterial(tank, 3.0f, MotionKind::Dynamic));
    EXPECT_EQ(message, "a container (hole: true) must have motion \"kinematic\"");
    EXPECT_EQ(tank.motion, MotionKind::Kinematic);
    EXPECT_EQ(tank.mass, mass);
    EXPECT_EQ(changeBodyMaterial(tank, 0.0f, MotionKind::Kinematic), "density must be > 0, got 0");
}

TEST(BodyShapes, RejectsBadDensityMotionAndDynamicContainers) {
    EXPECT_EQ(messageOf([] { makeBody(makeSphereShape(1.0f, false), 0.0f); }), "density must be > 0, got 0");
    EXPECT_NE(messageOf([] { makeBody(makeSphereShape(1.0f, false), -2.0f); }), "");
    EXPECT_EQ(messageOf([] { enumFromName<MotionKind>("floating"); }),
              "must be one of dynamic, kinematic, got \"floating\"");
    EXPECT_EQ(enumFromName<MotionKind>("kinematic"), MotionKind::Kinematic);
    EXPECT_EQ(enumFromName<MotionKind>("dynamic"), MotionKind::Dynamic);
    EXPECT_NE(messageOf([] { makeBody(makeBoxShape(vec3(1.0f), true), 1.0f); }), "");
    EXPECT_EQ(messageOf([] { makeBody(makeBoxShape(vec3(1.0f), true), 1.0f, vec3(0.0f), MotionKind::Kinematic); }), "");
    EXPECT_NE(messageOf([] {
                  RigidBody b;
                  b.shape = makeSphereShape(1.0f, false);
                  b.motion = MotionKind::Kinematic;
                  b.kinematic.period = -1.0f;
                  finalizeBodyMass(b);
              }),
              "");
}

TEST(BodyShapes, RejectsPlaneSetsThatDoNotBoundAConvexRegion) {
    const auto plane = [](vec3 n, float d) { return Plane{n, d}; };
    // zero normal
    EXPECT_EQ(messageOf([&] {
                  makePolytopeFromPlanes({plane({1, 0, 0}, 1), plane({0, 0, 0}, 1), plane({0, 1, 0}, 1),
                                          plane({0, 0, 1}, 1), plane({-1, -1, -1}, 1)},
                                         false);
              }),
              "plane 1 has a zero normal");
    // a slab and a half space: open along y and z
    const std::string open = messageOf([&] {
        makePolytopeFromPlanes({plane({1, 0, 0}, 1), plane({-1, 0, 0}, 1), plane({0, 1, 0}, 1), plane({0, 0, 1}, 1)},
                               false);
    });
    EXPECT_NE(open.find("do not bound a finite region"), std::string::npos) << open;
    // a box missing its bottom face: open downward
    const std::string noBottom = messageOf([&] {
        makePolytopeFromPlanes(
            {plane({1, 0, 0}, 1), plane({-1, 0, 0}, 1), plane({0, 1, 0}, 1), plane({0, 0, 1}, 1), plane({0, 0, -1}, 1)},
            false);
    });
    EXPECT_NE(noBottom.find("do not bound a finite region"), std::string::npos) << noBottom;
    // contradictory: x <= -1 and x >= 1
    const std::string empty = messageOf([&] {
        makePolytopeFromPlanes({plane({1, 0, 0}, -1), plane({-1, 0, 0}, -1), plane({0, 1, 0}, 1), plane({0, -1, 0}, 1),
                                plane({0, 0, 1}, 1), plane({0, 0, -1}, 1)},
                               false);
    });
    EXPECT_NE(empty.find("empty or flat"), std::string::npos) << empty;
    EXPECT_NE(messageOf([&] { makePolytopeFromPlanes({plane({1, 0, 0}, 1)}, false); }), "");
}

TEST(BodyShapes, PolytopeFromPlanesNormalisesAndFindsCorners) {
    // Corner tetrahedron x, y, z >= 0, x + y + z <= 1, normals given unnormalised.
    const CollisionShape s = makePolytopeFromPlanes(
        {{vec3(-2, 0, 0), 0.0f}, {vec3(0, -3, 0), 0.0f}, {vec3(0, 0, -1), 0.0f}, {vec3(1, 1, 1), 1.0f}}, false);
    EXPECT_EQ(s.kind, ShapeKind::Polytope);
    EXPECT_EQ(s.vertices.size(), 4u);
    EXPECT_NEAR(s.volume(), 1.0f / 6.0f, 1e-6f);
    for (const Plane& p : s.planes) EXPECT_NEAR(glm::length(p.normal), 1.0f, 1e-6f);
    EXPECT_NEAR(s.planes[3].d, 1.0f / std::sqrt(3.0f), 1e-6f);
    // inscribed sphere about the vertex centroid (1/4, 1/4, 1/4): nearest face is x+y+z=1
    EXPECT_NEAR(s.inscribedRadius, 0.25f / std::sqrt(3.0f), 1e-6f);
}

TEST(BodyShapes, PolytopeFromVerticesBuildsTheConvexHull) {
    std::vector<vec3> cube;
    for (int i = 0; i < 8; ++i) cube.push_back(vec3(i & 1 ? 1 : -1, i & 2 ? 2 : -2, i & 4 ? 0.5f : -0.5f));
    cube.push_back(vec3(0.1f, 0.2f, 0.0f));  // interior point: not a corner
    const CollisionShape s = makePolytopeFromVertices(cube, false);
    EXPECT_EQ(s.planes.size(), 6u);
    EXPECT_EQ(s.vertices.size(), 8u);
    EXPECT_NEAR(s.volume(), 8.0f, 1e-4f);
    EXPECT_NEAR(s.circumscribedRadius, std::sqrt(1.0f + 4.0f + 0.25f), 1e-4f);
    EXPECT_NEAR(s.inscribedRadius, 0.5f, 1e-5f);
    EXPECT_NE(messageOf([] { makePolytopeFromVertices({vec3(0), vec3(1, 0, 0), vec3(0, 1, 0)}, false); }), "");
    EXPECT_NE(
        messageOf([] {
            makePolytopeFromVertices({vec3(0), vec3(1, 0, 0), vec3(0, 1, 0), vec3(1, 1, 0), vec3(2, 3, 0)}, false);
        }).find("coplanar"),
        std::string::npos);
}

TEST(BodyShapes, MassAndInertiaMatchAnalyticFormulas) {
    const vec3 h(0.5f, 1.0f, 1.5f);
    const RigidBody box = makeBody(makeBoxShape(h, false), 2.0f);
    const float mass = 2.0f * 8.0f * h.x * h.y * h.z;
    EXPECT_NEAR(box.mass, mass, 1e-4f);
    EXPECT_NEAR(box.inverseMass, 1.0f / mass, 1e-6f);
    const mat3 inertia = glm::inverse(box.inverseInertiaLocal);
    EXPECT_NEAR(inertia[0][0], mass / 3.0f * (h.y * h.y + h.z * h.z), 1e-3f);
    EXPECT_NEAR(inertia[1][1], mass / 3.0f * (h.x * h.x + h.z * h.z), 1e-3f);
    EXPECT_NEAR(inertia[2][2], mass / 3.0f * (h.x * h.x + h.y * h.y), 1e-3f);
    EXPECT_NEAR(inertia[0][1], 0.0f, 1e-4f);
    const RigidBody ball = makeBody(makeSphereShape(0.5f, false), 3.0f);
    EXPECT_NEAR(ball.mass, 3.0f * sphereVolume(0.5f), 1e-5f);
    EXPECT_NEAR(1.0f / ball.inverseInertiaLocal[1][1], 0.4f * ball.mass * 0.25f, 1e-5f);
    const RigidBody still = makeBody(makeSphereShape(0.5f, false), 3.0f, vec3(0.0f), MotionKind::Kinematic);
    EXPECT_EQ(still.inverseMass, 0.0f);
}

// --- contact and collision distances in the shape's frame ----------------------------------------

TEST(ContactGeometry, TetrahedronFromVertices) {
    // Corner tetrahedron: faces x = 0, y = 0, z = 0 and x + y + z = 1.
    const CollisionShape tet = makePolytopeFromVertices({vec3(0), vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1)}, false);
    vec3 n;
    EXPECT_NEAR(shapeContactDistance(tet, vec3(0.1f, 0.2f, 0.3f), &n), -0.1f, 1e-6f);  // nearest face x = 0
    EXPECT_NEAR(n.x, -1.0f, 1e-6f);
    EXPECT_NEAR(shapeContactDistance(tet, vec3(1, 1, 1), &n), 2.0f / std::sqrt(3.0f), 1e-6f);
    EXPECT_NEAR(n.y, 1.0f / std::sqrt(3.0f), 1e-6f);
}

TEST(ContactGeometry, CollisionDistanceOfMovingPoints) {
    const CollisionShape solid = makeBoxShape(vec3(1, 2, 3), false);
    vec3 n;
    int face = -1;
    // Just inside the +x face but moving out through it: it came in through the -x face.
    EXPECT_NEAR(shapeCollisionDistance(solid, vec3(0.9f, 0, 0), vec3(1, 0, 0), &n, &face), -1.9f, 1e-6f);
    EXPECT_NEAR(n.x, -1.0f, 1e-6f);
    // Moving deeper through +x: the +x face.
    EXPECT_NEAR(shapeCollisionDistance(solid, vec3(0.9f, 0, 0), vec3(-1, 0, 0), &n), -0.1f, 1e-6f);
    EXPECT_NEAR(n.x, 1.0f, 1e-6f);
    // Holes ignore velocity: an escaped point always goes back in through the face it is beyond.
    const CollisionShape hole = makeBoxShape(vec3(1, 2, 3), true);
    for (vec3 v : {vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 5, 0)}) {
        EXPECT_NEAR(shapeCollisionDistance(hole, vec3(1.5f, 0, 0), v, &n), -0.5f, 1e-6f);
        EXPECT_NEAR(n.x, -1.0f, 1e-6f);
    }
}

TEST(ContactGeometry, EscapedPointsGoBackInsideThroughEveryFace) {
    const CollisionShape hole = makeBoxShape(vec3(1, 2, 3), true);
    const float margin = collisionMargin(hole);
    vec3 p(1.5f, 2.5f, 0.2f);  // beyond a corner edge: outside two faces
    const vec3 normals = moveInsideHole(hole, p, margin);
    EXPECT_NEAR(p.x, 1.0f - margin, 1e-6f);
    EXPECT_NEAR(p.y, 2.0f - margin, 1e-6f);
    EXPECT_NEAR(p.z, 0.2f, 1e-6f);
    EXPECT_NEAR(normals.x, -1.0f, 1e-6f);
    EXPECT_NEAR(normals.y, -1.0f, 1e-6f);
    // An oblique wedge: a tetrahedral hole.
    const CollisionShape tet = makePolytopeFromVertices({vec3(0), vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1)}, true);
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> unit(-3.0f, 3.0f);
    for (int i = 0; i < 1000; ++i) {
        vec3 q(unit(rng), unit(rng), unit(rng));
        moveInsideHole(tet, q, collisionMargin(tet));
        EXPECT_GE(shapeContactDistance(tet, q), 0.0f) << i;
    }
}

}  // namespace
}  // namespace vfx
