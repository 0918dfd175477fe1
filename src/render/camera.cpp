#include "render/camera.hpp"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {
constexpr float kOrbitDegreesPerPixel = 0.3f;
constexpr float kMaxPitch = 89.0f;  // stay off the poles so the up vector stays defined
constexpr float kMinDistance = 1e-3f;
constexpr float kNear = 0.01f;  // relative to the orbit distance
constexpr float kFar = 100.0f;
}  // namespace

void OrbitCamera::setViewport(int width, int height, float lensShiftPixels) {
    width_ = std::max(width, 1);
    height_ = std::max(height, 1);
    lensShift_ = lensShiftPixels;
}

void OrbitCamera::orbit(float dxPixels, float dyPixels) {
    pose_.yawDegrees = std::fmod(pose_.yawDegrees - dxPixels * kOrbitDegreesPerPixel, 360.0f);
    pose_.pitchDegrees = std::clamp(pose_.pitchDegrees + dyPixels * kOrbitDegreesPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dxPixels, float dyPixels) {
    glm::vec3 f = forward();
    glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
    glm::vec3 up = glm::cross(right, f);
    float scale = worldPerPixel(pose_.distance);
    pose_.target += (-dxPixels * right + dyPixels * up) * scale;
}

void OrbitCamera::zoom(float steps) {
    pose_.distance = std::max(kMinDistance, pose_.distance * std::pow(0.88f, steps));
}

void OrbitCamera::frameBox(const glm::vec3& lo, const glm::vec3& hi) {
    glm::vec3 centre = 0.5f * (lo + hi);
    float radius = std::max(0.5f * glm::length(hi - lo), 1e-3f);
    float aspect = float(width_) / float(height_);
    float halfFov = 0.5f * std::min(fovY_, 2.0f * std::atan(std::tan(0.5f * fovY_) * aspect));
    pose_.target = centre;
    pose_.distance = radius / std::sin(halfFov) * 1.05f;
}

glm::vec3 OrbitCamera::forward() const {
    float yaw = glm::radians(pose_.yawDegrees);
    float pitch = glm::radians(pose_.pitchDegrees);
    // yaw 0 looks along -z (eye on +z), yaw grows counter-clockwise seen from above.
    glm::vec3 fromTarget(std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch));
    return -fromTarget;
}

glm::vec3 OrbitCamera::eye() const { return pose_.target - forward() * pose_.distance; }

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), pose_.target, glm::vec3(0, 1, 0)); }

glm::mat4 OrbitCamera::projection() const {
    float aspect = float(width_) / float(height_);
    glm::mat4 p = glm::perspective(fovY_, aspect, kNear * pose_.distance, kFar * pose_.distance);
    // Lens shift: translate the image in normalised device coordinates.
    p[2][0] -= 2.0f * lensShift_ / float(width_);
    return p;
}

Ray OrbitCamera::rayThroughPixel(float px, float py) const {
    float ndcX = 2.0f * px / float(width_) - 1.0f;
    float ndcY = 1.0f - 2.0f * py / float(height_);
    glm::mat4 inv = glm::inverse(projection() * view());
    glm::vec4 nearH = inv * glm::vec4(ndcX, ndcY, -1.0f, 1.0f);
    glm::vec4 farH = inv * glm::vec4(ndcX, ndcY, 1.0f, 1.0f);
    glm::vec3 nearP = glm::vec3(nearH) / nearH.w;
    glm::vec3 farP = glm::vec3(farH) / farH.w;
    return {eye(), glm::normalize(farP - nearP)};
}

float OrbitCamera::worldPerPixel(float depth) const { return 2.0f * depth * std::tan(0.5f * fovY_) / float(height_); }

}  // namespace vfx
