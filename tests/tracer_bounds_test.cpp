// The grid each sub-step fits around the tracers takes their bounds from the advection pass that
// moved them (sim/tracer_advection.hpp) instead of scanning their positions again: the same grid,
// and so the same bits, as a scan gives, and a scan again wherever the tracers may have moved
// otherwise (an edit through Simulation::editTracers(), the bodies' collisions, the SPH move).
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

bool sameShape(const GridShape& a, const GridShape& b) {
    return a.points == b.points && std::memcmp(&a.minCorner, &b.minCorner, sizeof(vec3)) == 0 &&
           std::memcmp(&a.spacing, &b.spacing, sizeof(vec3)) == 0;
}

// Two copies of each scene, one of which hands out its tracers for editing before every frame
// (so its grid is fitted to a scan of their positions): every frame's grid and the particles at
// the end must be the same bits. Each scene gains a last tracer 2 m to the side of the rest, in
// the partial last block of eight, so a pass that missed that block would fit a grid without it.
TEST(TracerBounds, TheMovedTracersBoundsFitTheGridAScanWould) {
    struct Case {
        std::string name;
        Scene scene;
        float dt;
        int frames;
    };
    const std::vector<Case> cases = {
        {"author's drop, game level",
         parseScene(test::authorsDropScene(2176, {{"quality", "game"}, {"viscosity", 0.01}}, 4093), "drop"),
         1.0f / 30.0f, 30},
        {"stratified ball (a body)",
         loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/stratified_ball.json", {"tracers.0.count=501"}), 0.01f, 20},
        {"hybrid drop (the SPH move)",
         parseScene(test::authorsDropScene(1000, {{"method", "hybrid"}, {"viscosity", 0.01}}, 499), "drop"), 0.01f,
         20}};
    for (const Case& c : cases) {
        Simulation moved, scanned;
        buildSimulation(c.scene, moved);
        buildSimulation(c.scene, scanned);
        const vec3 far = moved.tracers().position.front() + vec3(2.0f, 0.0f, 0.0f);
        moved.editTracers().add(far);
        scanned.editTracers().add(far);
        for (int k = 0; k < c.frames; ++k) {
            static_cast<void>(scanned.editTracers());  // handed out: the next frame scans
            moved.step(c.dt);
            scanned.step(c.dt);
            ASSERT_TRUE(sameShape(moved.velocityGrid().shape(), scanned.velocityGrid().shape()))
                << c.name << ", frame " << k;
        }
        const Simulation& a = moved;
        const Simulation& b = scanned;
        EXPECT_TRUE(sameBits(a.tracers().position, b.tracers().position)) << c.name;
        EXPECT_TRUE(sameBits(a.vortons().position, b.vortons().position)) << c.name;
        EXPECT_TRUE(sameBits(a.vortons().vorticity, b.vortons().vorticity)) << c.name;
    }
}

// A tracer moved through Simulation::editTracers() between frames is inside the next frame's grid,
// however far it went from where the last advection left the tracers.
TEST(TracerBounds, ATracerEditedBetweenFramesIsInsideTheNextGrid) {
    Simulation sim;
    buildSimulation(parseScene(test::authorsDropScene(2176, {{"quality", "game"}, {"viscosity", 0.01}}, 4096), "drop"),
                    sim);
    for (int k = 0; k < 3; ++k) sim.step(1.0f / 30.0f);
    const vec3 edited(4.0f, 5.0f, 0.0f);  // the ball's tracers lie within about 1.2 m of (0, 5, 0)
    ASSERT_FALSE(sim.velocityGrid().shape().encloses(edited));
    sim.editTracers().position[0] = edited;
    sim.step(1.0f / 30.0f);
    EXPECT_TRUE(sim.velocityGrid().shape().encloses(edited));
}

}  // namespace
}  // namespace vfx
