// The demo's orbit camera (render/camera.hpp): rays through pixels, the lens shift of the side
// panel, framing a box, and the pitch kept off the poles.
#include <gtest/gtest.h>

#ifdef VFX_HAVE_DEMO_CORE

#include "render/camera.hpp"

#include <cmath>

namespace vfx {
namespace {

TEST(OrbitCamera, CentreRayLooksAtTheTarget) {
    OrbitCamera cam;
    cam.setHome({glm::vec3(1, 2, 3), 5.0f, 30.0f, 20.0f});
    cam.setViewport(1000, 500);
    Ray ray = cam.rayThroughPixel(500.0f, 250.0f);
    EXPECT_NEAR(glm::length(cam.eye() - glm::vec3(1, 2, 3)), 5.0f, 1e-4f);
    EXPECT_NEAR(glm::dot(ray.direction, cam.forward()), 1.0f, 1e-4f);
}

TEST(OrbitCamera, LensShiftMovesTheTargetRight) {
    OrbitCamera cam;
    cam.setHome({glm::vec3(0), 4.0f, 0.0f, 0.0f});
    cam.setViewport(1000, 500, 100.0f);
    glm::vec4 clip = cam.projection() * cam.view() * glm::vec4(0, 0, 0, 1);
    float px = (clip.x / clip.w * 0.5f + 0.5f) * 1000.0f;
    EXPECT_NEAR(px, 600.0f, 0.5f);
    Ray ray = cam.rayThroughPixel(600.0f, 250.0f);
    EXPECT_NEAR(glm::dot(ray.direction, cam.forward()), 1.0f, 1e-4f);
}

TEST(OrbitCamera, FramingFitsTheBoxAndPitchStaysOffThePoles) {
    OrbitCamera cam;
    cam.setViewport(1280, 800);
    glm::vec3 lo(-1, 0, -2), hi(3, 1, 2);
    cam.frameBox(lo, hi);
    glm::mat4 vp = cam.projection() * cam.view();
    for (int c = 0; c < 8; ++c) {
        glm::vec3 p((c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z);
        glm::vec4 clip = vp * glm::vec4(p, 1);
        EXPECT_LE(std::abs(clip.x / clip.w), 1.0f);
        EXPECT_LE(std::abs(clip.y / clip.w), 1.0f);
    }
    cam.orbit(0.0f, 1e6f);
    EXPECT_LT(cam.pose().pitchDegrees, 90.0f);
    float before = cam.pose().distance;
    cam.zoom(1.0f);
    EXPECT_LT(cam.pose().distance, before);
}

}  // namespace
}  // namespace vfx

#endif
