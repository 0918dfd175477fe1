// A rigid body's frame (bodies/body.hpp): local and world coordinates are inverse transforms.
#include "bodies/body.hpp"
#include "body_helpers.hpp"

#include <gtest/gtest.h>

namespace vfx {
namespace {

using test::makeBody;

TEST(BodyFrames, LocalAndWorldAreInverse) {
    RigidBody body = makeBody(makeBoxShape(vec3(1.0f), false), 1.0f, vec3(1, 2, 3));
    body.orientation = glm::angleAxis(0.7f, glm::normalize(vec3(1, 2, -1)));
    const vec3 p(0.3f, -4.0f, 2.5f);
    const vec3 back = body.toWorld(body.toLocal(p));
    EXPECT_NEAR(glm::length(back - p), 0.0f, 1e-5f);
    body.orientation = glm::angleAxis(kPi / 2.0f, vec3(0, 0, 1));
    const vec3 local = body.toLocal(vec3(1, 3, 3));  // one unit along world +y from the centre
    EXPECT_NEAR(local.x, 1.0f, 1e-5f);
    EXPECT_NEAR(local.y, 0.0f, 1e-5f);
}

}  // namespace
}  // namespace vfx
