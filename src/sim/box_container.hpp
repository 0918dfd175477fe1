#pragma once
// The container the box velocity solver (fluid.velocity_solver "box") works in: the scene's one
// container, a box whose faces stay normal to the world axes (it may translate, not rotate).
#include "bodies/body.hpp"
#include "sim/box_vortex_in_cell.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vfx {

struct BoxContainer {
    AxisBox box;          // the cavity in world coordinates, m
    vec3 velocity{0.0f};  // of its walls, m/s
    size_t body = 0;      // index in the bodies
};

// The box container among `bodies`, or nothing with `why` saying what is missing.
std::optional<BoxContainer> findBoxContainer(const std::vector<RigidBody>& bodies, std::string* why = nullptr);
// The same, or std::invalid_argument naming fluid.velocity_solver and what is missing.
BoxContainer requireBoxContainer(const std::vector<RigidBody>& bodies);

}  // namespace vfx
