// Germano's dynamic coefficient (sim/dynamic_coefficient) on linear velocity fields, where the
// test filter's Leonard stress has a closed form: a [1/4 1/2 1/4] tent adds h^2/2 of variance per
// axis, so for u = G x, L = (h^2/2) G G^T, while S is unchanged by the filter and
// M = 2 (Delta^2 - Delta^^2) |S| S = -12 h^2 |S| S. Hence C^2 = -(1/24) tr(S G G^T) / (|S| S:S),
// clipped at zero: independent of h and of Delta.
#include "sim/dynamic_coefficient.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace vfx {
namespace {

// Velocity and gradient of u = G x (G[j][i] = du_i/dx_j) on an 12^3 grid of spacing 0.1 m.
float coefficientOfLinearFlow(const mat3& g) {
    GridShape shape;
    shape.minCorner = vec3(-0.55f);
    shape.spacing = vec3(0.1f);
    shape.points = ivec3(12);
    UniformGrid<vec3> velocity;
    UniformGrid<mat3> gradient;
    velocity.reshape(shape);
    gradient.reshape(shape);
    for (int z = 0; z < 12; ++z)
        for (int y = 0; y < 12; ++y)
            for (int x = 0; x < 12; ++x) {
                velocity.at(x, y, z) = g * shape.pointPosition(x, y, z);
                gradient.at(x, y, z) = g;
            }
    DynamicCoefficient dynamic;
    return dynamic.compute(velocity, gradient, 0.3f);
}

mat3 diagonal(float a, float b, float c) {
    mat3 g(0.0f);
    g[0][0] = a;
    g[1][1] = b;
    g[2][2] = c;
    return g;
}

TEST(DynamicCoefficient, ZeroWithoutStrain) {
    mat3 rotation(0.0f);  // solid rotation at 2 rad/s about z
    rotation[1][0] = -2.0f;
    rotation[0][1] = 2.0f;
    EXPECT_EQ(coefficientOfLinearFlow(rotation), 0.0f);
}

TEST(DynamicCoefficient, SheetFormingStrainGivesTheClosedForm) {
    // G = diag(a/2, a/2, -a): tr(S G G^T) = -3 a^3 / 4, |S| = sqrt(3) a, S:S = 3 a^2 / 2, so
    // C^2 = (3/4) / (24 sqrt(3) * 3/2) for any a.
    const float expected = 0.75f / (24.0f * std::sqrt(3.0f) * 1.5f);
    for (float a : {0.5f, 4.0f}) {
        // Float rounding of sums over ~1,000 points of products of order a^6 h^4: a few 1e-6.
        EXPECT_NEAR(coefficientOfLinearFlow(diagonal(0.5f * a, 0.5f * a, -a)), expected, 1e-4f * expected) << a;
    }
}

TEST(DynamicCoefficient, StretchingAlongOneAxisIsBackscatterAndClippedToZero) {
    // G = diag(-a/2, -a/2, a): tr(S G G^T) = +3 a^3 / 4 > 0, energy passed up the scales.
    EXPECT_EQ(coefficientOfLinearFlow(diagonal(-1.0f, -1.0f, 2.0f)), 0.0f);
}

// Local averaging (computeLocal): the sheet-forming strain (energy passed down) below z = 0 and
// stretching along one axis (passed up, as much) above it. Away from the seam each half has its
// own closed form, the value above and zero, where the global sums cancel to about zero: a
// global coefficient drains nothing where the cascade runs as long as backscatter elsewhere
// offsets it.
TEST(DynamicCoefficient, LocalCoefficientStaysWhereTheCascadeIs) {
    const float a = 1.0f;
    const mat3 strain = diagonal(0.5f * a, 0.5f * a, -a), backscatter = diagonal(-0.5f * a, -0.5f * a, a);
    GridShape shape;
    shape.minCorner = vec3(-0.55f, -0.55f, -1.15f);
    shape.spacing = vec3(0.1f);
    shape.points = ivec3(12, 12, 24);
    UniformGrid<vec3> velocity;
    UniformGrid<mat3> gradient;
    velocity.reshape(shape);
    gradient.reshape(shape);
    for (int z = 0; z < 24; ++z)
        for (int y = 0; y < 12; ++y)
            for (int x = 0; x < 12; ++x) {
                const mat3& g = z < 12 ? strain : backscatter;
                velocity.at(x, y, z) = g * shape.pointPosition(x, y, z);
                gradient.at(x, y, z) = g;
            }
    DynamicCoefficient dynamic;
    const float global = dynamic.compute(velocity, gradient, 0.3f);
    UniformGrid<float> local;
    dynamic.computeLocal(velocity, gradient, 0.3f, 1.0f, local);
    const float expected = 0.75f / (24.0f * std::sqrt(3.0f) * 1.5f);
    // The test filter reaches 1 point, the averaging 2 more: 4 points from the seam (z 11.5) and
    // from the outer layer nothing of the other half or the edge reaches a point.
    for (int y = 4; y < 8; ++y)
        for (int x = 4; x < 8; ++x) {
            EXPECT_NEAR(local.at(x, y, 6), expected, 1e-3f * expected) << x << " " << y;
            EXPECT_EQ(local.at(x, y, 17), 0.0f) << x << " " << y;
        }
    EXPECT_LT(global, 0.1f * expected);
}

}  // namespace
}  // namespace vfx
