// SPH on vortons (parts 15, 16): kernels, number density, the canonical and difference density
// gradients, pressure, method switches at run time, thread-count independence, and the scene
// loader's rejection of bad SPH parameters.
#include "sim/body_coupling.hpp"
#include "bodies/shapes.hpp"
#include "core/math.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"
#include "sim/sph.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

namespace vfx {
namespace {

constexpr float kSpacing = 0.05f;      // lattice spacing of the gradient tests
constexpr float kH = 2.5f * kSpacing;  // kernel support: ~65 neighbours inside h

FluidParams sphParams(float h = kH, float restSpacing = kSpacing) {
    FluidParams f;
    f.sphInfluenceRadius = h;
    f.sphRestSpacing = restSpacing;
    return f;
}

// n^3 lattice at kSpacing with its first point at the origin.
Vortons latticeOf(int n, const std::function<float(const vec3&)>& density) {
    Vortons v;
    test::addLattice(v, ivec3(n), vec3(0.0f), kSpacing, density, nullptr);
    return v;
}

// True if x is at least `margin` inside the lattice's bounding box [0, (n-1) s]^3.
bool interior(const vec3& x, int n, float margin) {
    const float extent = float(n - 1) * kSpacing;
    for (int a = 0; a < 3; ++a)
        if (x[a] < margin || x[a] > extent - margin) return false;
    return true;
}

// --- kernels --------------------------------------------------------------------------------

TEST(SphKernel, IntegratesToOneOverSpace) {
    for (float h : {0.1f, 0.15f, 1.0f}) {
        // Radial quadrature of 4 pi r^2 W(r) (midpoint rule) ...
        const int steps = 4000;
        double radial = 0.0;
        for (int k = 0; k < steps; ++k) {
            const double r = (k + 0.5) * h / steps;
            radial += 4.0 * M_PI * r * r * sphKernel(float(r), h) * (h / steps);
        }
        EXPECT_NEAR(radial, 1.0, 1e-4) << "h = " << h;
        // ... and a plain Cartesian sum over a fine lattice, as the particles would see it.
        const float dx = h / 20.0f;
        double cartesian = 0.0;
        for (int z = -20; z <= 20; ++z)
            for (int y = -20; y <= 20; ++y)
                for (int x = -20; x <= 20; ++x) cartesian += sphKernel(dx * std::sqrt(float(x * x + y * y + z * z)), h);
        EXPECT_NEAR(cartesian * dx * dx * dx, 1.0, 2e-3) << "h = " << h;
    }
}

// Kernel mass at `centre` that lies where inFluid holds: midpoint rule on 80^3 cells across
// the support (cell centres, so no sample sits on a wall plane).
double kernelMassWhere(const vec3& centre, float h, const std::function<bool(const vec3&)>& inFluid) {
    const float dx = h / 40.0f;
    double mass = 0.0;
    for (int z = -40; z < 40; ++z)
        for (int y = -40; y < 40; ++y)
            for (int x = -40; x < 40; ++x) {
                const vec3 offset = dx * (vec3(float(x), float(y), float(z)) + 0.5f);
                if (inFluid(centre + offset)) mass += sphKernel(glm::length(offset), h);
            }
    return mass * dx * dx * dx;
}

TEST(SphKernel, ShareOnTheFluidSideOfAWallMatchesQuadrature) {
    const float h = 0.2f;
    for (float d : {-0.15f, -0.05f, 0.0f, 0.03f, 0.1f, 0.19f, 0.3f}) {
        const double quadrature = kernelMassWhere(vec3(0.0f, d, 0.0f), h, [](const vec3& p) { return p.y >= 0.0f; });
        EXPECT_NEAR(sphKernelShareOnFluidSide(d, h), quadrature, 2e-3) << "d = " << d;
    }
}

TEST(SphKernel, WallShareCountsEveryWallOfABoxCorner) {
    // Product over faces: exact at a face, an approximation at edges and corners (the kernel is
    // not separable); it must be far closer there than the nearest wall alone.
    const float h = 0.2f, half = 1.0f;
    RigidBody box;
    box.shape = makeBoxShape(vec3(half), true);
    box.motion = MotionKind::Kinematic;
    finalizeBodyMass(box);
    auto inside = [&](const vec3& p) { return glm::all(glm::lessThanEqual(glm::abs(p), vec3(half))); };
    const vec3 face(0.0f, half - 0.05f, 0.0f), edge(half - 0.05f, half - 0.05f, 0.0f), corner(half - 0.05f);
    std::vector<float> share;
    computeWallKernelShare({box}, {face, edge, corner, vec3(0.0f)}, h, share);
    const double exactFace = kernelMassWhere(face, h, inside), exactEdge = kernelMassWhere(edge, h, inside),
                 exactCorner = kernelMassWhere(corner, h, inside);
    std::printf(
        "wall share: face %.4f (quadrature %.4f), edge %.4f (%.4f), corner %.4f (%.4f), nearest wall alone %.4f\n",
        share[0], exactFace, share[1], exactEdge, share[2], exactCorner, sphKernelShareOnFluidSide(0.05f, h));
    // Measured: face 0.7834 (exact), edge 0.6137 vs 0.6108, corner 0.4808 vs 0.4739; the
    // nearest wall alone would say 0.7834 at the corner.
    EXPECT_NEAR(share[0], exactFace, 2e-3);
    EXPECT_NEAR(share[1], exactEdge, 0.01);
    EXPECT_NEAR(share[2], exactCorner, 0.015);
    EXPECT_FLOAT_EQ(share[3], 1.0f);
}

TEST(SphKernel, GradientsAreAntisymmetricAndMatchFiniteDifferences) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const float h = 0.15f;
    for (int trial = 0; trial < 200; ++trial) {
        const vec3 r = 1.1f * h * vec3(unit(rng), unit(rng), unit(rng));
        EXPECT_EQ(sphKernelGradient(r, h), -sphKernelGradient(-r, h));
        EXPECT_EQ(sphPressureKernelGradient(r, h), -sphPressureKernelGradient(-r, h));
        // The poly6 gradient is the derivative of the poly6 kernel.
        const float eps = 1e-4f * h;
        for (int a = 0; a < 3; ++a) {
            vec3 dp = r, dm = r;
            dp[a] += eps;
            dm[a] -= eps;
            const float fd = (sphKernel(glm::length(dp), h) - sphKernel(glm::length(dm), h)) / (2.0f * eps);
            EXPECT_NEAR(sphKernelGradient(r, h)[a], fd, 2e-3f * sphKernel(0.0f, h) / h) << "trial " << trial;
        }
        // Both gradients point from the neighbour toward the particle's centre: repulsive sign.
        if (glm::length(r) < h && glm::length(r) > 0.0f) {
            EXPECT_LT(glm::dot(sphKernelGradient(r, h), r), 0.0f);
            EXPECT_LT(glm::dot(sphPressureKernelGradient(r, h), r), 0.0f);
        }
    }
    EXPECT_EQ(sphKernelGradient(vec3(0.0f), h), vec3(0.0f));
    EXPECT_EQ(sphPressureKernelGradient(vec3(0.0f), h), vec3(0.0f));
    EXPECT_EQ(sphKernel(h, h), 0.0f);
}

TEST(SphKernel, RestNumberDensityOfALatticeIsOnePerCell) {
    // With ~2 spacings or more of support the lattice sum is the integral, 1 / s^3.
    for (float ratio : {2.0f, 2.5f, 3.0f}) {
        const float s = 0.06f;
        EXPECT_NEAR(sphRestNumberDensity(s, ratio * s) * s * s * s, 1.0f, 0.03f) << "h / s = " << ratio;
    }
}

// --- number density and gradients on a lattice ---------------------------------------------

TEST(SphFluid, NumberDensityInsideALatticeIsTheRestDensity) {
    const int n = 12;
    Vortons v = latticeOf(n, nullptr);
    SphFluid sph;
    const FluidParams f = sphParams();
    sph.update(v, f);
    const float n0 = sph.restNumberDensity(f);
    for (size_t i = 0; i < v.size(); ++i) {
        if (interior(v.position[i], n, kH)) {
            EXPECT_NEAR(sph.numberDensity()[i], n0, 1e-4f * n0);
        } else if (!interior(v.position[i], n, 0.5f * kSpacing)) {
            EXPECT_LT(sph.numberDensity()[i], 0.75f * n0);  // on a free surface: neighbours missing
        }
    }
}

// Worst relative errors of the canonical and difference forms, and of their disagreement, for
// a linear density on an n^3 lattice, over vortons at least h inside.
struct GradientErrors {
    int checked = 0;
    double canonical = 0.0, difference = 0.0, disagreement = 0.0;
};

GradientErrors linearGradientErrors(float h, const Vortons& v, int n, const vec3& slope, float margin) {
    SphFluid sph;
    const FluidParams f = sphParams(h);
    sph.update(v, f);
    std::vector<vec3> canonical, difference;
    sph.densityGradient(v, std::vector<float>(v.size(), 1e30f), {}, f, canonical);
    sph.densityGradient(v, std::vector<float>(v.size(), 0.0f), {}, f, difference);
    GradientErrors e;
    const double scale = glm::length(slope);
    for (size_t i = 0; i < v.size(); ++i) {
        if (!interior(v.position[i], n, margin)) continue;
        ++e.checked;
        e.canonical = std::max(e.canonical, double(glm::length(canonical[i] - slope)) / scale);
        e.difference = std::max(e.difference, double(glm::length(difference[i] - slope)) / scale);
        e.disagreement = std::max(e.disagreement, double(glm::length(canonical[i] - difference[i])) / scale);
    }
    return e;
}

TEST(SphFluid, GradientOfALinearDensityIsAccurateInside) {
    const int n = 20;
    const vec3 slope(0.8f, -1.5f, 0.4f);
    Vortons v = latticeOf(n, [&](const vec3& x) { return 0.3f + glm::dot(slope, x); });
    // The lattice sum of the kernel's second moment oscillates with h / spacing around its
    // integral (-3.4% at 2.5, -0.6% at 3); 2.5 is the ratio of the default h to rest spacing.
    const struct {
        float ratio;
        double tolerance;
    } cases[] = {{2.5f, 0.04}, {3.0f, 0.01}};
    for (const auto& c : cases) {
        const float h = c.ratio * kSpacing;
        // 2h inside: the canonical form at particle i weighs neighbour j by 1 / n_j, and n_j is
        // short near the free faces of the lattice, so it needs j's whole support inside too.
        const GradientErrors e = linearGradientErrors(h, v, n, slope, 2.0f * h);
        ASSERT_GT(e.checked, 100);
        EXPECT_LT(e.canonical, c.tolerance) << "canonical form, h / spacing " << c.ratio;
        EXPECT_LT(e.difference, c.tolerance) << "difference form, h / spacing " << c.ratio;
        EXPECT_LT(e.disagreement, 2e-3) << "canonical and difference forms disagree, h / spacing " << c.ratio;
        std::printf(
            "linear field, h / spacing %.1f, %d interior vortons: worst relative error canonical %.4f, "
            "difference %.4f\n",
            c.ratio, e.checked, e.canonical, e.difference);
    }
}

TEST(SphFluid, GradientOfALinearDensityOnAJitteredLattice) {
    // Particles are never on a perfect lattice after a few steps: jitter by 10% of the spacing.
    // The difference form stays accurate; the canonical form also picks up rho' sum_j gradW / n_j,
    // which is no longer zero, so its error grows with |rho'| / (|grad rho| h) (here ~3).
    const int n = 16;
    const vec3 slope(0.0f, -2.0f, 0.0f);
    Vortons v = latticeOf(n, nullptr);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (size_t i = 0; i < v.size(); ++i) {
        v.position[i] += 0.1f * kSpacing * vec3(unit(rng), unit(rng), unit(rng));
        v.density[i] = glm::dot(slope, v.position[i]);
    }
    SphFluid sph;
    const FluidParams f = sphParams();
    sph.update(v, f);
    std::vector<vec3> canonical, difference;
    sph.densityGradient(v, std::vector<float>(v.size(), 1e30f), {}, f, canonical);
    sph.densityGradient(v, std::vector<float>(v.size(), 0.0f), {}, f, difference);
    double canonicalError = 0.0, differenceError = 0.0;
    int checked = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (!interior(v.position[i], n, kH + kSpacing)) continue;
        ++checked;
        canonicalError += glm::length(canonical[i] - slope) / glm::length(slope);
        differenceError += glm::length(difference[i] - slope) / glm::length(slope);
    }
    canonicalError /= checked;
    differenceError /= checked;
    std::printf("jittered lattice: mean relative error canonical %.3f, difference %.3f\n", canonicalError,
                differenceError);
    EXPECT_LT(differenceError, 0.06);
    EXPECT_LT(canonicalError, 0.4);
}

