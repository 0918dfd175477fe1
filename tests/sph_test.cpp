// SPH on vortons (Gourlay parts 15, 16; sim/sph.hpp): the kernels, number density, the canonical
// and difference density gradients, pressure, the wall rule of integration, bad parameters, and
// the same gradient for any thread count.
#include "bodies/shapes.hpp"
#include "sim/simulation.hpp"
#include "sim/sph.hpp"
#include "sph_helpers.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

namespace vfx {
namespace {

using test::interior;
using test::kernelMassWhere;
using test::kH;
using test::kSpacing;
using test::latticeOf;
using test::sphParams;

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

TEST(SphKernel, ShareOnTheFluidSideOfAWallMatchesQuadrature) {
    const float h = 0.2f;
    for (float d : {-0.15f, -0.05f, 0.0f, 0.03f, 0.1f, 0.19f, 0.3f}) {
        const double quadrature = kernelMassWhere(vec3(0.0f, d, 0.0f), h, [](const vec3& p) { return p.y >= 0.0f; });
        EXPECT_NEAR(sphKernelShareOnFluidSide(d, h), quadrature, 2e-3) << "d = " << d;
    }
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

// --- integration at walls, thread counts -------------------------------------------------------

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

}  // namespace
}  // namespace vfx
