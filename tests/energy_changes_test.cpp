// What each phase changes the field energy by (Simulation::setMeasureEnergyChanges, the stats'
// energy_change_<phase>): the changes add up to the field energy's own change, a remesh's is the
// drop across it, and measuring leaves the flow as it is.
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>

namespace vfx {
namespace {

// A thin ring (R 1, a/R 0.15, circulation 1, 3,000 vortons on a lattice, nu `viscosity`) with the
// core's remesh policy; vortonBudget below 1 makes the loader coarsen the lattice at once.
nlohmann::json ring(double vortonBudget, double viscosity = 0.0) {
    return {{"fluid", {{"gravity", {0, 0, 0}}, {"viscosity", viscosity}, {"vorton_budget", vortonBudget}}},
            {"vortons",
             {{{"shape", "ring"},
               {"center", {0, 0, 0}},
               {"axis", {0, 1, 0}},
               {"radius", 1.0},
               {"core_radius", 0.15},
               {"circulation", 1.0},
               {"count", 3000},
               {"layout", "lattice"}}}}};
}

// A remesh onto a lattice with about a quarter of the vortons changes the field energy the
// particles carry (the discrete sum converges from above as the lattice refines: 1.28 J at 824
// vortons, 1.20 at 3,000, 1.13 at 24,000, against Kelvin's 1.11 J for this core) while the
// lattice's kernel keeps the linear impulse (its first moments). The change counted is exactly
// the change of the field energy across that remesh.
TEST(EnergyChanges, CoarseningRemeshCountsTheFieldEnergyItChanges) {
    Simulation asSeeded;
    buildSimulation(parseScene(ring(0.0), "ring"), asSeeded);
    ASSERT_EQ(asSeeded.remeshCount(), 0L);
    Simulation coarsened;
    coarsened.setMeasureEnergyChanges(true);
    buildSimulation(parseScene(ring(0.3), "ring"), coarsened);
    ASSERT_EQ(coarsened.remeshCount(), 1L);
    ASSERT_LE(coarsened.vortons().size(), 900u);

    const double before = asSeeded.fieldEnergyNow(), after = coarsened.fieldEnergyNow();
    const double change = coarsened.energyBudget().measured.remesh;
    std::cout << "coarsening remesh: " << asSeeded.vortons().size() << " -> " << coarsened.vortons().size()
              << " vortons, field energy " << before << " -> " << after << " J, counted change " << change << " J\n";
    ASSERT_GT(std::abs(after - before), 1e-3 * before);  // a remesh that changed nothing would test nothing
    EXPECT_NEAR(change, after - before, 1e-9 * before);
    const dvec3 p0 = asSeeded.diagnostics().linearImpulse, p1 = coarsened.diagnostics().linearImpulse;
    EXPECT_LT(glm::length(p1 - p0), 1e-4 * glm::length(p0));
}

// Each phase's change runs from the measurement before it to the one after, so over a viscous
// ring's 20 frames (with remeshes) they add up to E(t) - E(0) to round-off (a step that changed
// the vortons between measurements would break it); each lands on its own phase: diffusion, the
// one phase that should take energy from a laminar ring, takes about what viscosity does, the
// rest (stretching, advection, relaxation, remeshing) together less than the 2% a laminar ring
// may lose in 3 s, and the phases that do not run count nothing.
TEST(EnergyChanges, PhasesAddUpToTheFieldEnergysChange) {
    Simulation sim;
    sim.setMeasureEnergyChanges(true);
    buildSimulation(parseScene(ring(2.5, 0.001), "ring"), sim);
    const Diagnostics d0 = sim.diagnostics();
    for (int k = 0; k < 20; ++k) sim.step(0.05f);
    const Diagnostics d1 = sim.diagnostics();
    ASSERT_GT(sim.remeshCount(), 0L);
    const MeasuredEnergyChanges& c = d1.energyChanges;
    const double e0 = d0.fieldEnergy;
    std::cout << "ring, 1 s at nu 0.001: E " << e0 << " -> " << d1.fieldEnergy << " J; by phase:";
    for (const MeasuredEnergyPhase& p : kMeasuredEnergyPhases) std::cout << " " << p.name << " " << c.*p.change / e0;
    std::cout << " (of E(0)); viscous loss " << d1.energyViscousLoss / e0 << "\n";
    EXPECT_NEAR(c.total() - d0.energyChanges.total(), d1.fieldEnergy - e0, 1e-6 * e0);
    EXPECT_EQ(c.baroclinic, 0.0);  // no gravity: the phase does not run
    EXPECT_EQ(c.bodies, 0.0);
    EXPECT_LT(c.diffusion, 0.0);
    EXPECT_NEAR(-c.diffusion, d1.energyViscousLoss + d1.energySubgridLoss, 0.02 * e0);
    EXPECT_LT(std::abs(c.stretching + c.advection + c.relaxation + c.remesh - d0.energyChanges.remesh), 0.02 * e0);
}

// The flow's bits after `frames` frames of a scene with and without measuring.
void expectSameFlowMeasuredOrNot(const Scene& scene, int frames, float dt) {
    Simulation measured, plain;
    measured.setMeasureEnergyChanges(true);
    buildSimulation(scene, measured);
    buildSimulation(scene, plain);
    for (int k = 0; k < frames; ++k) {
        measured.step(dt);
        plain.step(dt);
    }
    EXPECT_EQ(measured.remeshCount(), plain.remeshCount());
    ASSERT_EQ(measured.vortons().size(), plain.vortons().size());
    for (size_t i = 0; i < plain.vortons().size(); ++i) {
        ASSERT_EQ(measured.vortons().position[i], plain.vortons().position[i]) << i;
        ASSERT_EQ(measured.vortons().vorticity[i], plain.vortons().vorticity[i]) << i;
        ASSERT_EQ(measured.vortons().density[i], plain.vortons().density[i]) << i;
    }
    for (size_t i = 0; i < plain.tracers().size(); ++i)
        ASSERT_EQ(measured.tracers().position[i], plain.tracers().position[i]) << i;
    for (size_t b = 0; b < plain.bodies().size(); ++b)
        ASSERT_EQ(measured.bodies()[b].position, plain.bodies()[b].position) << b;
    EXPECT_NE(measured.energyBudget().measured.advection, 0.0);
    EXPECT_EQ(plain.energyBudget().measured.total(), 0.0);
    EXPECT_FALSE(plain.diagnostics().energyChangesMeasured);
}

// Measuring solves the velocity at the vortons after phases, which rebuilds the solver's own
// tree or box solution, and a phase that reads them (the flow at walls and solids) reads the
// ones the velocity phase built after: the frames end at the same bits either way, and nothing
// is counted while not measured. A ring through the tree (with remeshes), the dye drop at the game
// level (gravity, viscosity, the exponential move), a ball sinking in a tank (box solver, a
// dynamic body, its closure) and two drops under the hybrid VPM/SPH method through direct sums.
TEST(EnergyChanges, MeasuringLeavesTheFlowAsItIs) {
    const std::string scenes = std::string(VFX_SOURCE_DIR) + "/scenes/";
    {
        SCOPED_TRACE("ring");
        expectSameFlowMeasuredOrNot(parseScene(ring(2.5), "ring"), 20, 0.05f);
    }
    {
        SCOPED_TRACE("dye drop");
        expectSameFlowMeasuredOrNot(
            loadScene(scenes + "dye_drop.json", {"vortons.0.count=1000", "tracers.0.count=200"}), 10, 1.0f / 30.0f);
    }
    {
        SCOPED_TRACE("sinking ball");
        expectSameFlowMeasuredOrNot(
            loadScene(scenes + "sinking_ball.json", {"vortons.0.count=800", "tracers.0.count=200"}), 6, 0.01f);
    }
    {
        SCOPED_TRACE("two drops, hybrid, direct");
        expectSameFlowMeasuredOrNot(
            loadScene(scenes + "two_drops.json",
                      {"vortons.0.count=300", "vortons.1.count=300", "tracers.0.count=100", "tracers.1.count=100",
                       "fluid.method=hybrid", "fluid.velocity_solver=direct"}),
            6, 0.02f);
    }
}

// A phase switched off changes nothing, and its change is not put on another phase: with the
// same ring without diffusion, stretching and relaxation, their sums stay exactly zero and the
// move's is all that is left.
TEST(EnergyChanges, APhaseSwitchedOffCountsNothing) {
    nlohmann::json scene = ring(2.5, 0.001);
    scene["fluid"]["diffusion"] = false;
    scene["fluid"]["stretching"] = false;
    Simulation sim;
    sim.setMeasureEnergyChanges(true);
    buildSimulation(parseScene(scene, "ring"), sim);
    const double e0 = sim.diagnostics().fieldEnergy;
    for (int k = 0; k < 10; ++k) sim.step(0.05f);
    const MeasuredEnergyChanges& c = sim.energyBudget().measured;
    EXPECT_EQ(c.diffusion, 0.0);
    EXPECT_EQ(c.stretching, 0.0);
    EXPECT_EQ(c.relaxation, 0.0);
    EXPECT_NE(c.advection, 0.0);
    EXPECT_NEAR(c.advection + c.remesh, sim.diagnostics().fieldEnergy - e0, 1e-6 * e0);
}

}  // namespace
}  // namespace vfx
