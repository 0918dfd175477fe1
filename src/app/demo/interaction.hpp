#pragma once
// Mouse interaction with the simulation, as pure functions of a ray so they can be tested
// without a window: picking a body, dragging it, and stirring the fluid.
#include "bodies/body.hpp"
#include "render/camera.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

struct BodyHit {
    int body = -1;       // index into the body list, -1 = nothing hit
    float distance = 0;  // along the ray
};

// Nearest body the ray enters. Containers are skipped unless includeContainers (the ray starts
// outside them, so it would hit the near wall).
BodyHit pickBody(const Ray& ray, const std::vector<RigidBody>& bodies, bool includeContainers);

// A body held by the mouse: the grabbed point keeps its depth in front of the camera.
struct BodyDrag {
    int body = -1;
    float depth = 0;          // distance of the drag plane from the eye, along the view axis
    glm::vec3 grabOffset{0};  // grabbed point minus body position at grab time
};

BodyDrag beginBodyDrag(const BodyHit& hit, const Ray& ray, const glm::vec3& viewForward, const RigidBody& body);
// Point under the mouse on the drag plane.
glm::vec3 dragPlanePoint(const BodyDrag& drag, const Ray& ray, const glm::vec3& viewForward);
// Velocity that brings a dynamic body to the mouse in about `responseTime` seconds, capped
// so a flick does not launch it through a wall in one step.
glm::vec3 dragVelocity(const RigidBody& body, const glm::vec3& targetPoint, const BodyDrag& drag, float responseTime,
                       float maxSpeed);

struct StirStroke {
    Ray ray;                // current mouse ray
    glm::vec3 velocity{0};  // world velocity of the mouse at the stirring depth, m/s
    float radius = 0.2f;    // width of the stirring "stick", m
    float strength = 1.0f;  // dimensionless gain
};

// Adds vorticity grad(f) x v around the mouse ray (f a Gaussian of the distance to the ray):
// the curl of a jet moving with the mouse, so nearby fluid is pushed along the stroke. It adds
// no net circulation. Returns how many vortons were touched.
size_t stirVortons(Vortons& vortons, const StirStroke& stroke);

}  // namespace vfx
