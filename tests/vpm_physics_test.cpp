// Vortex-particle physics against analytic results: tree-code accuracy, vortex-ring
// self-propulsion, PSE viscous diffusion, and the conserved quantities of inviscid flow.
#include "sim/diffusion.hpp"
#include "sim/simulation.hpp"
#include "sim/velocity_solver.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

namespace vfx {
namespace {

// --- tree code vs direct summation ---------------------------------------------------------

// Vortex ring R = 1, a = 0.25, Gamma = 1, N = 4096 random vortons. The tree code (Barnes-Hut
// with dipole corrections) at the default opening angle must reproduce direct summation at
// the vortons with relative RMS error  sqrt(sum |u_tree - u_direct|^2 / sum |u_direct|^2) <= 1%.
TEST(TreeVsDirect, VortexRingRelativeRmsErrorBelowOnePercent) {
    Vortons v;
    test::addVortexRing(v, test::RingSpec{});
    const float theta = FluidParams{}.treeOpeningAngle;
    std::vector<vec3> direct, tree;
    directVelocity(v, v.position, direct);
    VortonTree t;
    t.build(v);
    t.velocity(v.position, tree, theta);
    const double error = test::relativeRms(tree, direct);
    std::cout << "tree vs direct, ring N=4096, theta=" << theta << ": relative RMS error " << 100.0 * error << " %\n";
    ::testing::Test::RecordProperty("tree_rms_error_percent", std::to_string(100.0 * error));
    EXPECT_LE(error, 0.01);
    // A wider opening angle must cost accuracy (the criterion is really used).
    std::vector<vec3> coarse;
    t.velocity(v.position, coarse, 1.0f);
    EXPECT_GT(test::relativeRms(coarse, direct), error);
}

// The same ring on the grid a simulation step lays around it, out to the grid's corners where
// the velocity is small: the velocity phase's error budget, 1% RMS against direct summation at
// the default angle, holds there too, for the blocked grid evaluation and for one traversal per
// point. The angle test alone took big arcs of the ring as single clusters seen from the corners
// (1.46% RMS, a third of the local velocity at the worst points): the clusters' estimated
// truncation error must also be small against the field's scale.
TEST(TreeVsDirect, VortexRingOnTheStepGridRelativeRmsErrorBelowOnePercent) {
    Simulation sim;
    test::addVortexRing(sim.vortons(), test::RingSpec{});
    sim.step(1e-4f);
    const GridShape& shape = sim.gridShape();
    std::vector<vec3> points;
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) points.push_back(shape.pointPosition(x, y, z));
    std::vector<vec3> direct, tree;
    directVelocity(sim.vortons(), points, direct);
    VortonTree t;
    t.build(sim.vortons());
    t.velocityOnGrid(shape, tree, FluidParams{}.treeOpeningAngle);
    const double error = test::relativeRms(tree, direct);
    std::vector<vec3> perPoint;
    t.velocityPerPoint(points, perPoint, FluidParams{}.treeOpeningAngle);
    const double perPointError = test::relativeRms(perPoint, direct);
    std::printf(
        "tree vs direct, ring N=4096 on the step's grid (%zu points): relative RMS error %.3f%% blocked, "
        "%.3f%% per point\n",
        points.size(), 100.0 * error, 100.0 * perPointError);
    EXPECT_LE(error, 0.01);
    EXPECT_LE(perPointError, 0.01);
}

// --- vortex ring self-propulsion -------------------------------------------------------------

// Thin-ring (Kelvin) speed of a ring with a uniform-vorticity core:
//   U = Gamma / (4 pi R) (ln(8 R / a) - 1/4).
double thinRingSpeed(const test::RingSpec& s) {
    return s.circulation / (4.0 * M_PI * s.radius) * (std::log(8.0 * s.radius / s.coreRadius) - 0.25);
}

struct RingRun {
    double speed = 0.0;  // centroid speed along +y over the measured window
    dvec3 drift{0.0};    // centroid displacement over the window
};

RingRun runRing(const test::RingSpec& spec, VelocitySolver solver, int warmup, int steps, float dt) {
    Simulation sim;
    test::makeInviscid(sim);
    sim.fluid().velocitySolver = solver;
    test::addVortexRing(sim.vortons(), spec);
    for (int k = 0; k < warmup; ++k) sim.step(dt);
    const dvec3 start = test::vorticityCentroid(sim.vortons());
    for (int k = 0; k < steps; ++k) sim.step(dt);
    const dvec3 end = test::vorticityCentroid(sim.vortons());
    RingRun r;
    r.drift = end - start;
    r.speed = r.drift.y / (double(steps) * dt);
    return r;
}

// Positive circulation by the right-hand rule about +y (vorticity along y_hat x e_rho) must move
// the ring along +y. Its speed: Rankine-cored particles with sigma comparable to the spacing and
// a grid velocity field are slower than the thin-ring formula. Measured (N = 4096, dt = 0.02,
// 40 steps after 5 warm-up steps): see the printed ratio. We hold U / U_thin in [0.75, 1.15]:
// loose enough for the discretisation, tight enough that a factor 2, a sign error or a missing
// 1/(4 pi) fails.
TEST(VortexRing, TranslatesAlongAxisAtThinRingSpeed) {
    const test::RingSpec spec;
    const double expected = thinRingSpeed(spec);
    const RingRun run = runRing(spec, VelocitySolver::Tree, 5, 40, 0.02f);
    const double ratio = run.speed / expected;
    std::cout << "ring speed " << run.speed << " m/s, thin-ring formula " << expected << " m/s, ratio " << ratio
              << ", sideways drift (" << run.drift.x << ", " << run.drift.z << ")\n";
    ::testing::Test::RecordProperty("ring_speed_ratio", std::to_string(ratio));
    EXPECT_GT(run.speed, 0.0) << "ring moves against the right-hand rule";
    EXPECT_GT(ratio, 0.75);
    EXPECT_LT(ratio, 1.15);
    // It moves along its axis: sideways drift is small next to the axial travel.
    EXPECT_LT(std::hypot(run.drift.x, run.drift.z), 0.05 * std::abs(run.drift.y));
}

// Flipping the circulation reverses the motion at the same speed (odd in Gamma).
TEST(VortexRing, NegativeCirculationMovesTheOtherWay) {
    test::RingSpec spec;
    spec.count = 2048;
    const RingRun forward = runRing(spec, VelocitySolver::Tree, 2, 15, 0.02f);
    spec.circulation = -1.0f;
    const RingRun backward = runRing(spec, VelocitySolver::Tree, 2, 15, 0.02f);
    EXPECT_GT(forward.speed, 0.0);
    EXPECT_LT(backward.speed, 0.0);
    // Not exactly equal: the random seeding is not mirror-symmetric, so the discretisation
    // noise differs (measured 0.8%); a sign-dependent bug would show far more.
    EXPECT_NEAR(forward.speed, -backward.speed, 0.03 * std::abs(forward.speed));
}

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
    test::addVortexRing(sim.vortons(), spec);
    const float strength = 1e-4f;
    const size_t below = sim.vortons().add(vec3(0.0f, -0.5f, 0.0f), vec3(0.0f, strength, 0.0f), 0.05f, 0.0f);
    const size_t above = sim.vortons().add(vec3(0.0f, 0.5f, 0.0f), vec3(strength, 0.0f, 0.0f), 0.05f, 0.0f);
    // Massless tracers widen the grid so the probes sit well inside it (centred differences).
    sim.tracers().add(vec3(0.0f, -1.2f, 0.0f));
    sim.tracers().add(vec3(0.0f, 1.2f, 0.0f));
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

// --- PSE diffusion ---------------------------------------------------------------------------

// Sum over vortons of omega V.
dvec3 circulation(const Vortons& v) {
    dvec3 sum(0.0);
    for (size_t i = 0; i < v.size(); ++i) sum += dvec3(v.vorticity[i]) * double(v.volume(i));
    return sum;
}

// PSE exchanges are antisymmetric pair terms, so total circulation sum(omega V) is conserved to
// round-off: relative change <= 1e-5 of sum |omega| V, while individual vorticities do change.
TEST(Pse, ConservesTotalCirculation) {
    Vortons v;
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    test::addBall(v, test::BallSpec{vec3(0.0f), 0.5f, 3000, 0.0f});
    for (size_t i = 0; i < v.size(); ++i) {
        v.vorticity[i] = vec3(unit(rng), unit(rng), unit(rng)) * 5.0f + vec3(1.0f, 0.0f, 0.0f);
        v.volumes[i] *= 1.0f + 0.3f * unit(rng);  // unequal volumes
    }
    double scale = 0.0;
    for (size_t i = 0; i < v.size(); ++i) scale += glm::length(v.vorticity[i]) * v.volume(i);
    const dvec3 before = circulation(v);
    const std::vector<vec3> initial = v.vorticity;
    PseDiffusion pse;
    for (int k = 0; k < 10; ++k) pse.apply(v, 0.01f, 0.01f);
    const dvec3 after = circulation(v);
    const double change = glm::length(after - before) / scale;
    std::cout << "PSE circulation change relative to sum |omega| V: " << change << "\n";
    EXPECT_LT(change, 1e-5);
    EXPECT_GT(test::relativeRms(v.vorticity, initial), 1e-3) << "diffusion did nothing";
}

// The SIMD neighbour sum (polynomial exp, lanes, candidate ranges) against the plain definition
// summed over all pairs with PseDiffusion::kernel: same change of vorticity to 1e-5.
TEST(Pse, NeighbourSumMatchesAllPairsReference) {
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    Vortons v;
    test::addBall(v, test::BallSpec{vec3(0.0f), 0.5f, 1500, 0.0f});
    std::vector<float> eddy(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        v.vorticity[i] = vec3(unit(rng), unit(rng), unit(rng));
        v.volumes[i] *= 1.0f + 0.3f * unit(rng);
        eddy[i] = 0.005f * (1.0f + unit(rng));
    }
    const float nu = 0.01f, dt = 0.01f;
    // Without and with a per-vorton eddy viscosity: a pair exchanges at nu + (e_i + e_j) / 2.
    for (bool withEddy : {false, true}) {
        PseDiffusion pse;
        Vortons simd = v;
        pse.apply(simd, nu, dt, withEddy ? eddy : std::vector<float>{});
        const float eps = pse.lastWidth();
        std::vector<vec3> expected(v.size()), got(v.size());
        for (size_t i = 0; i < v.size(); ++i) {
            dvec3 sum(0.0);
            for (size_t j = 0; j < v.size(); ++j) {
                const vec3 d = v.position[i] - v.position[j];
                const double eta = PseDiffusion::kernel(glm::dot(d, d) / (eps * eps));
                const double pairViscosity = nu + (withEddy ? 0.5 * (double(eddy[i]) + double(eddy[j])) : 0.0);
                sum += dvec3(v.vorticity[j] - v.vorticity[i]) * (eta * v.volume(j) * pairViscosity);
            }
            expected[i] = vec3(sum * double(dt / (eps * eps * eps * eps * eps)));
            got[i] = simd.vorticity[i] - v.vorticity[i];
        }
        EXPECT_LT(test::relativeRms(got, expected), 1e-5) << (withEddy ? "with" : "without") << " eddy viscosity";
    }
}

// Same guarantee inside a full simulation step (stretching and buoyancy off, inviscid
// transport does not change omega V): relative change <= 1e-5.
TEST(Pse, SimulationStepConservesCirculationWithViscosity) {
    Simulation sim;
    sim.fluid().gravity = vec3(0.0f);
    sim.fluid().viscosity = 0.01f;
    sim.fluid().stretching = false;
    test::addBall(sim.vortons(), test::BallSpec{vec3(0.0f), 0.5f, 2000, 0.0f, vec3(0.0f, 0.0f, 0.5f), 3});
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (vec3& w : sim.vortons().vorticity) w += 0.5f * vec3(unit(rng), unit(rng), unit(rng));
    const dvec3 before = circulation(sim.vortons());
    double scale = 0.0;
    for (size_t i = 0; i < sim.vortons().size(); ++i)
        scale += glm::length(sim.vortons().vorticity[i]) * sim.vortons().volume(i);
    for (int k = 0; k < 10; ++k) sim.step(0.01f);
    EXPECT_LT(glm::length(circulation(sim.vortons()) - before) / scale, 1e-5);
    EXPECT_LT(glm::length(sim.diagnostics().circulation - circulation(sim.vortons())), 1e-9 * scale + 1e-12);
}

// Vorticity-weighted second moment <|x|^2> = sum(omega_z V |x|^2) / sum(omega_z V).
double secondMoment(const Vortons& v) {
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const double w = double(v.vorticity[i].z) * v.volume(i);
        num += w * glm::dot(dvec3(v.position[i]), dvec3(v.position[i]));
        den += w;
    }
    return num / den;
}

