#pragma once
// Colour of a wall sample by the flow through the wall relative to the fastest flow: green at
// 0.1% or less, yellow at 1% (the no-through-flow target), red at 10% or more, on a log scale.
// Plain data, no OpenGL.
#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>

namespace vfx {

inline glm::vec4 wallFlowColour(float normalSpeed, float maxSpeed) {
    const float ratio = normalSpeed / std::max(maxSpeed, 1e-12f);
    // -3 (0.1%) .. -1 (10%) mapped to 0 .. 1
    const float t = std::clamp((std::log10(std::max(ratio, 1e-12f)) + 3.0f) * 0.5f, 0.0f, 1.0f);
    const glm::vec3 green(0.2f, 0.85f, 0.3f), yellow(1.0f, 0.9f, 0.2f), red(1.0f, 0.2f, 0.15f);
    const glm::vec3 c = t < 0.5f ? glm::mix(green, yellow, t * 2.0f) : glm::mix(yellow, red, t * 2.0f - 1.0f);
    return glm::vec4(c, 0.9f);
}

}  // namespace vfx
