// The density field (sim/density_field.hpp): the deposit carries exactly the vortons' mass
// deviation and volume, and the coverage-normalised buoyancy field keeps the deposited mass; in a
// whole step the grid holds the particles' mass and its gradient is the centred difference, exact
// for a linear field, with two empty layers at the grid's faces.
#include "density_lattice.hpp"
#include "sim/density_field.hpp"
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace vfx {
namespace {

using test::buildLattice;
using test::insideLattice;
using test::kDt;
using test::kGravity;
using test::LatticeSetup;

// A grid around a ball of vortons with two empty layers at every face, as the step lays it.
GridShape gridAround(const test::BallSpec& ball, size_t targetCells) {
    const vec3 reach(ball.radius * 1.2f);
    GridShape shape = GridShape::fitBox(ball.centre - reach, ball.centre + reach, targetCells, 1e-4f);
    for (int a = 0; a < 3; ++a) {
        shape.minCorner[a] -= 2.0f * shape.spacing[a];
        shape.points[a] += 4;
    }
    return shape;
}

double sum(const UniformGrid<float>& grid) {
    double total = 0.0;
    for (float v : grid.values()) total += v;
    return total;
}

// Each vorton's 8 trilinear weights sum to one, so the grid holds sum rho' V and sum V up to the
// float rounding of the weights and of the dozen additions behind each point (relative 1e-5).
TEST(DensityField, DepositCarriesExactlyTheVortonsMassAndVolume) {
    const test::BallSpec ball{vec3(0.1f, -0.2f, 0.3f), 0.5f, 3000, 0.7f, vec3(0.0f), 5};
    Vortons vortons;
    test::addBall(vortons, ball);
    const GridShape shape = gridAround(ball, vortons.size());
    CellPartition partition;
    partition.build(shape, vortons.position);
    DensityField field;
    field.depositVortons(vortons, partition, shape);
    EXPECT_FALSE(field.gradientGridCurrent()) << "a new deposit has no gradient grid yet";
    double mass = 0.0, volume = 0.0;
    for (size_t i = 0; i < vortons.size(); ++i) {
        mass += double(vortons.density[i]) * vortons.volume(i);
        volume += vortons.volume(i);
    }
    const double cellVolume = shape.cellVolume();
    EXPECT_NEAR(sum(field.densityGrid()) * cellVolume, mass, 1e-5 * mass);
    EXPECT_NEAR(sum(field.coverage()) * cellVolume, volume, 1e-5 * volume);
    field.computeGradientGrid();
    EXPECT_TRUE(field.gradientGridCurrent());
    EXPECT_EQ(field.gradientGrid().size(), shape.pointCount());
}

// The coverage ramp moves the mass of a random ball's thin edge; the heavy part of the field is
// scaled back to the deposited heavy mass, so the baroclinic source's impulse rate stays
// g sum(rho' V) / rho0. Without coverage normalisation the field is the deposit itself.
TEST(DensityField, BuoyancyFieldKeepsTheDepositedMass) {
    const test::BallSpec ball{vec3(0.0f), 0.5f, 3000, 0.7f, vec3(0.0f), 9};
    Vortons vortons;
    test::addBall(vortons, ball);
    const GridShape shape = gridAround(ball, vortons.size());
    CellPartition partition;
    partition.build(shape, vortons.position);
    DensityField field;
    field.depositVortons(vortons, partition, shape);
    FluidParams fluid;
    fluid.coverageDensity = true;
    field.computeBuoyancyField(fluid, {});
    const double deposited = sum(field.densityGrid());
    ASSERT_NE(&field.buoyancyField(), &field.densityGrid());
    EXPECT_NEAR(sum(field.buoyancyField()), deposited, 1e-5 * deposited);
    fluid.coverageDensity = false;
    field.computeBuoyancyField(fluid, {});
    EXPECT_EQ(&field.buoyancyField(), &field.densityGrid());
}

// --- mass on the grid ---------------------------------------------------------------------------

// Trilinear deposit weights sum to one per vorton, so sum_grid rho' V_cell = sum_vortons rho' V
// (relative 1e-5: float accumulation). The particles' mass also equals rho' * ball volume
// because the core radii are chosen so that N V = ball volume.
TEST(BuoyancyMass, GridMassEqualsParticleMass) {
    Simulation sim;
    const test::BallSpec ball{vec3(0.0f, 1.0f, 0.0f), 0.5f, 3000, 0.5f, vec3(0.0f), 7};
    test::addBall(sim.vortons(), ball);
    const double expected = double(ball.density) * sphereVolume(ball.radius);
    for (int k = 0; k < 10; ++k) {
        sim.step(kDt);
        const Diagnostics d = sim.diagnostics();
        EXPECT_NEAR(d.massParticles, expected, 1e-5 * expected);
        EXPECT_NEAR(d.massGrid, d.massParticles, 1e-5 * d.massParticles) << "step " << k;
    }
}

// Mixed signs (heavy and light halves) do not hide a wrong weight: each half is checked by the
// total of its absolute value too.
TEST(BuoyancyMass, GridMassEqualsParticleMassForTwoDrops) {
    Simulation sim;
    test::addBall(sim.vortons(), test::BallSpec{vec3(-0.6f, 0.0f, 0.0f), 0.4f, 1500, 0.5f, vec3(0.0f), 1});
    test::addBall(sim.vortons(), test::BallSpec{vec3(0.6f, 0.1f, 0.0f), 0.3f, 1000, -0.25f, vec3(0.0f), 2});
    sim.step(kDt);
    const Diagnostics d = sim.diagnostics();
    double absoluteGrid = 0.0;
    for (float rho : sim.densityGrid().values()) absoluteGrid += std::abs(rho);
    absoluteGrid *= sim.gridShape().cellVolume();
    double absoluteParticles = 0.0;
    for (size_t i = 0; i < sim.vortons().size(); ++i)
        absoluteParticles += std::abs(sim.vortons().density[i]) * sim.vortons().volume(i);
    EXPECT_NEAR(d.massGrid, d.massParticles, 1e-5 * absoluteParticles);
    // The two drops are far apart (no grid point receives both signs), so |rho'| sums agree too.
    EXPECT_NEAR(absoluteGrid, absoluteParticles, 1e-5 * absoluteParticles);
}

// --- density gradient on the grid -------------------------------------------------------------

TEST(DensityGradient, LinearFieldIsExactInTheInterior) {
    Simulation sim;
    const LatticeSetup s;
    buildLattice(sim, s);
    sim.fluid().gravity = kGravity;
    sim.step(kDt);
    const GridShape& shape = sim.gridShape();
    const float h = LatticeSetup::kSpacing;
    ASSERT_NEAR(shape.spacing.x, h, 1e-6f) << "grid spacing not forced to the lattice spacing";
    int densityChecked = 0, gradientChecked = 0;
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) {
                const vec3 p = shape.pointPosition(x, y, z);
                if (insideLattice(p, 0.0f, s)) {
                    // Exact up to float round-off of the sums (1e-5 of the field's scale 1).
                    EXPECT_NEAR(sim.densityGrid().at(x, y, z), s.a + glm::dot(s.b, p), 1e-5f);
                    ++densityChecked;
                }
                if (insideLattice(p, h, s)) {
                    const vec3 g = sim.densityGradientGrid().at(x, y, z);
                    for (int c = 0; c < 3; ++c)
                        EXPECT_NEAR(g[c], s.b[c], 2e-4f) << "point " << x << "," << y << "," << z;
                    ++gradientChecked;
                }
            }
    EXPECT_GT(densityChecked, 500);
    EXPECT_GT(gradientChecked, 200);
    // Vortons two spacings inside see exactly b, and their baroclinic vorticity after one step
    // (the velocity was zero, so stretching and advection did not act) is dt (b x g) / rho0.
    const vec3 expectedOmega = kDt * glm::cross(s.b, kGravity) / sim.fluid().ambientDensity;
    const LatticeSetup original;
    int vortonsChecked = 0;
    for (size_t i = 0; i < sim.vortons().size(); ++i) {
        const vec3 start = sim.vortons().position[i] - kDt * sim.vortons().velocity[i];
        if (!insideLattice(start, 2.0f * h, original)) continue;
        const vec3 g = sim.vortons().densityGradient[i];
        const vec3 w = sim.vortons().vorticity[i];
        for (int c = 0; c < 3; ++c) {
            EXPECT_NEAR(g[c], s.b[c], 2e-4f) << "vorton " << i;
            EXPECT_NEAR(w[c], expectedOmega[c], 2e-4f * kDt * 9.8f) << "vorton " << i;
        }
        ++vortonsChecked;
    }
    EXPECT_EQ(vortonsChecked, 8 * 8 * 8);
}

// Centred differences (one-sided on the 6 faces): the gradient grid must be exactly that stencil
// applied to the field it differentiates (a random ball), with and without coverage
// normalisation, and the grid keeps two empty layers of points around the deposit.
TEST(DensityGradient, CentredInsideWithEmptyLayersAtTheFaces) {
    for (bool coverage : {false, true}) {
        Simulation sim;
        sim.fluid().coverageDensity = coverage;
        test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 1500, 0.5f, vec3(0.0f), 4});
        sim.step(kDt);
        const UniformGrid<float> rho = sim.buoyancyDensityGrid();
        const UniformGrid<vec3>& grad = sim.densityGradientGrid();
        const GridShape& s = rho.shape();
        int nonZeroFaces = 0;
        for (int z = 0; z < s.points.z; ++z)
            for (int y = 0; y < s.points.y; ++y)
                for (int x = 0; x < s.points.x; ++x)
                    for (int a = 0; a < 3; ++a) {
                        ivec3 p(x, y, z), lo = p, hi = p;
                        const bool lowFace = p[a] == 0, highFace = p[a] == s.points[a] - 1;
                        lo[a] = lowFace ? p[a] : p[a] - 1;
                        hi[a] = highFace ? p[a] : p[a] + 1;
                        const float want = (rho.at(hi.x, hi.y, hi.z) - rho.at(lo.x, lo.y, lo.z)) /
                                           (float(hi[a] - lo[a]) * s.spacing[a]);
                        const float got = grad.at(x, y, z)[a];
                        EXPECT_NEAR(got, want, 1e-5f * (std::abs(want) + 1.0f));
                        const bool nearFace = p[a] <= 1 || p[a] >= s.points[a] - 2;
                        if (nearFace && rho.at(x, y, z) != 0.0f) ++nonZeroFaces;
                    }
        // Two empty layers at every face: the centred differences then sum by parts exactly, which
        // is what makes the baroclinic source's impulse exactly g sum(rho' V) / rho0.
        EXPECT_EQ(nonZeroFaces, 0) << "the deposit reaches the grid's two outer layers";
    }
}

