// Baroclinic generation (Gourlay part 8, sim/baroclinic.hpp): d omega/dt = (grad rho x g) / rho0
// with the sign that makes heavy fluid sink and light fluid rise, a heavy ball starting to fall
// at (2/3) g rho'/rho0, the fluid's impulse growing at exactly g sum(rho' V) / rho0, and nothing
// generated without gravity or away from density gradients.
#include "drop_scene.hpp"
#include "density_lattice.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace vfx {
namespace {

using test::buildLattice;
using test::insideLattice;
using test::kDt;
using test::kGravity;
using test::LatticeSetup;

// --- sign and shape of baroclinic generation ----------------------------------------------------

// Velocity at the ball's centre induced by the vorticity after one step from rest. For a
// uniform ball of deviation rho' released from rest, the initial (Boussinesq, inviscid)
// acceleration inside it is the solenoidal part of the buoyancy force rho' g / rho0, which is
// uniform: (2/3) g rho' / rho0 (as B = 2/3 mu0 M inside a uniformly magnetised sphere). So after
// one step u(centre) = (2/3) g rho' dt / rho0. Vortons exist only inside the ball, so the outer
// half of the smeared interface carries no vorticity: the measured value is lower (ratio
// printed); we hold the ratio in [0.35, 1.1] and the direction within ~10 degrees.
vec3 centreVelocityAfterOneStep(float density, vec3 gravity, float* ratio = nullptr) {
    Simulation sim;
    sim.fluid().gravity = gravity;
    const vec3 centre(0.0f, 1.0f, 0.0f);
    test::addBall(sim.vortons(), test::BallSpec{centre, 0.5f, 4096, density, vec3(0.0f), 1});
    sim.step(kDt);
    std::vector<vec3> u;
    sim.velocityAtPoints({centre}, u);
    const vec3 expected = (2.0f / 3.0f) * gravity * density * kDt / sim.fluid().ambientDensity;
    if (ratio) *ratio = glm::dot(u[0], expected) / glm::dot(expected, expected);
    return u[0];
}

TEST(Baroclinic, HeavyBallCentreMovesDownLightBallUp) {
    float heavyRatio = 0.0f, lightRatio = 0.0f;
    const vec3 heavy = centreVelocityAfterOneStep(0.5f, kGravity, &heavyRatio);
    const vec3 light = centreVelocityAfterOneStep(-0.5f, kGravity, &lightRatio);
    std::cout << "velocity at the centre after one step: heavy (" << heavy.x << ", " << heavy.y << ", " << heavy.z
              << "), light (" << light.x << ", " << light.y << ", " << light.z
              << "); ratio to (2/3) g rho' dt / rho0: " << heavyRatio << ", " << lightRatio << "\n";
    ::testing::Test::RecordProperty("heavy_ball_centre_velocity_ratio", std::to_string(heavyRatio));
    EXPECT_LT(heavy.y, 0.0f);
    EXPECT_GT(light.y, 0.0f);
    for (const vec3& u : {heavy, light}) EXPECT_LT(std::hypot(u.x, u.z), 0.15f * std::abs(u.y));
    for (float r : {heavyRatio, lightRatio}) {
        EXPECT_GT(r, 0.35f);
        EXPECT_LT(r, 1.1f);
    }
}

// The sinking direction follows gravity, whatever axis it is on.
TEST(Baroclinic, SinkingFollowsGravityDirection) {
    const vec3 g(9.8f, 0.0f, 0.0f);
    float ratio = 0.0f;
    const vec3 u = centreVelocityAfterOneStep(0.5f, g, &ratio);
    EXPECT_GT(u.x, 0.0f);
    EXPECT_LT(std::hypot(u.y, u.z), 0.15f * u.x);
    EXPECT_GT(ratio, 0.35f);
}

// Generation is linear in rho': after one step from rest a light ball's vorticity is exactly the
// negative of the heavy ball's (every operation on the way is odd in rho' and exact in sign).
TEST(Baroclinic, LightBallVorticityIsExactlyOppositeOfHeavy) {
    auto vorticityAfterOneStep = [](float density) {
        Simulation sim;
        test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 1000, density, vec3(0.0f), 3});
        sim.step(kDt);
        return sim.vortons().vorticity;
    };
    const std::vector<vec3> heavy = vorticityAfterOneStep(0.5f);
    const std::vector<vec3> light = vorticityAfterOneStep(-0.5f);
    ASSERT_EQ(heavy.size(), light.size());
    size_t mismatches = 0, nonZero = 0;
    for (size_t i = 0; i < heavy.size(); ++i) {
        if (heavy[i] != -light[i]) ++mismatches;  // == rather than memcmp: +0 and -0 are equal
        if (heavy[i] != vec3(0.0f)) ++nonZero;
    }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_GT(nonZero, heavy.size() / 2);
}

