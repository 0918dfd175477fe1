#pragma once
// Small math helpers on top of GLM shared by the whole library.
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <cstddef>

namespace vfx {

using glm::dmat3;
using glm::dvec3;
using glm::ivec3;
using glm::mat3;
using glm::quat;
using glm::vec3;
using glm::vec4;

constexpr float kPi = 3.14159265358979323846f;
constexpr double kPiDouble = 3.141592653589793;

inline bool isFinite(const vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Orthonormal basis (Gram-Schmidt in the given order) of the span of some directions; repeats
// and near-repeats are skipped. Returns its size (0..3).
inline int orthonormalSpan(const vec3* directions, size_t count, vec3 basis[3]) {
    int size = 0;
    for (size_t i = 0; i < count && size < 3; ++i) {
        vec3 u = directions[i];
        for (int k = 0; k < size; ++k) u -= glm::dot(u, basis[k]) * basis[k];
        const float len = glm::length(u);
        if (len > 1e-3f) basis[size++] = u / len;
    }
    return size;
}

// v minus its components along an orthonormal basis.
inline vec3 removeAlongBasis(vec3 v, const vec3 basis[3], int size) {
    for (int k = 0; k < size; ++k) v -= glm::dot(v, basis[k]) * basis[k];
    return v;
}

inline float sphereVolume(float radius) { return 4.0f / 3.0f * kPi * radius * radius * radius; }

}  // namespace vfx