TEST(SphFluid, DifferenceFormIsExactlyZeroForUniformDensityAtWallsAndFreeBoundaries) {
    const int n = 10;
    Vortons v = latticeOf(n, [](const vec3&) { return 0.5f; });
    SphFluid sph;
    const FluidParams f = sphParams();
    sph.update(v, f);
    // Every vorton "next to a wall" (proximity < h): difference form everywhere, and the
    // lattice's faces are free boundaries too.
    std::vector<vec3> difference, canonical;
    sph.densityGradient(v, std::vector<float>(v.size(), 0.5f * kH), {}, f, difference);
    for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(difference[i], vec3(0.0f)) << "vorton " << i;
    // The canonical form sees the fall-off of density at the free surface (why walls need
    // the difference form): large gradients at the faces, pointing inward.
    sph.densityGradient(v, std::vector<float>(v.size(), 1e30f), {}, f, canonical);
    const vec3 centre(0.5f * float(n - 1) * kSpacing);
    size_t surfaceInward = 0, surface = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (interior(v.position[i], n, 0.5f * kSpacing)) continue;
        ++surface;
        if (glm::dot(canonical[i], centre - v.position[i]) > 0.0f) ++surfaceInward;
    }
    EXPECT_EQ(surfaceInward, surface);
    // Mixed proximities: each vorton uses the form its own proximity selects.
    std::vector<float> mixed(v.size());
    for (size_t i = 0; i < v.size(); ++i) mixed[i] = (i % 2) ? 0.0f : 1e30f;
    std::vector<vec3> chosen;
    sph.densityGradient(v, mixed, {}, f, chosen);
    for (size_t i = 0; i < v.size(); ++i) {
        if (i % 2) {
            EXPECT_EQ(chosen[i], vec3(0.0f)) << "vorton " << i;
        } else if (!interior(v.position[i], n, 0.5f * kSpacing)) {
            EXPECT_GT(glm::length(chosen[i]), 0.0f) << "vorton " << i;
        }
    }
}

