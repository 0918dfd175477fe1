// The box container's vortex-in-cell solve (sim/box_vortex_in_cell): no flow through any wall,
// a sine mode's flow against its closed form, vortex lines that end on walls with curl u = omega,
// and the scene rule that asks for a box container.
#include "scene/scene.hpp"
#include "sim/box_vortex_in_cell.hpp"
#include "body_helpers.hpp"
#include "sim/wall_flow.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <random>

using namespace vfx;

namespace {

const AxisBox kBox{vec3(-1.0f, -0.5f, -0.8f), vec3(1.0f, 0.5f, 0.8f)};

// Vortons at the centres of a lattice of spacing h filling the box, each with omega(x).
template <typename Omega>
Vortons latticeVortons(const AxisBox& box, float h, Omega omega) {
    Vortons v;
    const ivec3 n = ivec3(glm::round((box.hi - box.lo) / h));
    for (int z = 0; z < n.z; ++z)
        for (int y = 0; y < n.y; ++y)
            for (int x = 0; x < n.x; ++x) {
                const vec3 p = box.lo + (vec3(x, y, z) + 0.5f) * h;
                v.add(p, omega(p), h, 0.0f, h * h * h);
            }
    return v;
}

// `count` vortons of spacing 0.05 at random in the box, their vorticity random up to 5 /s a component.
Vortons randomVortons(int count, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f), signed1(-1.0f, 1.0f);
    Vortons v;
    for (int i = 0; i < count; ++i) {
        const vec3 p = kBox.lo + vec3(unit(rng), unit(rng), unit(rng)) * (kBox.hi - kBox.lo);
        v.add(p, vec3(signed1(rng), signed1(rng), signed1(rng)) * 5.0f, 0.05f, 0.05f * 0.05f * 0.05f);
    }
    return v;
}

}  // namespace

TEST(BoxVortexInCell, NoFlowCrossesAnyWall) {
    const Vortons v = randomVortons(3000, 7);
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    BoxVortexInCell solver;
    solver.solve(v, kBox, 0.05f);
    float largest = 0.0f, normal = 0.0f;
    for (int i = 0; i < 2000; ++i) {
        const int axis = i % 3;
        vec3 p = kBox.lo + vec3(unit(rng), unit(rng), unit(rng)) * (kBox.hi - kBox.lo);
        p[axis] = (i / 3) % 2 ? kBox.hi[axis] : kBox.lo[axis];
        const vec3 u = solver.velocityAt(p);
        largest = std::max(largest, glm::length(solver.velocityAt(0.5f * (p + (kBox.lo + kBox.hi) * 0.5f))));
        normal = std::max(normal, std::abs(u[axis]));
    }
    ASSERT_GT(largest, 0.01f);
    // u . n is zero on the walls by construction (the tangential potential vanishes there);
    // what is left is float round-off in the interpolation weights.
    EXPECT_LT(normal, 1e-5f * largest) << "largest normal speed " << normal << " of " << largest;
}

// The flow sampled on a grid of another spacing, reaching past the walls, is the flow read at each
// of its points (the same weights, taken axis by axis), to float round-off.
TEST(BoxVortexInCell, SamplingOnAGridReadsTheFlowAtEachPoint) {
    const Vortons v = randomVortons(2000, 3);
    BoxVortexInCell solver;
    solver.solve(v, kBox, 0.06f);
    GridShape shape;
    shape.minCorner = kBox.lo - vec3(0.07f);
    shape.spacing = vec3(0.043f, 0.051f, 0.047f);
    shape.points = ivec3(glm::ceil((kBox.hi - kBox.lo + vec3(0.14f)) / shape.spacing)) + ivec3(1);
    UniformGrid<vec3> grid(shape);
    const vec3 wall(0.1f, -0.2f, 0.3f);
    solver.sampleOnGrid(grid, wall);
    float worst = 0.0f, largest = 0.0f;
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) {
                const vec3 read = wall + solver.velocityAt(shape.pointPosition(x, y, z));
                worst = std::max(worst, glm::length(grid.at(x, y, z) - read));
                largest = std::max(largest, glm::length(read));
            }
    EXPECT_LT(worst, 1e-5f * largest);
}

