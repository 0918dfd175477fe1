#pragma once
// Orbit camera for the demo: looks at a target from a distance, yaw about +y and pitch above
// the horizon. Pure math (no OpenGL) so tests can check picking and framing.
#include <glm/glm.hpp>

namespace vfx {

struct Ray {
    glm::vec3 origin{0.0f};
    glm::vec3 direction{0.0f, 0.0f, -1.0f};  // unit length
};

struct CameraPose {
    glm::vec3 target{0.0f};
    float distance = 5.0f;
    float yawDegrees = 30.0f;
    float pitchDegrees = 20.0f;
};

class OrbitCamera {
public:
    void setHome(const CameraPose& pose) {
        home_ = pose;
        pose_ = pose;
    }
    void resetToHome() { pose_ = home_; }
    const CameraPose& pose() const { return pose_; }
    CameraPose& pose() { return pose_; }

    // Viewport in framebuffer pixels. lensShiftPixels moves the image centre right by that
    // many pixels so the target sits in the middle of the part not covered by the side panel.
    void setViewport(int width, int height, float lensShiftPixels = 0.0f);
    int viewportWidth() const { return width_; }
    int viewportHeight() const { return height_; }

    // Mouse drags in pixels.
    void orbit(float dxPixels, float dyPixels);
    void pan(float dxPixels, float dyPixels);
    // Positive steps move closer; the distance changes geometrically so it feels the same at
    // any scale.
    void zoom(float steps);
    // Places the target at the box centre and backs off until the box's bounding sphere fits.
    void frameBox(const glm::vec3& lo, const glm::vec3& hi);

    glm::vec3 eye() const;
    glm::vec3 forward() const;  // unit, from eye to target
    glm::mat4 view() const;
    glm::mat4 projection() const;
    float verticalFovRadians() const { return fovY_; }
    // World-space ray through a framebuffer pixel (origin top-left, y down).
    Ray rayThroughPixel(float px, float py) const;
    // World-space length of one pixel at the given distance from the eye.
    float worldPerPixel(float depth) const;

private:
    CameraPose home_;
    CameraPose pose_;
    int width_ = 1280;
    int height_ = 800;
    float lensShift_ = 0.0f;
    float fovY_ = glm::radians(40.0f);
};

}  // namespace vfx
