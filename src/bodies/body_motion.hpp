#pragma once
// Rigid-body motion and contact geometry in world space (parts 13, 14): what the fluid coupling
// and the demo's picking ask of a body, and the integration of dynamic bodies. Depends on core
// and the body types only.
#include "bodies/body.hpp"

#include <vector>

namespace vfx {

// World position of the shape's centre (its centre of mass).
vec3 centreInWorld(const RigidBody& body);

// How far the shape reaches from its centre along a direction in its own frame (support function).
float reachAlong(const CollisionShape& shape, const vec3& localDirection);

// Signed distance from a world point to the body's fluid boundary: positive where the point
// is free (outside a solid, inside a hole's cavity), negative when penetrating.
// normalIntoFluid (optional) gets the unit contact normal pointing from the wall into the fluid.
float contactDistance(const RigidBody& body, const vec3& worldPoint, vec3* normalIntoFluid = nullptr);

// Contact of a world point with a body (world frame): distance as contactDistance, the unit
// normal into the fluid, the contact point on the surface and the face index (-1: sphere).
struct BodyContact {
    float distance = 0.0f;
    vec3 normal{0.0f, 1.0f, 0.0f};
    vec3 point{0.0f};
    int feature = -1;
};
BodyContact contactWithBody(const RigidBody& body, const vec3& worldPoint);

// Broad phase (part 14): can a world point come within `reach` of the body's surface? Solids:
// inside the circumscribed sphere grown by reach; holes: outside the inscribed sphere shrunk by it.
bool mayTouchBody(const RigidBody& body, const vec3& worldPoint, float reach);

// Collision distance of a moving world point (world velocity): solids count only the faces
// the point moves deeper through relative to the body; holes count every face (part 14).
float collisionDistance(const RigidBody& body, const vec3& worldPoint, const vec3& worldVelocity,
                        vec3* normalIntoFluid = nullptr);

// Pose and velocities of a kinematic body at time t: rest pose, plus drift velocity * t, plus
// amplitude * sin(2 pi t / period), rotated by angularAmplitude * sin(2 pi t / period).
void setKinematicPose(RigidBody& body, double time);
// The acceleration of that motion's translation at time t, m/s^2 (rotation's terms left out).
vec3 kinematicAcceleration(const RigidBody& body, double time);

// g minus its components along the span of the normals (Gram-Schmidt in the given order, so a
// corner removes both walls' components and repeated normals change nothing).
vec3 removeNormalComponents(const vec3& g, const vec3* normals, size_t count);

// Integrates dynamic bodies (forces, impulses, torques; translation with the inertia of mass plus
// added mass) and poses kinematic ones at time t+dt.
// A dynamic body whose centre was inside a container's cavity is then kept wholly inside it:
// pushed back through any wall it crosses, losing its velocity out through that wall relative
// to the wall (inelastic contact; no friction or spin), and held `contactFilm` times the radius
// of its volume's sphere off the wall.
void integrateBodies(std::vector<RigidBody>& bodies, double timeAfterStep, float dt, float contactFilm = 0.0f);

}  // namespace vfx
