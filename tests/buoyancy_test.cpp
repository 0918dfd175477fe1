// Fluid buoyancy (Gourlay part 8): mass deviation on the grid, its
// gradient, and baroclinic generation d omega/dt = (grad rho x g) / rho0 with the sign that
// makes heavy fluid sink and light fluid rise.
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

namespace vfx {
namespace {

constexpr float kDt = 0.01f;
const vec3 kGravity(0.0f, -9.8f, 0.0f);

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

// A lattice of vortons (spacing h, volume h^3) carrying rho'(x) = a + b.x, with the grid spacing
// forced to h: two massless tracers at the corners of a box set the grid's extent E = 16 h, and
// gridCellsPerVorton makes the target cell count (E / h)^3. On a lattice of the grid's spacing
// the trilinear (tent) weights reproduce linear functions, so wherever a grid point has all 8
// lattice neighbours the deposited density is exactly a + b.x, and the centred gradient is
// exactly b one point further in. Vortons two spacings inside the lattice interpolate b.
struct LatticeSetup {
    static constexpr int kCount = 12;  // vortons per axis
    static constexpr float kSpacing = 0.1f;
    float offset = 0.5f * float(kCount - 1) * kSpacing;  // lattice spans [-offset, offset]^3
    float a = 0.3f;
    vec3 b{0.2f, -0.5f, 0.1f};
};

void buildLattice(Simulation& sim, const LatticeSetup& s) {
    const float h = LatticeSetup::kSpacing;
    test::addLattice(
        sim.vortons(), ivec3(LatticeSetup::kCount), vec3(-s.offset), h,
        [&](const vec3& p) { return s.a + glm::dot(s.b, p); }, nullptr);
    const float sigma = sim.vortons().radius[0];
    const int gridCells = 16;
    const float corner = 0.5f * float(gridCells) * h - sigma;  // padded by sigma on each side: E = 16 h
    sim.tracers().add(vec3(-corner));
    sim.tracers().add(vec3(corner));
    const double target = double(gridCells) * gridCells * gridCells;
    sim.fluid().gridCellsPerVorton = float((target + 0.5) / double(sim.vortons().size()));
    sim.fluid().viscosity = 0.0f;
    sim.fluid().stretching = false;
}

bool insideLattice(const vec3& p, float margin, const LatticeSetup& s) {
    for (int a = 0; a < 3; ++a)
        if (std::abs(p[a]) > s.offset - margin + 1e-4f) return false;
    return true;
}

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

}  // namespace
}  // namespace vfx
