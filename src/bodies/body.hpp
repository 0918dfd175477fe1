#pragma once
// Rigid bodies and their collision shapes (Gourlay parts 4, 13, 14).
// Shapes live in the body's local frame; planes are n.x = d with outward unit normals n.
#include "core/enum_names.hpp"
#include "core/math.hpp"

#include <string>
#include <vector>

namespace vfx {

struct Plane {
    vec3 normal{0.0f, 1.0f, 0.0f};
    float d = 0.0f;
    float distance(const vec3& p) const { return glm::dot(normal, p) - d; }
};

enum class ShapeKind { Sphere, Polytope };

struct CollisionShape {
    ShapeKind kind = ShapeKind::Sphere;
    float radius = 0.5f;               // sphere radius
    std::vector<Plane> planes;         // polytope faces (local frame)
    std::vector<vec3> vertices;        // polytope corners (local frame), for drawing and bounds
    bool hole = false;                 // true: a container; fluid lives inside
    float circumscribedRadius = 0.0f;  // broad phase for solids
    float inscribedRadius = 0.0f;      // broad phase for holes
    vec3 centre{0.0f};                 // local centre of both broad-phase spheres (set by the factories)
    float cachedVolume = 0.0f;         // polytope volume, set by the factories (0 = compute on demand)

    bool isHole() const { return hole; }
    float parity() const { return hole ? -1.0f : 1.0f; }
    float volume() const;  // of the solid region (for holes: the cavity)
};

enum class MotionKind { Dynamic, Kinematic };
template <>
struct EnumNames<MotionKind> {
    static const std::vector<std::string>& names();
};  // dynamic, kinematic

// Prescribed motion of a kinematic body: rest pose plus a sinusoidal offset and rotation.
struct KinematicMotion {
    vec3 amplitude{0.0f};         // m
    vec3 angularAmplitude{0.0f};  // rad about x, y, z
    float period = 0.0f;          // s; 0 = fixed pose
    vec3 velocity{0.0f};          // m/s constant drift added to the oscillation (the body's initial velocity)
};

struct RigidBody {
    std::string name;
    CollisionShape shape;
    MotionKind motion = MotionKind::Dynamic;
    KinematicMotion kinematic;
    float density = 1.0f;  // kg/m^3 (of the body material)
    float mass = 1.0f;
    float inverseMass = 1.0f;  // 0 for kinematic bodies
    // Mass of fluid a dynamic body drags along when it changes speed (the fluid's share of its
    // inertia, 1/2 rho0 V for a sphere in potential flow); set by the fluid coupling, 0 in no fluid.
    float addedMass = 0.0f;
    mat3 inverseInertiaLocal{1.0f};  // body frame
    vec3 restPosition{0.0f};
    quat restOrientation{1.0f, 0.0f, 0.0f, 0.0f};
    vec3 position{0.0f};
    quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
    vec3 velocity{0.0f};
    vec3 angularVelocity{0.0f};
    // Accumulated during a step and cleared when the body is integrated.
    vec3 force{0.0f};
    vec3 torque{0.0f};
    vec3 impulse{0.0f};
    vec3 angularImpulse{0.0f};
    float lastDisplacedMass = 0.0f;  // from the most recent buoyancy evaluation (diagnostics)
    double clock = 0.0;              // time of the current pose (kinematic motion is a function of it)

    bool isHole() const { return shape.isHole(); }
    vec3 toLocal(const vec3& world) const;
    vec3 toWorld(const vec3& local) const;
    vec3 surfaceVelocity(const vec3& worldPoint) const {
        return velocity + glm::cross(angularVelocity, worldPoint - position);
    }
};

}  // namespace vfx
