// Whole steps of the Simulation: vortex stretching and tilting at the analytic rate on a ring's
// axis, adaptive sub-steps to the strain limit, a heavy ball bounded at a long frame step, and
// the non-finite guard naming the step and phase.
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>

namespace vfx {
namespace {

// --- vortex stretching and tilting -----------------------------------------------------------

// Weak probe vortons on the axis of a ring measure (omega . grad) u. On the axis of a thin ring
// (Gamma, R) u_y = Gamma R^2 / (2 (R^2 + y^2)^(3/2)), so
//   du_y/dy = -3 Gamma R^2 y / (2 (R^2 + y^2)^(5/2)),   du_x/dx = du_z/dz = -1/2 du_y/dy
// (axisymmetric and divergence-free). A probe with omega along y at y = -0.5 is stretched at
// the rate +0.429 /s; one with omega along x at y = +0.5 is stretched (tilting term of the same
// Jacobian) at +0.215 /s. After one step omega changes by dt * rate * omega. Tolerance 15%
// (finite core, random seeding, centred differences on the grid); a wrong sign, a missing dt or
// a dropped term fails. (The Jacobian is symmetric on the axis, so a transposed one would not.)
TEST(Stretching, ProbeVortonsOnRingAxisStretchAtAnalyticRate) {
    const test::RingSpec spec;
    Simulation sim;
    test::makeInviscid(sim);
    // Relaxation turns vortons toward the curl of the flow they induce; these probes are too weak
    // to induce any, so it would turn them toward the ring's.
    sim.fluid().vorticityRelaxation = 0.0f;
    test::addVortexRing(sim.vortons(), spec);
    const float strength = 1e-4f;
    const size_t below = sim.vortons().add(vec3(0.0f, -0.5f, 0.0f), vec3(0.0f, strength, 0.0f), 0.05f, 0.0f);
    const size_t above = sim.vortons().add(vec3(0.0f, 0.5f, 0.0f), vec3(strength, 0.0f, 0.0f), 0.05f, 0.0f);
    // Massless tracers widen the grid so the probes sit well inside it (centred differences).
    sim.editTracers().add(vec3(0.0f, -1.2f, 0.0f));
    sim.editTracers().add(vec3(0.0f, 1.2f, 0.0f));
    auto axialGradient = [&](double y) {
        const double r2 = spec.radius * spec.radius;
        return -3.0 * spec.circulation * r2 * y / (2.0 * std::pow(r2 + y * y, 2.5));
    };
    const float dt = 0.01f;
    sim.step(dt);
    const vec3 wBelow = sim.vortons().vorticity[below], wAbove = sim.vortons().vorticity[above];
    const double rateBelow = (wBelow.y / strength - 1.0) / dt;
    const double rateAbove = (wAbove.x / strength - 1.0) / dt;
    const double expectBelow = axialGradient(-0.5), expectAbove = -0.5 * axialGradient(0.5);
    std::cout << "stretching rate on the ring axis: y-probe " << rateBelow << " (analytic " << expectBelow
              << "), x-probe " << rateAbove << " (analytic " << expectAbove << ")\n";
    EXPECT_NEAR(rateBelow, expectBelow, 0.15 * std::abs(expectBelow));
    EXPECT_NEAR(rateAbove, expectAbove, 0.15 * std::abs(expectAbove));
    // On the axis, by symmetry, no other component is produced (small next to the change).
    EXPECT_LT(std::hypot(wBelow.x, wBelow.z), 0.2f * std::abs(wBelow.y - strength));
    EXPECT_LT(std::hypot(wAbove.y, wAbove.z), 0.2f * std::abs(wAbove.x - strength));
}

// --- adaptive sub-steps -------------------------------------------------------------------------

// An inviscid simulation holding one vortex ring of `count` vortons and circulation `circulation`.
test::RingSpec seedInviscidRing(Simulation& sim, size_t count, float circulation) {
    test::RingSpec spec;
    spec.count = count;
    spec.circulation = circulation;
    test::makeInviscid(sim);
    test::addVortexRing(sim.vortons(), spec);
    return spec;
}

// A frame of 0.1 s on a ring whose core spins at ~|omega|/2 = 20 rad/s cannot be one explicit
// step: the strain limit 0.1 needs |grad u| dt <= 0.1, i.e. several sub-steps, and the frame
// still advances the clock by exactly its dt. With a cap of one sub-step it takes one.
TEST(Substeps, FrameSplitsToTheStrainLimitAndKeepsItsLength) {
    Simulation sim;
    const test::RingSpec spec = seedInviscidRing(sim, 2048, 4.0f);
    sim.step(0.1f);
    const int taken = sim.lastSubsteps();
    const double omega = spec.circulation / (M_PI * spec.coreRadius * spec.coreRadius);
    std::cout << "ring core |omega| " << omega << " /s: a 0.1 s frame took " << taken << " sub-steps\n";
    EXPECT_GE(taken, int(std::ceil(0.1 * 0.5 * omega / sim.fluid().strainLimit)));
    EXPECT_LE(taken, sim.fluid().maxSubsteps);
    EXPECT_DOUBLE_EQ(sim.time(), double(0.1f));
    sim.fluid().maxSubsteps = 1;
    sim.step(0.1f);
    EXPECT_EQ(sim.lastSubsteps(), 1);
    EXPECT_DOUBLE_EQ(sim.time(), double(0.1f) + double(0.1f));
}

// A slow ring (strain and CFL limits ask for one sub-step a frame) under max_substep_dt 1/120 s:
// a 1/30 s frame takes exactly 4 sub-steps, also when the frame step is a few roundings past
// 1/30 s (as a frame clock's is); a frame 1% longer takes 5; max_substeps still caps them; the
// clock advances by each frame's dt.
TEST(Substeps, LongestSubstepSetsASteadyCount) {
    Simulation sim;
    seedInviscidRing(sim, 512, 0.05f);
    sim.step(1.0f / 30.0f);
    EXPECT_EQ(sim.lastSubsteps(), 1);
    sim.fluid().maxSubstepDt = 1.0f / 120.0f;
    double clock = sim.time();
    for (const double frame : {1.0 / 30.0, 1.0 / 30.0 * (1.0 + 3e-5), 1.0 / 30.0 * 1.01}) {
        sim.step(float(frame));
        clock += double(float(frame));
        EXPECT_EQ(sim.lastSubsteps(), frame < 1.0 / 30.0 * 1.001 ? 4 : 5) << frame;
        EXPECT_NEAR(sim.time(), clock, 1e-9);
    }
    sim.fluid().maxSubsteps = 2;
    sim.step(1.0f / 30.0f);
    EXPECT_EQ(sim.lastSubsteps(), 2);
}

// --- long frame steps ---------------------------------------------------------------------------

// The author's own dye drop at his frame step: a ball of radius 1 and density deviation +10 in
// fluid of density 1, |g| = 10, nu = 0.01, dt = 1/30 s. The flow's own speed scale is
// sqrt(g rho'/rho0 R) = 10 m/s; an unstable core (the unhalved stretching of an under-resolved
// field) goes non-finite within a few seconds. It must run without a non-finite value and never
// exceed 50 m/s, five times the flow's scale.
TEST(Stability, HeavyBallAtThirtyFramesPerSecondStaysBounded) {
    Simulation sim;
    sim.fluid().gravity = vec3(0.0f, -10.0f, 0.0f);
    sim.fluid().viscosity = 0.01f;
    test::BallSpec ball;
    ball.radius = 1.0f;
    ball.count = 2176;
    ball.density = 10.0f;
    test::addBall(sim.vortons(), ball);
    double peak = 0.0;
    for (int k = 0; k < 120; ++k) {
        ASSERT_NO_THROW(sim.step(1.0f / 30.0f)) << "step " << k;
        peak = std::max(peak, sim.diagnostics().maxSpeed);
    }
    std::cout << "heavy ball, 2176 vortons, 4 s at dt 1/30: peak speed " << peak << " m/s, " << sim.vortons().size()
              << " vortons, " << sim.remeshCount() << " remeshes\n";
    EXPECT_LE(peak, 50.0);
    EXPECT_GT(peak, 1.0);  // and it did fall
}

// --- non-finite guard --------------------------------------------------------------------------

TEST(NonFinite, NanVorticityThrowsNamingStepAndPhase) {
    Simulation sim;
    test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 300, 0.5f});
    sim.step(0.01f);
    sim.step(0.01f);
    sim.vortons().vorticity[17].y = std::numeric_limits<float>::quiet_NaN();
    try {
        sim.step(0.01f);
        FAIL() << "step() accepted a NaN vorticity";
    } catch (const NonFiniteError& e) {
        EXPECT_EQ(e.step, 3);
        EXPECT_FALSE(e.phase.empty());
        const std::string what = e.what();
        EXPECT_NE(what.find("step 3"), std::string::npos) << what;
        EXPECT_NE(what.find(e.phase), std::string::npos) << what;
        std::cout << "NaN vorticity: " << what << "\n";
    }
}

// A NaN density deviation poisons the density grid and gradient; the first phase that writes a
// checked quantity from it is baroclinic generation, which must be the phase reported.
TEST(NonFinite, NanDensityIsCaughtInBaroclinicPhase) {
    Simulation sim;
    test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 300, 0.5f});
    sim.vortons().density[5] = std::numeric_limits<float>::quiet_NaN();
    try {
        sim.step(0.01f);
        FAIL() << "step() accepted a NaN density deviation";
    } catch (const NonFiniteError& e) {
        EXPECT_EQ(e.step, 1);
        EXPECT_TRUE(e.phase == "density" || e.phase == "baroclinic") << e.phase;
        std::cout << "NaN density: " << e.what() << "\n";
    }
}

}  // namespace
}  // namespace vfx