TEST(BoxVortexInCell, SineModeMatchesItsClosedForm) {
    // psi = (0, 0, sin(kx (x - x0)) sin(ky (y - y0))) is zero on the x and y walls and has no
    // z-derivative on the z walls: the box's own mode. omega = (kx^2 + ky^2) psi_z z-hat and
    // u = (d psi_z/dy, -d psi_z/dx, 0).
    const vec3 size = kBox.hi - kBox.lo;
    const float kx = float(M_PI) / size.x, ky = float(M_PI) / size.y;
    auto psi = [&](const vec3& p, float& dx, float& dy) {
        const float sx = std::sin(kx * (p.x - kBox.lo.x)), sy = std::sin(ky * (p.y - kBox.lo.y));
        dx = kx * std::cos(kx * (p.x - kBox.lo.x)) * sy;
        dy = ky * sx * std::cos(ky * (p.y - kBox.lo.y));
        return sx * sy;
    };
    const float h = 0.025f;
    Vortons v = latticeVortons(kBox, h, [&](const vec3& p) {
        float dx, dy;
        return vec3(0.0f, 0.0f, (kx * kx + ky * ky) * psi(p, dx, dy));
    });
    BoxVortexInCell solver;
    solver.solve(v, kBox, h);
    float worst = 0.0f, scale = 0.0f;
    for (float x = -0.9f; x <= 0.9f; x += 0.1f)
        for (float y = -0.45f; y <= 0.45f; y += 0.05f)
            for (float z = -0.7f; z <= 0.7f; z += 0.35f) {
                const vec3 p(x, y, z);
                float dx, dy;
                psi(p, dx, dy);
                const vec3 exact(dy, -dx, 0.0f);
                scale = std::max(scale, glm::length(exact));
                worst = std::max(worst, glm::length(solver.velocityAt(p) - exact));
            }
    // Second-order pieces, each a fraction of (k h)^2 of the field: the 7-point Laplacian (1/12),
    // the centred curl (1/6) and the M4' spreading of a sampled field (1/12 of the lattice's own
    // (k h)^2), with Catmull-Rom reading third order: under 0.5 (k h)^2 in all, 0.8% here at the
    // larger k.
    const float kh = ky * h;
    EXPECT_LT(worst, 0.5f * kh * kh * scale) << "worst error " << worst << " of " << scale;
}

TEST(BoxVortexInCell, VortexLinesMayEndOnWallsWithCurlEqualToVorticity) {
    // Uniform vorticity along y fills the box: its lines end on the floor and the ceiling. The
    // circulation round a loop in the x-z plane must be omega times the loop's area (Stokes);
    // a free-space sum of the same vortons gives less, since its curl is omega - grad chi.
    const float omega = 2.0f, h = 0.025f;
    Vortons v = latticeVortons(kBox, h, [&](const vec3&) { return vec3(0.0f, omega, 0.0f); });
    BoxVortexInCell solver;
    solver.solve(v, kBox, h);
    for (float y : {-0.4f, 0.0f, 0.4f}) {
        const float a = 0.5f;  // half side of the loop, centred in x-z
        const int segments = 400;
        double circulation = 0.0;
        for (int s = 0; s < segments; ++s) {
            // Counter-clockwise seen from +y: x -> -z.
            const float t = (float(s) + 0.5f) / float(segments) * 4.0f;
            const int side = int(t);
            const float f = t - float(side);
            vec3 p, tangent;
            if (side == 0)
                p = vec3(-a + 2 * a * f, y, a), tangent = vec3(1, 0, 0);
            else if (side == 1)
                p = vec3(a, y, a - 2 * a * f), tangent = vec3(0, 0, -1);
            else if (side == 2)
                p = vec3(a - 2 * a * f, y, -a), tangent = vec3(-1, 0, 0);
            else
                p = vec3(-a, y, -a + 2 * a * f), tangent = vec3(0, 0, 1);
            circulation += double(glm::dot(solver.velocityAt(p), tangent)) * double(8.0f * a / float(segments));
        }
        // The flow varies on the box's scale L (1 m, its smallest side): the trilinear reading
        // (1/8) and the centred curl (1/6) each miss by a fraction of (h / L)^2, and the midpoint
        // rule on 400 segments by far less, so (h / L)^2 bounds the relative error.
        const double hOverL = double(h) / double(kBox.hi.y - kBox.lo.y);
        EXPECT_NEAR(circulation, omega * 4.0 * a * a, hOverL * hOverL * omega * 4.0 * a * a) << "at y " << y;
    }
}

