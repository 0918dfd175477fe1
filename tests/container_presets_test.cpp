// The presets with a container keep their flow and their fluid inside it. Over 1,000 steps at the
// preset's own step: the flow through the container's walls and the solids in it (the largest
// normal speed relative to the wall over the wall sample points) stays below 1% of the scene's
// peak speed, the fastest of the flow and of the bodies moving it (checked every fifth step); no
// vorton or tracer ends outside the container; the fluid's mass (sum of rho' V) moves by under
// 1e-5 of the largest |rho'| V it holds.
#include "bodies/body_motion.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

namespace vfx {
namespace {

// The scale the mass is conserved against: sum |rho'| V (a layered tank's mass deviations cancel).
double massScale(const Vortons& v) {
    double sum = 0.0;
    for (size_t i = 0; i < v.size(); ++i) sum += std::abs(double(v.density[i])) * double(v.volume(i));
    return sum;
}

size_t particlesOutside(const Simulation& sim, const RigidBody& tank) {
    size_t outside = 0;
    for (const vec3& p : sim.vortons().position) outside += contactDistance(tank, p) < -1e-5f ? 1 : 0;
    for (const vec3& p : sim.tracers().position) outside += contactDistance(tank, p) < -1e-5f ? 1 : 0;
    return outside;
}

TEST(ContainerPresets, NoFlowCrossesTheirWallsByOnePercentOfThePeakSpeed) {
    for (const std::string name : {"sloshing_tank", "rocking_tank", "drop_in_box", "stratified_ball", "sinking_ball"}) {
        Simulation sim;
        const Scene scene =
            loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/" + name + ".json", {"tracers.0.count=500"});
        buildSimulation(scene, sim);
        const double mass = sim.diagnostics().massParticles, scale = massScale(sim.vortons());
        double worst = 0.0;
        for (int s = 1; s <= 1000; ++s) {
            sim.step(scene.time.dt);
            if (s % 5 != 0) continue;
            const Diagnostics d = sim.diagnostics();
            double peak = d.maxSpeed;
            for (const RigidBody& b : sim.bodies()) peak = std::max(peak, double(glm::length(b.velocity)));
            worst = std::max(worst, d.wallNormalSpeed / peak);
        }
        const RigidBody& tank =
            *std::find_if(sim.bodies().begin(), sim.bodies().end(), [](const RigidBody& b) { return b.isHole(); });
        const double drift = std::abs(sim.diagnostics().massParticles - mass);
        std::cout << "[ walls ] " << name << ": wall flow at most " << 100.0 * worst << "% of the peak speed, "
                  << particlesOutside(sim, tank) << " particles outside, mass moved " << drift << " of " << scale
                  << "\n";
        EXPECT_LT(worst, 0.01) << name;
        EXPECT_EQ(particlesOutside(sim, tank), 0u) << name;
        EXPECT_LE(drift, 1e-5 * scale) << name;
    }
}

}  // namespace
}  // namespace vfx