// A heavy drop: centroid accelerates downward (the added-mass estimate for a sphere, as above,
// is (2/3) g rho'/rho0 = 3.27 m/s^2; measured printed, held in [0.3, 1.1] of it), and the
// vorticity rolls up into a ring about the vertical axis: away from the axis omega is mostly
// azimuthal, |omega . e_phi| / |omega| averaged with weight |omega| > 0.8.
struct DropRun {
    double acceleration = 0.0;  // centroid, along gravity (positive: falls)
    double earlyDisplacement = 0.0, lateDisplacement = 0.0;
    double azimuthalFraction = 0.0;
};

DropRun runDrop(float density) {
    Simulation sim;
    const vec3 centre(0.0f, 1.0f, 0.0f);
    test::addBall(sim.vortons(), test::BallSpec{centre, 0.5f, 2048, density, vec3(0.0f), 1});
    const int steps = 30;
    std::vector<double> y{test::massCentroid(sim.vortons()).y};
    for (int k = 0; k < steps; ++k) {
        sim.step(kDt);
        y.push_back(test::massCentroid(sim.vortons()).y);
    }
    DropRun r;
    r.earlyDisplacement = y[10] - y[0];
    r.lateDisplacement = y[30] - y[20];
    // Fit y = y0 + v0 t + a t^2 / 2 by finite differences of 10-step means: a = (d3 - d1) / (20 dt * 10 dt).
    r.acceleration = -(r.lateDisplacement - r.earlyDisplacement) / (20.0 * kDt * 10.0 * kDt);
    const vec3 axisPoint = vec3(test::meanPosition(sim.vortons().position));
    double along = 0.0, total = 0.0;
    for (size_t i = 0; i < sim.vortons().size(); ++i) {
        const vec3 p = sim.vortons().position[i], w = sim.vortons().vorticity[i];
        if (std::hypot(p.x - axisPoint.x, p.z - axisPoint.z) < 0.1f) continue;
        along += std::abs(glm::dot(w, test::azimuthAboutY(p, axisPoint)));
        total += glm::length(w);
    }
    r.azimuthalFraction = along / total;
    return r;
}

TEST(Baroclinic, HeavyDropSinksAndRollsIntoARingLightDropRises) {
    const double expected = 2.0 / 3.0 * 9.8 * 0.5;
    const DropRun heavy = runDrop(0.5f);
    const DropRun light = runDrop(-0.5f);
    std::cout << "heavy drop: centroid acceleration " << heavy.acceleration << " m/s^2 (added-mass estimate "
              << expected << ", ratio " << heavy.acceleration / expected << "), azimuthal vorticity fraction "
              << heavy.azimuthalFraction << "; light drop: acceleration " << light.acceleration
              << ", azimuthal fraction " << light.azimuthalFraction << "\n";
    ::testing::Test::RecordProperty("heavy_drop_acceleration_ratio", std::to_string(heavy.acceleration / expected));
    EXPECT_LT(heavy.earlyDisplacement, 0.0);
    EXPECT_LT(heavy.lateDisplacement, heavy.earlyDisplacement) << "heavy drop does not accelerate downward";
    EXPECT_GT(light.earlyDisplacement, 0.0);
    EXPECT_GT(light.lateDisplacement, light.earlyDisplacement) << "light drop does not accelerate upward";
    EXPECT_GT(heavy.acceleration, 0.3 * expected);
    EXPECT_LT(heavy.acceleration, 1.1 * expected);
    EXPECT_LT(light.acceleration, -0.3 * expected);
    EXPECT_GT(heavy.azimuthalFraction, 0.8);
    EXPECT_GT(light.azimuthalFraction, 0.8);
}

// --- when nothing may be generated ---------------------------------------------------------------

// Zero gravity: the Boussinesq term is skipped. The density gradient is still computed (non-zero
// at the ball's surface), yet the vorticity stays exactly zero.
TEST(Baroclinic, ZeroGravityGeneratesNothing) {
    Simulation sim;
    sim.fluid().gravity = vec3(0.0f);
    test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 1500, 0.5f, vec3(0.0f), 5});
    for (int k = 0; k < 5; ++k) sim.step(kDt);
    float maxGradient = 0.0f;
    for (const vec3& g : sim.vortons().densityGradient) maxGradient = std::max(maxGradient, glm::length(g));
    EXPECT_GT(maxGradient, 0.1f);
    for (const vec3& w : sim.vortons().vorticity) EXPECT_EQ(w, vec3(0.0f));
    for (const vec3& p : sim.vortons().velocity) EXPECT_EQ(p, vec3(0.0f));
}

