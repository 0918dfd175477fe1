// The density field on its own (sim/density_field.hpp): the deposit carries exactly the vortons'
// mass deviation and volume, and the coverage-normalised buoyancy field keeps the deposited mass.
#include "sim/density_field.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

namespace vfx {
namespace {

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

}  // namespace
}  // namespace vfx
