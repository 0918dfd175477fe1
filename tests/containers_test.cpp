// Convex containers (holes), contact geometry and density-gradient poisoning (issue 5).
#include "sim/body_coupling.hpp"
#include "bodies/shapes.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cstring>
#include <iostream>
#include <random>

namespace vfx {
namespace {

RigidBody makeContainer(const vec3& halfExtents, vec3 position = vec3(0.0f)) {
    RigidBody body;
    body.shape = makeBoxShape(halfExtents, true);
    body.motion = MotionKind::Kinematic;
    body.position = position;
    finalizeBodyMass(body);
    return body;
}

RigidBody makeSolidBox(const vec3& halfExtents) {
    RigidBody body;
    body.shape = makeBoxShape(halfExtents, false);
    finalizeBodyMass(body);
    return body;
}

// --- point vs polytope, hand-computed ----------------------------------------------------------
// Box of half extents (1, 2, 3). Contact distance = largest plane distance times parity.

TEST(ContactGeometry, SolidBoxDistances) {
    const RigidBody box = makeSolidBox(vec3(1, 2, 3));
    vec3 n;
    EXPECT_NEAR(contactDistance(box, vec3(0.5f, 0, 0), &n), -0.5f, 1e-6f);  // inside: nearest face x = 1
    EXPECT_NEAR(n.x, 1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(box, vec3(0, -1.5f, 2.9f), &n), -0.1f, 1e-6f);  // inside near z = 3
    EXPECT_NEAR(n.z, 1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(box, vec3(3, 0, 0), &n), 2.0f, 1e-6f);        // outside
    EXPECT_NEAR(contactDistance(box, vec3(1, 0.3f, 0), &n), 0.0f, 1e-6f);     // on a face
    EXPECT_NEAR(contactDistance(box, vec3(1.2f, 2.1f, 0), &n), 0.2f, 1e-6f);  // near an edge: largest plane
    EXPECT_NEAR(n.x, 1.0f, 1e-6f);
    const BodyContact c = contactWithBody(box, vec3(1.2f, 0.5f, -1));
    EXPECT_NEAR(glm::length(c.point - vec3(1.0f, 0.5f, -1)), 0.0f, 1e-6f);  // contact point on the face
}

TEST(ContactGeometry, HoleBoxDistances) {
    const RigidBody tank = makeContainer(vec3(1, 2, 3));
    vec3 n;
    EXPECT_NEAR(contactDistance(tank, vec3(0.5f, 0, 0), &n), 0.5f, 1e-6f);  // free, 0.5 from the x wall
    EXPECT_NEAR(n.x, -1.0f, 1e-6f);                                         // normal into the fluid
    EXPECT_NEAR(contactDistance(tank, vec3(0, 0, 0), &n), 1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(tank, vec3(3, 0, 0), &n), -2.0f, 1e-6f);  // escaped: penetration 2
    EXPECT_NEAR(contactDistance(tank, vec3(0, 2, 0), &n), 0.0f, 1e-6f);   // on the lid
    EXPECT_NEAR(n.y, -1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(tank, vec3(1.2f, 2.1f, 0), &n), -0.2f, 1e-6f);  // outside near an edge
    const BodyContact c = contactWithBody(tank, vec3(0.7f, -1.0f, 0.0f));
    EXPECT_NEAR(glm::length(c.point - vec3(1.0f, -1.0f, 0.0f)), 0.0f, 1e-6f);
}

TEST(ContactGeometry, RotatedAndMovedBodies) {
    RigidBody tank = makeContainer(vec3(1, 2, 3), vec3(5, 0, 0));
    tank.orientation = glm::angleAxis(kPi / 2.0f, vec3(0, 0, 1));  // local x now points along world y
    vec3 n;
    // World (5, 0.6, 0) is local (0.6, 0, 0): 0.4 from the local x wall, whose inward normal is world -y.
    EXPECT_NEAR(contactDistance(tank, vec3(5, 0.6f, 0), &n), 0.4f, 1e-5f);
    EXPECT_NEAR(n.y, -1.0f, 1e-5f);
    // World (6.5, 0, 0) is local (0, -1.5, 0): 0.5 from the local y = -2 wall.
    EXPECT_NEAR(contactDistance(tank, vec3(6.5f, 0, 0), &n), 0.5f, 1e-5f);
    EXPECT_NEAR(n.x, -1.0f, 1e-5f);
    EXPECT_NEAR(contactDistance(tank, vec3(5, 1.3f, 0)), -0.3f, 1e-5f);
    RigidBody solid = makeSolidBox(vec3(1, 2, 3));
    solid.orientation = glm::angleAxis(kPi / 4.0f, vec3(0, 1, 0));
    // Along the diagonal of the x-z plane, (1, 0, 1)/sqrt2 * r is local (r, 0, 0)... rotated by 45 deg.
    EXPECT_NEAR(contactDistance(solid, vec3(std::sqrt(0.5f), 0, -std::sqrt(0.5f)) * 1.5f), 0.5f, 1e-5f);
}

TEST(ContactGeometry, SphereSolidAndHole) {
    RigidBody ball;
    ball.shape = makeSphereShape(0.5f, false);
    ball.position = vec3(1, 0, 0);
    finalizeBodyMass(ball);
    vec3 n;
    EXPECT_NEAR(contactDistance(ball, vec3(1, 0.8f, 0), &n), 0.3f, 1e-6f);
    EXPECT_NEAR(n.y, 1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(ball, vec3(1.2f, 0, 0)), -0.3f, 1e-6f);
    RigidBody bowl;
    bowl.shape = makeSphereShape(0.5f, true);
    bowl.motion = MotionKind::Kinematic;
    finalizeBodyMass(bowl);
    EXPECT_NEAR(contactDistance(bowl, vec3(0.2f, 0, 0), &n), 0.3f, 1e-6f);
    EXPECT_NEAR(n.x, -1.0f, 1e-6f);
    EXPECT_NEAR(contactDistance(bowl, vec3(0, -0.9f, 0)), -0.4f, 1e-6f);
}

TEST(ContactGeometry, TetrahedronFromVertices) {
    // Corner tetrahedron: faces x = 0, y = 0, z = 0 and x + y + z = 1.
    const CollisionShape tet = makePolytopeFromVertices({vec3(0), vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1)}, false);
    vec3 n;
    EXPECT_NEAR(shapeContactDistance(tet, vec3(0.1f, 0.2f, 0.3f), &n), -0.1f, 1e-6f);  // nearest face x = 0
    EXPECT_NEAR(n.x, -1.0f, 1e-6f);
    EXPECT_NEAR(shapeContactDistance(tet, vec3(1, 1, 1), &n), 2.0f / std::sqrt(3.0f), 1e-6f);
    EXPECT_NEAR(n.y, 1.0f / std::sqrt(3.0f), 1e-6f);
}

TEST(ContactGeometry, CollisionDistanceOfMovingPoints) {
    const CollisionShape solid = makeBoxShape(vec3(1, 2, 3), false);
    vec3 n;
    int face = -1;
    // Just inside the +x face but moving out through it: it came in through the -x face.
    EXPECT_NEAR(shapeCollisionDistance(solid, vec3(0.9f, 0, 0), vec3(1, 0, 0), &n, &face), -1.9f, 1e-6f);
    EXPECT_NEAR(n.x, -1.0f, 1e-6f);
    // Moving deeper through +x: the +x face.
    EXPECT_NEAR(shapeCollisionDistance(solid, vec3(0.9f, 0, 0), vec3(-1, 0, 0), &n), -0.1f, 1e-6f);
    EXPECT_NEAR(n.x, 1.0f, 1e-6f);
    // Holes ignore velocity: an escaped point always goes back in through the face it is beyond.
    const CollisionShape hole = makeBoxShape(vec3(1, 2, 3), true);
    for (vec3 v : {vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 5, 0)}) {
        EXPECT_NEAR(shapeCollisionDistance(hole, vec3(1.5f, 0, 0), v, &n), -0.5f, 1e-6f);
        EXPECT_NEAR(n.x, -1.0f, 1e-6f);
    }
}

