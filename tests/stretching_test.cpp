// Stretching sub-steps against frozen velocity gradients whose solution is known in closed form:
// d(omega)/dt = M omega gives omega(t) = exp(t M) omega(0).
#include "core/matrix_exponential.hpp"
#include "sim/stretching.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace vfx {
namespace {

// Single precision: each of the series' terms rounds to 2^-24 of |v|; eight terms per piece and a
// few pieces stay below 1e-6 of |v| for the norms used here.
constexpr float kRoundoff = 1e-6f;

// Rotation about z at rate w: the skew generator (column-major: column j = d/dx_j).
mat3 rotationGenerator(float w) { return mat3(vec3(0, w, 0), vec3(-w, 0, 0), vec3(0, 0, 0)); }

TEST(MatrixExponential, SkewGeneratorTurnsTheVectorByItsAngle) {
    for (float angle : {0.1f, 1.0f, 3.0f, 10.0f}) {
        const vec3 out = exponentialTimes(rotationGenerator(angle), vec3(1, 0, 0.5f));
        EXPECT_NEAR(out.x, std::cos(angle), 4 * kRoundoff * (1 + angle)) << angle;
        EXPECT_NEAR(out.y, std::sin(angle), 4 * kRoundoff * (1 + angle)) << angle;
        EXPECT_NEAR(out.z, 0.5f, kRoundoff) << angle;
    }
}

TEST(MatrixExponential, DiagonalGrowsAndShrinksEachAxisByItsExponential) {
    const mat3 strain(vec3(1.5f, 0, 0), vec3(0, -0.5f, 0), vec3(0, 0, -1.0f));
    const vec3 out = exponentialTimes(strain, vec3(1, 1, 1));
    EXPECT_NEAR(out.x / std::exp(1.5f), 1.0f, 4 * kRoundoff * 3);
    EXPECT_NEAR(out.y / std::exp(-0.5f), 1.0f, 4 * kRoundoff * 3);
    EXPECT_NEAR(out.z / std::exp(-1.0f), 1.0f, 4 * kRoundoff * 3);
}

TEST(MatrixExponential, ShearIsExactAtFirstOrder) {
    // A nilpotent shear: exp(A) = I + A.
    const mat3 shear(vec3(0, 0, 0), vec3(2.0f, 0, 0), vec3(0, 0, 0));
    const vec3 out = exponentialTimes(shear, vec3(0.3f, 1.0f, 0.0f));
    EXPECT_NEAR(out.x, 2.3f, 4 * kRoundoff * 3);
    EXPECT_NEAR(out.y, 1.0f, kRoundoff);
}

struct OneVorton {
    Vortons vortons;
    std::vector<mat3> gradient;
    std::vector<PotentialFlow> none;
    MotionHistory history;
    bool resolved = false;  // StretchingInputs::stretchResolvedVorticity
    OneVorton(const vec3& omega, const mat3& g) : gradient{g} { vortons.add(vec3(0.0f), omega, 0.1f, 0.0f); }
    void stepAll(StretchingIntegrator integrator, float dt, int steps) {
        for (int s = 0; s < steps; ++s) {
            const StretchingInputs in{gradient, none, StretchingScheme::Classic, integrator, true, resolved};
            stretchVortons(in, vortons, history, dt);
            history.dt = dt;
        }
    }
};

// A vortex in solid rotation is only turned: |omega| is invariant. The explicit rule's update
// grows it by sqrt(1 + (w dt)^2) per step at least; the exponential keeps it to round-off at any
// step size, here a quarter turn per step.
TEST(ExponentialStretching, SolidRotationKeepsTheVorticityMagnitudeAtAnyStep) {
    const float w = 3.0f, dt = 0.5f;
    OneVorton exponential(vec3(1, 0, 0), rotationGenerator(w));
    exponential.stepAll(StretchingIntegrator::Exponential, dt, 20);
    EXPECT_NEAR(glm::length(exponential.vortons.vorticity[0]), 1.0f, 20 * 4 * kRoundoff * (1 + w * dt));
    const float angle = w * dt * 20;
    EXPECT_NEAR(exponential.vortons.vorticity[0].x, std::cos(angle), 1e-4f);

    OneVorton explicitRule(vec3(1, 0, 0), rotationGenerator(w));
    explicitRule.stepAll(StretchingIntegrator::Explicit, dt, 20);
    EXPECT_GT(glm::length(explicitRule.vortons.vorticity[0]), 2.0f);
}

// A vortex along the stretching axis of a frozen axisymmetric strain grows as exp(a t), and one
// along a compressing axis shrinks as exp(-a t / 2): exact at a step of a t = 2, where the explicit
// rule is past its stability limit on the compressing axis.
TEST(ExponentialStretching, FrozenStrainGrowsAndShrinksAtTheExactRate) {
    const float a = 4.0f, dt = 0.5f;
    const mat3 strain(vec3(-0.5f * a, 0, 0), vec3(0, -0.5f * a, 0), vec3(0, 0, a));
    OneVorton along(vec3(0, 0, 1), strain);
    along.stepAll(StretchingIntegrator::Exponential, dt, 3);
    EXPECT_NEAR(along.vortons.vorticity[0].z / std::exp(a * dt * 3), 1.0f, 3 * 4 * kRoundoff * 12);
    OneVorton across(vec3(1, 0, 0), strain);
    across.stepAll(StretchingIntegrator::Exponential, dt, 3);
    EXPECT_NEAR(across.vortons.vorticity[0].x / std::exp(-0.5f * a * dt * 3), 1.0f, 3 * 4 * kRoundoff * 12);
}

// With a gradient that changes linearly in time the extrapolated middle matrix makes the rule
// second order: halving the step cuts the error about four times. A commuting family
// M(t) = (1 + t) D keeps the exact solution closed: omega = exp((t + t^2/2) D) omega0.
TEST(ExponentialStretching, ChangingGradientConvergesAtSecondOrder) {
    const mat3 d(vec3(1.0f, 0, 0), vec3(0, -0.5f, 0), vec3(0, 0, -0.5f));
    const float end = 1.0f;
    auto errorWith = [&](int steps) {
        OneVorton v(vec3(1, 0, 0), d);
        const float dt = end / float(steps);
        for (int s = 0; s < steps; ++s) {
            v.gradient[0] = (1.0f + float(s) * dt) * d;
            v.stepAll(StretchingIntegrator::Exponential, dt, 1);
        }
        return std::abs(v.vortons.vorticity[0].x - std::exp(end + 0.5f * end * end));
    };
    const float coarse = errorWith(16), fine = errorWith(32);
    EXPECT_GT(coarse / fine, 3.0f);  // second order: 4; first order would give 2
    EXPECT_LT(fine, 0.01f);
}

// The box solver's wall images cancel the tangential vorticity of a vorton on a wall: the flow
// carries none of it (curl u = 0 there), so stretching the resolved vorticity leaves it as it is,
// where stretching the vorton's own would grow it as exp(t) under this strain with nothing to
// check it. Where the flow does carry the vorton's vorticity, both give the same rate.
TEST(Stretching, ResolvedVorticityIsWhatTheStrainStretches) {
    const mat3 strain(vec3(1.0f, 0, 0), vec3(0, -0.5f, 0), vec3(0, 0, -0.5f));  // curl 0
    for (StretchingIntegrator integrator : {StretchingIntegrator::Explicit, StretchingIntegrator::Exponential}) {
        OneVorton onWall(vec3(1, 0, 0), strain);
        onWall.resolved = true;
        onWall.stepAll(integrator, 0.01f, 100);
        EXPECT_EQ(onWall.vortons.vorticity[0], vec3(1, 0, 0));
        OneVorton own(vec3(1, 0, 0), strain);
        own.stepAll(integrator, 0.01f, 100);
        // exp(1) = 2.72; any rule of first order or better gives at least (1 + dt)^n >= 1 + t = 2.
        EXPECT_GT(own.vortons.vorticity[0].x, 2.0f);
    }
    // Solid rotation at 0.5 rad/s about x (curl (1, 0, 0)) plus the strain: the carried vorticity
    // is the vorton's own, and one sub-step changes it alike either way.
    mat3 withRotation = strain;
    withRotation[1][2] = 0.5f;
    withRotation[2][1] = -0.5f;
    OneVorton carried(vec3(1, 0, 0), withRotation), own(vec3(1, 0, 0), withRotation);
    carried.resolved = true;
    carried.stepAll(StretchingIntegrator::Explicit, 0.01f, 1);
    own.stepAll(StretchingIntegrator::Explicit, 0.01f, 1);
    EXPECT_NEAR(glm::length(carried.vortons.vorticity[0] - own.vortons.vorticity[0]), 0.0f, kRoundoff);
}

}  // namespace
}  // namespace vfx
