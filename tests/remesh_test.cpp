// M4' remeshing (sim/remesh.hpp): the kernel interpolates and reproduces quadratics, so remeshing
// keeps circulation, impulse and mass; the threshold and the budget keep the totals, walls
// receive nothing beyond them, lattice vortons stay as they are, any thread count gives the same
// bits.
#include "sim/remesh.hpp"
#include "sim/remesh_totals.hpp"
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace vfx {
namespace {

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

// How far the mass centre may move in a remesh at spacing h: by h for each unit of mass deviation
// moved one spacing to bound node densities (Remesher::lastMovedMass), and by the farthest node's
// distance from it for each unit changed by taking the vortons' mean density
// (Remesher::lastAveragedMass; nodes lie within 2 sqrt(3) h of a vorton).
struct CentreShift {
    double h = 0.0, moved = 0.0, averaged = 0.0, reach = 0.0;
};

CentreShift centreShiftOf(const Remesher& remesher, const Vortons& before) {
    double mass = 0.0, reach = 0.0;
    dvec3 centre(0.0);
    for (size_t i = 0; i < before.size(); ++i) {
        mass += double(before.density[i]) * double(before.volume(i));
        centre += double(before.density[i]) * double(before.volume(i)) * dvec3(before.position[i]);
    }
    for (size_t i = 0; i < before.size(); ++i)
        reach = std::max(reach, glm::length(dvec3(before.position[i]) - centre / mass));
    const double h = remesher.lastSpacing();
    return {h, remesher.lastMovedMass(), remesher.lastAveragedMass(), reach + 2.0 * std::sqrt(3.0) * h};
}

void expectSameMoments(const Moments& a, const Moments& b, const CentreShift& shift = {}) {
    // float storage of ~10^4 strengths: round-off is ~1e-6 of their sum of magnitudes.
    const double tolerance = 2e-5 * a.strength;
    EXPECT_NEAR(b.circulation.x, a.circulation.x, tolerance);
    EXPECT_NEAR(b.circulation.y, a.circulation.y, tolerance);
    EXPECT_NEAR(b.circulation.z, a.circulation.z, tolerance);
    EXPECT_NEAR(glm::length(b.impulse - a.impulse), 0.0, tolerance);
    EXPECT_NEAR(b.mass, a.mass, 1e-5 * a.mass);
    const double allowed = shift.h * shift.moved + shift.reach * shift.averaged;
    EXPECT_NEAR(glm::length(b.massCentre / b.mass - a.massCentre / a.mass), 0.0, 1e-5 + allowed / std::abs(a.mass));
}

TEST(Remesh, ConservesCirculationImpulseAndMass) {
    Vortons v = randomBlob(4000, 3);
    const Vortons start = v;
    const Moments before = momentsOf(v);
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = 0.05f;
    settings.threshold = 0.0f;  // keep every node that received anything
    ASSERT_TRUE(remesher.apply(v, settings));
    expectSameMoments(before, momentsOf(v), centreShiftOf(remesher, start));
    // On the lattice, with volume h^3 and core overlap * h.
    for (size_t i = 0; i < v.size(); ++i) {
        const vec3 k = v.position[i] / settings.spacing;
        EXPECT_NEAR(glm::length(k - glm::round(k)), 0.0f, 1e-3f);
        EXPECT_FLOAT_EQ(v.volume(i), settings.spacing * settings.spacing * settings.spacing);
        EXPECT_FLOAT_EQ(v.radius[i], settings.coreOverlap * settings.spacing);
    }
}

// Vortons strained off the lattice crowd in places and thin in others. A node's density is
// their mean density there, not its mass over its cell (which read up to a third heavier or
// lighter than every vorton of a uniform fluid jittered by 0.3 h): inside a jittered cube of
// uniform fluid every node away from its faces reads one density, to round-off, and the total
// mass is exact.
TEST(Remesh, CrowdedOrThinnedVortonsKeepTheirFluidsDensity) {
    const float h = 0.05f, density = 0.4f;
    const int n = 16;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> jitter(-0.3f, 0.3f);
    Vortons v;
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const vec3 at = h * (vec3(x, y, z) + vec3(jitter(rng), jitter(rng), jitter(rng)));
                test::addShare(v, at, vec3(0.0f), density, double(h) * h * h);
            }
    const Moments before = momentsOf(v);
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = h;
    settings.threshold = 0.0f;
    ASSERT_TRUE(remesher.apply(v, settings));
    EXPECT_NEAR(momentsOf(v).mass, before.mass, 1e-5 * before.mass);
    float lowest = 1e9f, highest = -1e9f;
    for (size_t i = 0; i < v.size(); ++i) {
        // Inside: the node's M4' support (two spacings) and the jitter lie within the cube.
        const vec3 k = v.position[i] / h;
        if (glm::any(glm::lessThan(k, vec3(3.0f))) || glm::any(glm::greaterThan(k, vec3(float(n) - 4.0f)))) continue;
        lowest = std::min(lowest, v.density[i]);
        highest = std::max(highest, v.density[i]);
    }
    ASSERT_LE(lowest, highest) << "no node inside";
    EXPECT_NEAR(highest - lowest, 0.0f, 1e-5f * density);
    // The nodes just outside the cube, partly covered, keep their deposit, and the inside is
    // scaled so the total stays exact: it holds the fluid's density up to the share of the mass
    // those nodes hold. Each takes at most M4''s weight at 0.7 spacings (a face vorton jittered
    // 0.3 h toward it) of its neighbour's volume, over 6 n^2 such nodes against n^3 vortons.
    const float haloShare = 6.0f * m4PrimeWeight(0.7f) / float(n);
    EXPECT_NEAR(lowest, density, haloShare * density);
}

// restoreTotals gives back a missing mass and takes away a surplus, each vorton's density
// deviation changing by its share of sum |rho'| V (a layer of one density stays uniform).
TEST(Remesh, RestoringTotalsTakesASurplusAwayAsWellAsGivingAShortfallBack) {
    for (double change : {0.01, -0.01}) {
        Vortons v;
        for (int i = 0; i < 100; ++i)
            v.add(vec3(0.1f * float(i), 0.0f, 0.0f), vec3(0.0f, 0.0f, 1.0f), 0.15f, i < 50 ? 0.3f : -0.1f, 0.001f);
        VortonTotals wanted = vortonTotals(v);
        wanted.mass += change;
        restoreTotals(v, wanted);
        EXPECT_NEAR(vortonTotals(v).mass, wanted.mass, 1e-7) << "mass change " << change;
        EXPECT_FLOAT_EQ(v.density[0], v.density[49]);
        EXPECT_FLOAT_EQ(v.density[50], v.density[99]);
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

// Remeshing the vortons a remesh made, on the same lattice, changes nothing: a fluid at rest in a
// tank stays the fluid it was. The first remesh leaves vortons on the walls, whose M4' weights
// are theirs alone, and taking a whole cell at such a node gave the tank's walls twice their
// fluid (its edges four times): 20% more volume than the tank, half the density on its faces,
// and a resting layered tank stirred itself. Every node within the walls' reach holds the fluid
// of its cell, the tent share of a spacing per axis (here the box's own, written out), at the
// density that reached it.
TEST(Remesh, AtWallsRemeshingAgainChangesNothing) {
    Vortons v;
    const float spacing = 0.1f;
    test::addLattice(
        v, ivec3(10), vec3(-0.45f), spacing, [](const vec3& p) { return p.y < 0.0f ? 0.3f : -0.1f; },
        [](const vec3&) { return vec3(0.0f, 0.0f, 2.0f); });
    const auto inTank = [](const vec3& p) { return glm::all(glm::lessThanEqual(glm::abs(p), vec3(0.5f + 1e-5f))); };
    const auto tentShare = [](const vec3& p, float h) {
        float share = 1.0f;
        for (int a = 0; a < 3; ++a) {
            const float u = std::clamp((0.5f - std::abs(p[a])) / h, -1.0f, 1.0f);
            share *= u >= 0.0f ? 1.0f - 0.5f * (1.0f - u) * (1.0f - u) : 0.5f * (1.0f + u) * (1.0f + u);
        }
        return share;
    };
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = spacing;
    settings.threshold = 0.0f;
    ASSERT_TRUE(remesher.apply(v, settings, inTank, tentShare));
    const Vortons once = v;
    const Moments before = momentsOf(once);
    ASSERT_TRUE(remesher.apply(v, settings, inTank, tentShare));
    ASSERT_EQ(v.size(), once.size());
    double volume = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        EXPECT_NEAR(glm::distance(v.position[i], once.position[i]), 0.0f, 1e-6f) << "vorton " << i;
        EXPECT_NEAR(v.density[i], once.density[i], 1e-5f) << "vorton " << i;
        EXPECT_NEAR(v.volume(i), once.volume(i), 1e-5 * once.volume(i)) << "vorton " << i;
        volume += v.volume(i);
    }
    EXPECT_NEAR(volume, 1.0, 1e-4);  // the tank's
    EXPECT_NEAR(momentsOf(v).mass, before.mass, 1e-5 * std::abs(before.mass));
    EXPECT_NEAR(momentsOf(v).circulation.z, before.circulation.z, 1e-5 * before.circulation.z);
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
    const Vortons start = v;
    const Moments before = momentsOf(v);
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = 0.05f;
    settings.threshold = 0.0f;
    settings.maxCount = 2000;
    ASSERT_TRUE(remesher.apply(v, settings));
    EXPECT_LE(v.size(), 2000u);
    EXPECT_GT(remesher.lastSpacing(), settings.spacing);
    expectSameMoments(before, momentsOf(v), centreShiftOf(remesher, start));
}

// A remesh at spacing h that keeps every node that received anything (no threshold, no budget).
RemeshSettings everyNodeAt(float h) {
    RemeshSettings settings;
    settings.spacing = h;
    settings.threshold = 0.0f;
    return settings;
}

// The vortons a remesh of `vortons` under `settings` makes.
size_t nodesHolding(const Vortons& vortons, const RemeshSettings& settings) {
    Vortons laid = vortons;
    Remesher remesher;
    EXPECT_TRUE(remesher.apply(laid, settings));
    return laid.size();
}

// Total vorticity, linear impulse and mass after a remesh that left nodes out and corrected the
// rest (sim/remesh_totals.hpp): float sums of a few thousand vortons.
void expectTotalsRestored(const Moments& before, const Moments& after) {
    const double tolerance = 2e-5 * before.strength;
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(after.circulation[k], before.circulation[k], tolerance);
    EXPECT_NEAR(glm::length(after.impulse - before.impulse), 0.0, tolerance);
    EXPECT_NEAR(after.mass, before.mass, 1e-5 * before.mass);
}

// Over the budget, a faint fringe is left out before the lattice coarsens: the weakest tenth of a
// blob's nodes (the outer layers M4' lays around it) hold under 5% of its strength and of its mass
// deviation, so the lattice keeps its spacing and the totals are restored; a fringe share below
// what they hold coarsens it, of the strength or of the mass alike.
TEST(Remesh, BudgetLeavesOutTheFaintFringeBeforeCoarsening) {
    const Vortons start = randomBlob(4000, 4);
    const Moments before = momentsOf(start);
    RemeshSettings settings = everyNodeAt(0.05f);
    Remesher remesher;
    settings.maxCount = nodesHolding(start, settings) * 9 / 10;
    settings.fringeShare = 0.05f;
    settings.fringeMassShare = 0.05f;
    Vortons trimmed = start;
    ASSERT_TRUE(remesher.apply(trimmed, settings));
    EXPECT_EQ(trimmed.size(), settings.maxCount);
    EXPECT_FLOAT_EQ(remesher.lastSpacing(), settings.spacing);
    expectTotalsRestored(before, momentsOf(trimmed));

    for (const glm::vec2 shares : {glm::vec2(1e-6f, 0.05f), glm::vec2(0.05f, 1e-6f)}) {
        settings.fringeShare = shares.x;
        settings.fringeMassShare = shares.y;
        Vortons coarsened = start;
        ASSERT_TRUE(remesher.apply(coarsened, settings));
        EXPECT_LE(coarsened.size(), settings.maxCount);
        EXPECT_GT(remesher.lastSpacing(), settings.spacing);
    }
}

// A remesh told to defer its coarsening stops after sizing the coarser lattice, leaving the
// vortons as they were; laid at that spacing they come out exactly as one remesh makes them (the
// same deposits at the same spacings), so splitting a remesh over two frames changes no vorton.
TEST(Remesh, DeferredCoarseningSizesTheLatticeAndLaysItNextTime) {
    const Vortons start = randomBlob(4000, 4);
    RemeshSettings settings = everyNodeAt(0.05f);
    Remesher remesher;
    settings.maxCount = nodesHolding(start, settings) * 6 / 10;
    Vortons oneGo = start;
    ASSERT_TRUE(remesher.apply(oneGo, settings));
    EXPECT_FALSE(remesher.lastDeferred());
    ASSERT_GT(remesher.lastSpacing(), settings.spacing);

    RemeshSettings sizing = settings;
    sizing.deferCoarsening = true;
    Vortons split = start;
    EXPECT_FALSE(remesher.apply(split, sizing));
    EXPECT_TRUE(remesher.lastDeferred());
    EXPECT_EQ(split.position, start.position);
    EXPECT_EQ(split.vorticity, start.vorticity);
    const float sized = remesher.lastSpacing();
    EXPECT_GT(sized, settings.spacing);

    settings.spacing = sized;
    ASSERT_TRUE(remesher.apply(split, settings));
    EXPECT_FALSE(remesher.lastDeferred());
    EXPECT_EQ(split.position, oneGo.position);
    EXPECT_EQ(split.vorticity, oneGo.vorticity);
    EXPECT_EQ(split.volumes, oneGo.volumes);
    EXPECT_EQ(split.density, oneGo.density);

    // A lattice within the budget at its spacing is laid at once, deferral asked or not.
    Vortons within = start;
    sizing.spacing = 0.05f;
    sizing.maxCount = nodesHolding(start, everyNodeAt(0.05f));
    EXPECT_TRUE(remesher.apply(within, sizing));
    EXPECT_FALSE(remesher.lastDeferred());
    EXPECT_FLOAT_EQ(remesher.lastSpacing(), 0.05f);
}

// The hard cap keeps exactly `cap` nodes, the strongest, and the least correction restores total
// vorticity, linear impulse and mass (the mass centre is not among the totals the cap keeps).
// Without the correction the dropped nodes would take their share of each total with them.
TEST(Remesh, HardCapKeepsTheStrongestNodesAndTheTotals) {
    Vortons v = randomBlob(4000, 6);
    const Moments before = momentsOf(v);
    Remesher remesher;
    RemeshSettings settings;
    settings.spacing = 0.05f;
    settings.threshold = 0.0f;
    settings.hardCap = 1500;  // no maxCount: the lattice is not coarsened first
    ASSERT_TRUE(remesher.apply(v, settings));
    EXPECT_EQ(v.size(), 1500u);
    EXPECT_FLOAT_EQ(remesher.lastSpacing(), settings.spacing);
    expectTotalsRestored(before, momentsOf(v));
}

// A heavy blob at rest carries no vorticity to correct with: the cap still keeps its mass.
TEST(Remesh, HardCapKeepsTheMassOfFluidAtRest) {
    Vortons v = randomBlob(4000, 8);
    for (vec3& omega : v.vorticity) omega = vec3(0.0f);
    const Moments before = momentsOf(v);
    RemeshSettings settings;
    settings.spacing = 0.05f;
    settings.threshold = 0.0f;
    settings.hardCap = 1500;
    Remesher remesher;
    ASSERT_TRUE(remesher.apply(v, settings));
    EXPECT_EQ(v.size(), 1500u);
    EXPECT_NEAR(momentsOf(v).mass, before.mass, 1e-5 * before.mass);
}

// A uniform lattice ties every node's significance: the cap still keeps exactly `cap` of them.
TEST(Remesh, HardCapBreaksTiesDeterministically) {
    Vortons v;
    for (int x = 0; x < 20; ++x)
        for (int y = 0; y < 20; ++y)
            for (int z = 0; z < 5; ++z) test::addShare(v, vec3(x, y, z) * 0.1f, vec3(0.0f, 0.0f, 1.0f), 0.5f, 0.001f);
    RemeshSettings settings;
    settings.spacing = 0.1f;
    settings.threshold = 1e-3f;
    settings.hardCap = 700;
    Vortons first = v, second = v;
    Remesher a, b;
    ASSERT_TRUE(a.apply(first, settings));
    ASSERT_TRUE(b.apply(second, settings));
    EXPECT_EQ(first.size(), 700u);
    EXPECT_EQ(first.position, second.position);
}

// fluid.max_vortons holds at every step of a falling heavy blob, from a start above the cap (the
// first step remeshes) through the remeshes that would grow the count past it.
TEST(Remesh, MaxVortonsHoldsAtEveryStep) {
    Simulation sim;
    sim.fluid().gravity = vec3(0.0f, -10.0f, 0.0f);
    sim.fluid().maxVortons = 1500;
    sim.vortons() = randomBlob(4000, 7);
    for (int step = 0; step < 30; ++step) {
        sim.step(1.0f / 30.0f);
        ASSERT_LE(sim.vortons().size(), 1500u) << "after step " << step;
    }
    EXPECT_GT(sim.remeshCount(), 2);
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

}  // namespace
}  // namespace vfx