TEST(ContactGeometry, EscapedPointsGoBackInsideThroughEveryFace) {
    const CollisionShape hole = makeBoxShape(vec3(1, 2, 3), true);
    const float margin = collisionMargin(hole);
    vec3 p(1.5f, 2.5f, 0.2f);  // beyond a corner edge: outside two faces
    const vec3 normals = moveInsideHole(hole, p, margin);
    EXPECT_NEAR(p.x, 1.0f - margin, 1e-6f);
    EXPECT_NEAR(p.y, 2.0f - margin, 1e-6f);
    EXPECT_NEAR(p.z, 0.2f, 1e-6f);
    EXPECT_NEAR(normals.x, -1.0f, 1e-6f);
    EXPECT_NEAR(normals.y, -1.0f, 1e-6f);
    // An oblique wedge: a tetrahedral hole.
    const CollisionShape tet = makePolytopeFromVertices({vec3(0), vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1)}, true);
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> unit(-3.0f, 3.0f);
    for (int i = 0; i < 1000; ++i) {
        vec3 q(unit(rng), unit(rng), unit(rng));
        moveInsideHole(tet, q, collisionMargin(tet));
        EXPECT_GE(shapeContactDistance(tet, q), 0.0f) << i;
    }
}

// --- containment under motion ------------------------------------------------------------------

