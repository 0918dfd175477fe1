#include "sim/wall_flow.hpp"

#include "bodies/surface_samples.hpp"
#include "sim/potential_flow.hpp"
#include "sim/simulation.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

std::vector<WallFlowSample> measureWallFlow(const Simulation& sim, int samplesPerBody) {
    std::vector<WallFlowSample> samples;
    const std::vector<RigidBody>& bodies = sim.bodies();
    for (size_t b = 0; b < bodies.size(); ++b) {
        const RigidBody& body = bodies[b];
        for (const SurfaceSample& s : surfaceSamples(body.shape, samplesPerBody)) {
            WallFlowSample w;
            w.position = body.toWorld(s.position);
            w.normal = glm::normalize(body.orientation * s.normal);
            w.body = int(b);
            samples.push_back(w);
        }
    }
    if (samples.empty()) return samples;
    std::vector<vec3> points(samples.size()), induced;
    for (size_t i = 0; i < samples.size(); ++i) points[i] = samples[i].position;
    // The box solver also gives a turning box's still water its flow.
    if (sim.vortons().size() > 0 || sim.fluid().velocitySolver == VelocitySolver::Box)
        sim.velocityAtPoints(points, induced);
    else
        induced.assign(points.size(), vec3(0.0f));
    const std::vector<PotentialFlow> pushed = sim.pushedFlowsNow();
    for (size_t i = 0; i < samples.size(); ++i) {
        WallFlowSample& w = samples[i];
        const vec3 u = induced[i] + potentialFlowVelocity(pushed, w.position) + sim.wallSourceVelocity(w.position);
        const vec3 relative = u - bodies[size_t(w.body)].surfaceVelocity(w.position);
        w.normalSpeed = std::abs(glm::dot(relative, w.normal));
    }
    return samples;
}

float largestWallNormalSpeed(const std::vector<WallFlowSample>& samples) {
    float largest = 0.0f;
    for (const WallFlowSample& s : samples) largest = std::max(largest, s.normalSpeed);
    return largest;
}

}  // namespace vfx
