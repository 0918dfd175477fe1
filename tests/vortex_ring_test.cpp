// Vortex rings in whole simulations against analytic results: self-propulsion at the thin-ring
// (Kelvin) speed in the direction of the right-hand rule, and the invariants of inviscid flow
// (linear impulse, circulation, kinetic energy) over many steps.
#include "scene/scene.hpp"
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <string>

namespace vfx {
namespace {

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

// Inviscid ring (R = 1, a = 0.2, Gamma = 1), 8,192 random vortons, 4 s at dt 0.02 (the ring
// travels about one radius): total vorticity changes by less than 0.5% of sum |omega| V, and the
// linear impulse and the kinetic energy of the flow by less than 2% - invariants of inviscid
// flow that remeshing, the transpose stretching scheme and second-order time integration must
// keep. (Random seeding itself leaves sum omega V at ~1/sqrt(N) of sum |omega| V, so it is the
// change that is measured.)
void expectInvariantsOverFourSeconds(StretchingIntegrator integrator) {
    test::RingSpec spec;
    spec.count = 8192;
    spec.coreRadius = 0.2f;
    Simulation sim;
    test::makeInviscid(sim);
    sim.fluid().stretchingIntegrator = integrator;
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

TEST(InviscidRing, InvariantsOverFourSeconds) { expectInvariantsOverFourSeconds(StretchingIntegrator::Explicit); }

// The exponential stretching step is the same second-order rule for a smooth gradient: the same
// invariants hold.
TEST(InviscidRing, InvariantsOverFourSecondsWithExponentialStretching) {
    expectInvariantsOverFourSeconds(StretchingIntegrator::Exponential);
}

// A thin ring (a/R 0.1, 8,000 random vortons) stepped at 1/20 s, every other setting default but
// viscosity 0: its cores turn about 0.4 radian a sub-step, where the two-step rule spirals
// particles outwards and smears the core. The exponential move follows that rotation exactly, and
// the vortons a remesh makes carry the last velocity of their fluid (sim/remesh_history), so the
// move stays second order across the ring's remeshes: field energy and impulse, which inviscid
// flow keeps, stay within 2% over 3 s (with the two-step rule the energy falls 6.9%; restarting
// the exponential move at each remesh, 5.0%).
TEST(LaminarRing, ExponentialAdvectionKeepsAThinRingsEnergyAtTwentyFramesPerSecond) {
    test::RingSpec spec;
    spec.count = 8000;
    spec.coreRadius = 0.1f;
    Simulation sim;
    sim.fluid().gravity = vec3(0.0f);
    sim.fluid().viscosity = 0.0f;
    sim.fluid().advectionIntegrator = AdvectionIntegrator::Exponential;
    test::addVortexRing(sim.vortons(), spec);
    sim.step(0.05f);
    const Diagnostics d0 = sim.diagnostics();
    for (int k = 0; k < 60; ++k) sim.step(0.05f);
    const Diagnostics d1 = sim.diagnostics();
    const double energyDrift = d1.fieldEnergy / d0.fieldEnergy - 1.0;
    const double impulseDrift = d1.linearImpulse.y / d0.linearImpulse.y - 1.0;  // along the axis
    std::cout << "thin ring at 1/20 s, 3 s: energy drift " << energyDrift << ", axial impulse drift " << impulseDrift
              << ", " << sim.remeshCount() << " remeshes\n";
    ASSERT_GT(sim.remeshCount(), 5L) << "the ring must remesh for the carried history to matter";
    EXPECT_LT(std::abs(energyDrift), 0.02);
    EXPECT_LT(std::abs(impulseDrift), 0.02);
}

// A ring scene: R 1 about +y, circulation 1, 8,000 random vortons, no gravity, inviscid unless
// asked.
nlohmann::json ringScene(double coreRadius, int seed, double viscosity = 0.0) {
    return {{"fluid", {{"gravity", {0, 0, 0}}, {"viscosity", viscosity}}},
            {"vortons",
             {{{"shape", "ring"},
               {"center", {0, 0, 0}},
               {"axis", {0, 1, 0}},
               {"radius", 1.0},
               {"core_radius", coreRadius},
               {"circulation", 1.0},
               {"count", 8000},
               {"layout", "random"},
               {"seed", seed}}}}};
}

// The impulse is a vector that inviscid flow keeps: a ring seeded at random from a scene (a/R 0.1,
// 8,000 vortons, ν 0, 1/20 s) keeps its direction as well as its size over 3 s. With a net
// vorticity left by the seeding the impulse moves sideways as the ring travels (6.2% of it in 3 s
// for this seed).
TEST(LaminarRing, RandomRingKeepsItsImpulseVectorOverThreeSeconds) {
    Simulation sim;
    buildSimulation(parseScene(ringScene(0.1, 5), "ring"), sim);
    sim.step(0.05f);
    const Diagnostics d0 = sim.diagnostics();
    for (int k = 0; k < 60; ++k) sim.step(0.05f);
    const Diagnostics d1 = sim.diagnostics();
    const double drift = glm::length(d1.linearImpulse - d0.linearImpulse) / glm::length(d0.linearImpulse);
    std::cout << "random ring at 1/20 s, 3 s: impulse (" << d0.linearImpulse.x << ", " << d0.linearImpulse.y << ", "
              << d0.linearImpulse.z << ") -> (" << d1.linearImpulse.x << ", " << d1.linearImpulse.y << ", "
              << d1.linearImpulse.z << "), drift " << drift << "\n";
    EXPECT_LT(drift, 0.02);
}

// Inviscid rings from a scene, every other setting default (R 1, circulation 1, 8,000 random
// vortons, 1/100 s, 3 s): Euler flow keeps their field energy and impulse, and a thin ring moves
// at Kelvin's speed for its uniform core, Gamma / (4 pi R) (ln(8 R / a) - 1/4), to within the
// neglected O((a/R)^2) terms and the method's own smoothing. The bounds, 2% and 5%, are what a
// laminar vortex needs to live through an effect's seconds.
TEST(LaminarRing, ThinAndThickRingsMoveAtTheThinRingSpeedAndKeepTheirEnergy) {
    for (double core : {0.1, 0.2}) {
        Simulation sim;
        buildSimulation(parseScene(ringScene(core, 21), "ring"), sim);
        sim.step(0.01f);
        const Diagnostics d0 = sim.diagnostics();
        const dvec3 start = test::vorticityCentroid(sim.vortons());
        const double t0 = sim.time();
        for (int k = 0; k < 299; ++k) sim.step(0.01f);
        const Diagnostics d1 = sim.diagnostics();
        const double speed = (test::vorticityCentroid(sim.vortons()).y - start.y) / (sim.time() - t0);
        const double kelvin = 1.0 / (4.0 * M_PI) * (std::log(8.0 / core) - 0.25);
        const double energyDrift = d1.fieldEnergy / d0.fieldEnergy - 1.0;
        const double impulseDrift = d1.linearImpulse.y / d0.linearImpulse.y - 1.0;
        std::cout << "a/R " << core << ": speed / thin-ring speed " << speed / kelvin << ", energy drift "
                  << energyDrift << ", axial impulse drift " << impulseDrift << "\n";
        EXPECT_NEAR(speed / kelvin, 1.0, 0.05) << core;
        EXPECT_LT(std::abs(energyDrift), 0.02) << core;
        EXPECT_LT(std::abs(impulseDrift), 0.02) << core;
    }
}

// The exponential move at a game's frame: a thin ring (a/R 0.1, 8,000 random vortons, from a
// scene, inviscid) at the game level, one sub-step a 1/30 s frame (its cores turn about half a
// radian a frame), not remeshed so that only the time step differs, moves over 3 s at the speed it
// has at 1/120 s to within 1%, a fifth of the 5% a ring's speed is held to. The move reads the
// flow's change in time through the last sub-step's grid; read from each vorton's last velocity
// alone it turns a drifting core's motion (sim/exponential_advection.hpp), and this ring then
// moved 3.9% faster at 1/30 s than at 1/120 s.
double gameLevelRingSpeed(float frameDt) {
    Simulation sim;
    buildSimulation(parseScene(ringScene(0.1, 21), "ring"), sim);
    sim.fluid().quality = Quality::Game;
    sim.fluid().advectionIntegrator = AdvectionIntegrator::Exponential;
    sim.fluid().remeshStrain = 0.0f;
    sim.step(frameDt);
    const dvec3 start = test::vorticityCentroid(sim.vortons());
    const double t0 = sim.time();
    while (sim.time() < 3.0 - 0.5 * double(frameDt)) sim.step(frameDt);
    EXPECT_EQ(sim.remeshCount(), 0L);
    return (test::vorticityCentroid(sim.vortons()).y - start.y) / (sim.time() - t0);
}

TEST(LaminarRing, ExponentialMoveAtGameFramesMovesAThinRingAtItsConvergedSpeed) {
    const double atFrames = gameLevelRingSpeed(1.0f / 30.0f), converged = gameLevelRingSpeed(1.0f / 120.0f);
    std::cout << "thin ring at the game level, exponential move: " << atFrames << " m/s at 1/30 s, " << converged
              << " m/s at 1/120 s\n";
    EXPECT_NEAR(atFrames / converged, 1.0, 0.01);
}

// The game level keeps a thin ring (a/R 0.1, 8,000 random vortons, inviscid) in 1/30 s frames,
// one sub-step each, remeshed and held at its 8,000 vortons, to the bounds a laminar ring is held
// to: speed within 5% of Kelvin's, impulse and energy within 2% over 3 s. Its cores turn half a
// radian a frame, which the exponential move follows exactly; a remesh leaves out the halo of
// faint nodes (up to 10% of the strength) rather than coarsen the lattice; and the lattice trigger
// remeshes only where particles are pulled apart. Under the three-step move, the grid-strain
// trigger and a 0.3% fringe it moved at 0.896 and lost 5% of its energy (its lattice coarsened
// 1.4-fold); with any one of the three undone, 0.92-0.94 (docs/performance.md).
TEST(LaminarRing, GameLevelKeepsAThinRingsSpeedAndEnergy) {
    nlohmann::json scene = ringScene(0.1, 21);
    scene["fluid"]["quality"] = "game";
    Simulation sim;
    buildSimulation(parseScene(scene, "ring"), sim);
    const float frame = 1.0f / 30.0f;
    sim.step(frame);
    const Diagnostics d0 = sim.diagnostics();
    const dvec3 start = test::vorticityCentroid(sim.vortons());
    const double t0 = sim.time();
    while (sim.time() < 3.0 - 0.5 * double(frame)) {
        sim.step(frame);
        ASSERT_LE(sim.vortons().size(), 8000u);
    }
    const Diagnostics d1 = sim.diagnostics();
    const double speed = (test::vorticityCentroid(sim.vortons()).y - start.y) / (sim.time() - t0);
    const double kelvin = 1.0 / (4.0 * M_PI) * (std::log(8.0 / 0.1) - 0.25);
    const double energyDrift = d1.fieldEnergy / d0.fieldEnergy - 1.0;
    const double impulseDrift = d1.linearImpulse.y / d0.linearImpulse.y - 1.0;
    std::cout << "thin ring, game level: speed / thin-ring speed " << speed / kelvin << ", energy drift " << energyDrift
              << ", axial impulse drift " << impulseDrift << ", " << sim.remeshCount() << " remeshes\n";
    EXPECT_GT(sim.remeshCount(), 2L);
    EXPECT_NEAR(speed / kelvin, 1.0, 0.05);
    EXPECT_LT(std::abs(energyDrift), 0.02);
    EXPECT_LT(std::abs(impulseDrift), 0.02);
}

// The energy budget of a viscous thin ring (a/R 0.1, from a scene, defaults otherwise, 1/100 s,
// 3 s): dE/dt = -rho0 nu int |omega|^2 dV - (subgrid loss), so E(t) - E(0) + viscous loss +
// subgrid loss stays at the method's own inviscid drift, which the inviscid test above holds to
// 2% of E(0). At nu 0.001 the ring loses about a fifth of its energy to viscosity, at 0.01 nearly
// three fifths: an enstrophy counted 10% short (second-order differences across a core two grid
// spacings wide miss 18%) would leave 2% and 6% more.
TEST(LaminarRing, EnergyBudgetOfAViscousRingCloses) {
    for (double viscosity : {0.001, 0.01}) {
        Simulation sim;
        buildSimulation(parseScene(ringScene(0.1, 21, viscosity), "ring"), sim);
        sim.step(0.01f);
        const Diagnostics d0 = sim.diagnostics();
        for (int k = 0; k < 299; ++k) sim.step(0.01f);
        const Diagnostics d1 = sim.diagnostics();
        const double lost =
            (d1.energyViscousLoss - d0.energyViscousLoss) + (d1.energySubgridLoss - d0.energySubgridLoss);
        const double residual = (d1.fieldEnergy - d0.fieldEnergy + lost) / d0.fieldEnergy;
        std::cout << "nu " << viscosity << ": energy change " << d1.fieldEnergy / d0.fieldEnergy - 1.0
                  << ", counted losses " << lost / d0.fieldEnergy << ", residual " << residual << "\n";
        EXPECT_LT(std::abs(residual), 0.02) << viscosity;
    }
}

}  // namespace
}  // namespace vfx
