// PSE viscous diffusion (sim/diffusion.hpp): total circulation conserved to round-off, alone and
// in a whole step, the SIMD neighbour sum against the all-pairs definition, and a Gaussian blob's
// second moment growing at 6 nu.
#include "sim/diffusion.hpp"
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace vfx {
namespace {

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

// One exchange over a step far past the explicit bound (nu dt / eps^2 = 8 here, 32 times the
// 1/4 past which a single exchange turns modes' signs) is cycled within it: the blob's peak
// follows the heat equation, omega(0, t) = (s^2 / (s^2 + 2 nu t))^(3/2) = 0.354 at nu t = 0.02
// for s = 0.2. Tolerance 10%: PSE's O((eps / s)^2) error, eps = h = 0.05. A single exchange
// would leave the peak at 1 - 3 nu t / s^2 = -0.5.
TEST(Pse, StepPastTheExplicitBoundIsCycledWithinIt) {
    const float s = 0.2f, h = 0.05f, nu = 0.01f, dt = 2.0f;
    const int n = 33;
    const float half = 0.5f * float(n - 1) * h;
    auto gaussian = [&](const vec3& p) { return vec3(0.0f, 0.0f, std::exp(-glm::dot(p, p) / (2.0f * s * s))); };
    Vortons v;
    test::addLattice(v, ivec3(n), vec3(-half), h, nullptr, gaussian);
    size_t centre = 0;
    for (size_t i = 0; i < v.size(); ++i)
        if (glm::length(v.position[i]) < glm::length(v.position[centre])) centre = i;
    PseDiffusion pse;
    pse.apply(v, nu, dt);
    const double exact = std::pow(double(s * s) / (double(s * s) + 2.0 * double(nu * dt)), 1.5);
    EXPECT_NEAR(double(v.vorticity[centre].z) / exact, 1.0, 0.1);
    float lowest = 0.0f;
    for (const vec3& w : v.vorticity) lowest = std::min(lowest, w.z);
    EXPECT_GT(lowest, -1e-3f * float(exact));
}

// A viscous ring's core widens at the physical rate in a whole simulation. In the plane of a
// core, the mean square distance of vorticity from its centre grows at exactly 4 nu (the 2D heat
// equation); the ring's curvature changes that by O((a/R)^2), under 10% for a core up to 0.3 R.
// R 1, a 0.1, nu 0.01 for 2 s: the mean square radius must grow by 4 nu t = 0.08 m^2 within 10%.
// PSE only exchanges strength among the vortons there are, so the core can widen only as fast as
// remeshing lays vortons around it: a laminar ring strains too little to be remeshed often, and
// before diffusion counted toward the remesh it widened at 74% of the rate (6 remeshes in 2 s).
double coreMeanSquareRadius(const Vortons& v) {
    double weight = 0.0, radius = 0.0, height = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const double w = double(glm::length(v.vorticity[i])) * double(v.volume(i));
        weight += w;
        radius += w * std::hypot(double(v.position[i].x), double(v.position[i].z));
        height += w * double(v.position[i].y);
    }
    radius /= weight;
    height /= weight;
    double spread = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const double w = double(glm::length(v.vorticity[i])) * double(v.volume(i));
        const double dr = std::hypot(double(v.position[i].x), double(v.position[i].z)) - radius;
        const double dy = double(v.position[i].y) - height;
        spread += w * (dr * dr + dy * dy);
    }
    return spread / weight;
}

// A viscous ring (nu 0.01, core 0.1, 8,000 vortons, no subgrid model, no gravity) diffused once
// per frame (diffusion_per_frame) every `interval` frames.
void addViscousRingDiffusedPerFrame(Simulation& sim, int interval) {
    sim.fluid().gravity = vec3(0.0f);
    sim.fluid().viscosity = 0.01f;
    sim.fluid().subgridModel = SubgridModel::None;
    sim.fluid().diffusionPerFrame = true;
    sim.fluid().diffusionInterval = interval;
    test::RingSpec spec;
    spec.coreRadius = 0.1f;
    spec.count = 8000;
    test::addVortexRing(sim.vortons(), spec);
}

// Diffusing once per frame, over the frame's time, widens a viscous ring's core as much as at
// every sub-step: the mean square radius of a core grows at 4 nu (below), here over frames of
// 1/30 s that the strain limit splits into several sub-steps each. Diffusing over the last
// sub-step's time only would widen it at a fraction of the rate.
TEST(Pse, DiffusingOncePerFrameWidensACoreAtFourNu) {
    Simulation sim;
    addViscousRingDiffusedPerFrame(sim, 1);
    sim.fluid().strainLimit = 0.1f;  // about three sub-steps a frame for this core; the test needs two
    const double before = coreMeanSquareRadius(sim.vortons());
    const float frame = 1.0f / 30.0f;
    const int frames = 60;
    long substeps = 0;
    for (int k = 0; k < frames; ++k) {
        sim.step(frame);
        substeps += sim.lastSubsteps();
    }
    const double growth = coreMeanSquareRadius(sim.vortons()) - before;
    const double exact = 4.0 * double(sim.fluid().viscosity) * double(frames) * double(frame);
    std::cout << "per frame: core mean square radius grew " << growth << " m^2, 4 nu t = " << exact << ", "
              << double(substeps) / frames << " sub-steps per frame\n";
    EXPECT_GE(substeps, 2 * frames);
    EXPECT_NEAR(growth / exact, 1.0, 0.1);
}

