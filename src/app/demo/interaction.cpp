#include "app/demo/interaction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vfx {

namespace {

// Entry distance of a ray into a sphere, or -1.
float raySphere(const Ray& ray, const glm::vec3& centre, float radius) {
    glm::vec3 oc = ray.origin - centre;
    float b = glm::dot(oc, ray.direction);
    float c = glm::dot(oc, oc) - radius * radius;
    float disc = b * b - c;
    if (disc < 0.0f) return -1.0f;
    float t = -b - std::sqrt(disc);
    if (t < 0.0f) t = -b + std::sqrt(disc);  // starting inside: the exit point
    return t;
}

// Entry distance of a ray (local frame) into the intersection of half-spaces n.x <= d, or -1.
float rayPolytope(const glm::vec3& origin, const glm::vec3& dir, const std::vector<Plane>& planes) {
    float tEnter = 0.0f, tExit = std::numeric_limits<float>::max();
    for (const Plane& p : planes) {
        float denom = glm::dot(p.normal, dir);
        float dist = p.distance(origin);
        if (std::abs(denom) < 1e-12f) {
            if (dist > 0.0f) return -1.0f;  // parallel and outside this face
            continue;
        }
        float t = -dist / denom;
        if (denom < 0.0f)
            tEnter = std::max(tEnter, t);
        else
            tExit = std::min(tExit, t);
        if (tEnter > tExit) return -1.0f;
    }
    return tEnter;
}

}  // namespace

BodyHit pickBody(const Ray& ray, const std::vector<RigidBody>& bodies, bool includeContainers) {
    BodyHit best;
    for (size_t i = 0; i < bodies.size(); ++i) {
        const RigidBody& b = bodies[i];
        if (b.isHole() && !includeContainers) continue;
        float t = -1.0f;
        if (b.shape.kind == ShapeKind::Sphere) {
            t = raySphere(ray, b.position, b.shape.radius);
        } else {
            glm::vec3 localOrigin = b.toLocal(ray.origin);
            glm::vec3 localDir = glm::conjugate(b.orientation) * ray.direction;
            t = rayPolytope(localOrigin, localDir, b.shape.planes);
        }
        if (t >= 0.0f && (best.body < 0 || t < best.distance)) best = {int(i), t};
    }
    return best;
}

BodyDrag beginBodyDrag(const BodyHit& hit, const Ray& ray, const glm::vec3& viewForward, const RigidBody& body) {
    BodyDrag drag;
    drag.body = hit.body;
    glm::vec3 point = ray.origin + ray.direction * hit.distance;
    drag.depth = glm::dot(point - ray.origin, viewForward);
    drag.grabOffset = point - body.position;
    return drag;
}

glm::vec3 dragPlanePoint(const BodyDrag& drag, const Ray& ray, const glm::vec3& viewForward) {
    float along = std::max(glm::dot(ray.direction, viewForward), 1e-4f);
    return ray.origin + ray.direction * (drag.depth / along);
}

glm::vec3 dragVelocity(const RigidBody& body, const glm::vec3& targetPoint, const BodyDrag& drag, float responseTime,
                       float maxSpeed) {
    glm::vec3 wanted = (targetPoint - drag.grabOffset - body.position) / std::max(responseTime, 1e-3f);
    float speed = glm::length(wanted);
    return speed > maxSpeed ? wanted * (maxSpeed / speed) : wanted;
}

size_t stirVortons(Vortons& vortons, const StirStroke& stroke) {
    const float s2 = stroke.radius * stroke.radius;
    const float reach2 = 9.0f * s2;  // exp(-9) is negligible
    size_t touched = 0;
    for (size_t i = 0; i < vortons.size(); ++i) {
        const glm::vec3& x = vortons.position[i];
        float along = glm::dot(x - stroke.ray.origin, stroke.ray.direction);
        if (along < 0.0f) continue;
        glm::vec3 onRay = stroke.ray.origin + stroke.ray.direction * along;
        glm::vec3 toRay = onRay - x;
        float d2 = glm::dot(toRay, toRay);
        if (d2 > reach2) continue;
        float f = std::exp(-d2 / s2);
        vortons.vorticity[i] += stroke.strength * (2.0f * f / s2) * glm::cross(toRay, stroke.velocity);
        ++touched;
    }
    return touched;
}

}  // namespace vfx