// A container swinging and turning fast: every particle is inside after every collision pass.
size_t escapedAfterShaking(int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
    RigidBody tank = makeContainer(vec3(0.8f, 0.5f, 0.4f));
    tank.kinematic.amplitude = vec3(0.6f, 0.2f, 0.0f);
    tank.kinematic.angularAmplitude = vec3(0.3f, 0.0f, 0.6f);
    tank.kinematic.period = 0.3f;  // peak wall speed about 13 m/s
    std::vector<RigidBody> bodies{tank};
    FluidParams fluid;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    Vortons v;
    Tracers t;
    for (int i = 0; i < 20000; ++i) {
        v.add(vec3(unit(rng) * 0.7f, unit(rng) * 0.4f, unit(rng) * 0.3f), vec3(0.0f), 0.03f, 0.5f);
        t.add(vec3(unit(rng) * 0.7f, unit(rng) * 0.4f, unit(rng) * 0.3f));
    }
    const float dt = 0.01f;
    const float tolerance = 1e-5f * 0.8f;
    size_t escaped = 0;
    for (int step = 0; step < 300; ++step) {
        // Stand-in for advection: particles keep drifting toward the walls.
        for (size_t i = 0; i < v.size(); ++i) {
            v.velocity[i] = vec3(unit(rng), unit(rng), unit(rng)) * 3.0f;
            v.position[i] += v.velocity[i] * dt;
            t.position[i] += vec3(unit(rng), unit(rng), unit(rng)) * 0.03f;
        }
        collideParticlesWithBodies(bodies, v, t, fluid, dt);
        integrateBodies(bodies, (step + 1) * dt, dt);
        for (size_t i = 0; i < v.size(); ++i) {
            escaped += contactDistance(bodies[0], v.position[i]) < -tolerance;
            escaped += contactDistance(bodies[0], t.position[i]) < -tolerance;
        }
    }
    return escaped;
}

TEST(Containers, NoParticleEscapesAShakenContainerAtAnyThreadCount) {
    EXPECT_EQ(escapedAfterShaking(1), 0u);
    EXPECT_EQ(escapedAfterShaking(2), 0u);
}

Scene sceneFromPreset(const std::string& name, const std::vector<std::string>& overrides = {}) {
    return loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/" + name + ".json", overrides);
}

// Largest distance any particle lies outside the body, in the body's frame.
float worstEscape(const Simulation& sim, const RigidBody& tank) {
    float worst = 0.0f;
    for (const vec3& p : sim.vortons().position) worst = std::max(worst, -contactDistance(tank, p));
    for (const vec3& p : sim.tracers().position) worst = std::max(worst, -contactDistance(tank, p));
    return worst;
}

TEST(Containers, SloshingTankKeepsEveryParticleInside) {
    for (int threads : {1, 2}) {
        Simulation sim;
        sim.setThreads(threads);
        buildSimulation(sceneFromPreset("sloshing_tank"), sim);
        ASSERT_FALSE(sim.bodies().empty());
        float worst = 0.0f;
        for (int s = 0; s < 150; ++s) {
            sim.step(0.01f);
            worst = std::max(worst, worstEscape(sim, sim.bodies()[0]));
        }
        EXPECT_LE(worst, 1e-5f) << threads << " threads";
    }
}

// --- poisoning ---------------------------------------------------------------------------------

