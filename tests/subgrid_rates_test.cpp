// Subgrid eddy-viscosity models (sim/subgrid_rates): each model's rate against closed forms for
// velocity gradients whose answer is known by hand, and the flows each model is built to leave
// alone (pure shear, solid rotation, planar flow, isotropic expansion).
#include "sim/subgrid_rates.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace vfx {
namespace {

// grad u with g[j][i] = du_i/dx_j, built from a row-major table du_i/dx_j = a[i][j].
mat3 gradient(const float a[3][3]) {
    mat3 g(0.0f);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) g[j][i] = a[i][j];
    return g;
}

const float kShear[3][3] = {{0, 2, 0}, {0, 0, 0}, {0, 0, 0}};       // u_x = 2 y
const float kRotation[3][3] = {{0, -3, 0}, {3, 0, 0}, {0, 0, 0}};   // solid rotation about z
const float kPlanar[3][3] = {{1, 2, 0}, {0.5f, -1, 0}, {0, 0, 0}};  // a 2-component flow of rank 2
const float kExpansion[3][3] = {{2, 0, 0}, {0, 2, 0}, {0, 0, 2}};
const float kDiagonal[3][3] = {{3, 0, 0}, {0, 2, 0}, {0, 0, 1}};  // singular values 3, 2, 1

// Tolerance: single-precision rounding of a few dozen operations on rates of order 10 (1/s).
constexpr float kRound = 1e-4f;

TEST(SubgridModels, SmagorinskyRateIsTheStrainRateMagnitude) {
    // Pure shear du/dy = 2: S_xy = S_yx = 1, |S| = sqrt(2 S:S) = sqrt(2 * 2) = 2.
    EXPECT_NEAR(smagorinskyRate(gradient(kShear)), 2.0f, kRound);
    // Solid rotation has no strain.
    EXPECT_NEAR(smagorinskyRate(gradient(kRotation)), 0.0f, kRound);
    // diag(3, 2, 1): sqrt(2 (9 + 4 + 1)) = sqrt(28).
    EXPECT_NEAR(smagorinskyRate(gradient(kDiagonal)), std::sqrt(28.0f), kRound);
}

TEST(SubgridModels, SingularValuesOfARotatedDiagonalAreItsEntries) {
    // Q diag(3, 2, 1) with Q a rotation by 0.7 rad about x: singular values unchanged.
    const float c = std::cos(0.7f), s = std::sin(0.7f);
    const float q[3][3] = {{1, 0, 0}, {0, c, -s}, {0, s, c}};
    const mat3 g = gradient(q) * gradient(kDiagonal);
    const vec3 sv = singularValues(g);
    EXPECT_NEAR(sv.x, 3.0f, kRound);
    EXPECT_NEAR(sv.y, 2.0f, kRound);
    EXPECT_NEAR(sv.z, 1.0f, kRound);
}

TEST(SubgridModels, SigmaVanishesOnShearRotationPlanarFlowAndExpansion) {
    for (const auto* a : {kShear, kRotation, kPlanar, kExpansion}) EXPECT_NEAR(sigmaRate(gradient(a)), 0.0f, kRound);
    // diag(3, 2, 1): D = s3 (s1 - s2)(s2 - s3) / s1^2 = 1 * 1 * 1 / 9, times the model's constant
    // over Smagorinsky's, (1.35 / 0.165)^2 (Nicoud et al. 2011).
    const float scale = (1.35f / 0.165f) * (1.35f / 0.165f);
    EXPECT_NEAR(sigmaRate(gradient(kDiagonal)), scale / 9.0f, scale * kRound);
}

TEST(SubgridModels, VremanVanishesOnPureShear) {
    EXPECT_NEAR(vremanRate(gradient(kShear)), 0.0f, kRound);
    // diag(3, 2, 1): B = 9*4 + 9*1 + 4*1 = 49, a:a = 14, rate = 2.5 sqrt(49 / 14) (Vreman 2004,
    // c = 2.5 C_s^2).
    EXPECT_NEAR(vremanRate(gradient(kDiagonal)), 2.5f * std::sqrt(49.0f / 14.0f), kRound);
}

TEST(SubgridModels, WaleVanishesOnPureShearButNotOnRotation) {
    EXPECT_NEAR(waleRate(gradient(kShear)), 0.0f, kRound);
    // Solid rotation: S = 0 and S^d:S^d = (2/3) w^4 for w = 3, so the rate is
    // 10.6 (S^d:S^d)^(3/2) / (S^d:S^d)^(5/4) = 10.6 (S^d:S^d)^(1/4) (Nicoud & Ducros 1999).
    const float sdsd = (2.0f / 3.0f) * 81.0f;
    EXPECT_NEAR(waleRate(gradient(kRotation)), 10.6f * std::pow(sdsd, 0.25f), 10.0f * kRound);
}

TEST(SubgridModels, EveryRateIsZeroWithoutAGradient) {
    const mat3 zero(0.0f);
    EXPECT_EQ(smagorinskyRate(zero), 0.0f);
    EXPECT_EQ(vremanRate(zero), 0.0f);
    EXPECT_EQ(waleRate(zero), 0.0f);
    EXPECT_EQ(sigmaRate(zero), 0.0f);
}

}  // namespace
}  // namespace vfx