TEST(SphFluid, UniformFluidFillingABoxHasNoSphGradientAnywhere) {
    // Wall proximity comes from the container: every vorton within h of a wall takes the
    // difference form, the rest of a uniform fluid has no canonical gradient either.
    Simulation sim;
    const int n = 12;
    test::addLattice(
        sim.vortons(), ivec3(n), vec3(0.0f), kSpacing, [](const vec3&) { return 0.5f; }, nullptr);
    RigidBody tank;
    tank.name = "tank";
    tank.shape = makeBoxShape(vec3(0.5f * float(n) * kSpacing), true);
    tank.motion = MotionKind::Kinematic;
    tank.position = vec3(0.5f * float(n - 1) * kSpacing);
    finalizeBodyMass(tank);
    sim.bodies().push_back(tank);
    sim.fluid() = sphParams();
    sim.fluid().densityGradient = GradientSource::Sph;
    sim.fluid().diffusion = false;
    sim.step(0.001f);
    // Scale: the density jump of 0.5 across one kernel radius, as at the edge of a free drop.
    const float edgeGradient = 0.5f / kH;
    size_t nearWall = 0;
    float worstFar = 0.0f;
    for (size_t i = 0; i < sim.vortons().size(); ++i) {
        const float g = glm::length(sim.vortons().densityGradient[i]);
        if (sim.wallProximity()[i] < kH) {
            ++nearWall;
            EXPECT_EQ(g, 0.0f) << "vorton " << i << " within h of a wall";
        } else {
            worstFar = std::max(worstFar, g);
        }
    }
    EXPECT_GT(nearWall, 1000u);
    // Between h and 2h from a wall the canonical form sees the wall layer's number densities;
    // the kernel-share correction keeps the spurious gradient to a few percent of an edge's.
    EXPECT_LT(worstFar, 0.05f * edgeGradient);
    std::printf("uniform fluid in a box: worst SPH gradient beyond h from the walls %.4f (%.2f%% of a drop edge's)\n",
                worstFar, 100.0f * worstFar / edgeGradient);
}

