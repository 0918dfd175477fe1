// Collision shapes: validation, spheres and boxes (convex polytopes are built in polytope.cpp),
// mass properties and the local-frame distance queries of parts 13 and 14 (solids and holes share the code through
// the parity).
#include "bodies/shapes.hpp"

#include "bodies/body_motion.hpp"
#include "bodies/polytope.hpp"
#include "core/text_format.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace vfx {

namespace {

using glm::dmat3;

[[noreturn]] void reject(const std::string& message) { throw std::invalid_argument(message); }

}  // namespace

CollisionShape makeSphereShape(float radius, bool hole) {
    if (!(radius > 0.0f) || !std::isfinite(radius)) reject("radius must be > 0, got " + formatNumber(radius));
    CollisionShape shape;
    shape.kind = ShapeKind::Sphere;
    shape.radius = radius;
    shape.hole = hole;
    shape.circumscribedRadius = radius;
    shape.inscribedRadius = radius;
    return shape;
}

CollisionShape makeBoxShape(const vec3& halfExtents, bool hole) {
    if (!(halfExtents.x > 0.0f && halfExtents.y > 0.0f && halfExtents.z > 0.0f) || !isFinite(halfExtents))
        reject("half_extents must all be > 0, got " + formatVec(halfExtents));
    std::vector<Plane> planes;
    for (int axis = 0; axis < 3; ++axis)
        for (float sign : {1.0f, -1.0f}) {
            Plane p;
            p.normal = vec3(0.0f);
            p.normal[axis] = sign;
            p.d = halfExtents[axis];
            planes.push_back(p);
        }
    return makePolytopeFromPlanes(planes, hole);
}

float CollisionShape::volume() const {
    if (kind == ShapeKind::Sphere) return sphereVolume(radius);
    if (cachedVolume > 0.0f || planes.empty()) return cachedVolume;
    return float(polytopeMass(planes, vertices).volume);
}

namespace {

// Mass, inertia and their inverses from shape, density and motion (kinematic: inverse 0).
void setMassProperties(RigidBody& body) {
    const float volume = body.shape.volume();
    body.mass = body.density * volume;
    mat3 inertia(1.0f);
    if (body.shape.kind == ShapeKind::Sphere) {
        inertia = mat3(0.4f * body.mass * body.shape.radius * body.shape.radius);
    } else {
        const PolytopeMass m = polytopeMass(body.shape.planes, body.shape.vertices);
        const double trace = m.secondMoment[0][0] + m.secondMoment[1][1] + m.secondMoment[2][2];
        inertia = mat3((dmat3(trace) - m.secondMoment) * double(body.density));
    }
    const bool kinematic = body.motion == MotionKind::Kinematic;
    body.inverseMass = kinematic ? 0.0f : 1.0f / body.mass;
    body.inverseInertiaLocal = kinematic ? mat3(0.0f) : glm::inverse(inertia);
}

std::string densityProblem(float density) {
    if (density > 0.0f && std::isfinite(density)) return "";
    return "density must be > 0, got " + formatNumber(density);
}

const char* const kDynamicContainer = "a container (hole: true) must have motion \"kinematic\"";

// A body turned kinematic mid-run holds still where it is: no drift, and the rest pose moved so
// that its prescribed path (setKinematicPose) passes through the current pose at the current time.
void holdKinematicPoseHere(RigidBody& body) {
    body.kinematic.velocity = vec3(0.0f);
    RigidBody path = body;
    path.restPosition = vec3(0.0f);
    path.restOrientation = quat(1.0f, 0.0f, 0.0f, 0.0f);
    setKinematicPose(path, body.clock);  // the oscillation's offset and swing at this time
    body.restPosition = body.position - path.position;
    body.restOrientation = glm::normalize(body.orientation * glm::conjugate(path.orientation));
    body.velocity = body.angularVelocity = vec3(0.0f);
}

}  // namespace

void finalizeBodyMass(RigidBody& body) {
    const std::string problem = densityProblem(body.density);
    if (!problem.empty()) reject(problem);
    const KinematicMotion& k = body.kinematic;
    if (!(k.period >= 0.0f) || !std::isfinite(k.period))
        reject("oscillate period must be >= 0, got " + formatNumber(k.period));
    if (!isFinite(k.amplitude) || !isFinite(k.angularAmplitude)) reject("oscillate amplitudes must be finite");
    if (body.isHole() && body.motion != MotionKind::Kinematic) reject(kDynamicContainer);
    setMassProperties(body);
    if (body.motion == MotionKind::Kinematic) body.kinematic.velocity = body.velocity;
    body.restPosition = body.position;
    body.restOrientation = body.orientation;
    body.clock = 0.0;
    body.force = body.torque = body.impulse = body.angularImpulse = vec3(0.0f);
}

std::string changeBodyMaterial(RigidBody& body, float density, MotionKind motion) {
    const std::string problem = densityProblem(density);
    if (!problem.empty()) return problem;
    if (body.isHole() && motion != MotionKind::Kinematic) return kDynamicContainer;
    const bool becomesKinematic = motion == MotionKind::Kinematic && body.motion != MotionKind::Kinematic;
    body.density = density;
    body.motion = motion;
    setMassProperties(body);
    if (becomesKinematic) holdKinematicPoseHere(body);
    return "";
}

// --- local-frame geometry --------------------------------------------------------------------

