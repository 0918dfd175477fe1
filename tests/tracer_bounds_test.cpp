// The grid each sub-step fits around the tracers takes their bounds from the advection pass that
// moved them (sim/tracer_advection.hpp) instead of scanning their positions again: the same grid,
// and so the same bits, as a scan gives, and a scan again wherever the tracers may have moved
// otherwise (an edit through Simulation::editTracers(), the SPH move), and a NaN still caught.
#include "drop_scene.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
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
// the end must be the same bits. 9,001 tracers cross chunks of the pass (4,096 tracers each); a
// last one 2 m to the side of the rest sits in the partial last block of eight, so a pass that
// missed that block would fit a grid without it. The second drop turns hybrid halfway: its SPH
// move leaves no box, and the box of the last grid move must not stand in for it.
TEST(TracerBounds, TheMovedTracersBoundsFitTheGridAScanWould) {
    struct Case {
        std::string name;
        Scene scene;
        int switchToHybridAt;  // frame, or -1
    };
    const Scene drop =
        parseScene(test::authorsDropScene(2176, {{"quality", "game"}, {"viscosity", 0.01}}, 9000), "drop");
    const std::vector<Case> cases = {{"author's drop, game level", drop, -1},
                                     {"author's drop turned hybrid", drop, 10}};
    const float dt = 1.0f / 30.0f;
    for (const Case& c : cases) {
        Simulation moved, scanned;
        buildSimulation(c.scene, moved);
        buildSimulation(c.scene, scanned);
        const vec3 far = moved.tracers().position.front() + vec3(2.0f, 0.0f, 0.0f);
        moved.editTracers().add(far);
        scanned.editTracers().add(far);
        for (int k = 0; k < 20; ++k) {
            if (k == c.switchToHybridAt)
                for (Simulation* sim : {&moved, &scanned}) sim->fluid().method = FluidMethod::Hybrid;
            static_cast<void>(scanned.editTracers());  // handed out: the next frame scans
            moved.step(dt);
            scanned.step(dt);
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

// A tracer made NaN between frames ends the next frame in the advection phase (the pass reports
// it and the finite check then scans the tracers).
TEST(TracerBounds, ATracerMadeNonFiniteEndsTheNextFrame) {
    Simulation sim;
    buildSimulation(parseScene(test::authorsDropScene(2176, {{"quality", "game"}, {"viscosity", 0.01}}, 4096), "drop"),
                    sim);
    for (int k = 0; k < 3; ++k) sim.step(1.0f / 30.0f);
    sim.editTracers().position[100] = vec3(std::nanf(""));
    try {
        sim.step(1.0f / 30.0f);
        ADD_FAILURE() << "a NaN tracer went through a frame";
    } catch (const NonFiniteError& e) {
        EXPECT_EQ(e.phase, "advection");
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
