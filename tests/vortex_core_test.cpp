// The stable vortex core: M4' remeshing, adaptive sub-steps, and runs that used to blow up.
#include "sim/remesh.hpp"
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <iostream>
#include <random>

namespace vfx {
namespace {

// --- M4' remeshing ------------------------------------------------------------------------------

// M4' interpolates (1 at its own node, 0 at the others) and reproduces polynomials up to degree
// two: for any offset the weights of the four nodes around a point sum to 1 and have zero first
// and second moments about it. That is what makes remeshing conserve total vorticity, impulse
// and the mass's centre and spread.
TEST(Remesh, M4PrimeInterpolatesAndReproducesQuadratics) {
    EXPECT_FLOAT_EQ(m4PrimeWeight(0.0f), 1.0f);
    EXPECT_FLOAT_EQ(m4PrimeWeight(1.0f), 0.0f);
    EXPECT_FLOAT_EQ(m4PrimeWeight(2.0f), 0.0f);
    for (float x = 0.0f; x < 1.0f; x += 0.0625f) {
        double sum = 0.0, first = 0.0, second = 0.0;
        for (int k = -1; k <= 2; ++k) {
            const double d = double(x) - k, w = m4PrimeWeight(float(d));
            sum += w;
            first += w * d;
            second += w * d * d;
        }
        EXPECT_NEAR(sum, 1.0, 1e-6) << x;
        EXPECT_NEAR(first, 0.0, 1e-6) << x;
        EXPECT_NEAR(second, 0.0, 1e-6) << x;
    }
}

struct Moments {
    dvec3 circulation{0.0}, impulse{0.0}, massCentre{0.0};
    double mass = 0.0, strength = 0.0;
};

Moments momentsOf(const Vortons& v) {
    Moments m;
    for (size_t i = 0; i < v.size(); ++i) {
        const dvec3 x(v.position[i]), alpha = dvec3(v.vorticity[i]) * double(v.volume(i));
        const double mass = double(v.density[i]) * double(v.volume(i));
        m.circulation += alpha;
        m.impulse += 0.5 * glm::cross(x, alpha);
        m.mass += mass;
        m.massCentre += mass * x;
        m.strength += glm::length(alpha);
    }
    return m;
}

Vortons randomBlob(size_t count, unsigned seed) {
    Vortons v;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const double share = 4.0 / 3.0 * M_PI * 0.125 / double(count);
    while (v.size() < count) {
        const vec3 p(unit(rng), unit(rng), unit(rng));
        if (glm::dot(p, p) > 1.0f) continue;
        const vec3 omega(unit(rng), unit(rng), unit(rng));
        test::addShare(v, vec3(0.3f, -0.2f, 0.1f) + 0.5f * p, omega, 1.0f + 0.5f * unit(rng), share);
    }
    return v;
}

void expectSameMoments(const Moments& a, const Moments& b) {
    // float storage of ~10^4 strengths: round-off is ~1e-6 of their sum of magnitudes.
    const double tolerance = 2e-5 * a.strength;
    EXPECT_NEAR(b.circulation.x, a.circulation.x, tolerance);
    EXPECT_NEAR(b.circulation.y, a.circulation.y, tolerance);
    EXPECT_NEAR(b.circulation.z, a.circulation.z, tolerance);
    EXPECT_NEAR(glm::length(b.impulse - a.impulse), 0.0, tolerance);
    EXPECT_NEAR(b.mass, a.mass, 1e-5 * a.mass);
    EXPECT_NEAR(glm::length(b.massCentre / b.mass - a.massCentre / a.mass), 0.0, 1e-5);
}

TEST(Remesh, ConservesCirculationImpulseAndMass) {
    Vortons v = randomBlob(4000, 3);
    const Moments before = momentsOf(v);
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = 0.05f;
    settings.threshold = 0.0f;  // keep every node that received anything
    ASSERT_TRUE(remesher.apply(v, settings));
    expectSameMoments(before, momentsOf(v));
    // On the lattice, with volume h^3 and core overlap * h.
    for (size_t i = 0; i < v.size(); ++i) {
        const vec3 k = v.position[i] / settings.spacing;
        EXPECT_NEAR(glm::length(k - glm::round(k)), 0.0f, 1e-3f);
        EXPECT_FLOAT_EQ(v.volume(i), settings.spacing * settings.spacing * settings.spacing);
        EXPECT_FLOAT_EQ(v.radius[i], settings.coreOverlap * settings.spacing);
    }
}

// With the default threshold the small strengths around everything deposited (M4''s negative
// fringe) are not dropped but handed to a neighbour, so the totals stay exact.
TEST(Remesh, ThresholdKeepsMassAndCirculationExact) {
    Vortons v = randomBlob(4000, 5);
    const Moments before = momentsOf(v);
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = 0.05f;
    settings.threshold = 1e-3f;
    const size_t all = [&] {
        Vortons copy = v;
        RemeshSettings everything = settings;
        everything.threshold = 0.0f;
        Remesher r;
        r.apply(copy, everything);
        return copy.size();
    }();
    ASSERT_TRUE(remesher.apply(v, settings));
    EXPECT_LT(v.size(), all);  // the threshold does leave nodes out
    const Moments after = momentsOf(v);
    EXPECT_NEAR(after.mass, before.mass, 1e-5 * before.mass);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(after.circulation[k], before.circulation[k], 2e-5 * before.strength);
}

// A box of uniform fluid filling a container |x|, |y|, |z| <= 0.5 (vortons half a spacing off
// the lattice, whose outer nodes lie on the walls): no node outside receives anything, the
// totals are kept, and every new vorton, the ones on the walls included, carries the fluid's
// density and vorticity (a node on a wall holds half a cell of fluid, not half the density).
TEST(Remesh, AtWallsNothingLandsOutsideAndWallNodesKeepTheFluidsDensity) {
    Vortons v;
    const float spacing = 0.1f;
    test::addLattice(
        v, ivec3(10), vec3(-0.45f), spacing, [](const vec3&) { return 0.3f; },
        [](const vec3&) { return vec3(0.0f, 0.0f, 2.0f); });
    const Moments before = momentsOf(v);
    const auto inTank = [](const vec3& p) { return glm::all(glm::lessThanEqual(glm::abs(p), vec3(0.5f + 1e-5f))); };
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = spacing;
    settings.threshold = 0.0f;
    ASSERT_TRUE(remesher.apply(v, settings, inTank));
    EXPECT_NEAR(momentsOf(v).mass, before.mass, 1e-5 * before.mass);
    EXPECT_NEAR(momentsOf(v).circulation.z, before.circulation.z, 1e-5 * before.circulation.z);
    double volume = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        EXPECT_TRUE(inTank(v.position[i])) << "vorton " << i << " at " << v.position[i].x << ", " << v.position[i].y;
        // A uniform field stays uniform to float round-off (sums of up to 64 weighted terms).
        EXPECT_NEAR(v.density[i], 0.3f, 1e-5f * 0.3f) << "vorton " << i;
        EXPECT_NEAR(v.vorticity[i].z, 2.0f, 1e-5f * 2.0f) << "vorton " << i;
        volume += v.volume(i);
    }
    EXPECT_NEAR(volume, 1.0, 1e-4);  // the tank's
}

// Vortons already on the lattice stay exactly where they are with the same strengths: M4' is
// 1 at a vorton's own node and 0 at every other node.
TEST(Remesh, LeavesLatticeVortonsAlone) {
    Vortons v;
    const float h = 0.125f;  // a power of two: positions and weights are exact
    for (int z = -3; z <= 3; ++z)
        for (int y = -3; y <= 3; ++y)
            for (int x = -3; x <= 3; ++x)
                test::addShare(v, h * vec3(x, y, z), vec3(float(x), float(y * z), 1.0f), float(x + y),
                               double(h) * h * h);
    const Vortons before = v;
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = h;
    settings.threshold = 0.0f;
    ASSERT_TRUE(remesher.apply(v, settings));
    size_t matched = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (glm::length(v.vorticity[i]) == 0.0f && v.density[i] == 0.0f) continue;
        for (size_t j = 0; j < before.size(); ++j)
            if (before.position[j] == v.position[i]) {
                EXPECT_EQ(v.vorticity[i], before.vorticity[j]);
                EXPECT_EQ(v.density[i], before.density[j]);
                ++matched;
            }
    }
    EXPECT_EQ(matched, before.size());
    EXPECT_EQ(v.size(), before.size());  // the nodes around received exactly nothing
}