// Diffusion d omega/dt = nu lap(omega) gives d<|x|^2>/dt = 6 nu for the omega-weighted second
// moment of a single-signed component (integrate by parts: lap |x|^2 = 6). A Gaussian blob
// omega_z = exp(-|x|^2 / (2 s^2)), s = 0.2, sampled out to 4 s by 33^3 vortons of volume h^3,
// h = 0.05, either on a lattice or at random; PseDiffusion applied directly (no advection).
// Tolerance 15% on the rate.
enum class Layout { Lattice, Random };

double pseSecondMomentRate(Layout layout, float viscosity, float dt, int steps) {
    const float s = 0.2f, h = 0.05f;
    const int n = 33;
    const float half = 0.5f * float(n - 1) * h;
    auto gaussian = [&](const vec3& p) { return vec3(0.0f, 0.0f, std::exp(-glm::dot(p, p) / (2.0f * s * s))); };
    Vortons v;
    if (layout == Layout::Lattice) {
        test::addLattice(v, ivec3(n), vec3(-half), h, nullptr, gaussian);
    } else {
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> coord(-half - 0.5f * h, half + 0.5f * h);
        for (int k = 0; k < n * n * n; ++k) {
            const vec3 p(coord(rng), coord(rng), coord(rng));
            test::addShare(v, p, gaussian(p), 0.0f, double(h) * h * h);
        }
    }
    PseDiffusion pse;
    const double m0 = secondMoment(v);
    for (int k = 0; k < steps; ++k) pse.apply(v, viscosity, dt);
    return (secondMoment(v) - m0) / (double(steps) * dt);
}

