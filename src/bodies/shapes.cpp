// Collision shapes: validation, convex polytopes from planes or vertices, mass properties and
// the local-frame distance queries of parts 13 and 14 (solids and holes share the code through
// the parity).
#include "bodies/shapes.hpp"

#include "bodies/body_motion.hpp"
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

// Planes in double precision with unit normals: the geometry construction below needs the
// extra precision to classify vertices robustly.
struct PlaneD {
    dvec3 n;
    double d;
    double distance(const dvec3& p) const { return glm::dot(n, p) - d; }
};

std::vector<PlaneD> normalizedPlanes(const std::vector<Plane>& planes) {
    std::vector<PlaneD> out;
    out.reserve(planes.size());
    for (size_t i = 0; i < planes.size(); ++i) {
        const dvec3 n(planes[i].normal);
        const double len = glm::length(n);
        if (!std::isfinite(len) || !std::isfinite(planes[i].d)) reject("plane " + std::to_string(i) + " is not finite");
        if (len < 1e-12) reject("plane " + std::to_string(i) + " has a zero normal");
        out.push_back({n / len, double(planes[i].d) / len});
    }
    return out;
}

// Length scale of a plane set, for tolerances.
double planeScale(const std::vector<PlaneD>& planes) {
    double scale = 0.0;
    for (const PlaneD& p : planes) scale = std::max(scale, std::abs(p.d));
    return std::max(scale, 1e-6);
}

// A bounded region has no recession direction v != 0 with n_i . v <= 0 for every plane.
// Such a cone is either not pointed (normals span less than 3D) or has an extreme ray along
// the intersection line of two planes, n_i x n_j.
void requireBounded(const std::vector<PlaneD>& planes) {
    const size_t count = planes.size();
    bool spans3d = false;
    for (size_t i = 0; i < count && !spans3d; ++i)
        for (size_t j = i + 1; j < count && !spans3d; ++j)
            for (size_t k = j + 1; k < count && !spans3d; ++k)
                spans3d = std::abs(glm::dot(planes[i].n, glm::cross(planes[j].n, planes[k].n))) > 1e-9;
    if (!spans3d) reject("planes do not bound a finite region (their normals do not span 3D)");
    for (size_t i = 0; i < count; ++i)
        for (size_t j = i + 1; j < count; ++j) {
            const dvec3 axis = glm::cross(planes[i].n, planes[j].n);
            const double len = glm::length(axis);
            if (len < 1e-9) continue;
            for (double sign : {1.0, -1.0}) {
                const dvec3 ray = axis * (sign / len);
                bool recedes = true;
                for (size_t k = 0; k < count && recedes; ++k) recedes = glm::dot(planes[k].n, ray) <= 1e-9;
                if (recedes) reject("planes do not bound a finite region (open along " + formatVec(vec3(ray)) + ")");
            }
        }
}

// Corners of the region: intersections of plane triples that satisfy every plane.
std::vector<dvec3> polytopeCorners(const std::vector<PlaneD>& planes) {
    const double tolerance = 1e-7 * planeScale(planes);
    std::vector<dvec3> corners;
    const size_t count = planes.size();
    for (size_t i = 0; i < count; ++i)
        for (size_t j = i + 1; j < count; ++j)
            for (size_t k = j + 1; k < count; ++k) {
                const dvec3 jk = glm::cross(planes[j].n, planes[k].n);
                const double det = glm::dot(planes[i].n, jk);
                if (std::abs(det) < 1e-9) continue;
                const dvec3 p = (planes[i].d * jk + planes[j].d * glm::cross(planes[k].n, planes[i].n) +
                                 planes[k].d * glm::cross(planes[i].n, planes[j].n)) /
                                det;
                bool inside = true;
                for (size_t m = 0; m < count && inside; ++m) inside = planes[m].distance(p) <= tolerance;
                if (!inside) continue;
                bool duplicate = false;
                for (const dvec3& q : corners) duplicate = duplicate || glm::length(p - q) <= 10.0 * tolerance;
                if (!duplicate) corners.push_back(p);
            }
    return corners;
}

// Corners lying on a plane, ordered counter-clockwise seen from outside (along +n).
std::vector<dvec3> faceLoop(const PlaneD& plane, const std::vector<dvec3>& corners, double tolerance) {
    std::vector<dvec3> face;
    for (const dvec3& c : corners)
        if (std::abs(plane.distance(c)) <= tolerance) face.push_back(c);
    if (face.size() < 3) return {};
    dvec3 centre(0.0);
    for (const dvec3& c : face) centre += c;
    centre /= double(face.size());
    const dvec3 u = glm::normalize(face[0] - centre);
    const dvec3 v = glm::cross(plane.n, u);
    std::sort(face.begin(), face.end(), [&](const dvec3& a, const dvec3& b) {
        return std::atan2(glm::dot(a - centre, v), glm::dot(a - centre, u)) <
               std::atan2(glm::dot(b - centre, v), glm::dot(b - centre, u));
    });
    return face;
}

struct MassProperties {
    double volume = 0.0;
    dmat3 secondMoment{0.0};  // integral of x x^T over the region (unit density), about the origin
};

