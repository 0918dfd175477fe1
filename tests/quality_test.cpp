// fluid.quality: a level writes its values, a scene file's own values beside it win, and a level
// changed on a running simulation applies at its next step without undoing later edits.
#include "scene/scene.hpp"
#include "sim/quality.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

namespace vfx {
namespace {

nlohmann::json sceneWith(const nlohmann::json& fluid) {
    return {{"fluid", fluid},
            {"vortons", {{{"shape", "sphere"}, {"center", {0, 0, 0}}, {"radius", 0.5}, {"count", 200}}}}};
}

TEST(Quality, LevelWritesItsValuesAndTheFilesOwnValuesWin) {
    const Scene game = parseScene(sceneWith({{"quality", "game"}}), "game");
    EXPECT_FLOAT_EQ(game.fluid.strainLimit, 2.0f);
    EXPECT_FLOAT_EQ(game.fluid.cflLimit, 2.0f);
    EXPECT_FLOAT_EQ(game.fluid.vortonBudget, 1.0f);
    EXPECT_EQ(game.fluid.maxSubsteps, 8);
    const Scene tuned = parseScene(sceneWith({{"strain_limit", 0.5}, {"quality", "game"}}), "tuned");
    EXPECT_FLOAT_EQ(tuned.fluid.strainLimit, 0.5f);
    EXPECT_FLOAT_EQ(tuned.fluid.cflLimit, 2.0f);
}

TEST(Quality, FilmIsTheDefaultCore) {
    FluidParams film;
    applyQuality(Quality::Film, film);
    const FluidParams defaults;
    EXPECT_EQ(film.strainLimit, defaults.strainLimit);
    EXPECT_EQ(film.cflLimit, defaults.cflLimit);
    EXPECT_EQ(film.maxSubsteps, defaults.maxSubsteps);
    EXPECT_EQ(film.vortonBudget, defaults.vortonBudget);
    EXPECT_EQ(film.gridCellsPerVorton, defaults.gridCellsPerVorton);
}

TEST(Quality, ChangedLiveItAppliesAtTheNextStepAndKeepsLaterEdits) {
    Simulation sim;
    buildSimulation(parseScene(sceneWith({{"quality", "game"}, {"cfl_limit", 1.5}}), "live"), sim);
    sim.step(0.01f);
    EXPECT_FLOAT_EQ(sim.fluid().cflLimit, 1.5f);  // the loader's level and override stand
    sim.fluid().quality = Quality::Preview;
    sim.step(0.01f);
    EXPECT_FLOAT_EQ(sim.fluid().cflLimit, 3.0f);
    sim.fluid().cflLimit = 0.8f;
    sim.step(0.01f);
    EXPECT_FLOAT_EQ(sim.fluid().cflLimit, 0.8f);
}

}  // namespace
}  // namespace vfx
