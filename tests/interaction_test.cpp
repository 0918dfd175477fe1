// Picking, dragging and stirring in the demo (app/demo/interaction.hpp): the nearest solid is
// picked and containers skipped, a dragged body heads for the mouse, and a stir stroke pushes
// along itself without net circulation.
#include <gtest/gtest.h>

#ifdef VFX_HAVE_DEMO_CORE

#include "app/demo/interaction.hpp"
#include "bodies/shapes.hpp"

#include <utility>
#include <vector>

namespace vfx {
namespace {

RigidBody bodyWith(CollisionShape shape, glm::vec3 position) {
    RigidBody b;
    b.shape = std::move(shape);
    b.position = b.restPosition = position;
    return b;
}

TEST(Interaction, PicksTheNearestSolidAndSkipsContainers) {
    std::vector<RigidBody> bodies;
    bodies.push_back(bodyWith(makeBoxShape(glm::vec3(3.0f), true), glm::vec3(0)));          // tank around everything
    bodies.push_back(bodyWith(makeSphereShape(0.5f, false), glm::vec3(0, 0, -1)));          // far ball
    bodies.push_back(bodyWith(makeBoxShape(glm::vec3(0.25f), false), glm::vec3(0, 0, 1)));  // near box
    Ray ray{glm::vec3(0, 0, 5), glm::vec3(0, 0, -1)};
    BodyHit hit = pickBody(ray, bodies, false);
    EXPECT_EQ(hit.body, 2);
    EXPECT_NEAR(hit.distance, 3.75f, 1e-4f);
    EXPECT_EQ(pickBody(ray, bodies, true).body, 0);
    EXPECT_EQ(pickBody(Ray{glm::vec3(2, 2, 5), glm::vec3(0, 0, -1)}, bodies, false).body, -1);
}

TEST(Interaction, DraggingMovesTheBodyTowardsTheMouse) {
    RigidBody ball = bodyWith(makeSphereShape(0.5f, false), glm::vec3(0));
    Ray ray{glm::vec3(0, 0, 5), glm::vec3(0, 0, -1)};
    BodyHit hit{0, 4.5f};
    BodyDrag drag = beginBodyDrag(hit, ray, glm::vec3(0, 0, -1), ball);
    EXPECT_NEAR(drag.depth, 4.5f, 1e-5f);
    Ray moved{glm::vec3(0, 0, 5), glm::normalize(glm::vec3(0.1f, 0, -1))};
    glm::vec3 target = dragPlanePoint(drag, moved, glm::vec3(0, 0, -1));
    EXPECT_NEAR(target.z, 0.5f, 1e-4f);
    glm::vec3 v = dragVelocity(ball, target, drag, 0.1f, 100.0f);
    EXPECT_GT(v.x, 0.0f);
    EXPECT_NEAR(glm::length(dragVelocity(ball, target + glm::vec3(100, 0, 0), drag, 0.1f, 2.0f)), 2.0f, 1e-4f);
}

TEST(Interaction, StirringPushesAlongTheStrokeWithoutNetCirculation) {
    Vortons v;
    for (int x = -10; x <= 10; ++x)
        for (int y = -10; y <= 10; ++y)
            for (int z = -3; z <= 3; ++z) v.add(glm::vec3(x, y, z) * 0.05f, glm::vec3(0), 0.05f, 0.0f);
    v.add(glm::vec3(50, 0, 0), glm::vec3(0), 0.05f, 0.0f);  // far away: untouched
    StirStroke stroke;
    stroke.ray = {glm::vec3(0, 0, 5), glm::vec3(0, 0, -1)};
    stroke.velocity = glm::vec3(1, 0, 0);
    stroke.radius = 0.15f;
    size_t touched = stirVortons(v, stroke);
    EXPECT_GT(touched, 100u);
    glm::dvec3 total(0.0);
    double magnitude = 0.0;
    for (const glm::vec3& w : v.vorticity) {
        total += glm::dvec3(w);
        magnitude += glm::length(w);
    }
    EXPECT_GT(magnitude, 0.0);
    EXPECT_LT(glm::length(total), 1e-4 * magnitude);
    EXPECT_EQ(v.vorticity.back(), glm::vec3(0));
    // A jet along +x centred on the ray: u_x falls off upwards, so above it omega_z = -du_x/dy > 0.
    size_t above = v.size() - 1;
    for (size_t i = 0; i < v.size(); ++i)
        if (glm::length(v.position[i] - glm::vec3(0, 0.1f, 0)) < 1e-4f) above = i;
    ASSERT_LT(above, v.size() - 1);
    EXPECT_GT(v.vorticity[above].z, 0.0f);
}

}  // namespace
}  // namespace vfx

#endif
