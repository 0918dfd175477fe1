// The loader's prepared first frame (Simulation::prepareFirstFrame): taken and undone, it leaves
// nothing a user can see and changes no bit of the frames that follow.
#include "drop_scene.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace vfx {
namespace {

template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// A simulation holding what buildSimulation left in `loaded`, set through the public interface
// and never prepared.
void copyUnprepared(const Simulation& loaded, Simulation& sim) {
    sim.fluid() = loaded.fluid();
    sim.markQualityApplied();
    sim.vortons() = loaded.vortons();
    sim.editTracers() = loaded.tracers();
    sim.bodies() = loaded.bodies();
}

void expectSameState(const Simulation& a, const Simulation& b, const std::string& what) {
    EXPECT_TRUE(sameBits(a.vortons().position, b.vortons().position)) << what;
    EXPECT_TRUE(sameBits(a.vortons().vorticity, b.vortons().vorticity)) << what;
    EXPECT_TRUE(sameBits(a.vortons().density, b.vortons().density)) << what;
    EXPECT_TRUE(sameBits(a.tracers().position, b.tracers().position)) << what;
    ASSERT_EQ(a.bodies().size(), b.bodies().size()) << what;
    for (size_t i = 0; i < a.bodies().size(); ++i) {
        EXPECT_EQ(0, std::memcmp(&a.bodies()[i].position, &b.bodies()[i].position, sizeof(vec3))) << what;
        EXPECT_EQ(0, std::memcmp(&a.bodies()[i].velocity, &b.bodies()[i].velocity, sizeof(vec3))) << what;
    }
    EXPECT_EQ(a.stepCount(), b.stepCount()) << what;
    EXPECT_EQ(a.remeshCount(), b.remeshCount()) << what;
    EXPECT_EQ(a.time(), b.time()) << what;
    EXPECT_EQ(a.energyBudget().viscousLoss, b.energyBudget().viscousLoss) << what;
    EXPECT_EQ(a.energyBudget().buoyancyWork, b.energyBudget().buoyancyWork) << what;
}

// Frames after the prepared one against frames of the same scene never prepared: the author's
// drop at the game and film levels (two-step histories, remeshes to the cap, sub-steps), a ball in
// a layered tank (a body, walls and their sources) and the hybrid VPM/SPH drop (SPH history).
TEST(FirstFrame, PreparedFramesAreTheBitsOfUnpreparedOnes) {
    struct Case {
        std::string name;
        Scene scene;
        float dt;
        int frames;
    };
    std::vector<Case> cases;
    for (const char* level : {"game", "film"})
        cases.push_back(
            {std::string("author's drop, ") + level,
             parseScene(test::authorsDropScene(2176, {{"quality", level}, {"viscosity", 0.01}}, 4096), "drop"),
             1.0f / 30.0f, 40});
    cases.push_back({"stratified ball",
                     loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/stratified_ball.json", {"tracers.0.count=500"}),
                     0.01f, 20});
    cases.push_back({"hybrid drop",
                     parseScene(test::authorsDropScene(1000, {{"method", "hybrid"}, {"viscosity", 0.01}}, 500), "drop"),
                     0.01f, 20});
    for (const Case& c : cases) {
        Simulation prepared, unprepared;
        buildSimulation(c.scene, prepared);
        copyUnprepared(prepared, unprepared);
        expectSameState(prepared, unprepared, c.name + " as loaded");
        for (int k = 0; k < c.frames; ++k) {
            prepared.step(c.dt);
            unprepared.step(c.dt);
        }
        expectSameState(prepared, unprepared, c.name + " after " + std::to_string(c.frames) + " frames");
    }
}

// Before its first real frame a loaded simulation shows what an unprepared one does: no step, no
// time, no grids, no eddy viscosity, no energy counted.
TEST(FirstFrame, ALoadedSimulationShowsNoFrameTaken) {
    Simulation sim;
    buildSimulation(parseScene(test::authorsDropScene(2176, {{"quality", "game"}, {"viscosity", 0.01}}, 4096), "drop"),
                    sim);
    EXPECT_EQ(sim.stepCount(), 0);
    EXPECT_EQ(sim.time(), 0.0);
    EXPECT_EQ(sim.lastSubsteps(), 0);
    EXPECT_EQ(sim.velocityGrid().size(), 0u);
    EXPECT_EQ(sim.jacobianGrid().size(), 0u);
    EXPECT_EQ(sim.densityGrid().size(), 0u);
    EXPECT_TRUE(sim.eddyViscosity().empty());
    EXPECT_EQ(sim.energyBudget().viscousLoss, 0.0);
    EXPECT_EQ(sim.energyBudget().subgridLoss, 0.0);
    EXPECT_EQ(sim.energyBudget().buoyancyWork, 0.0);
    const Diagnostics d = sim.diagnostics();
    EXPECT_EQ(d.enstrophy, 0.0);
    EXPECT_EQ(d.massGrid, 0.0);
}

}  // namespace
}  // namespace vfx
