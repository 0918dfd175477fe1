// The energy budget's terms (sim/energy_budget) against hand-computed sums: the resolved
// enstrophy of a solid rotation and of a shear-wave packet, the viscous and subgrid losses of one
// diffusion sub-step, and the work gravity does on a falling density deviation.
#include "sim/energy_budget.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace vfx {
namespace {

// u = (-omega y, omega x, 0) at every point of a grid: curl u = (0, 0, 2 omega).
UniformGrid<vec3> solidRotation(const GridShape& shape, float omega) {
    UniformGrid<vec3> grid;
    grid.reshape(shape);
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) {
                const vec3 p = shape.pointPosition(x, y, z);
                grid.at(x, y, z) = vec3(-omega * p.y, omega * p.x, 0.0f);
            }
    return grid;
}

// Before its first step a simulation has no velocity grid: its enstrophy is zero.
TEST(EnergyBudget, ResolvedEnstrophyOfAnUnsolvedGridIsZero) { EXPECT_EQ(resolvedEnstrophy(UniformGrid<vec3>()), 0.0); }

TEST(EnergyBudget, ResolvedEnstrophyOfSolidRotation) {
    GridShape shape;
    shape.spacing = vec3(0.2f);
    shape.points = ivec3(6, 5, 3);
    // |curl u|^2 = 9 (1/s^2) at each of 90 points, each standing for 0.008 m^3. Differences of a
    // linear field are exact but for float rounding, a few parts in 1e7 of the sum (0.2 m is not
    // exact in binary either); the bound is 1e-5 of it.
    EXPECT_NEAR(resolvedEnstrophy(solidRotation(shape, 1.5f)), 9.0 * 90 * 0.008, 1e-5 * 6.48);
}

// A shear-wave packet u = (0, 0, f(x)), f = sin(kx) exp(-x^2 / 2s^2), at kh = 0.5 (a wave 12.6
// grid spacings long, as across a vortex core a few spacings wide), quiet at the grid's faces:
// |curl u|^2 = f'(x)^2, whose grid sum from the exact derivative is its integral to far below 1e-3
// (a smooth, decaying integrand). Second-order differences take sin(kh)/kh of each wave's
// derivative (the enstrophy 8% low); fourth-order ones (8 sin kh - sin 2kh)/(6 kh) (0.4% low).
TEST(EnergyBudget, ResolvedEnstrophyTakesTheCurlToFourthOrder) {
    const float k = 1.0f, h = 0.5f, s = 6.0f;
    GridShape shape;
    shape.spacing = vec3(h);
    shape.points = ivec3(121, 3, 3);
    shape.minCorner = vec3(-30.0f, 0.0f, 0.0f);  // +-5 s: the packet is below 1e-5 at the faces
    UniformGrid<vec3> grid;
    grid.reshape(shape);
    double exact = 0.0;
    for (int x = 0; x < shape.points.x; ++x) {
        const double px = double(shape.pointPosition(x, 0, 0).x);
        const double envelope = std::exp(-px * px / (2.0 * double(s * s)));
        const double slope =
            envelope * (double(k) * std::cos(double(k) * px) - px / double(s * s) * std::sin(double(k) * px));
        exact += slope * slope * 9.0 * double(h * h * h);
        for (int y = 0; y < 3; ++y)
            for (int z = 0; z < 3; ++z) grid.at(x, y, z) = vec3(0.0f, 0.0f, float(std::sin(double(k) * px) * envelope));
    }
    EXPECT_NEAR(resolvedEnstrophy(grid), exact, 0.01 * exact);
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
    const UniformGrid<vec3> grid = solidRotation(shape, 1.0f);  // enstrophy 4 * 8 * 0.125 = 4 m^3/s^2
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
