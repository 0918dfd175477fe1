// What each phase changes the field energy by (Simulation::setMeasureEnergyChanges, the stats'
// energy_change_<phase>): the changes add up to the field energy's own change, a remesh's is the
// drop across it, and measuring leaves the flow as it is.
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

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

// The phases' changes cover every change of the vortons, so over a viscous ring's 20 frames
// (with remeshes) they add up to E(t) - E(0) to round-off; and diffusion, the one phase that
// should take energy from a laminar ring, takes about what viscosity does, the rest (stretching,
// advection, relaxation, remeshing) together less than the 2% a laminar ring may lose in 3 s.
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

// Measuring solves the velocity at the vortons after phases and writes nothing the step reads:
// a ring's 20 frames (with remeshes) end at the same bits either way, and nothing is counted
// while not measured.
TEST(EnergyChanges, MeasuringLeavesTheFlowAsItIs) {
    Simulation measured, plain;
    measured.setMeasureEnergyChanges(true);
    buildSimulation(parseScene(ring(2.5), "ring"), measured);
    buildSimulation(parseScene(ring(2.5), "ring"), plain);
    for (int k = 0; k < 20; ++k) {
        measured.step(0.05f);
        plain.step(0.05f);
    }
    ASSERT_GT(plain.remeshCount(), 0L);
    EXPECT_EQ(measured.remeshCount(), plain.remeshCount());
    ASSERT_EQ(measured.vortons().size(), plain.vortons().size());
    for (size_t i = 0; i < plain.vortons().size(); ++i) {
        ASSERT_EQ(measured.vortons().position[i], plain.vortons().position[i]) << i;
        ASSERT_EQ(measured.vortons().vorticity[i], plain.vortons().vorticity[i]) << i;
    }
    EXPECT_NE(measured.energyBudget().measured.advection, 0.0);
    EXPECT_EQ(plain.energyBudget().measured.total(), 0.0);
    EXPECT_FALSE(plain.diagnostics().energyChangesMeasured);
}

}  // namespace
}  // namespace vfx