// Still, stably stratified fluid (heavy below) filling a closed box: kinetic energy after a while.
double stillStratifiedEnergy(Poisoning poisoning, PoisonVariant variant = PoisonVariant::Partitioned, int steps = 60) {
    Simulation sim;
    sim.fluid().poisoning = poisoning;
    sim.fluid().poisonVariant = variant;
    sim.fluid().viscosity = 0.0f;
    const float h = 0.1f;
    test::addLattice(
        sim.vortons(), ivec3(12, 10, 8), vec3(-0.55f, -0.45f, -0.35f), h, [](const vec3& p) { return -0.3f * p.y; },
        nullptr);
    sim.bodies().push_back(makeContainer(vec3(0.6f, 0.5f, 0.4f)));
    for (int s = 0; s < steps; ++s) sim.step(0.01f);
    return sim.diagnostics().kineticEnergy;
}

TEST(Poisoning, StillStratifiedFluidStaysStillOnlyWithPoisoning) {
    const double none = stillStratifiedEnergy(Poisoning::None);
    const double walls = stillStratifiedEnergy(Poisoning::Walls);
    const double hits = stillStratifiedEnergy(Poisoning::Hits);
    std::cout << "[ poison ] kinetic energy after 60 steps of still stratified fluid in a box: none " << none
              << ", hits " << hits << ", walls " << walls << "\n";
    RecordProperty("ke_none", std::to_string(none));
    RecordProperty("ke_hits", std::to_string(hits));
    RecordProperty("ke_walls", std::to_string(walls));
    // Without poisoning the grid's one-sided view of a wall leaves a horizontal gradient along
    // the tank's edges that stirs the fluid; walls poisoning removes it wherever it is, so the
    // still fluid stays still to round-off; hits poisoning removes it only where vortons touch a
    // wall, so it can only do better than none.
    EXPECT_GT(none, 1e-9);
    EXPECT_LT(walls, 1e-12);
    EXPECT_LT(hits, none);
}

// Kinetic energy every 100 steps of a closed tank filled with uniformly heavy fluid (a
// 16^3 lattice, viscosity 0.004 as in the presets), walls poisoning on.
std::vector<double> filledTankEnergy(bool coverageDensity, int steps) {
    Simulation sim;
    sim.fluid().coverageDensity = coverageDensity;
    sim.fluid().viscosity = 0.004f;
    sim.fluid().poisoning = Poisoning::Walls;
    const float h = 0.1f;
    test::addLattice(
        sim.vortons(), ivec3(16), vec3(-0.75f), h, [](const vec3&) { return 0.3f; }, nullptr);
    sim.bodies().push_back(makeContainer(vec3(0.8f)));
    std::vector<double> energy;
    for (int s = 1; s <= steps; ++s) {
        sim.step(0.01f);
        if (s % 100 == 0) energy.push_back(sim.diagnostics().kineticEnergy);
    }
    return energy;
}

TEST(Poisoning, TankFilledWithUniformHeavyFluidStaysStillForLong) {
    // Uniform density has no buoyancy anywhere, however long it runs. With the raw deposit the
    // grid-scale noise of vortons that are not on a perfect lattice drives a slow instability
    // (measured: 1.7e-7 J after 100 steps, 2.0e-3 J after 800, growing ~3x per 100 steps);
    // coverage-normalised density keeps it at round-off (8e-14 J after 800 steps).
    const std::vector<double> raw = filledTankEnergy(false, 800), normalised = filledTankEnergy(true, 800);
    std::printf("[ tank ] kinetic energy every 100 steps, raw deposit:");
    for (double e : raw) std::printf(" %.1e", e);
    std::printf("\n[ tank ] coverage-normalised:");
    for (double e : normalised) std::printf(" %.1e", e);
    std::printf("\n");
    // The raw deposit stirs the still tank by many orders of magnitude more than round-off.
    EXPECT_GT(raw.back(), raw.front()) << "the raw deposit is expected to show the instability";
    EXPECT_GT(raw.back(), 1e6 * normalised.back()) << "the raw deposit is expected to show the instability";
    for (double e : normalised) EXPECT_LT(e, 1e-9);
}

