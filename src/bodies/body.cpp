// Rigid-body frame transforms. (CollisionShape::volume lives in shapes.cpp, next to the
// polytope mass properties it reuses.)
#include "bodies/body.hpp"

namespace vfx {

const std::vector<std::string>& EnumNames<MotionKind>::names() {
    static const std::vector<std::string> n{"dynamic", "kinematic"};
    return n;
}

vec3 RigidBody::toLocal(const vec3& world) const { return glm::conjugate(orientation) * (world - position); }

vec3 RigidBody::toWorld(const vec3& local) const { return orientation * local + position; }

}  // namespace vfx