// A budget below what the lattice would hold coarsens it: fewer vortons, same totals.
TEST(Remesh, BudgetCoarsensTheLatticeAndKeepsTheTotals) {
    Vortons v = randomBlob(4000, 4);
    const Moments before = momentsOf(v);
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = 0.05f;
    settings.threshold = 0.0f;
    settings.maxCount = 2000;
    ASSERT_TRUE(remesher.apply(v, settings));
    EXPECT_LE(v.size(), 2000u);
    EXPECT_GT(remesher.lastSpacing(), settings.spacing);
    expectSameMoments(before, momentsOf(v));
}

TEST(Remesh, SameResultForAnyThreadCount) {
    Vortons one = randomBlob(20000, 5), two = one;
    Remesher a, b;
    RemeshSettings settings;
    settings.spacing = 0.03f;
    tbb::task_arena(1).execute([&] { a.apply(one, settings); });
    tbb::task_arena(2).execute([&] { b.apply(two, settings); });
    EXPECT_TRUE(test::bitwiseEqual(one.position, two.position));
    EXPECT_TRUE(test::bitwiseEqual(one.vorticity, two.vorticity));
    EXPECT_TRUE(test::bitwiseEqual(one.density, two.density));
}

// --- adaptive sub-steps -------------------------------------------------------------------------

