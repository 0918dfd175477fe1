// The energy budget's terms (sim/energy_budget) against hand-computed sums: the resolved
// enstrophy of a solid rotation, the viscous and subgrid losses of one diffusion sub-step, and
// the work gravity does on a falling density deviation.
#include "sim/energy_budget.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

namespace vfx {
namespace {

TEST(EnergyBudget, ResolvedEnstrophyOfSolidRotation) {
    GridShape shape;
    shape.spacing = vec3(0.2f);
    shape.points = ivec3(5, 4, 3);
    UniformGrid<mat3> gradient;
    gradient.reset(shape, test::rotationGradient(1.5f));
    // |curl u|^2 = 9 (1/s^2) at each of 60 points, each standing for 0.008 m^3 (0.2 m is not exact
    // in binary: the float cell volume is off by a few parts in 1e7).
    EXPECT_NEAR(resolvedEnstrophy(gradient), 9.0 * 60 * 0.008, 1e-6 * 4.32);
}

Vortons twoVortons() {
    Vortons v;
    v.add(vec3(0.0f), vec3(0.0f), 0.1f, 0.5f, 0.002f);
    v.add(vec3(1.0f), vec3(0.0f), 0.1f, -0.25f, 0.004f);
    v.velocity[0] = vec3(0.0f, -1.0f, 0.0f);
    v.velocity[1] = vec3(0.0f, 2.0f, 0.0f);
    return v;
}

TEST(EnergyBudget, DiffusionLossesAreViscosityTimesResolvedEnstrophy) {
    const Vortons v = twoVortons();
    GridShape shape;
    shape.spacing = vec3(0.5f);
    shape.points = ivec3(2, 2, 2);
    UniformGrid<mat3> grid;
    grid.reset(shape, test::rotationGradient(1.0f));  // enstrophy 4 * 8 * 0.125 = 4 m^3/s^2
    const std::vector<mat3> atVortons{test::rotationGradient(1.0f), test::rotationGradient(2.0f)};
    EnergyBudget budget;
    budget.addDiffusion(v, atVortons, grid, 0.01f, {0.1f, 0.2f}, 2.0f, 0.5f);
    EXPECT_NEAR(budget.viscousLoss, 2.0 * 0.01 * 4.0 * 0.5, 1e-7);
    // rho0 dt sum nu_t |curl u|^2 V = 2 * 0.5 * (0.1 * 4 * 0.002 + 0.2 * 16 * 0.004)
    EXPECT_NEAR(budget.subgridLoss, 2.0 * 0.5 * (0.1 * 4 * 0.002 + 0.2 * 16 * 0.004), 1e-8);
}

TEST(EnergyBudget, BuoyancyWorkIsTheWorkOfGravityOnTheDeviation) {
    const Vortons v = twoVortons();
    EnergyBudget budget;
    budget.addBuoyancy(v, vec3(0.0f, -10.0f, 0.0f), 0.1f);
    // sum rho' V g.u dt = (0.5 * 0.002 * 10 + (-0.25) * 0.004 * (-20)) * 0.1
    EXPECT_NEAR(budget.buoyancyWork, (0.5 * 0.002 * 10.0 + 0.25 * 0.004 * 20.0) * 0.1, 1e-8);
}

}  // namespace
}  // namespace vfx
