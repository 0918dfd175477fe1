// Rigid-body motion and contact geometry in world space: contact distances and normals, the
// broad phase, kinematic poses, and the integration of dynamic bodies (with containers holding
// the bodies inside them). Nothing here knows about the fluid.
#include "bodies/body_motion.hpp"

#include "bodies/shapes.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

constexpr double kTwoPi = 6.283185307179586;

}  // namespace

vec3 centreInWorld(const RigidBody& body) { return body.toWorld(body.shape.centre); }

float reachAlong(const CollisionShape& shape, const vec3& localDirection) {
    if (shape.kind == ShapeKind::Sphere) return shape.radius;
    float reach = 0.0f;
    for (const vec3& v : shape.vertices) reach = std::max(reach, glm::dot(v - shape.centre, localDirection));
    return reach;
}

bool mayTouchBody(const RigidBody& body, const vec3& worldPoint, float reach) {
    const float fromCentre = glm::length(worldPoint - centreInWorld(body));
    if (body.isHole()) return fromCentre > body.shape.inscribedRadius - reach;
    return fromCentre < body.shape.circumscribedRadius + reach;
}

BodyContact contactWithBody(const RigidBody& body, const vec3& worldPoint) {
    BodyContact contact;
    vec3 localNormal;
    const vec3 local = body.toLocal(worldPoint);
    contact.distance = shapeContactDistance(body.shape, local, &localNormal, &contact.feature);
    contact.normal = body.orientation * localNormal;
    contact.point = body.toWorld(shapeContactPoint(local, localNormal, contact.distance));
    return contact;
}

float contactDistance(const RigidBody& body, const vec3& worldPoint, vec3* normalIntoFluid) {
    const BodyContact contact = contactWithBody(body, worldPoint);
    if (normalIntoFluid) *normalIntoFluid = contact.normal;
    return contact.distance;
}

float collisionDistance(const RigidBody& body, const vec3& worldPoint, const vec3& worldVelocity,
                        vec3* normalIntoFluid) {
    const vec3 relative = glm::conjugate(body.orientation) * (worldVelocity - body.surfaceVelocity(worldPoint));
    vec3 localNormal;
    const float distance = shapeCollisionDistance(body.shape, body.toLocal(worldPoint), relative, &localNormal);
    if (normalIntoFluid) *normalIntoFluid = body.orientation * localNormal;
    return distance;
}

void setKinematicPose(RigidBody& body, double time) {
    const KinematicMotion& k = body.kinematic;
    double phase = 0.0, rate = 0.0;  // sin argument and d(sin)/dt factor
    if (k.period > 0.0f) {
        const double omega = kTwoPi / double(k.period);
        phase = std::sin(omega * time);
        rate = omega * std::cos(omega * time);
    }
    body.position = vec3(dvec3(body.restPosition) + dvec3(k.velocity) * time + dvec3(k.amplitude) * phase);
    body.velocity = vec3(dvec3(k.velocity) + dvec3(k.amplitude) * rate);
    // Rotation about a fixed axis (the angular amplitude's direction), composed after the rest
    // orientation, so its world angular velocity is the rest orientation applied to that axis.
    const vec3 angle = k.angularAmplitude * float(phase);
    const float angleSize = glm::length(angle);
    const quat swing = angleSize > 0.0f ? glm::angleAxis(angleSize, angle / angleSize) : quat(1.0f, 0.0f, 0.0f, 0.0f);
    body.orientation = glm::normalize(body.restOrientation * swing);
    body.angularVelocity = body.restOrientation * (k.angularAmplitude * float(rate));
    body.clock = time;
}

vec3 kinematicAcceleration(const RigidBody& body, double time) {
    const KinematicMotion& k = body.kinematic;
    if (!(k.period > 0.0f)) return vec3(0.0f);
    const double omega = kTwoPi / double(k.period);
    return vec3(-dvec3(k.amplitude) * (omega * omega * std::sin(omega * time)));
}

vec3 removeNormalComponents(const vec3& g, const vec3* normals, size_t count) {
    vec3 basis[3];
    return removeAlongBasis(g, basis, orthonormalSpan(normals, count, basis));
}