// A frame of 0.1 s on a ring whose core spins at ~|omega|/2 = 20 rad/s cannot be one explicit
// step: the strain limit 0.1 needs |grad u| dt <= 0.1, i.e. several sub-steps, and the frame
// still advances the clock by exactly its dt. With a cap of one sub-step it takes one.
TEST(Substeps, FrameSplitsToTheStrainLimitAndKeepsItsLength) {
    test::RingSpec spec;
    spec.count = 2048;
    spec.circulation = 4.0f;
    Simulation sim;
    test::makeInviscid(sim);
    test::addVortexRing(sim.vortons(), spec);
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

// The subgrid eddy viscosity is (C_s Delta)^2 |S| with Delta the width of the filter through which
// the vortons see the flow, in Smagorinsky's sense: the box width with the same second moment,
// Delta^2 = 12 x (variance per axis). The kernel max(|r|, sigma) spreads each vorton's vorticity
// uniformly over a ball of radius sigma (variance sigma^2 / 5); the velocity grid then samples it
// and trilinear interpolation rebuilds it with a tent of half-width h_grid (variance h_grid^2 / 6).
// Measured against the larger of sigma and h_grid alone the model was 3 times too weak, and the
// 65,536-vorton dye drop preset at 1/30 s piled vorticity up at its cores from step 130.
TEST(Subgrid, EddyViscosityActsAtTheFilterWidthOfTheResolvedFlow) {
    for (float cellsPerVorton : {8.0f, 0.125f}) {  // grid finer than the cores, then coarser
        test::RingSpec spec;
        spec.count = 2048;
        Simulation sim;
        sim.fluid().gravity = vec3(0.0f);
        sim.fluid().viscosity = 0.0f;
        sim.fluid().gridCellsPerVorton = cellsPerVorton;
        test::addVortexRing(sim.vortons(), spec);
        sim.step(1e-5f);  // so short that the vortons move 1e-4 of a grid spacing after diffusion
        const std::vector<float>& eddy = sim.eddyViscosity();
        ASSERT_EQ(eddy.size(), sim.vortons().size());
        const float gridSpacing = sim.gridShape().spacing.x;
        const float cs = sim.fluid().subgridCoefficient;
        // Both regimes must really occur: the core dominates the width on the fine grid, the grid
        // on the coarse one.
        if (cellsPerVorton > 1.0f)
            ASSERT_LT(gridSpacing, sim.vortons().radius[0]);
        else
            ASSERT_GT(gridSpacing, sim.vortons().radius[0]);
        double strongest = 0.0;
        for (size_t i = 0; i < eddy.size(); ++i) {
            const vec3 x = sim.vortons().position[i];
            const mat3 j = sim.jacobianGrid().interpolate(x);
            const mat3 s = 0.5f * (j + glm::transpose(j));
            const double strain =
                std::sqrt(2.0 * double(glm::dot(s[0], s[0]) + glm::dot(s[1], s[1]) + glm::dot(s[2], s[2])));
            const double sigma = sim.vortons().radius[i];
            const double width = std::sqrt(12.0 * (sigma * sigma / 5.0 + double(gridSpacing) * gridSpacing / 6.0));
            EXPECT_NEAR(eddy[i], cs * cs * width * width * strain, 1e-3 * eddy[i] + 1e-12) << "vorton " << i;
            strongest = std::max(strongest, double(eddy[i]));
        }
        std::cout << cellsPerVorton << " grid cells per vorton: spacing " << gridSpacing << " m, core "
                  << sim.vortons().radius[0] << " m, largest eddy viscosity " << strongest << " m^2/s\n";
        EXPECT_GT(strongest, 0.0);
    }
}

// --- frame steps that used to blow up -------------------------------------------------------------

// The author's own dye drop at his frame step: a ball of radius 1 and density deviation +10 in
// fluid of density 1, |g| = 10, nu = 0.01, dt = 1/30 s. The flow's own speed scale is
// sqrt(g rho'/rho0 R) = 10 m/s; an unstable core (the unhalved stretching of an under-resolved
// field) went non-finite at step 75. It must run without a non-finite value and never exceed
// 50 m/s.
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

// Inviscid ring (R = 1, a = 0.2, Gamma = 1), 8,192 random vortons, 4 s at dt 0.02 (the ring
// travels about one radius): total vorticity changes by less than 0.5% of sum |omega| V, and the
// linear impulse and the kinetic energy of the flow by less than 2% - invariants of inviscid
// flow that remeshing, the transpose stretching scheme and second-order time integration must
// keep. (Random seeding itself leaves sum omega V at ~1/sqrt(N) of sum |omega| V, so it is the
// change that is measured.)
TEST(InviscidRing, InvariantsOverFourSeconds) {
    test::RingSpec spec;
    spec.count = 8192;
    spec.coreRadius = 0.2f;
    Simulation sim;
    test::makeInviscid(sim);
    test::addVortexRing(sim.vortons(), spec);
    const Diagnostics d0 = sim.diagnostics();
    for (int k = 0; k < 200; ++k) sim.step(0.02f);
    const Diagnostics d1 = sim.diagnostics();
    const double e0 = d0.fieldEnergy, e1 = d1.fieldEnergy;  // solved from the vorticity at each time
    double scale = 0.0;
    for (size_t i = 0; i < sim.vortons().size(); ++i)
        scale += glm::length(sim.vortons().vorticity[i]) * sim.vortons().volume(i);
    const double impulseDrift = glm::length(d1.linearImpulse - d0.linearImpulse) / glm::length(d0.linearImpulse);
    const double circulation = glm::length(d1.circulation - d0.circulation) / scale;
    const double energyDrift = e1 / e0 - 1.0;
    std::cout << "inviscid ring, 4 s: impulse " << d0.linearImpulse.y << " -> " << d1.linearImpulse.y << " (drift "
              << impulseDrift << "), change of sum omega V / sum |omega| V = " << circulation << ", energy " << e0
              << " -> " << e1 << " (drift " << energyDrift << "), " << sim.remeshCount() << " remeshes\n";
    EXPECT_LT(circulation, 0.005);
    EXPECT_LT(impulseDrift, 0.02);
    EXPECT_LT(std::abs(energyDrift), 0.02);
}

}  // namespace
}  // namespace vfx

