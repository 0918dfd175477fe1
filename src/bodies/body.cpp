// Rigid-body frame transforms. (CollisionShape::volume lives in shapes.cpp, next to the
// polytope mass properties it reuses.)
#include "bodies/body.hpp"

namespace vfx {

vec3 RigidBody::toLocal(const vec3& world) const { return glm::conjugate(orientation) * (world - position); }

vec3 RigidBody::toWorld(const vec3& local) const { return orientation * local + position; }

}  // namespace vfx