// --- pressure -------------------------------------------------------------------------------

TEST(SphFluid, PressureIsBalancedAtRestAndPushesACompressedLatticeApart) {
    const int n = 12;
    Vortons v = latticeOf(n, nullptr);
    SphFluid sph;
    FluidParams f = sphParams();
    sph.update(v, f);
    std::vector<vec3> a;
    sph.pressureAcceleration(v, f, {}, a);
    for (size_t i = 0; i < v.size(); ++i) {
        if (interior(v.position[i], n, 2.0f * kH)) {
            EXPECT_LT(glm::length(a[i]), 1e-3f) << "vorton " << i;
        }
    }
    // The same lattice with a larger rest spacing is compressed: the faces accelerate outward.
    f.sphRestSpacing = 1.2f * kSpacing;
    sph.update(v, f);
    sph.pressureAcceleration(v, f, {}, a);
    const vec3 centre(0.5f * float(n - 1) * kSpacing);
    for (size_t i = 0; i < v.size(); ++i) {
        if (!interior(v.position[i], n, 0.5f * kSpacing)) {
            EXPECT_GT(glm::dot(a[i], v.position[i] - centre), 0.0f) << "vorton " << i;
        }
    }
}

TEST(SphFluid, RejectsNonPositiveParameters) {
    Vortons v = latticeOf(3, nullptr);
    SphFluid sph;
    EXPECT_THROW(sph.update(v, sphParams(0.0f)), std::invalid_argument);
    EXPECT_THROW(sph.update(v, sphParams(-1.0f)), std::invalid_argument);
    EXPECT_THROW(sph.update(v, sphParams(kH, 0.0f)), std::invalid_argument);
    FluidParams f = sphParams();
    sph.update(v, f);
    f.sphStiffness = -2.0f;
    std::vector<vec3> a;
    EXPECT_THROW(sph.pressureAcceleration(v, f, {}, a), std::invalid_argument);
    f.sphStiffness = 0.0f;  // the declared range is > 0: no pressure is no SPH fluid
    try {
        sph.pressureAcceleration(v, f, {}, a);
        ADD_FAILURE() << "a stiffness of 0 was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "fluid.sph_stiffness: must be > 0 and <= 1000000, got 0.0");
    }
    f = sphParams();
    f.sphCohesion = 1.5f;
    EXPECT_THROW(sph.pressureAcceleration(v, f, {}, a), std::invalid_argument);
}