// Diffusing every interval-th frame, each time over the time since the last (sub-cycled within
// the exchange's explicit bound), widens a core at 4 nu as well: frames that skip it lose no time.
// The diffusion phase runs on at most one frame in `interval`, a frame that remeshes passes its
// turn on (up to twice the interval), and the run stops at a frame that diffused, so all its time
// has been diffused.
void expectCoreWidensAtFourNuDiffusingEvery(int interval) {
    Simulation sim;
    addViscousRingDiffusedPerFrame(sim, interval);
    const double before = coreMeanSquareRadius(sim.vortons());
    const float frame = 1.0f / 30.0f;
    int frames = 0, diffusing = 0, sinceDiffusion = 0, remeshing = 0;
    bool diffusedLast = false;
    while (frames < 60 || !diffusedLast) {
        const long remeshes = sim.remeshCount();
        sim.step(frame);
        ++frames;
        ++sinceDiffusion;
        const bool remeshed = sim.remeshCount() != remeshes;
        diffusedLast = sim.timers().lastMs("diffusion") > 0.0;
        diffusing += diffusedLast ? 1 : 0;
        remeshing += remeshed ? 1 : 0;
        // A frame that remeshed diffuses only when twice the interval has passed.
        if (remeshed && diffusedLast) {
            EXPECT_GE(sinceDiffusion, 2 * interval) << "interval " << interval << ", frame " << frames;
        }
        EXPECT_LE(sinceDiffusion, 2 * interval) << "interval " << interval << ", frame " << frames;
        if (diffusedLast) sinceDiffusion = 0;
    }
    const double growth = coreMeanSquareRadius(sim.vortons()) - before;
    const double exact = 4.0 * double(sim.fluid().viscosity) * double(frames) * double(frame);
    std::cout << "every " << interval << " frames: core mean square radius grew " << growth
              << " m^2, 4 nu t = " << exact << ", diffused on " << diffusing << " of " << frames
              << " frames, remeshed on " << remeshing << "\n";
    EXPECT_GT(remeshing, 0) << "interval " << interval;  // the rule above was put to the test
    // The rule's own bounds: at most every interval-th frame, at least every 2 interval-th.
    EXPECT_LE(diffusing, frames / interval + 1) << "interval " << interval;
    EXPECT_GE(diffusing, frames / (2 * interval)) << "interval " << interval;
    // The per-frame test's bound: the exchange on a random 8,000-vorton core reproduces 4 nu t to
    // within its quadrature error and the ring's curvature (a/R 0.1), a few percent; a skipped
    // frame's lost time would leave the growth at about 1/interval of 4 nu t.
    EXPECT_NEAR(growth / exact, 1.0, 0.1) << "interval " << interval;
}

TEST(Pse, DiffusingEveryOtherFrameWidensACoreAtFourNu) { expectCoreWidensAtFourNuDiffusingEvery(2); }

// The game level's interval.
TEST(Pse, DiffusingEveryFourthFrameWidensACoreAtFourNu) { expectCoreWidensAtFourNuDiffusingEvery(4); }

TEST(Pse, ViscousRingCoreWidensAtFourNu) {
    Simulation sim;
    sim.fluid().gravity = vec3(0.0f);
    sim.fluid().viscosity = 0.01f;
    sim.fluid().subgridModel = SubgridModel::None;
    test::RingSpec spec;
    spec.coreRadius = 0.1f;
    spec.count = 8000;
    test::addVortexRing(sim.vortons(), spec);
    const double before = coreMeanSquareRadius(sim.vortons());
    const float dt = 0.01f;
    const int steps = 200;
    for (int k = 0; k < steps; ++k) sim.step(dt);
    const double growth = coreMeanSquareRadius(sim.vortons()) - before;
    const double exact = 4.0 * double(sim.fluid().viscosity) * double(steps) * double(dt);
    std::cout << "core mean square radius grew " << growth << " m^2 in " << steps * dt << " s, 4 nu t = " << exact
              << " (" << sim.remeshCount() << " remeshes)\n";
    EXPECT_NEAR(growth / exact, 1.0, 0.1);
}

}  // namespace
}  // namespace vfx
