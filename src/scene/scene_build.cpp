// buildSimulation: turns a validated Scene into particles and bodies of a Simulation.
#include "bodies/shapes.hpp"
#include "scene/scene.hpp"
#include "scene/scene_geometry.hpp"
#include "sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vfx {
namespace {

std::vector<vec3> samplePoints(const RegionDesc& region, const std::string& source, const std::string& pointer) {
    try {
        return sampleRegion(region);
    } catch (const std::invalid_argument& e) {
        throw SceneError(source + ": " + pointer + ": " + e.what());
    }
}

float densityAt(const RegionDesc& region, const vec3& x) {
    return region.density + glm::dot(region.densityGradient, x - regionDensityOrigin(region));
}

// A vorton's core radius: the region's own, else core_overlap spacings of its share of the volume.
float vortonCoreRadius(const RegionDesc& region, size_t count, float coreOverlap) {
    const float share = regionVolume(region) / float(std::max<size_t>(count, 1));
    return region.vortonRadius > 0.0f ? region.vortonRadius
           : coreOverlap > 0.0f       ? coreOverlap * std::cbrt(share)
                                      : automaticVortonRadius(regionVolume(region), count);
}

// The tube a ring's vortons are laid in. The scene asks for a uniform core of radius a; each
// vorton spreads its vorticity over a ball of radius sigma, which adds (2/5) sigma^2 to the
// core's second moment about its centre line (a^2 / 2 for a uniform core). Laid in a tube of
// radius sqrt(a^2 - (4/5) sigma^2), the vorticity they carry has the asked second moment; sigma
// depends on the tube through the vortons' spacing, so a few rounds find both. Vortons wider than
// the core cannot be narrowed away: the tube keeps at least half the asked radius.
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

// Each vorton stands for an equal share of the region's volume, which carries its mass and
// circulation; its core radius is a separate length: core_overlap spacings unless set by hand.
// A ring's vorticity is uniform in the core, circulation / (pi a^2), so sum |omega| V equals the
// circulation times the ring's length.
void addVortons(const RegionDesc& region, const std::vector<vec3>& points, float coreOverlap, Vortons& vortons) {
    const float share = regionVolume(region) / float(points.size());
    const float sigma = vortonCoreRadius(region, points.size(), coreOverlap);
    const float ringVorticity = region.circulation / (kPi * region.coreRadius * region.coreRadius);
    for (const vec3& x : points) {
        const vec3 omega =
            region.shape == RegionShape::Ring ? ringVorticity * ringTangent(region, x) : region.vorticity;
        vortons.add(x, omega, sigma, densityAt(region, x), share);
    }
}

void addTracers(const RegionDesc& region, const std::vector<vec3>& points, Tracers& tracers) {
    for (const vec3& x : points) {
        const size_t i = tracers.add(x);
        tracers.density[i] = densityAt(region, x);
    }
}

RigidBody makeSceneBody(const BodyDesc& desc, const std::string& source, const std::string& pointer) {
    try {
        return rigidBodyFromDesc(desc);
    } catch (const BodyBuildError& e) {
        throw SceneError(source + ": " + pointer + (e.key.empty() ? "" : "/" + e.key) + ": " + e.what());
    }
}

}  // namespace

void buildSimulation(const Scene& scene, Simulation& sim) {
    const std::string source = scene.path.empty() ? "scene" : scene.path;
    // Build everything first so a failure leaves the simulation untouched.
    Vortons vortons;
    for (size_t i = 0; i < scene.vortons.size(); ++i) {
        const RegionDesc region = ringSeedingTube(scene.vortons[i], scene.fluid.coreOverlap);
        addVortons(region, samplePoints(region, source, "/vortons/" + std::to_string(i)), scene.fluid.coreOverlap,
                   vortons);
    }
    Tracers tracers;
    for (size_t i = 0; i < scene.tracers.size(); ++i)
        addTracers(scene.tracers[i], samplePoints(scene.tracers[i], source, "/tracers/" + std::to_string(i)), tracers);
    std::vector<RigidBody> bodies;
    for (size_t i = 0; i < scene.bodies.size(); ++i)
        bodies.push_back(makeSceneBody(scene.bodies[i], source, "/bodies/" + std::to_string(i)));

    sim.reset();
    sim.fluid() = scene.fluid;
    sim.markQualityApplied();  // the loader applied the level and the values beside it
    sim.vortons() = std::move(vortons);
    sim.tracers() = std::move(tracers);
    sim.bodies() = std::move(bodies);
}

}  // namespace vfx