// --- the fluid methods in a Simulation -------------------------------------------------------

// RMS distance of the points from their mean.
double radiusOfGyration(const std::vector<vec3>& points) {
    const dvec3 c = test::meanPosition(points);
    double sum = 0.0;
    for (const vec3& x : points) sum += glm::dot(dvec3(x) - c, dvec3(x) - c);
    return std::sqrt(sum / double(points.size()));
}

// Still fluid at ambient density on a lattice at the rest spacing, no gravity effects.
void fillStillLattice(Simulation& sim, int n) {
    test::addLattice(sim.vortons(), ivec3(n), vec3(0.0f), kSpacing, nullptr, nullptr);
    sim.fluid() = sphParams();
    sim.fluid().diffusion = false;
}

// Runs every method in turn for 5 steps each; returns the largest distance any vorton moved
// from where it started and the largest speed seen.
std::pair<double, double> driftAcrossMethodSwitches(Simulation& sim) {
    const std::vector<vec3> start = sim.vortons().position;
    const FluidMethod sequence[] = {FluidMethod::Vpm, FluidMethod::Sph,    FluidMethod::Vpm, FluidMethod::Hybrid,
                                    FluidMethod::Sph, FluidMethod::Hybrid, FluidMethod::Vpm};
    double drift = 0.0, speed = 0.0;
    for (FluidMethod m : sequence) {
        sim.fluid().method = m;
        for (int s = 0; s < 5; ++s) {
            sim.step(0.01f);
            speed = std::max(speed, double(sim.diagnostics().maxSpeed));
        }
        for (size_t i = 0; i < start.size(); ++i)
            drift = std::max(drift, double(glm::length(sim.vortons().position[i] - start[i])));
    }
    return {drift, speed};
}

TEST(SphMethod, SwitchingMethodsOnStillFluidKeepsItStill) {
    // Without cohesion a free lattice at rest spacing is in equilibrium under every method.
    Simulation sim;
    fillStillLattice(sim, 8);
    sim.fluid().sphCohesion = 0.0f;
    const auto [drift, speed] = driftAcrossMethodSwitches(sim);
    EXPECT_LT(drift, 1e-3 * kSpacing);
    EXPECT_LT(speed, 1e-3);
}

TEST(SphMethod, CohesiveFluidFillingABoxStaysStill) {
    // With full cohesion, fluid filling a closed box must not peel off the walls: the kernel
    // mass behind the walls counts as fluid. Measured over 35 steps: no correction or a
    // nearest-wall-only one (edges and corners still read sparse) moved vortons 0.67 spacings;
    // the product over all faces 0.044 spacings (slight over-pressure in the corners).
    Simulation sim;
    fillStillLattice(sim, 8);
    sim.fluid().sphCohesion = 1.0f;
    const float half = 4.0f * kSpacing;  // lattice points half a spacing inside the walls
    RigidBody box;
    box.shape = makeBoxShape(vec3(half), true);
    box.motion = MotionKind::Kinematic;
    box.position = vec3(3.5f * kSpacing);
    finalizeBodyMass(box);
    sim.bodies().push_back(box);
    const auto [drift, speed] = driftAcrossMethodSwitches(sim);
    std::printf("cohesive fluid in a box: drift %.3g spacings, max speed %.3g m/s\n", drift / kSpacing, speed);
    EXPECT_LT(drift, 0.1 * kSpacing);
}