namespace {

// Farthest point of a body along a unit world direction, as a distance along it from the origin.
float supportAlong(const RigidBody& body, const vec3& direction) {
    const vec3 local = glm::conjugate(body.orientation) * direction;
    return glm::dot(centreInWorld(body), direction) + reachAlong(body.shape, local);
}

// Moves `body` back inside the wall whose outward unit normal is n and whose plane is at
// offset along n, if any part of it sticks out, and takes away its velocity out through the
// wall relative to the wall's own velocity there (a perfectly inelastic contact).
void pushInsideWall(RigidBody& body, const RigidBody& container, const vec3& n, float offset) {
    const float out = supportAlong(body, n) - offset;
    if (out <= 0.0f) return;
    body.position -= out * n;
    const vec3 contact = centreInWorld(body) + n * reachAlong(body.shape, glm::conjugate(body.orientation) * n);
    const float separating = glm::dot(body.velocity - container.surfaceVelocity(contact), n);
    if (separating > 0.0f) body.velocity -= separating * n;
}

// Holds the body inside the container, `film` (m) off its walls.
void keepInsideContainer(RigidBody& body, const RigidBody& container, float film) {
    if (container.shape.kind == ShapeKind::Sphere) {
        const vec3 centre = centreInWorld(container);
        const vec3 offset = centreInWorld(body) - centre;
        const float distance = glm::length(offset);
        if (distance <= 0.0f) return;
        const vec3 n = offset / distance;
        pushInsideWall(body, container, n, glm::dot(centre, n) + container.shape.radius - film);
        return;
    }
    for (const Plane& plane : container.shape.planes) {
        // World plane n.x = d from the local one: n_w = R n, d_w = n_w . position + d.
        const vec3 n = container.orientation * plane.normal;
        pushInsideWall(body, container, n, glm::dot(n, container.position) + plane.d - film);
    }
}

// Pairs (dynamic body, container) whose cavity holds the body's centre.
std::vector<std::pair<size_t, size_t>> bodiesInContainers(const std::vector<RigidBody>& bodies) {
    std::vector<std::pair<size_t, size_t>> pairs;
    for (size_t b = 0; b < bodies.size(); ++b) {
        if (bodies[b].motion != MotionKind::Dynamic) continue;
        for (size_t c = 0; c < bodies.size(); ++c)
            if (c != b && bodies[c].isHole() && contactDistance(bodies[c], centreInWorld(bodies[b])) >= 0.0f)
                pairs.emplace_back(b, c);
    }
    return pairs;
}

}  // namespace

void integrateBodies(std::vector<RigidBody>& bodies, double timeAfterStep, float dt, float contactFilm) {
    // Containers hold the dynamic bodies that were inside them at the start of the step.
    const std::vector<std::pair<size_t, size_t>> held = bodiesInContainers(bodies);
    for (RigidBody& body : bodies) {
        if (body.motion == MotionKind::Kinematic) {
            setKinematicPose(body, timeAfterStep);
        } else {
            // Semi-implicit Euler: velocities from forces and impulses, then the pose. The fluid
            // the body pushes aside accelerates with it (added mass).
            body.velocity += (body.force * dt + body.impulse) / (body.mass + body.addedMass);
            const mat3 rotation = glm::mat3_cast(body.orientation);
            const mat3 inverseInertiaWorld = rotation * body.inverseInertiaLocal * glm::transpose(rotation);
            body.angularVelocity += inverseInertiaWorld * (body.torque * dt + body.angularImpulse);
            body.position += body.velocity * dt;
            const quat spin(0.0f, body.angularVelocity.x, body.angularVelocity.y, body.angularVelocity.z);
            body.orientation = glm::normalize(body.orientation + (spin * body.orientation) * (0.5f * dt));
            body.clock = timeAfterStep;
        }
        body.force = body.torque = body.impulse = body.angularImpulse = vec3(0.0f);
    }
    for (const auto& [body, container] : held) {
        // The radius of the sphere of the body's volume.
        const float radius = std::cbrt(0.75f * bodies[body].shape.volume() / kPi);
        keepInsideContainer(bodies[body], bodies[container], contactFilm * radius);
    }
}

}  // namespace vfx