namespace {

// Largest plane distance n.p - d and the plane it belongs to.
float largestPlaneDistance(const std::vector<Plane>& planes, const vec3& p, int* index) {
    float largest = -FLT_MAX;
    int best = 0;
    for (size_t i = 0; i < planes.size(); ++i) {
        const float s = planes[i].distance(p);
        if (s > largest) {
            largest = s;
            best = int(i);
        }
    }
    if (index) *index = best;
    return largest;
}

// Radial direction of a point from the sphere centre (any unit vector at the centre itself).
vec3 radialDirection(const vec3& p, const vec3& fallback) {
    const float len = glm::length(p);
    if (len > 1e-20f) return p / len;
    const float f = glm::length(fallback);
    return f > 1e-20f ? fallback / f : vec3(0.0f, 1.0f, 0.0f);
}

}  // namespace

float shapeContactDistance(const CollisionShape& shape, const vec3& local, vec3* normalIntoFluid, int* feature) {
    if (shape.kind == ShapeKind::Sphere) {
        const vec3 out = radialDirection(local, vec3(0.0f, 1.0f, 0.0f));
        if (normalIntoFluid) *normalIntoFluid = out * shape.parity();
        if (feature) *feature = -1;
        return (glm::length(local) - shape.radius) * shape.parity();
    }
    int index = 0;
    const float largest = largestPlaneDistance(shape.planes, local, &index);
    if (normalIntoFluid) *normalIntoFluid = shape.planes[size_t(index)].normal * shape.parity();
    if (feature) *feature = index;
    return largest * shape.parity();
}

float shapeCollisionDistance(const CollisionShape& shape, const vec3& local, const vec3& localRelativeVelocity,
                             vec3* normalIntoFluid, int* feature) {
    if (shape.kind == ShapeKind::Sphere || shape.hole)
        return shapeContactDistance(shape, local, normalIntoFluid, feature);
    // Solid polytope: the face the point is "most behind" among those it moves deeper through,
    // so it leaves the way it came in even if it crossed most of the solid in one step.
    float largest = -FLT_MAX;
    int best = -1;
    for (size_t i = 0; i < shape.planes.size(); ++i) {
        const float s = shape.planes[i].distance(local);
        if (s <= largest) continue;
        const float speedThroughPlane = glm::dot(localRelativeVelocity, shape.planes[i].normal);
        if (speedThroughPlane <= 0.0f || s >= 0.0f) {
            largest = s;
            best = int(i);
        }
    }
    if (best < 0) return shapeContactDistance(shape, local, normalIntoFluid, feature);
    if (normalIntoFluid) *normalIntoFluid = shape.planes[size_t(best)].normal;
    if (feature) *feature = best;
    return largest;
}

vec3 moveInsideHole(const CollisionShape& shape, vec3& local, float margin) {
    if (shape.kind == ShapeKind::Sphere) {
        const float limit = shape.radius - margin;
        if (glm::length(local) <= limit) return vec3(0.0f);
        const vec3 out = radialDirection(local, vec3(0.0f, 1.0f, 0.0f));
        local = out * limit;
        return -out;
    }
    // Project onto each violated face in turn. Faces of a box are orthogonal, so one pass
    // is exact; oblique faces may need a few passes (alternating projections converge).
    // Each face's normal counts once in the returned sum, however many passes touch it.
    vec3 pushedNormals(0.0f);
    uint64_t counted = 0;
    for (int pass = 0; pass < 4; ++pass) {
        bool moved = false;
        for (size_t i = 0; i < shape.planes.size(); ++i) {
            const Plane& plane = shape.planes[i];
            const float outside = plane.distance(local);
            if (outside <= 0.0f) continue;
            local -= plane.normal * (outside + margin);
            const uint64_t bit = uint64_t(1) << (i % 64);
            if (!(counted & bit)) pushedNormals -= plane.normal;
            counted |= bit;
            moved = true;
        }
        if (!moved) return pushedNormals;
    }
    // Still out after several passes (sharp wedge corners): slide toward the centre, which is at
    // least the inscribed radius inside every face, until every face is satisfied.
    const vec3 offset = local - shape.centre;
    float scale = 1.0f;
    for (const Plane& plane : shape.planes) {
        const float toward = glm::dot(plane.normal, offset);
        const float room = plane.d - margin - glm::dot(plane.normal, shape.centre);
        if (toward > room) scale = std::min(scale, std::max(room, 0.0f) / toward);
    }
    local = shape.centre + offset * scale;
    return pushedNormals;
}

void nearFeatures(const CollisionShape& shape, const vec3& local, float reach, std::vector<int>& features,
                  std::vector<vec3>& normals) {
    if (shape.kind == ShapeKind::Sphere) {
        vec3 normal;
        if (shapeContactDistance(shape, local, &normal) < reach) {
            features.push_back(0);
            normals.push_back(normal);
        }
        return;
    }
    if (shape.hole) {
        // Inside a hole every face closer than `reach` (or already crossed) is a touching wall.
        for (size_t i = 0; i < shape.planes.size(); ++i)
            if (-shape.planes[i].distance(local) < reach) {
                features.push_back(int(i));
                normals.push_back(-shape.planes[i].normal);
            }
        return;
    }
    int nearest = 0;
    if (largestPlaneDistance(shape.planes, local, &nearest) >= reach) return;
    // Near a solid: the nearest face, plus faces whose plane passes within reach (edges, corners).
    for (size_t i = 0; i < shape.planes.size(); ++i)
        if (int(i) == nearest || std::abs(shape.planes[i].distance(local)) < reach) {
            features.push_back(int(i));
            normals.push_back(shape.planes[i].normal);
        }
}

}  // namespace vfx
