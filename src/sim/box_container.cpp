#include "sim/box_container.hpp"

#include <cmath>
#include <stdexcept>

namespace vfx {

namespace {

// The axis a unit vector lies along (its other components below 1e-6, a micro-radian: a box
// turned by more, as a rocking tank passing upright, is solved in its own frame), or -1.
int axisOf(const vec3& n) {
    for (int a = 0; a < 3; ++a)
        if (std::abs(n[(a + 1) % 3]) < 1e-6f && std::abs(n[(a + 2) % 3]) < 1e-6f) return a;
    return -1;
}

// The cavity of a container in the frame `frame` (world = origin + frame * x), when its six faces
// are normal to that frame's axes.
std::optional<AxisBox> cavityInFrame(const RigidBody& body, const vec3& origin, const quat& frame) {
    if (body.shape.kind != ShapeKind::Polytope || body.shape.planes.size() != 6) return std::nullopt;
    const quat toFrame = glm::conjugate(frame);
    AxisBox box{vec3(1e30f), vec3(-1e30f)};
    for (const Plane& plane : body.shape.planes) {
        const vec3 n = toFrame * (body.orientation * plane.normal);
        const int a = axisOf(n);
        if (a < 0) return std::nullopt;
        const float at = (toFrame * (body.toWorld(plane.normal * plane.d) - origin))[a];
        if (n[a] > 0.0f)
            box.hi[a] = at;
        else
            box.lo[a] = at;
    }
    for (int a = 0; a < 3; ++a)
        if (!(box.lo[a] < box.hi[a]) || box.hi[a] > 1e29f) return std::nullopt;
    return box;
}

}  // namespace

std::optional<BoxContainer> findBoxContainer(const std::vector<RigidBody>& bodies, std::string* why) {
    auto fail = [&](const std::string& reason) {
        if (why) *why = reason;
        return std::nullopt;
    };
    std::optional<BoxContainer> found;
    for (size_t i = 0; i < bodies.size(); ++i) {
        const RigidBody& body = bodies[i];
        if (!body.isHole()) continue;
        if (found) return fail("exactly one container, got two or more");
        const std::string label = "container \"" + body.name + "\"";
        if (body.motion != MotionKind::Kinematic) return fail(label + " to be kinematic");
        // Faces normal to the world axes: the world's frame; else the box's own, tilted.
        BoxContainer container;
        container.velocity = body.velocity;
        container.angularVelocity = body.angularVelocity;
        container.pivot = body.position;
        container.body = i;
        std::optional<AxisBox> cavity = cavityInFrame(body, container.origin, container.orientation);
        if (!cavity) {
            container.origin = body.position;
            container.orientation = body.orientation;
            cavity = cavityInFrame(body, container.origin, container.orientation);
        }
        if (!cavity) return fail(label + " to be a box (six faces at right angles)");
        container.box = *cavity;
        found = container;
    }
    if (!found) return fail("a container that is a box (\"hole\": true), got none");
    return found;
}

BoxContainer requireBoxContainer(const std::vector<RigidBody>& bodies) {
    std::string why;
    const std::optional<BoxContainer> container = findBoxContainer(bodies, &why);
    if (!container) throw std::invalid_argument("fluid.velocity_solver \"box\" needs " + why);
    return *container;
}

}  // namespace vfx