TEST(Pse, GaussianBlobSecondMomentGrowsAtSixNu) {
    const float nu = 0.01f;
    for (Layout layout : {Layout::Lattice, Layout::Random}) {
        const char* name = layout == Layout::Lattice ? "lattice" : "random";
        const double rate = pseSecondMomentRate(layout, nu, 0.02f, 10);
        const double ratio = rate / (6.0 * nu);
        std::cout << "PSE " << name << ": d<|x|^2>/dt = " << rate << ", 6 nu = " << 6.0 * nu << ", ratio " << ratio
                  << "\n";
        ::testing::Test::RecordProperty(std::string("pse_rate_ratio_") + name, std::to_string(ratio));
        EXPECT_NEAR(ratio, 1.0, 0.15) << name;
    }
}

// --- inviscid invariants ---------------------------------------------------------------------

// Linear impulse I = 1/2 sum x x (omega V). For a ring with a uniform core it is
// I = pi Gamma (R^2 + a^2/4) along the axis (checks the seeding and the diagnostic).
// Inviscid, unbounded flow conserves I exactly; over 50 steps the discrete scheme drifts: we
// assert < 10% and print the figure. Without stretching, advection leaves every omega V
// untouched, so total circulation is conserved exactly; with stretching (centred grid
// differences) it is not guaranteed, so it is only reported.
TEST(InviscidRing, ImpulseAndCirculationDrift) {
    const test::RingSpec spec;
    for (bool stretching : {true, false}) {
        Simulation sim;
        test::makeInviscid(sim);
        sim.fluid().stretching = stretching;
        test::addVortexRing(sim.vortons(), spec);
        const Diagnostics d0 = sim.diagnostics();
        const double analytic =
            M_PI * spec.circulation * (spec.radius * spec.radius + 0.25 * spec.coreRadius * spec.coreRadius);
        if (stretching) {
            EXPECT_NEAR(d0.linearImpulse.y, analytic, 0.03 * analytic);
            EXPECT_LT(std::hypot(d0.linearImpulse.x, d0.linearImpulse.z), 0.03 * analytic);
        }
        // Without stretching nothing changes a vorton's strength: total vorticity is conserved to
        // the last bit when the particles are not remeshed (remeshing has its own test).
        if (!stretching) sim.fluid().remeshStrain = 0.0f;
        for (int k = 0; k < 50; ++k) sim.step(0.02f);
        const Diagnostics d1 = sim.diagnostics();
        const double impulseDrift = glm::length(d1.linearImpulse - d0.linearImpulse) / glm::length(d0.linearImpulse);
        double scale = 0.0;  // sum |omega| V: the ring's net circulation vector is ~0
        for (size_t i = 0; i < sim.vortons().size(); ++i)
            scale += glm::length(sim.vortons().vorticity[i]) * sim.vortons().volume(i);
        const double circulationDrift = glm::length(d1.circulation - d0.circulation) / scale;
        std::cout << "inviscid ring, 50 steps, stretching " << (stretching ? "on" : "off") << ": impulse "
                  << d0.linearImpulse.y << " -> " << d1.linearImpulse.y << " (relative drift " << impulseDrift
                  << "), circulation drift relative to sum|omega|V " << circulationDrift << "\n";
        ::testing::Test::RecordProperty(stretching ? "impulse_drift_stretching" : "impulse_drift_no_stretching",
                                        std::to_string(impulseDrift));
        EXPECT_LT(impulseDrift, 0.10);
        if (!stretching) {
            EXPECT_EQ(d1.circulation, d0.circulation);
        }
    }
}

}  // namespace
}  // namespace vfx
