#pragma once
// Geometry of scene regions and bodies, shared by scene validation and by buildSimulation:
// region volumes and point sampling, support functions and the placement of convex sets in
// containers, body shapes.
#include "scene/scene.hpp"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {

// Volume of the region's shape, m^3.
float regionVolume(const RegionDesc& region);
// Point the region's density is given at (sphere/ring centre, box centre).
vec3 regionDensityOrigin(const RegionDesc& region);
// Tight axis-aligned bounds of the region.
void regionBounds(const RegionDesc& region, vec3& lo, vec3& hi);
bool regionContains(const RegionDesc& region, const vec3& point);
// max over the region of dot(direction, x) (direction need not be unit).
float regionSupport(const RegionDesc& region, const vec3& direction);
// Radius of a sphere about regionDensityOrigin that holds the region.
float regionBoundingRadius(const RegionDesc& region);

// The particle positions of a region: `random` (std::mt19937 seeded with region.seed, rejection
// sampling inside the shape; exactly count points) or `lattice` (regular cubic lattice whose
// spacing is tuned so about count points fall inside; a box is filled wall to wall with
// round(L/s) cell-centred points per axis). Deterministic.
std::vector<vec3> sampleRegion(const RegionDesc& region);

// A convex set seen through its support function, for containment tests against containers.
struct ConvexProbe {
    std::function<float(const vec3&)> support;  // max over the set of dot(n, x)
    vec3 centre;
    float boundingRadius;
};

// The region as a probe; it refers to `region`, which must outlive it.
ConvexProbe probeOfRegion(const RegionDesc& region);
ConvexProbe probeOfSphere(const vec3& centre, float radius);
// The body's bounding sphere (about its shape's centre, circumscribed radius) as a probe.
ConvexProbe probeOfBodyBound(const RigidBody& body);

enum class Placement { Inside, Outside, Crossing };

// Where a convex set lies relative to a container's cavity (face planes for polytopes, so a
// set just beyond an edge may be called Crossing: conservative).
Placement placementInContainer(const ConvexProbe& probe, const RigidBody& container);

// Automatic vorton radius: the sphere whose volume is the region volume per vorton, so the
// vortons' volumes add up to the region's (mass and circulation totals match the scene).
float automaticVortonRadius(float regionVolume, size_t count);

// The core radius buildSimulation gives `count` vortons filling the region: the region's own
// vorton_radius, else core_overlap spacings of its share of the volume, else the automatic one.
float vortonCoreRadius(const RegionDesc& region, size_t count, float coreOverlap);

// The region a ring's vortons are laid in (other shapes: the region itself). The scene asks for a
// uniform core of radius a; each vorton spreads its vorticity over a ball of radius sigma, which
// adds (2/5) sigma^2 to the core's second moment about its centre line (a^2 / 2 for a uniform
// core). Laid in a tube of radius sqrt(a^2 - (4/5) sigma^2), the vorticity they carry has the
// asked second moment; sigma depends on the tube through the vortons' spacing, so a few rounds
// find both. Vortons wider than the core cannot be narrowed away: the tube keeps at least half
// the asked radius.
RegionDesc ringSeedingTube(const RegionDesc& ring, float coreOverlap);

// Unit vorticity direction of a ring at a point: circles the axis by the right-hand rule.
vec3 ringTangent(const RegionDesc& ring, const vec3& point);

// Orientation from Euler angles in degrees: rotate about fixed x, then y, then z.
quat orientationFromEulerDegrees(const vec3& degrees);

// Body collision shape from a description via src/bodies/shapes.hpp. hole overrides desc.hole
// (validation builds the solid version to measure it). Throws std::invalid_argument.
CollisionShape makeBodyShape(const BodyDesc& desc, bool hole);

// A body description that cannot be built: `key` names the field at fault ("" = the body as a
// whole, e.g. a mass that comes out non-positive).
struct BodyBuildError : std::invalid_argument {
    BodyBuildError(std::string faultyKey, const std::string& what)
        : std::invalid_argument(what), key(std::move(faultyKey)) {}
    std::string key;
};

// The rigid body a description stands for, at its rest pose (shared by the loader, which
// builds it to surface errors while loading, and buildSimulation). Throws BodyBuildError.
RigidBody rigidBodyFromDesc(const BodyDesc& desc);

}  // namespace vfx