namespace vfx {
namespace {

// --- exact baroclinic impulse ---------------------------------------------------------------------

// Integrated by parts, the Boussinesq source grad rho x g / rho0 makes the fluid's linear impulse
// grow at exactly g sum(rho' V) / rho0 for any compact anomaly. One step from rest, a heavy ball's
// impulse must grow at that rate within 5%, whatever its layout, with the grid source shared among
// the vortons; sampled at the vortons (Gourlay) it misses the interface outside them (< 60%).
double firstStepImpulseRatio(bool lattice, bool sharing, GradientSource source) {
    Simulation sim;
    sim.fluid().viscosity = 0.0f;
    sim.fluid().baroclinicSharing = sharing;
    sim.fluid().densityGradient = source;
    if (lattice) {
        const float h = 0.5f * std::cbrt(4.0f / 3.0f * kPi / 4096.0f);
        const int n = int(std::ceil(1.0f / h)) + 1;
        test::addLattice(
            sim.vortons(), ivec3(n), vec3(-0.5f * float(n - 1) * h), h,
            [](const vec3& p) { return glm::dot(p, p) <= 0.25f ? 0.5f : 0.0f; }, nullptr);
        // Only the ball carries vortons (the author's layout): drop the empty lattice corners.
        Vortons ball;
        for (size_t i = 0; i < sim.vortons().size(); ++i)
            if (sim.vortons().density[i] != 0.0f)
                ball.add(sim.vortons().position[i], vec3(0.0f), sim.vortons().radius[i], 0.5f, sim.vortons().volume(i));
        sim.vortons() = ball;
    } else {
        test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 4096, 0.5f, vec3(0.0f), 7});
    }
    const double mass = sim.diagnostics().massParticles;
    const float dt = 0.01f;
    sim.step(dt);
    const double rate = sim.diagnostics().linearImpulse.y / dt;
    const double exact = double(sim.fluid().gravity.y) * mass / double(sim.fluid().ambientDensity);
    return rate / exact;
}