// Fluid at the ambient density everywhere (rho' = 0): no gradient, no vorticity, exactly.
TEST(Baroclinic, AmbientDensityEverywhereGeneratesNothing) {
    Simulation sim;
    test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 1500, 0.0f, vec3(0.0f), 5});
    for (int k = 0; k < 5; ++k) sim.step(kDt);
    for (float rho : sim.densityGrid().values()) EXPECT_EQ(rho, 0.0f);
    for (const vec3& w : sim.vortons().vorticity) EXPECT_EQ(w, vec3(0.0f));
}

// A uniform deviation generates vorticity only at its boundary: vortons three spacings inside a
// uniformly heavy lattice get |omega| < 1e-5 of the largest (boundary) value after one step.
TEST(Baroclinic, UniformDeviationGeneratesOnlyAtTheBoundary) {
    Simulation sim;
    LatticeSetup s;
    s.b = vec3(0.0f);
    s.a = 0.5f;
    buildLattice(sim, s);
    sim.fluid().gravity = kGravity;
    sim.step(kDt);
    float boundary = 0.0f, interior = 0.0f;
    int interiorCount = 0;
    for (size_t i = 0; i < sim.vortons().size(); ++i) {
        const float w = glm::length(sim.vortons().vorticity[i]);
        if (insideLattice(sim.vortons().position[i], 3.0f * LatticeSetup::kSpacing, s)) {
            interior = std::max(interior, w);
            ++interiorCount;
        } else {
            boundary = std::max(boundary, w);
        }
    }
    EXPECT_EQ(interiorCount, 6 * 6 * 6);
    EXPECT_GT(boundary, 0.1f * kDt * 9.8f * s.a);
    EXPECT_LT(interior, 1e-5f * boundary);
}

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

// The same exact rate for as long as the drop falls: under VPM remeshing coarsens the vortons'
// lattice as the drop spreads, and the SPH sums must keep their neighbours. The author's drop
// (ball r 1, 2,176 vortons, density +10, gravity 10, a 1/30 s step) with stretching and
// viscosity off, so no term but the baroclinic one changes the impulse: after 3 s it must be
// g sum(rho' V) t / rho0 within 5%, with either gradient: the bound the first-step test above
// holds both to (the grid's sharing keeps the first moment only to a few percent). The lattice
// must have coarsened past the scene's SPH radius (0.15 m), where a reach fixed at that radius
// finds no neighbours: the SPH impulse then stalled at 14%.
TEST(Baroclinic, ImpulseKeepsItsExactRateAsRemeshingCoarsensTheVortons) {
    for (GradientSource source : {GradientSource::Grid, GradientSource::Sph}) {
        const nlohmann::json document =
            test::authorsDropScene(2176, {{"viscosity", 0.0},
                                          {"stretching", false},
                                          {"subgrid_model", "none"},
                                          {"density_gradient", source == GradientSource::Grid ? "grid" : "sph"}});
        Simulation sim;
        buildSimulation(parseScene(document, "drop"), sim);
        const double mass = sim.diagnostics().massParticles;
        const float dt = 1.0f / 30.0f;
        const int steps = 90;
        for (int k = 0; k < steps; ++k) sim.step(dt);
        const double exact = -10.0 * mass * double(steps) * double(dt) / double(sim.fluid().ambientDensity);
        const double ratio = sim.diagnostics().linearImpulse.y / exact;
        std::cout << (source == GradientSource::Grid ? "grid" : "SPH") << " gradient: impulse after 3 s / exact "
                  << ratio << " (" << sim.remeshCount() << " remeshes, mean spacing " << sim.vortons().meanSpacing()
                  << " m)\n";
        EXPECT_GT(sim.vortons().meanSpacing(), sim.fluid().sphInfluenceRadius);
        EXPECT_NEAR(ratio, 1.0, 0.05);
    }
}

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

// --- walls ----------------------------------------------------------------------------------------

