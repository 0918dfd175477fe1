#pragma once
// The container the box velocity solver (fluid.velocity_solver "box") works in: the scene's one
// container, a box, moving as a rigid body (translating, tilted, rotating). The solver works in
// the box's frame at this instant, whose axes are normal to its faces.
#include "bodies/body.hpp"
#include "sim/box_vortex_in_cell.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vfx {

struct BoxContainer {
    AxisBox box;                 // the cavity in the box's frame, m
    vec3 velocity{0.0f};         // of its pivot, m/s
    vec3 angularVelocity{0.0f};  // world, rad/s
    vec3 pivot{0.0f};            // the point it turns about (the body's position), m
    size_t body = 0;             // index in the bodies
    // The box's frame: world = origin + orientation * frame; the world's own frame (no tilt)
    // for a box whose faces are normal to the world axes.
    vec3 origin{0.0f};
    quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
    bool tilted() const { return orientation != quat(1.0f, 0.0f, 0.0f, 0.0f); }
    bool rotating() const { return angularVelocity != vec3(0.0f); }
    vec3 toFrame(const vec3& world) const { return glm::conjugate(orientation) * (world - origin); }
    // The rigid motion of the box at a world point, m/s: what the fluid's normal velocity must
    // match on its walls.
    vec3 rigidVelocity(const vec3& world) const { return velocity + glm::cross(angularVelocity, world - pivot); }
};

// The box container among `bodies`, or nothing with `why` saying what is missing.
std::optional<BoxContainer> findBoxContainer(const std::vector<RigidBody>& bodies, std::string* why = nullptr);
// The same, or std::invalid_argument naming fluid.velocity_solver and what is missing.
BoxContainer requireBoxContainer(const std::vector<RigidBody>& bodies);

}  // namespace vfx