// Under VPM without walls the grid holds those two empty layers and no third: every face lies at
// least two spacings past the outermost vorton (its cloud-in-cell deposit reaches the points of
// its own cell) and less than three, where the padding by the largest core and the rounding of
// each axis already leave part of the room (an extra layer of points would cost every grid pass
// about a sixth more at 20 points an axis and carry nothing). A ball of heavy fluid, as it
// loads and once it has fallen and spread for 30 steps (not remeshed, so each step's grid is
// fitted to the vortons as the step found them).
TEST(DensityGradient, GridEndsBetweenTwoAndThreeSpacingsPastTheVortons) {
    Simulation sim;
    sim.fluid().gravity = vec3(0.0f, -10.0f, 0.0f);
    sim.fluid().remeshStrain = 0.0f;
    test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 1500, 0.5f, vec3(0.0f), 4});
    for (int steps : {1, 30}) {
        for (int k = 1; k < steps; ++k) sim.step(kDt);
        const std::vector<vec3> fitted = sim.vortons().position;
        sim.step(kDt);
        const GridShape& s = sim.gridShape();
        vec3 lo(1e30f), hi(-1e30f);
        for (const vec3& p : fitted) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
        for (int a = 0; a < 3; ++a) {
            const float h = s.spacing[a];
            const float below = (lo[a] - s.minCorner[a]) / h;
            const float above = (s.minCorner[a] + float(s.points[a] - 1) * h - hi[a]) / h;
            EXPECT_GE(below, 2.0f) << "axis " << a << " after " << steps;
            EXPECT_GE(above, 2.0f) << "axis " << a << " after " << steps;
            EXPECT_LT(below, 3.01f) << "axis " << a << " after " << steps;
            EXPECT_LT(above, 3.01f) << "axis " << a << " after " << steps;
        }
    }
}

}  // namespace
}  // namespace vfx