TEST(SphMethod, CohesionPullsAFreeBlockTogether) {
    // A free block has no walls: its faces read sparse and cohesion pulls them in (the drop
    // clings together); without cohesion nothing moves (test above).
    Simulation sim;
    fillStillLattice(sim, 8);
    sim.fluid().sphCohesion = 1.0f;
    sim.fluid().method = FluidMethod::Sph;
    const double before = radiusOfGyration(sim.vortons().position);
    for (int s = 0; s < 20; ++s) sim.step(0.01f);
    EXPECT_LT(radiusOfGyration(sim.vortons().position), 0.97 * before);
}

TEST(SphMethod, SwitchKeepsTheMotionContinuous) {
    // A heavy ball sinking under vpm keeps (about) its velocity when switched to sph or hybrid,
    // instead of stopping or jumping.
    Simulation sim;
    test::BallSpec ball;
    ball.count = 1500;
    ball.radius = 0.3f;
    test::addBall(sim.vortons(), ball);
    sim.fluid().sphRestSpacing = 0.3f * std::cbrt(4.0f / 3.0f * kPi / 1500.0f);
    sim.fluid().sphInfluenceRadius = 2.5f * sim.fluid().sphRestSpacing;
    // The drop's velocity: weighted by each vorton's mass deviation, so the ambient vortons that
    // remeshing adds around the drop under vpm do not count as drop.
    // With the baroclinic source shared at its exact rate, the vpm drop falls ~2.5x faster than
    // SPH's ambient drag lets an SPH drop fall (0.53 -> 0.21 m/s in the step after the switch):
    // a mismatch of the two models, not of the switch. The switch itself is checked from the
    // sampled source, whose vpm drop moves at the SPH drop's pace.
    sim.fluid().baroclinicSharing = false;
    auto meanVelocity = [&] {
        const Vortons& v = sim.vortons();
        dvec3 momentum(0.0);
        double mass = 0.0;
        for (size_t i = 0; i < v.size(); ++i) {
            const double m = std::abs(double(v.density[i]) * v.volume(i));
            momentum += m * dvec3(v.velocity[i]);
            mass += m;
        }
        return float(glm::length(momentum / mass));
    };
    for (int s = 0; s < 20; ++s) sim.step(0.01f);
    const float before = meanVelocity();
    ASSERT_GT(before, 0.05f);
    for (FluidMethod m : {FluidMethod::Sph, FluidMethod::Hybrid, FluidMethod::Vpm}) {
        const float previous = meanVelocity();
        sim.fluid().method = m;
        sim.step(0.01f);
        EXPECT_NEAR(meanVelocity(), previous, 0.35f * previous) << "switch to method " << int(m);
        std::printf("switch to method %d: mean velocity %.3f -> %.3f m/s\n", int(m), previous, meanVelocity());
        for (int s = 0; s < 5; ++s) sim.step(0.01f);
    }
}

TEST(SphMethod, SphDropFallsAndStaysTogether) {
    Simulation sim;
    test::BallSpec ball;
    ball.count = 1500;
    ball.radius = 0.3f;
    test::addBall(sim.vortons(), ball);
    sim.fluid().method = FluidMethod::Sph;
    sim.fluid().sphRestSpacing = 0.3f * std::cbrt(4.0f / 3.0f * kPi / 1500.0f);
    sim.fluid().sphInfluenceRadius = 2.5f * sim.fluid().sphRestSpacing;
    const double startSpread = radiusOfGyration(sim.vortons().position);
    for (int s = 0; s < 50; ++s) sim.step(0.01f);
    const dvec3 centre = test::meanPosition(sim.vortons().position);
    EXPECT_LT(centre.y, -0.1) << "heavy drop sinks";
    EXPECT_LT(radiusOfGyration(sim.vortons().position), 1.2 * startSpread) << "SPH keeps it together";
}

