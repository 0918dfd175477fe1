// Under vpm the tracers' move runs beside the vorton phases of each sub-step (sim/simulation.cpp,
// moveTracersBeside): it must read the sub-step's own grid flow, and move every tracer once. A
// tracer laid on a vorton is carried by the same flow with the same Adams-Bashforth rule as the
// vorton (both are material points), so it must stay on it. (Reading the past step lengths after
// the vortons' move changed them would alter only the weights' second-order part, below this
// check's reach; the ThreadSanitizer stage, which runs this test, sees that race.)
#include "drop_scene.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace vfx {
namespace {

// The author's drop at the film level (the three-step rule for vortons and tracers alike,
// sub-steps of 1/240 s), never remeshed so the vortons stay the same particles, on two threads.
// The pair differ only in rounding (the tracers' kernel fuses multiply-adds and reads a packed
// grid): a few ulp of |x| ~ 5 m (4.8e-7 m) a sub-step over 24 sub-steps, grown by at most
// exp(max|grad u| t) ~ 1.5 in 0.1 s, is under 4e-5 m; 1e-4 m is the bound. A tracer moved with
// the last sub-step's grid instead would drift by (du/dt) dt^2 ~ 5 m/s^2 (1/240 s)^2 = 9e-5 m a
// sub-step (2e-3 m over the run), and a tracer left unmoved or moved twice by u dt ~ 1e-3 m.
TEST(ParallelTracerMove, TracersLaidOnTheVortonsMoveWithThemThroughEverySubstep) {
    const Scene drop = parseScene(test::authorsDropScene(2176, {{"quality", "film"}, {"remesh_strain", 0.0}}), "drop");
    Simulation sim;
    buildSimulation(drop, sim);
    sim.setThreads(2);
    const std::vector<vec3> start = sim.vortons().position;
    for (const vec3& x : start) sim.editTracers().add(x);
    const float dt = 1.0f / 30.0f;
    for (int frame = 0; frame < 3; ++frame) sim.step(dt);
    ASSERT_EQ(sim.vortons().size(), start.size()) << "the vortons were remeshed";
    float apart = 0.0f, moved = 0.0f;
    for (size_t i = 0; i < start.size(); ++i) {
        apart = std::max(apart, glm::length(sim.tracers().position[i] - sim.vortons().position[i]));
        moved = std::max(moved, glm::length(sim.vortons().position[i] - start[i]));
    }
    EXPECT_LT(apart, 1e-4f) << "largest tracer-vorton distance after 3 frames (m)";
    EXPECT_GT(moved, 1e-2f) << "the drop must move for the check to mean anything (m)";
}

}  // namespace
}  // namespace vfx