// The stratified_ball preset's tank without its ball: a light layer resting on a heavy one, with
// walls poisoning. At rest it has no buoyancy anywhere and must stay at rest however
// long it runs. (It did not: a coverage ramp that varied along the walls with how the vortons sat
// there seeded motion at the tank's edges, remeshing onto nodes beyond the walls put light
// parcels under the heavy layer, and the tank overturned at 0.8 m/s within 10 s.)
TEST(Containers, RestingTwoLayerTankStaysAtRestForTenSeconds) {
    Simulation sim;
    buildSimulation(parseScene(nlohmann::json::parse(R"({
        "fluid": {"viscosity": 0.004, "poisoning": "walls"},
        "vortons": [{"shape": "box", "min": [-0.8, -0.8, -0.8], "max": [0.8, 0.0, 0.8], "count": 2000,
                     "layout": "lattice", "density": 0.3},
                    {"shape": "box", "min": [-0.8, 0.0, -0.8], "max": [0.8, 0.8, 0.8], "count": 2000,
                     "layout": "lattice", "density": -0.1}],
        "tracers": [{"shape": "box", "min": [-0.8, -0.8, -0.8], "max": [0.8, 0.8, 0.8], "count": 200}],
        "bodies": [{"name": "tank", "shape": "box", "half_extents": [0.8, 0.8, 0.8], "hole": true,
                    "motion": "kinematic"}]})"),
                               "two-layer tank"),
                    sim);
    double worstEnergy = 0.0, worstSpeed = 0.0;
    for (int s = 1; s <= 1000; ++s) {
        sim.step(0.01f);
        if (s % 50 != 0) continue;
        const Diagnostics d = sim.diagnostics();
        worstEnergy = std::max(worstEnergy, d.kineticEnergy);
        worstSpeed = std::max(worstSpeed, d.maxSpeed);
    }
    std::cout << "[ tank ] resting two layers over 10 s: largest kinetic energy " << worstEnergy << " J, speed "
              << worstSpeed << " m/s\n";
    // Round-off: the fluid holds ~4 kg; 1e-9 J is a speed of 2e-5 m/s.
    EXPECT_LT(worstEnergy, 1e-9);
    EXPECT_LT(worstSpeed, 1e-4);
}

// A density-gradient grid around a box container, vortons that hit its walls, and a random
// gradient: the input every poisoning variant gets.
struct PoisonSetup {
    std::vector<RigidBody> bodies;
    Vortons vortons;
    UniformGrid<vec3> gradient;
    CellPartition partition;
};

PoisonSetup makePoisonSetup(size_t count) {
    PoisonSetup s;
    RigidBody tank = makeContainer(vec3(1.0f, 0.6f, 0.4f));
    tank.orientation = glm::angleAxis(0.1f, vec3(0, 0, 1));  // slightly tilted: non-axis normals
    RigidBody ball;
    ball.shape = makeSphereShape(0.15f, false);
    ball.position = vec3(0.3f, -0.3f, 0.0f);
    finalizeBodyMass(ball);
    s.bodies = {tank, ball};
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (size_t i = 0; i < count; ++i) {
        s.vortons.add(vec3(unit(rng) * 1.05f, -0.3f + unit(rng) * 0.35f, unit(rng) * 0.45f), vec3(0.0f), 0.04f, 0.5f);
        s.vortons.velocity.back() = vec3(unit(rng), unit(rng), unit(rng));
    }
    Tracers none;
    FluidParams fluid;
    collideParticlesWithBodies(s.bodies, s.vortons, none, fluid, 0.0f);
    s.gradient.reset(GridShape::fitBox(vec3(-1.1f, -0.7f, -0.5f), vec3(1.1f, 0.1f, 0.5f), count, 1e-3f));
    for (vec3& g : s.gradient.values()) g = vec3(unit(rng), unit(rng), unit(rng));
    s.partition.build(s.gradient.shape(), s.vortons.position);
    return s;
}

std::vector<vec3> poisoned(const PoisonSetup& s, PoisonVariant variant, int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
    UniformGrid<vec3> g = s.gradient;
    FluidParams fluid;
    fluid.poisoning = Poisoning::Hits;
    fluid.poisonVariant = variant;
    poisonDensityGradient(g, s.bodies, s.vortons, s.partition, fluid);
    return g.values();
}

TEST(Poisoning, AtomicAndPartitionedMatchSerialBitwise) {
    const PoisonSetup s = makePoisonSetup(20000);
    size_t hits = 0;
    for (uint8_t h : s.vortons.hitWall) hits += h;
    ASSERT_GT(hits, 1000u);
    const std::vector<vec3> serial = poisoned(s, PoisonVariant::Serial, 1);
    size_t changed = 0;
    for (size_t i = 0; i < serial.size(); ++i) changed += serial[i] != s.gradient[i];
    EXPECT_GT(changed, 100u);
    for (int threads : {1, 2}) {
        EXPECT_TRUE(test::bitwiseEqual(serial, poisoned(s, PoisonVariant::Atomic, threads))) << threads;
        EXPECT_TRUE(test::bitwiseEqual(serial, poisoned(s, PoisonVariant::Partitioned, threads))) << threads;
    }
}

