#pragma once
// Small math helpers on top of GLM shared by the whole library.
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>

namespace vfx {

using glm::ivec3;
using glm::mat3;
using glm::quat;
using glm::vec3;
using glm::dvec3;

constexpr float kPi = 3.14159265358979323846f;

inline bool isFinite(const vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

inline float sphereVolume(float radius) { return 4.0f / 3.0f * kPi * radius * radius * radius; }

}  // namespace vfx
