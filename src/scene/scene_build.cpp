// buildSimulation: turns a validated Scene into particles and bodies of a Simulation.
#include "bodies/shapes.hpp"
#include "scene/scene.hpp"
#include "scene/scene_geometry.hpp"
#include "sim/simulation.hpp"
#include "sim/sphere_closure.hpp"

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

    for (const RigidBody& body : bodies)
        if (body.shape.kind == ShapeKind::Sphere) prepareSphereClosures();

    sim.reset();
    sim.fluid() = scene.fluid;
    sim.markQualityApplied();  // the loader applied the level and the values beside it
    sim.vortons() = std::move(vortons);
    sim.editTracers() = std::move(tracers);
    sim.bodies() = std::move(bodies);
    sim.fitVortonsToLevel();
    sim.prepareFirstFrame(scene.time.dt);
}

}  // namespace vfx
