#include "scene/scene_geometry.hpp"

#include "bodies/shapes.hpp"
#include "core/text_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <stdexcept>

namespace vfx {
namespace {

vec3 ringAxis(const RegionDesc& ring) { return glm::normalize(ring.axis); }

// Uniform float in [0, 1) from 24 random bits: identical on every platform, unlike
// std::uniform_real_distribution whose algorithm the standard leaves open.
float unitRandom(std::mt19937& rng) { return float(rng() >> 8) * (1.0f / 16777216.0f); }

std::vector<vec3> sampleRandom(const RegionDesc& region) {
    vec3 lo, hi;
    regionBounds(region, lo, hi);
    std::mt19937 rng(region.seed);
    std::vector<vec3> points;
    points.reserve(size_t(region.count));
    // The worst accepted fraction (a thin ring in its box) is far above 1/1000.
    const size_t maxAttempts = size_t(region.count) * 1000 + 1000;
    for (size_t attempt = 0; points.size() < size_t(region.count) && attempt < maxAttempts; ++attempt) {
        const vec3 u(unitRandom(rng), unitRandom(rng), unitRandom(rng));
        const vec3 p = lo + u * (hi - lo);
        if (regionContains(region, p)) points.push_back(p);
    }
    if (points.size() < size_t(region.count))
        throw std::invalid_argument("the region is too thin to place its particles randomly");
    return points;
}

// A ring's random points, one in each of `count` equal sectors about its axis, uniform in volume
// within the sector (the core disc drawn with weight R + r cos(theta), the distance from the
// axis). Drawn from the bounding box, a ring's sectors hold their share of the points only to
// within its square root: the circulation then differs around the ring, so the vortex lines do
// not close and the ring starts with a net vorticity, whose impulse moves as it travels (up to
// 6% sideways in 3 s for 8,000 vortons).
std::vector<vec3> sampleRandomRing(const RegionDesc& region) {
    const vec3 u = ringAxis(region);
    // Two unit vectors across the axis.
    const vec3 side = glm::normalize(std::abs(u.x) < 0.9f ? glm::cross(u, vec3(1.0f, 0.0f, 0.0f))
                                                          : glm::cross(u, vec3(0.0f, 1.0f, 0.0f)));
    const vec3 other = glm::cross(u, side);
    const float big = region.radius, core = region.coreRadius;
    std::mt19937 rng(region.seed);
    std::vector<vec3> points;
    points.reserve(size_t(region.count));
    for (long k = 0; k < region.count; ++k) {
        const float phi = 2.0f * kPi * (float(k) + unitRandom(rng)) / float(region.count);
        float r = 0.0f, theta = 0.0f;
        do {  // accepted with probability (R + r cos theta) / (R + a): at least (R - a) / (R + a)
            r = core * std::sqrt(unitRandom(rng));
            theta = 2.0f * kPi * unitRandom(rng);
        } while (unitRandom(rng) * (big + core) > big + r * std::cos(theta));
        const vec3 outward = std::cos(phi) * side + std::sin(phi) * other;
        points.push_back(region.centre + (big + r * std::cos(theta)) * outward + r * std::sin(theta) * u);
    }
    return points;
}

// Cell-centred cubic lattice of the given spacing, centred in the region's bounds.
std::vector<vec3> latticePoints(const RegionDesc& region, float spacing) {
    vec3 lo, hi;
    regionBounds(region, lo, hi);
    const vec3 centre = 0.5f * (lo + hi);
    ivec3 n;
    for (int a = 0; a < 3; ++a) n[a] = std::max(1, int(std::floor((hi[a] - lo[a]) / spacing + 1e-3f)));
    const vec3 start = centre - 0.5f * spacing * vec3(n - ivec3(1));
    std::vector<vec3> points;
    for (int z = 0; z < n.z; ++z)
        for (int y = 0; y < n.y; ++y)
            for (int x = 0; x < n.x; ++x) {
                const vec3 p = start + spacing * vec3(float(x), float(y), float(z));
                if (regionContains(region, p)) points.push_back(p);
            }
    return points;
}

// A box is filled wall to wall: n_i = round(L_i / s) points per axis at cell centres, so every
// wall is half a spacing away. Spacings differ between axes by at most a few percent; the
// spacing s is scanned around its ideal value for the product closest to count.
std::vector<vec3> sampleBoxLattice(const RegionDesc& region) {
    const vec3 size = region.boxMax - region.boxMin;
    const float ideal = std::cbrt(regionVolume(region) / float(region.count));
    ivec3 best(1);
    long bestError = -1;
    for (int step = -20; step <= 20; ++step) {
        const float spacing = ideal * (1.0f + 0.005f * float(step));
        ivec3 n;
        for (int a = 0; a < 3; ++a) n[a] = std::max(1, int(std::lround(size[a] / spacing)));
        const long error = std::labs(long(n.x) * n.y * n.z - long(region.count));
        if (bestError < 0 || error < bestError) {
            bestError = error;
            best = n;
        }
    }
    const vec3 spacing = size / vec3(best);
    std::vector<vec3> points;
    points.reserve(size_t(best.x) * size_t(best.y) * size_t(best.z));
    for (int z = 0; z < best.z; ++z)
        for (int y = 0; y < best.y; ++y)
            for (int x = 0; x < best.x; ++x)
                points.push_back(region.boxMin + spacing * (vec3(float(x), float(y), float(z)) + 0.5f));
    return points;
}

// The count inside a shape is a step function of the spacing: refine the spacing by the
// cube root of the count ratio and keep the closest lattice.
std::vector<vec3> sampleLattice(const RegionDesc& region) {
    const float target = float(region.count);
    float spacing = std::cbrt(regionVolume(region) / target);
    std::vector<vec3> best;
    for (int iteration = 0; iteration < 40; ++iteration) {
        std::vector<vec3> points = latticePoints(region, spacing);
        if (best.empty() || std::abs(float(points.size()) - target) < std::abs(float(best.size()) - target))
            best = std::move(points);
        const float found = float(std::max<size_t>(best.size(), 1));
        if (best.size() == size_t(region.count)) break;
        const float ratio = std::cbrt(float(std::max<size_t>(points.size(), 1)) / target);
        // Damped step (and a nudge when the count did not move) so the iteration cannot cycle.
        spacing *= 1.0f + 0.7f * (ratio - 1.0f) + (found < target ? -1e-3f : 1e-3f) * float(iteration % 2);
    }
    if (best.empty()) throw std::invalid_argument("the region is too small for a lattice of its count");
    return best;
}

}  // namespace

float regionVolume(const RegionDesc& region) {
    switch (region.shape) {
        case RegionShape::Sphere:
            return sphereVolume(region.radius);
        case RegionShape::Box: {
            const vec3 size = region.boxMax - region.boxMin;
            return size.x * size.y * size.z;
        }
        case RegionShape::Ring:
            return 2.0f * kPi * kPi * region.radius * region.coreRadius * region.coreRadius;
    }
    return 0.0f;
}

vec3 regionDensityOrigin(const RegionDesc& region) {
    return region.shape == RegionShape::Box ? 0.5f * (region.boxMin + region.boxMax) : region.centre;
}

void regionBounds(const RegionDesc& region, vec3& lo, vec3& hi) {
    switch (region.shape) {
        case RegionShape::Sphere:
            lo = region.centre - vec3(region.radius);
            hi = region.centre + vec3(region.radius);
            return;
        case RegionShape::Box:
            lo = region.boxMin;
            hi = region.boxMax;
            return;
        case RegionShape::Ring: {
            const vec3 u = ringAxis(region);
            vec3 extent;
            for (int a = 0; a < 3; ++a)
                extent[a] = region.radius * std::sqrt(std::max(0.0f, 1.0f - u[a] * u[a])) + region.coreRadius;
            lo = region.centre - extent;
            hi = region.centre + extent;
            return;
        }
    }
}

bool regionContains(const RegionDesc& region, const vec3& p) {
    switch (region.shape) {
        case RegionShape::Sphere: {
            const vec3 d = p - region.centre;
            return glm::dot(d, d) <= region.radius * region.radius;
        }
        case RegionShape::Box:
            return glm::all(glm::greaterThanEqual(p, region.boxMin)) && glm::all(glm::lessThanEqual(p, region.boxMax));
        case RegionShape::Ring: {
            const vec3 u = ringAxis(region);
            const vec3 d = p - region.centre;
            const float along = glm::dot(d, u);
            const float fromAxis = glm::length(d - along * u);
            const float r = fromAxis - region.radius;
            return r * r + along * along <= region.coreRadius * region.coreRadius;
        }
    }
    return false;
}

float regionSupport(const RegionDesc& region, const vec3& n) {
    switch (region.shape) {
        case RegionShape::Sphere:
            return glm::dot(n, region.centre) + region.radius * glm::length(n);
        case RegionShape::Box: {
            const vec3 centre = 0.5f * (region.boxMin + region.boxMax);
            const vec3 half = 0.5f * (region.boxMax - region.boxMin);
            return glm::dot(n, centre) + glm::dot(glm::abs(n), half);
        }
        case RegionShape::Ring: {
            const vec3 u = ringAxis(region);
            const vec3 across = n - glm::dot(n, u) * u;
            return glm::dot(n, region.centre) + region.radius * glm::length(across) +
                   region.coreRadius * glm::length(n);
        }
    }
    return 0.0f;
}

float regionBoundingRadius(const RegionDesc& region) {
    switch (region.shape) {
        case RegionShape::Sphere:
            return region.radius;
        case RegionShape::Box:
            return 0.5f * glm::length(region.boxMax - region.boxMin);
        case RegionShape::Ring:
            return region.radius + region.coreRadius;
    }
    return 0.0f;
}

std::vector<vec3> sampleRegion(const RegionDesc& region) {
    if (region.count <= 0) return {};
    // Both layouts try points of the region's bounding box: a region filling less than a
    // thousandth of it (a thin, tilted ring) would take a thousand tries or more per particle.
    vec3 lo, hi;
    regionBounds(region, lo, hi);
    const vec3 size = hi - lo;
    const double fill = double(regionVolume(region)) / (double(size.x) * double(size.y) * double(size.z));
    if (!(fill >= 1e-3))
        throw std::invalid_argument("the region fills " + formatNumber(fill) +
                                    " of its bounding box, too thin to place particles in (at least 0.001)");
    if (region.layout == RegionLayout::Random)
        return region.shape == RegionShape::Ring ? sampleRandomRing(region) : sampleRandom(region);
    return region.shape == RegionShape::Box ? sampleBoxLattice(region) : sampleLattice(region);
}

float automaticVortonRadius(float volume, size_t count) {
    return std::cbrt(3.0f * volume / (4.0f * kPi * float(std::max<size_t>(count, 1))));
}

float vortonCoreRadius(const RegionDesc& region, size_t count, float coreOverlap) {
    const float share = regionVolume(region) / float(std::max<size_t>(count, 1));
    return region.vortonRadius > 0.0f ? region.vortonRadius
           : coreOverlap > 0.0f       ? coreOverlap * std::cbrt(share)
                                      : automaticVortonRadius(regionVolume(region), count);
}

RegionDesc ringSeedingTube(const RegionDesc& ring, float coreOverlap) {
    RegionDesc tube = ring;
    if (ring.shape != RegionShape::Ring || ring.count <= 0) return tube;
    const float a = ring.coreRadius;
    for (int round = 0; round < 4; ++round) {
        const float sigma = vortonCoreRadius(tube, size_t(ring.count), coreOverlap);
        tube.coreRadius = std::sqrt(std::max(a * a - 0.8f * sigma * sigma, 0.25f * a * a));
    }
    return tube;
}

vec3 ringTangent(const RegionDesc& ring, const vec3& point) {
    const vec3 u = ringAxis(ring);
    const vec3 d = point - ring.centre;
    const vec3 radial = d - glm::dot(d, u) * u;
    const vec3 t = glm::cross(u, radial);
    const float len = glm::length(t);
    return len > 0.0f ? t / len : vec3(0.0f);
}

quat orientationFromEulerDegrees(const vec3& degrees) {
    const vec3 r = glm::radians(degrees);
    const quat qx = glm::angleAxis(r.x, vec3(1, 0, 0));
    const quat qy = glm::angleAxis(r.y, vec3(0, 1, 0));
    const quat qz = glm::angleAxis(r.z, vec3(0, 0, 1));
    return glm::normalize(qz * qy * qx);
}

ConvexProbe probeOfRegion(const RegionDesc& region) {
    return {[&region](const vec3& n) { return regionSupport(region, n); }, regionDensityOrigin(region),
            regionBoundingRadius(region)};
}

ConvexProbe probeOfSphere(const vec3& centre, float radius) {
    return {[centre, radius](const vec3& n) { return glm::dot(n, centre) + radius * glm::length(n); }, centre, radius};
}

ConvexProbe probeOfBodyBound(const RigidBody& body) {
    return probeOfSphere(body.position + body.orientation * body.shape.centre, body.shape.circumscribedRadius);
}

Placement placementInContainer(const ConvexProbe& probe, const RigidBody& container) {
    const float tolerance = 1e-5f * std::max(1.0f, container.shape.circumscribedRadius);
    if (container.shape.kind == ShapeKind::Sphere) {
        const float d = glm::length(probe.centre - container.position);
        if (d + probe.boundingRadius <= container.shape.radius + tolerance) return Placement::Inside;
        if (d >= container.shape.radius + probe.boundingRadius - tolerance) return Placement::Outside;
        return Placement::Crossing;
    }
    bool inside = true;
    for (const Plane& p : container.shape.planes) {
        const vec3 n = container.orientation * p.normal;
        const float d = p.d + glm::dot(n, container.position);
        if (-probe.support(-n) >= d - tolerance) return Placement::Outside;
        inside = inside && probe.support(n) <= d + tolerance;
    }
    return inside ? Placement::Inside : Placement::Crossing;
}

namespace {

// The JSON key that holds a body's geometry.
std::string geometryKey(const BodyDesc& body) {
    if (body.shape == "sphere") return "radius";
    if (body.shape == "box") return "half_extents";
    return body.planes.empty() ? "vertices" : "planes";
}

}  // namespace

RigidBody rigidBodyFromDesc(const BodyDesc& desc) {
    RigidBody body;
    body.name = desc.name;
    try {
        body.shape = makeBodyShape(desc, desc.hole);
    } catch (const std::invalid_argument& e) {
        throw BodyBuildError(geometryKey(desc), e.what());
    }
    body.motion = desc.motion;
    body.kinematic = desc.kinematic;
    body.density = desc.density;
    body.position = desc.position;
    body.orientation = orientationFromEulerDegrees(desc.orientationEuler);
    body.velocity = desc.velocity;
    try {
        finalizeBodyMass(body);
    } catch (const std::invalid_argument& e) {
        throw BodyBuildError("", e.what());
    }
    body.restPosition = desc.position;
    body.restOrientation = body.orientation;
    return body;
}

CollisionShape makeBodyShape(const BodyDesc& desc, bool hole) {
    if (desc.shape == "sphere") return makeSphereShape(desc.radius, hole);
    if (desc.shape == "box") return makeBoxShape(desc.halfExtents, hole);
    if (!desc.planes.empty()) return makePolytopeFromPlanes(desc.planes, hole);
    return makePolytopeFromVertices(desc.vertices, hole);
}

}  // namespace vfx