TEST(BoxVortexInCell, TheSceneRuleAsksForABoxContainer) {
    nlohmann::json scene = {{"fluid", {{"velocity_solver", "box"}}},
                            {"vortons", {{{"shape", "sphere"}, {"radius", 0.5}, {"count", 100}}}}};
    try {
        parseScene(scene, "memory");
        FAIL() << "a box solver without a container was accepted";
    } catch (const SceneError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("memory: /fluid/velocity_solver: \"box\" needs a container"), std::string::npos)
            << message;
    }
    scene["bodies"] = {
        {{"name", "tank"}, {"shape", "box"}, {"half_extents", {1, 1, 1}}, {"hole", true}, {"motion", "kinematic"}}};
    EXPECT_NO_THROW(parseScene(scene, "memory"));
}

// A tilted box container (turned 35 degrees about (1, 2, 0.5), moved to (0.3, -0.2, 0.1)) holding
// the same vortons, turned with it, as an upright one: the solver works in the box's frame, so its
// flow is the upright box's turned (u'(o + q x) = q u(x)) to float round-off, and no flow crosses
// its walls (relative to their largest speed, round-off in the interpolation weights).
TEST(BoxVortexInCell, ATiltedBoxHoldsTheUprightBoxsFlowTurned) {
    const quat tilt = glm::angleAxis(glm::radians(35.0f), glm::normalize(vec3(1.0f, 2.0f, 0.5f)));
    const vec3 origin(0.3f, -0.2f, 0.1f);
    const Vortons upright = randomVortons(1500, 5);
    Simulation sims[2];
    for (int k = 0; k < 2; ++k) {
        Simulation& sim = sims[k];
        sim.fluid().velocitySolver = VelocitySolver::Box;
        RigidBody tank = test::makeContainer(0.5f * (kBox.hi - kBox.lo), k ? origin : vec3(0.0f));
        if (k) tank.orientation = tank.restOrientation = tilt;
        sim.bodies().push_back(tank);
        for (size_t i = 0; i < upright.size(); ++i)
            sim.vortons().add(k ? origin + tilt * upright.position[i] : upright.position[i],
                              k ? tilt * upright.vorticity[i] : upright.vorticity[i], 0.05f, 0.0f, upright.volume(i));
    }
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<vec3> points, turned;
    for (int i = 0; i < 500; ++i) {
        points.push_back(kBox.lo + vec3(unit(rng), unit(rng), unit(rng)) * (kBox.hi - kBox.lo));
        turned.push_back(origin + tilt * points.back());
    }
    std::vector<vec3> u, v;
    sims[0].velocityAtPoints(points, u);
    sims[1].velocityAtPoints(turned, v);
    float worst = 0.0f, largest = 0.0f;
    for (size_t i = 0; i < u.size(); ++i) {
        worst = std::max(worst, glm::length(v[i] - tilt * u[i]));
        largest = std::max(largest, glm::length(u[i]));
    }
    ASSERT_GT(largest, 0.01f);
    // Turning a point of the 2 m box into the frame and back moves it by a few float roundings
    // (about 1e-7 m); across the flow's 0.06 m cells that is a few 1e-6 of its speed, well under
    // 1e-5, as in the upright box's wall test.
    EXPECT_LT(worst, 1e-5f * largest);
    EXPECT_LT(largestWallNormalSpeed(measureWallFlow(sims[1])), 1e-5f * largest);
}

// The box solver spreads the vortons in chunks and takes its curl on several threads (the chunks
// summed in a fixed order): the sloshing tank, and the rocking tank solved in its turning frame,
// give the same bits on one and on two threads.
TEST(BoxVortexInCell, TheSameBitsForAnyThreadCount) {
    for (const std::string preset : {"sloshing_tank", "rocking_tank"}) {
        std::vector<vec3> positions[2], vorticities[2];
        for (int threads : {1, 2}) {
            Simulation sim;
            sim.setThreads(threads);
            buildSimulation(loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/" + preset + ".json",
                                      {"fluid.velocity_solver=box", "vortons.0.count=800", "tracers.0.count=200"}),
                            sim);
            for (int s = 0; s < 30; ++s) sim.step(0.01f);
            positions[threads - 1] = sim.vortons().position;
            vorticities[threads - 1] = sim.vortons().vorticity;
        }
        ASSERT_EQ(positions[0].size(), positions[1].size()) << preset;
        EXPECT_EQ(std::memcmp(positions[0].data(), positions[1].data(), positions[0].size() * sizeof(vec3)), 0)
            << preset;
        EXPECT_EQ(std::memcmp(vorticities[0].data(), vorticities[1].data(), vorticities[0].size() * sizeof(vec3)), 0)
            << preset;
    }
}