// Sums tetrahedra (origin, a, b, c) over a fan triangulation of every face. For a tetrahedron
// with one corner at the origin, integral x x^T = V/20 (a a^T + b b^T + c c^T + s s^T), s = a+b+c.
MassProperties polytopeMass(const std::vector<PlaneD>& planes, const std::vector<dvec3>& corners) {
    const double tolerance = 1e-6 * planeScale(planes);
    MassProperties mass;
    for (const PlaneD& plane : planes) {
        const std::vector<dvec3> face = faceLoop(plane, corners, tolerance);
        for (size_t t = 1; t + 1 < face.size(); ++t) {
            const dvec3 &a = face[0], &b = face[t], &c = face[t + 1];
            const double v = glm::dot(a, glm::cross(b, c)) / 6.0;
            const dvec3 s = a + b + c;
            mass.volume += v;
            mass.secondMoment += (v / 20.0) * (glm::outerProduct(a, a) + glm::outerProduct(b, b) +
                                               glm::outerProduct(c, c) + glm::outerProduct(s, s));
        }
    }
    return mass;
}

CollisionShape polytopeShape(const std::vector<PlaneD>& planes, const std::vector<dvec3>& corners, bool hole) {
    CollisionShape shape;
    shape.kind = ShapeKind::Polytope;
    shape.hole = hole;
    dvec3 centre(0.0);
    for (const dvec3& c : corners) centre += c;
    centre /= double(corners.size());
    shape.centre = vec3(centre);
    double inscribed = DBL_MAX, circumscribed = 0.0;
    for (const PlaneD& p : planes) {
        shape.planes.push_back({vec3(p.n), float(p.d)});
        inscribed = std::min(inscribed, -p.distance(centre));
    }
    for (const dvec3& c : corners) {
        shape.vertices.push_back(vec3(c));
        circumscribed = std::max(circumscribed, glm::length(c - centre));
    }
    shape.inscribedRadius = float(inscribed);
    // A hair larger so float rounding never lets the broad phase miss a corner.
    shape.circumscribedRadius = float(circumscribed * (1.0 + 1e-6));
    shape.cachedVolume = float(polytopeMass(planes, corners).volume);
    return shape;
}

std::vector<PlaneD> toPlaneD(const std::vector<Plane>& planes) {
    std::vector<PlaneD> out;
    for (const Plane& p : planes) out.push_back({dvec3(p.normal), double(p.d)});
    return out;
}

std::vector<dvec3> toCornersD(const std::vector<vec3>& vertices) {
    std::vector<dvec3> out;
    for (const vec3& v : vertices) out.push_back(dvec3(v));
    return out;
}

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

CollisionShape makePolytopeFromPlanes(const std::vector<Plane>& planes, bool hole) {
    if (planes.size() < 4) reject("a polytope needs at least 4 planes, got " + std::to_string(planes.size()));
    const std::vector<PlaneD> unit = normalizedPlanes(planes);
    requireBounded(unit);
    const std::vector<dvec3> corners = polytopeCorners(unit);
    if (corners.size() < 4) reject("planes bound an empty or flat region (no interior)");
    CollisionShape shape = polytopeShape(unit, corners, hole);
    if (!(shape.inscribedRadius > 1e-6f * shape.circumscribedRadius) || !(shape.cachedVolume > 0.0f))
        reject("planes bound an empty or flat region (no interior)");
    return shape;
}

CollisionShape makePolytopeFromVertices(const std::vector<vec3>& vertices, bool hole) {
    if (vertices.size() < 4) reject("a polytope needs at least 4 vertices, got " + std::to_string(vertices.size()));
    if (vertices.size() > 256) reject("a polytope takes at most 256 vertices, got " + std::to_string(vertices.size()));
    for (size_t i = 0; i < vertices.size(); ++i)
        if (!isFinite(vertices[i])) reject("vertex " + std::to_string(i) + " is not finite");
    // Brute-force hull: a triple of points spans a face plane when every point lies on one side.
    // Fine for the handful of vertices a scene gives; the corner set is rebuilt from the planes.
    const std::vector<dvec3> pts = toCornersD(vertices);
    double scale = 0.0;
    for (const dvec3& p : pts) scale = std::max(scale, glm::length(p - pts[0]));
    if (scale <= 0.0) reject("vertices are all the same point");
    const double tolerance = 1e-6 * scale;
    std::vector<Plane> faces;
    auto known = [&](const dvec3& n, double d) {
        for (const Plane& f : faces)
            if (glm::length(dvec3(f.normal) - n) < 1e-6 && std::abs(double(f.d) - d) < tolerance) return true;
        return false;
    };
    const size_t count = pts.size();
    for (size_t i = 0; i < count; ++i)
        for (size_t j = i + 1; j < count; ++j)
            for (size_t k = j + 1; k < count; ++k) {
                dvec3 n = glm::cross(pts[j] - pts[i], pts[k] - pts[i]);
                const double len = glm::length(n);
                if (len < 1e-9 * scale * scale) continue;
                n /= len;
                const double d = glm::dot(n, pts[i]);
                bool above = false, below = false;
                for (const dvec3& p : pts) {
                    const double s = glm::dot(n, p) - d;
                    above = above || s > tolerance;
                    below = below || s < -tolerance;
                }
                if (above && below) continue;
                if (!above && !below) reject("vertices are coplanar: they enclose no volume");
                if (above) n = -n;
                const double dd = above ? -d : d;
                if (!known(n, dd)) faces.push_back({vec3(n), float(dd)});
            }
    return makePolytopeFromPlanes(faces, hole);
}

float CollisionShape::volume() const {
    if (kind == ShapeKind::Sphere) return sphereVolume(radius);
    if (cachedVolume > 0.0f || planes.empty()) return cachedVolume;
    return float(polytopeMass(toPlaneD(planes), toCornersD(vertices)).volume);
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
        const MassProperties m = polytopeMass(toPlaneD(body.shape.planes), toCornersD(body.shape.vertices));
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