TEST(Poisoning, HitsRemoveTheWallNormalComponentAroundHittingVortons) {
    std::vector<RigidBody> bodies{makeContainer(vec3(1.0f))};
    Vortons v;
    v.add(vec3(0.99f, 0.0f, 0.0f), vec3(0.0f), 0.05f, 0.5f);  // touching the +x wall
    v.add(vec3(0.0f, 0.0f, 0.0f), vec3(0.0f), 0.05f, 0.5f);   // in the middle
    Tracers t;
    FluidParams fluid;
    collideParticlesWithBodies(bodies, v, t, fluid, 0.01f);
    EXPECT_EQ(v.hitWall[0], 1);
    EXPECT_EQ(v.hitWall[1], 0);
    EXPECT_NEAR(v.hitNormal[0].x, -1.0f, 1e-6f);
    GridShape shape;
    shape.minCorner = vec3(-1.05f);
    shape.spacing = vec3(0.1f);
    shape.points = ivec3(22);
    UniformGrid<vec3> g(shape, vec3(1.0f, 2.0f, 3.0f));
    CellPartition partition;
    partition.build(shape, v.position);
    fluid.poisoning = Poisoning::Hits;
    poisonDensityGradient(g, bodies, v, partition, fluid);
    const TrilinearStencil near = trilinearStencil(shape, v.position[0]);
    for (int k = 0; k < near.count; ++k) {
        EXPECT_EQ(g[near.index[k]].x, 0.0f);
        EXPECT_EQ(g[near.index[k]].y, 2.0f);
    }
    const TrilinearStencil middle = trilinearStencil(shape, v.position[1]);
    for (int k = 0; k < middle.count; ++k) EXPECT_EQ(g[middle.index[k]], vec3(1.0f, 2.0f, 3.0f));
}

TEST(Poisoning, WallsRemoveNormalComponentsNearWallsAndCorners) {
    std::vector<RigidBody> bodies{makeContainer(vec3(1.0f))};
    GridShape shape;
    shape.minCorner = vec3(-1.0f);
    shape.spacing = vec3(0.1f);
    shape.points = ivec3(21);
    UniformGrid<vec3> g(shape, vec3(1.0f, 2.0f, 3.0f));
    FluidParams fluid;
    fluid.poisoning = Poisoning::Walls;
    fluid.poisonTestRadius = 0.15f;
    Vortons none;
    poisonDensityGradient(g, bodies, none, CellPartition(), fluid);
    EXPECT_EQ(g.at(10, 10, 10), vec3(1, 2, 3));  // centre untouched
    EXPECT_EQ(g.at(20, 10, 10), vec3(0, 2, 3));  // on the +x wall
    EXPECT_EQ(g.at(19, 10, 10).y, 2.0f);         // within the test radius of it
    EXPECT_NEAR(g.at(19, 10, 10).x, 0.0f, 1e-6f);
    EXPECT_EQ(g.at(18, 10, 10), vec3(1, 2, 3));  // farther in: untouched
    EXPECT_EQ(g.at(0, 0, 10), vec3(0, 0, 3));    // edge: both walls' components go
    EXPECT_EQ(g.at(0, 20, 0), vec3(0, 0, 0));    // corner: everything goes
}

TEST(Poisoning, ComponentRemovalIsOrderIndependent) {
    const vec3 g(0.3f, -1.2f, 2.0f);
    const vec3 a = glm::normalize(vec3(1, 0.2f, 0)), b = glm::normalize(vec3(0.1f, 1, 0));
    const vec3 ab[] = {a, b, a}, ba[] = {b, a, b};
    const vec3 r1 = removeNormalComponents(g, ab, 3), r2 = removeNormalComponents(g, ba, 3);
    EXPECT_NEAR(glm::length(r1 - r2), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(r1, a), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(r1, b), 0.0f, 1e-5f);
    EXPECT_NEAR(r1.z, 2.0f, 1e-5f);
}

}  // namespace
}  // namespace vfx
