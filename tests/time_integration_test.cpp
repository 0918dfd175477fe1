// The sub-steps' Adams-Bashforth rules against their analytic properties: the three-step rule's
// weights integrate polynomials as their order says for any step sizes, and a particle circling
// at a fixed rate keeps its orbit as the rule's amplification factor predicts.
#include "sim/time_integration.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

namespace vfx {
namespace {

// Integral of f over [0, dt] by the weights, with f sampled at 0, -h1 and -(h1 + h2).
template <class F>
double integrate(const StepWeights& w, F f, double dt, double h1, double h2) {
    return dt * (w.current * f(0.0) + w.previous * f(-h1) + w.beforePrevious * f(-h1 - h2));
}

// The weights are computed in single precision from terms of order 1: about a dozen roundings of
// 6e-8 each, so within 1e-6.
TEST(TimeIntegration, ThreeStepWeightsAtEqualStepsAreFiveThirdsMinusFiveSixthsOneSixth) {
    const StepWeights w = threeStepWeights(0.01f, 0.01f, 0.01f);
    EXPECT_NEAR(w.current, 5.0 / 3.0, 1e-6);
    EXPECT_NEAR(w.previous, -5.0 / 6.0, 1e-6);
    EXPECT_NEAR(w.beforePrevious, 1.0 / 6.0, 1e-6);
}

// Second order: exact for a constant and a linear rate whatever the three step sizes (within the
// ratio the rules accept), so a particle in uniform acceleration lands where it should. Exact up
// to the weights' single-precision rounding: about ten operations of 6e-8 each, and the terms
// w h of the linear integral are at most twice dt^2 / 2 for these steps, so 1e-6 relative for
// both. A first-order error would be of order 1.
TEST(TimeIntegration, ThreeStepWeightsIntegrateLinearRatesExactlyForVariableSteps) {
    const float steps[][3] = {
        {0.01f, 0.01f, 0.01f}, {0.02f, 0.013f, 0.011f}, {0.005f, 0.008f, 0.015f}, {0.03f, 0.02f, 0.04f}};
    for (const auto& s : steps) {
        const StepWeights w = threeStepWeights(s[0], s[1], s[2]);
        ASSERT_NE(w.beforePrevious, 0.0f) << "steps " << s[0] << ", " << s[1] << ", " << s[2];
        const double exactConstant = s[0];
        const double exactLinear = 0.5 * double(s[0]) * s[0];
        EXPECT_NEAR(integrate(
                        w, [](double) { return 1.0; }, s[0], s[1], s[2]),
                    exactConstant, 1e-6 * exactConstant);
        EXPECT_NEAR(integrate(
                        w, [](double t) { return t; }, s[0], s[1], s[2]),
                    exactLinear, 1e-6 * exactLinear);
    }
}

// A step more than twice the one before it extrapolates too far: the rule steps down to two steps.
TEST(TimeIntegration, ThreeStepRuleStepsDownWhenTheStepsJumpOrThereIsNoStepBefore) {
    EXPECT_EQ(threeStepWeights(0.01f, 0.01f, 0.004f).beforePrevious, 0.0f);
    EXPECT_EQ(threeStepWeights(0.01f, 0.01f, 0.0f).beforePrevious, 0.0f);
    const StepWeights two = adamsBashforthWeights(true, 0.01f, 0.01f);
    const StepWeights down = threeStepWeights(0.01f, 0.01f, 0.0f);
    EXPECT_EQ(down.current, two.current);
    EXPECT_EQ(down.previous, two.previous);
}

// Radius after `steps` steps of a particle circling the origin at theta radians a step, moved by
// the rule with the exact velocity at its past positions (solid rotation, as in a vortex core).
double orbitRadiusAfter(int steps, double theta, bool threeStep) {
    const double dt = 1.0, omega = theta;
    auto velocity = [&](const dvec3& x) { return dvec3(-omega * x.y, omega * x.x, 0.0); };
    // Started on the exact orbit: the two past velocities are the exact ones.
    dvec3 x(1.0, 0.0, 0.0);
    dvec3 last = velocity(dvec3(std::cos(-theta), std::sin(-theta), 0.0));
    dvec3 before = velocity(dvec3(std::cos(-2 * theta), std::sin(-2 * theta), 0.0));
    const StepWeights w = threeStep ? threeStepWeights(1.0f, 1.0f, 1.0f) : adamsBashforthWeights(true, 1.0f, 1.0f);
    for (int k = 0; k < steps; ++k) {
        const dvec3 now = velocity(x);
        x += dt * (double(w.current) * now + double(w.previous) * last + double(w.beforePrevious) * before);
        before = last;
        last = now;
    }
    return glm::length(x);
}

// The principal root g of each rule's characteristic polynomial at z = i theta has
// |g| = 1 + theta^4/4 + ... for the two-step rule and 1 + O(theta^6) for the three-step one:
// at 0.2 radian a step, 4.3e-4 and 5.7e-6 a step, so over 300 steps the orbit grows 14% and
// 0.17%. The bounds sit between the two with room for the starting transient.
TEST(TimeIntegration, ThreeStepRuleKeepsAnOrbitTheTwoStepRuleSpiralsOutOf) {
    const double twoStep = orbitRadiusAfter(300, 0.2, false);
    const double threeStep = orbitRadiusAfter(300, 0.2, true);
    std::cout << "orbit radius after 300 steps at 0.2 rad a step: two-step " << twoStep << ", three-step " << threeStep
              << "\n";
    EXPECT_GT(twoStep, 1.10);
    EXPECT_NEAR(threeStep, 1.0, 0.005);
}

}  // namespace
}  // namespace vfx
