// The fluid methods in a Simulation (sim/fluid_method.hpp): vpm, sph and hybrid switched at run
// time keep still fluid still and the motion continuous, cohesion holds fluid to the walls and a
// free block together, SPH drops fall together and rest on a floor, Gourlay part 16's drop in a
// box under each method, and the same bits for any thread count.
#include "bodies/shapes.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"
#include "sph_helpers.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace vfx {
namespace {

using test::kSpacing;
using test::sphParams;

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

TEST(SphMethod, HybridDropInABoxWithWallImagesNeverGainsMoreThanItsFallReleases) {
    // The drop_in_box preset under hybrid with the box solver for 10 s. The drop's excess mass
    // rho' V falls at most from its centre (y 0.9) to the floor (y -1.6), so the kinetic energy
    // of its fluid can never exceed rho' V g 2.5 m (Boussinesq: nothing else feeds the flow).
    Simulation sim;
    buildSimulation(loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/drop_in_box.json",
                              {"fluid.method=hybrid", "fluid.velocity_solver=box", "tracers.0.count=1"}),
                    sim);
    const double released = 0.5 * (4.0 / 3.0 * kPiDouble * 0.3 * 0.3 * 0.3) * 9.8 * 2.5;
    double most = 0.0;
    for (int s = 1; s <= 1000; ++s) {
        sim.step(0.01f);
        if (s % 50 == 0) most = std::max(most, sim.diagnostics().kineticEnergy);
    }
    std::printf("hybrid drop in a box: kinetic energy at most %.4f J of the %.4f J its fall releases\n", most,
                released);
    EXPECT_LT(most, released);
}

TEST(SphMethod, SphDropInABoxComesToRestAtAThirtyFramesPerSecondStep) {
    // At 1/30 s one step would turn the SPH core repulsion's spring (166 rad/s here) 5.5 radians,
    // past the explicit step's stability bound of 2: the resting drop jittered at 13 m/s. Sub-steps
    // keep it inside. Resting on the floor, no vorton may move faster than a fall through one rest
    // spacing s0 under the reduced gravity g rho'/rho0 gives: sqrt(2 g' s0).
    Simulation sim;
    buildSimulation(
        loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/drop_in_box.json", {"fluid.method=sph", "tracers.0.count=1"}),
        sim);
    const float reducedGravity = 9.8f * 0.5f / sim.fluid().ambientDensity;
    const float bound = std::sqrt(2.0f * reducedGravity * sim.fluid().sphRestSpacing);
    float fastest = 0.0f;
    for (int frame = 1; frame <= 450; ++frame) {
        sim.step(1.0f / 30.0f);
        if (frame <= 300) continue;  // 10 s to land and settle
        for (const vec3& v : sim.vortons().sphVelocity) fastest = std::max(fastest, glm::length(v));
    }
    std::printf("sph drop at rest, 1/30 s frames: fastest vorton %.3f m/s (bound %.3f)\n", fastest, bound);
    EXPECT_LT(fastest, bound);
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
        test::addTracerBall(sim.editTracers(), vec3(0.0f), 0.4f, 2000, 4);
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

}  // namespace
}  // namespace vfx
