// The presets with a container keep their flow inside it: over 1,000 steps at the preset's own
// step, the flow through the container's walls and the solids in it (the largest normal speed
// relative to the wall over the wall sample points) stays below 1% of the scene's peak speed, the
// fastest of the flow and of the bodies moving it. Checked every fifth step.
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <string>

namespace vfx {
namespace {

TEST(ContainerPresets, NoFlowCrossesTheirWallsByOnePercentOfThePeakSpeed) {
    for (const std::string name : {"sloshing_tank", "drop_in_box", "stratified_ball", "sinking_ball"}) {
        Simulation sim;
        const Scene scene =
            loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/" + name + ".json", {"tracers.0.count=500"});
        buildSimulation(scene, sim);
        double worst = 0.0;
        for (int s = 1; s <= 1000; ++s) {
            sim.step(scene.time.dt);
            if (s % 5 != 0) continue;
            const Diagnostics d = sim.diagnostics();
            double peak = d.maxSpeed;
            for (const RigidBody& b : sim.bodies()) peak = std::max(peak, double(glm::length(b.velocity)));
            worst = std::max(worst, d.wallNormalSpeed / peak);
        }
        std::cout << "[ walls ] " << name << ": wall flow at most " << 100.0 * worst << "% of the peak speed\n";
        EXPECT_LT(worst, 0.01) << name;
    }
}

}  // namespace
}  // namespace vfx