// Horizontal RMS distance of the dyed vortons from their centroid after `steps` steps of the
// drop_in_box preset under a method, with one tracer (tracers do not feed back).
double dropSpreadInBox(const std::string& method, int steps) {
    Simulation sim;
    buildSimulation(loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/drop_in_box.json",
                              {"fluid.method=" + method, "tracers.0.count=1"}),
                    sim);
    for (int s = 0; s < steps; ++s) sim.step(0.01f);
    const Vortons& v = sim.vortons();
    dvec3 centre(0.0);
    size_t count = 0;
    for (size_t i = 0; i < v.size(); ++i)
        if (v.density[i] > 0.0f) centre += dvec3(v.position[i]), ++count;
    centre /= double(count);
    double sum = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const double dx = double(v.position[i].x) - centre.x, dz = double(v.position[i].z) - centre.z;
        if (v.density[i] > 0.0f) sum += dx * dx + dz * dz;
    }
    return std::sqrt(sum / double(count));
}

TEST(SphMethod, DropInBoxRollsUpUnderVpmStaysTogetherUnderSphAndHybridShowsBoth) {
    // Gourlay part 16, Figure 3. Measured at 150 steps: vpm 0.309 m (a ring widening from the
    // drop's 0.19), sph 0.144 m, hybrid 0.245 m (a ring whose vortons cling together). With a
    // pressure that only pushes (cohesion 0) hybrid was as wide as vpm.
    const double vpm = dropSpreadInBox("vpm", 150), sph = dropSpreadInBox("sph", 150),
                 hybrid = dropSpreadInBox("hybrid", 150);
    std::printf("drop in box, horizontal spread after 150 steps: vpm %.3f, sph %.3f, hybrid %.3f m\n", vpm, sph,
                hybrid);
    EXPECT_GT(vpm, 0.25) << "vpm rolls the drop into a widening ring";
    EXPECT_LT(sph, 0.2) << "sph keeps it together";
    EXPECT_GT(hybrid, sph + 0.25 * (vpm - sph)) << "hybrid rolls up";
    EXPECT_LT(hybrid, vpm - 0.1 * (vpm - sph)) << "hybrid clings together";
}

TEST(SphFluid, IntegrationDropsTheIntoWallVelocityOfVortonsThatHitAWall) {
    Vortons v = latticeOf(3, [](const vec3&) { return 0.5f; });
    SphFluid sph;
    const FluidParams f = sphParams();
    sph.update(v, f);
    for (size_t i = 0; i < v.size(); ++i) v.sphVelocity[i] = vec3(0.3f, -1.0f, 0.0f);
    sph.acceleration(v, f, {}, 0.01f, v.sphAcceleration);
    v.hitWall[4] = 1;
    v.hitNormal[4] = vec3(0.0f, 1.0f, 0.0f);  // floor: normal into the fluid is +y
    v.hitWall[5] = 1;
    v.hitNormal[5] = vec3(0.0f, -1.0f, 0.0f);  // ceiling: moving away from it is fine
    sph.integrate(v, f.gravity / f.ambientDensity, 0.01f);
    EXPECT_GE(v.sphVelocity[4].y, 0.0f) << "still moving into the floor";
    EXPECT_GT(v.sphVelocity[4].x, 0.0f) << "tangential motion is kept";
    // (the small lattice is all surface, so ambient drag slows everything: compare signs)
    EXPECT_LT(v.sphVelocity[5].y, 0.0f) << "moving away from a wall is kept";
    EXPECT_LT(v.sphVelocity[3].y, 0.0f) << "vortons that hit nothing keep their velocity";
}

TEST(SphMethod, SphDropRestsOnTheFloorOfABox) {
    // A heavy SPH drop lands on the floor of a box and stays inside with a small SPH velocity.
    Simulation sim;
    test::BallSpec ball;
    ball.count = 800;
    ball.radius = 0.2f;
    ball.centre = vec3(0.0f, -0.25f, 0.0f);
    test::addBall(sim.vortons(), ball);
    RigidBody tank;
    tank.name = "tank";
    tank.shape = makeBoxShape(vec3(0.5f), true);
    tank.motion = MotionKind::Kinematic;
    finalizeBodyMass(tank);
    sim.bodies().push_back(tank);
    sim.fluid().method = FluidMethod::Sph;
    sim.fluid().sphRestSpacing = 0.2f * std::cbrt(4.0f / 3.0f * kPi / 800.0f);
    sim.fluid().sphInfluenceRadius = 2.5f * sim.fluid().sphRestSpacing;
    for (int s = 0; s < 150; ++s) sim.step(0.01f);
    float fastest = 0.0f, lowest = 1.0f;
    for (size_t i = 0; i < sim.vortons().size(); ++i) {
        fastest = std::max(fastest, glm::length(sim.vortons().sphVelocity[i]));
        lowest = std::min(lowest, sim.vortons().position[i].y);
    }
    EXPECT_GE(lowest, -0.5f) << "a vorton left the box";
    EXPECT_LT(lowest, -0.45f) << "the drop did not reach the floor";
    EXPECT_LT(fastest, 0.5f) << "SPH velocity kept growing into the floor";
}

