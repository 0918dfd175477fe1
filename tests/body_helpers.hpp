#pragma once
// Bodies for the body and coupling tests: a body of a shape, density, position and motion with
// its mass properties, a kinematic body drifting at a velocity, and a kinematic box container.
#include "bodies/body.hpp"
#include "bodies/shapes.hpp"

#include <utility>

namespace vfx::test {

inline RigidBody makeBody(CollisionShape shape, float density, vec3 position = vec3(0.0f),
                          MotionKind motion = MotionKind::Dynamic) {
    RigidBody body;
    body.shape = std::move(shape);
    body.density = density;
    body.position = position;
    body.motion = motion;
    finalizeBodyMass(body);
    return body;
}

// A kinematic body drifting at `velocity` (a fixed pose when zero): a moving wall.
inline RigidBody makeMovingBody(CollisionShape shape, const vec3& velocity) {
    RigidBody body;
    body.shape = std::move(shape);
    body.motion = MotionKind::Kinematic;
    body.velocity = velocity;
    finalizeBodyMass(body);
    return body;
}

inline RigidBody makeContainer(const vec3& halfExtents, vec3 position = vec3(0.0f)) {
    RigidBody body;
    body.shape = makeBoxShape(halfExtents, true);
    body.motion = MotionKind::Kinematic;
    body.position = position;
    finalizeBodyMass(body);
    return body;
}

}  // namespace vfx::test