// A tank of fluid whose density grows along x, at rest: every bit of it gains vorticity at the
// same rate, d(omega_z)/dt = (d rho/dx) g_y / rho0, walls or not (the walls hold the pressure,
// they make no vorticity of their own). A grid point whose support a wall cuts holds only that
// share of a cell of fluid, and its source reaches the vortons beside it, not beyond them; given
// a whole cell and moved onto the point, the vortons along the tank's edges took 4.4 times the
// rate and those on its faces 2.1 times, and the runs of layered tanks grew at the edges.
// Checked away from the walls across the gradient (the grid sees the field's end there): each
// vorton within a quarter of the rate (the sharing over a lattice the grid does not match varies
// it by +-6% inside), and the slab's total within 5% of the source over its volume.
TEST(Baroclinic, InATankEveryVortonGainsTheSameRateWallsOrNot) {
    const nlohmann::json document = nlohmann::json::parse(R"({
      "fluid": {"viscosity": 0, "stretching": false, "diffusion": false, "no_slip": false,
                "vorticity_relaxation": 0, "gravity": [0, -10, 0], "poisoning": "none"},
      "vortons": [{"shape": "box", "min": [-0.8, -0.8, -0.8], "max": [0.8, 0.8, 0.8], "count": 4096,
                   "layout": "lattice", "density": 0.0, "density_gradient": [0.1, 0, 0]}],
      "bodies": [{"name": "tank", "shape": "box", "half_extents": [0.8, 0.8, 0.8], "hole": true,
                  "motion": "kinematic"}]
    })");
    Simulation sim;
    buildSimulation(parseScene(document, "tank"), sim);
    const float dt = 0.001f;
    sim.step(dt);
    const float uniform = -0.1f * 10.0f * dt / sim.fluid().ambientDensity;  // omega_z gained in one step
    const float slabHalfWidth = 0.5f;
    const Vortons& v = sim.vortons();
    double slab = 0.0, slabVolume = 0.0;
    float lowest = 1e9f, highest = -1e9f;
    for (size_t i = 0; i < v.size(); ++i) {
        if (std::abs(v.position[i].x) > slabHalfWidth) continue;
        const float ratio = v.vorticity[i].z / uniform;
        lowest = std::min(lowest, ratio);
        highest = std::max(highest, ratio);
        slab += v.vorticity[i].z * v.volume(i);
        slabVolume += v.volume(i);
    }
    std::cout << "vortons gain " << lowest << " to " << highest << " of the uniform rate; the slab "
              << slab / (uniform * slabVolume) << " of its source\n";
    EXPECT_GT(lowest, 0.75f);
    EXPECT_LT(highest, 1.25f);
    EXPECT_NEAR(slab / (uniform * slabVolume), 1.0, 0.05);
}

// The grid reads a linear field through the vortons' mean density at each point, the tent-
// weighted mean over a lattice of spacing hv around a point of spacing hg: that is the field at
// the weights' centroid, which lies up to this far from the point when the spacings differ (0
// when they match).
float largestCentroidShift(float hv, float hg) {
    float largest = 0.0f;
    for (int k = 0; k <= 1000; ++k) {
        const float offset = hv * float(k) / 1000.0f;
        double weights = 0.0, moment = 0.0;
        for (int j = -int(hg / hv) - 2; j <= int(hg / hv) + 2; ++j) {
            const double x = offset + j * hv, w = std::max(0.0, 1.0 - std::abs(x) / hg);
            weights += w;
            moment += w * x;
        }
        largest = std::max(largest, float(std::abs(moment / weights)));
    }
    return largest;
}

// A wall across the gradient is not an end of the fluid's layering: the vortons beside it read
// the fluid's gradient. For a linear field the one-sided difference there is exact but for the
// centroid shift of each of its two points: relative error up to 2 shift / hg (13% for this
// lattice of 0.1 m in a grid of 0.1125 m). The centred difference across the wall read a point
// outside the fluid and gave the vortons there less than a third of the gradient, with the sign
// turned at the wall's grid points.
TEST(Baroclinic, VortonsBesideAWallReadTheGradientOfTheFluid) {
    const nlohmann::json document = nlohmann::json::parse(R"({
      "fluid": {"viscosity": 0, "stretching": false, "diffusion": false, "no_slip": false,
                "vorticity_relaxation": 0, "gravity": [0, -10, 0], "poisoning": "none"},
      "vortons": [{"shape": "box", "min": [-0.8, -0.8, -0.8], "max": [0.8, 0.8, 0.8], "count": 4096,
                   "layout": "lattice", "density": 0.0, "density_gradient": [0.1, -0.2, 0]}],
      "bodies": [{"name": "tank", "shape": "box", "half_extents": [0.8, 0.8, 0.8], "hole": true,
                  "motion": "kinematic"}]
    })");
    Simulation sim;
    buildSimulation(parseScene(document, "tank"), sim);
    sim.step(0.001f);
    const Vortons& v = sim.vortons();
    const vec3 exact(0.1f, -0.2f, 0.0f);
    const float hg = sim.gridShape().spacing.x;
    const float tolerance = 2.0f * largestCentroidShift(0.1f, hg) / hg;
    int beside = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        const vec3 p = v.position[i];
        for (int a = 0; a < 2; ++a) {
            if (std::abs(p[a]) < 0.7f) continue;
            ++beside;
            EXPECT_NEAR(v.densityGradient[i][a], exact[a], tolerance * std::abs(exact[a]))
                << "axis " << a << " at " << p.x << " " << p.y << " " << p.z;
        }
    }
    EXPECT_GT(beside, 500);
    EXPECT_LT(tolerance, 0.2f);  // the grid's spacing is near the lattice's, or the check is weak
}

}  // namespace
}  // namespace vfx