TEST(Baroclinic, ImpulseGrowsAtTheExactRateForAnyLayout) {
    for (GradientSource source : {GradientSource::Grid, GradientSource::Sph})
        for (bool lattice : {true, false}) {
            const double shared = firstStepImpulseRatio(lattice, true, source);
            const double sampled = firstStepImpulseRatio(lattice, false, source);
            std::cout << (source == GradientSource::Grid ? "grid" : "SPH") << " gradient, "
                      << (lattice ? "lattice" : "random") << " ball: impulse rate / g sum(rho' V) / rho0 = " << shared
                      << " exact-rate form, " << sampled << " sampled at vortons\n";
            EXPECT_NEAR(shared, 1.0, 0.05);
            EXPECT_LT(sampled, 0.6);  // the deficit the exact-rate forms remove
        }
}

}  // namespace
}  // namespace vfx

namespace vfx {
namespace {

// A heavy ball released from rest starts to fall like a sphere in potential flow: the fluid's
// impulse grows at g M'/rho0 and the impulse of a sphere moving at U is (3/2) V U, so its centre
// of mass accelerates at (2/3) g rho'/rho0 at first. Measured from the dyed fluid's mean
// velocity after 5 steps (before the ring forms), solved from the vorticity those 5 steps made
// (so the measurement does not depend on how the integrator blends velocities); within 10%.
TEST(Baroclinic, HeavyBallStartsToFallAtTwoThirdsOfReducedGravity) {
    for (GradientSource source : {GradientSource::Grid, GradientSource::Sph}) {
        Simulation sim;
        sim.fluid().densityGradient = source;
        const float density = 0.5f;
        test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 4096, density, vec3(0.0f), 3});
        const int steps = 5;
        const float dt = 0.01f;
        for (int k = 0; k < steps; ++k) sim.step(dt);
        const Vortons& v = sim.vortons();
        std::vector<vec3> velocity;
        sim.velocityAtPoints(v.position, velocity);
        double momentum = 0.0, mass = 0.0;
        for (size_t i = 0; i < v.size(); ++i) {
            const double m = std::abs(double(v.density[i])) * v.volume(i);
            momentum += m * velocity[i].y;
            mass += m;
        }
        const double acceleration = -momentum / mass / (steps * double(dt));
        const double expected = 2.0 / 3.0 * 9.8 * density / sim.fluid().ambientDensity;
        std::cout << (source == GradientSource::Grid ? "grid" : "SPH") << " gradient: early acceleration "
                  << acceleration << " m/s^2, (2/3) g rho'/rho0 = " << expected << "\n";
        EXPECT_NEAR(acceleration, expected, 0.1 * expected);
    }
}

}  // namespace
}  // namespace vfx