TEST(SphMethod, ResultsDoNotDependOnThreadCount) {
    auto run = [](int threads) {
        Simulation sim;
        sim.setThreads(threads);
        test::BallSpec ball;
        ball.count = 1200;
        ball.radius = 0.3f;
        test::addBall(sim.vortons(), ball);
        test::addTracerBall(sim.tracers(), vec3(0.0f), 0.4f, 2000, 4);
        sim.fluid().sphRestSpacing = 0.025f;
        sim.fluid().sphInfluenceRadius = 0.065f;
        sim.fluid().densityGradient = GradientSource::Sph;
        for (FluidMethod m : {FluidMethod::Hybrid, FluidMethod::Sph, FluidMethod::Vpm, FluidMethod::Hybrid}) {
            sim.fluid().method = m;
            for (int s = 0; s < 4; ++s) sim.step(0.01f);
        }
        return std::make_pair(sim.vortons().position, sim.tracers().position);
    };
    const auto one = run(1), two = run(2);
    EXPECT_TRUE(test::bitwiseEqual(one.first, two.first));
    EXPECT_TRUE(test::bitwiseEqual(one.second, two.second));
}

TEST(SphFluid, GradientIsIdenticalForAnyThreadCount) {
    Vortons v;
    test::BallSpec ball;
    ball.count = 3000;
    test::addBall(v, ball);
    for (size_t i = 0; i < v.size(); ++i) v.density[i] = 0.5f + v.position[i].x;
    auto gradient = [&](int threads) {
        tbb::task_arena arena(threads);
        std::vector<vec3> g;
        arena.execute([&] {
            SphFluid sph;
            const FluidParams f = sphParams(0.08f, 0.03f);
            sph.update(v, f);
            std::vector<float> proximity(v.size());
            for (size_t i = 0; i < v.size(); ++i) proximity[i] = (i % 3) ? 1e30f : 0.0f;
            sph.densityGradient(v, proximity, {}, f, g);
        });
        return g;
    };
    EXPECT_TRUE(test::bitwiseEqual(gradient(1), gradient(2)));
}

// --- scene loader --------------------------------------------------------------------------

std::string sceneError(const nlohmann::json& doc) {
    try {
        parseScene(doc, "scenes/test.json");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}

TEST(SphScene, LoaderRejectsBadSphParameters) {
    const struct {
        const char* key;
        nlohmann::json value;
    } bad[] = {
        {"sph_influence_radius", 0.0},    {"sph_influence_radius", -0.1}, {"sph_stiffness", 0.0},
        {"sph_stiffness", -2.0},          {"sph_rest_spacing", 0.0},      {"method", "lbm"},
        {"density_gradient", "spectral"}, {"sph_cohesion", -0.1},         {"sph_cohesion", 1.5},
        {"sph_cohesion", "strong"},
    };
    for (const auto& b : bad) {
        nlohmann::json doc = {{"fluid", {{b.key, b.value}}}};
        const std::string message = sceneError(doc);
        EXPECT_NE(message.find("scenes/test.json"), std::string::npos) << message;
        EXPECT_NE(message.find(std::string("/fluid/") + b.key), std::string::npos) << message;
    }
    nlohmann::json good = {
        {"fluid",
         {{"method", "hybrid"}, {"density_gradient", "sph"}, {"sph_influence_radius", 0.2}, {"sph_stiffness", 3.0}}}};
    EXPECT_EQ(sceneError(good), "");
    const Scene s = parseScene(good, "scenes/test.json");
    EXPECT_EQ(s.fluid.method, FluidMethod::Hybrid);
    EXPECT_EQ(s.fluid.densityGradient, GradientSource::Sph);
    EXPECT_FLOAT_EQ(s.fluid.sphInfluenceRadius, 0.2f);
}

}  // namespace
}  // namespace vfx
