// A rotating box container under the box velocity solver: still water in a turning tank takes
// the irrotational flow of Saint-Venant's torsion problem in the box's cross-section (Lamb,
// "Hydrodynamics", sec. 72), and a rocking tank's flow never crosses its walls (its same bits on
// any thread count: BoxVortexInCell.TheSameBitsForAnyThreadCount).
#include "body_helpers.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"
#include "sim/wall_flow.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace vfx;

namespace {

// The absolute flow of still fluid in a box of cross-section |x| < a/2, |y| < b/2 turning at
// omega about z through its centre, m/s: the rigid rotation omega (-y, x) plus the flow relative
// to it, curl(psi z) with psi = -omega Phi, where Phi is Prandtl's torsion function (lap Phi = -2,
// Phi = 0 on the walls), as its series in cos(n pi y / b), n odd (Timoshenko & Goodier,
// "Theory of Elasticity", sec. 109).
dvec3 torsionFlow(double a, double b, double omega, double x, double y) {
    double dPhiDx = 0.0, dPhiDy = -2.0 * y;
    for (int n = 1; n < 400; n += 2) {
        const double k = double(n) * M_PI / b;
        const double sign = ((n - 1) / 2) % 2 == 0 ? 1.0 : -1.0;
        const double c = 8.0 * b * b / (M_PI * M_PI * M_PI) * sign / (double(n) * n * n) * k;
        // cosh(k x) / cosh(k a / 2) and its sinh partner without overflow.
        const double ratioCosh =
            std::exp(k * (std::abs(x) - 0.5 * a)) * (1.0 + std::exp(-2.0 * k * std::abs(x))) / (1.0 + std::exp(-k * a));
        const double ratioSinh = std::copysign(
            std::exp(k * (std::abs(x) - 0.5 * a)) * (1.0 - std::exp(-2.0 * k * std::abs(x))) / (1.0 + std::exp(-k * a)),
            x);
        dPhiDy += c * std::sin(k * y) * ratioCosh;
        dPhiDx -= c * std::cos(k * y) * ratioSinh;
    }
    return dvec3(-omega * y - omega * dPhiDy, omega * x + omega * dPhiDx, 0.0);
}

// `count`^3-ish vortons of zero vorticity filling the box container's cavity (still water), in
// the world at origin + turn * local.
void fillWithStillWater(Simulation& sim, const vec3& half, const ivec3& count, const vec3& origin, const quat& turn) {
    const vec3 h = 2.0f * half / vec3(count);
    for (int z = 0; z < count.z; ++z)
        for (int y = 0; y < count.y; ++y)
            for (int x = 0; x < count.x; ++x) {
                const vec3 local = -half + (vec3(x, y, z) + 0.5f) * h;
                sim.vortons().add(origin + turn * local, vec3(0.0f), h.x, 0.0f, h.x * h.y * h.z);
            }
}

}  // namespace

// A tilted box of square cross-section (1 m by 1 m, 0.6 m deep) turning at 0.8 rad/s about its
// own depth axis holds still water: the flow is the torsion flow turned with the box. The solver's
// second-order differences on a grid of h = 1/32 m leave a relative error of about
// (pi h / a)^2 / 12 = 8e-4 in the flow's lowest mode; 1% of the walls' largest normal speed
// (omega a / 2) bounds it. Near the box's edges the torsion function goes as r^2 log r (r from
// the edge), the flow's second derivatives as omega / r, so differences there add an error of
// order omega h^2 / r, and within a cell of the edge omega h (the relative vorticity's change
// over half a cell).
TEST(RotatingBox, StillWaterTakesTheTorsionFlowOfItsCrossSection) {
    const vec3 half(0.5f, 0.5f, 0.3f);
    const vec3 origin(0.2f, -0.1f, 0.3f);
    const quat tilt = glm::angleAxis(glm::radians(25.0f), glm::normalize(vec3(1.0f, -0.5f, 2.0f)));
    const float omega = 0.8f;
    Simulation sim;
    sim.fluid().velocitySolver = VelocitySolver::Box;
    RigidBody tank = test::makeContainer(half, origin);
    tank.orientation = tank.restOrientation = tilt;
    tank.angularVelocity = tilt * vec3(0.0f, 0.0f, omega);
    sim.bodies().push_back(tank);
    fillWithStillWater(sim, half, ivec3(32, 32, 19), origin, tilt);  // one cell a vorton: h = 1/32 m

    std::mt19937 rng(4);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::vector<vec3> local, world, u;
    for (int i = 0; i < 2000; ++i) {
        local.push_back(half * vec3(unit(rng), unit(rng), unit(rng)));
        world.push_back(origin + tilt * local.back());
    }
    sim.velocityAtPoints(world, u);
    const double wallSpeed = 0.5 * omega * 1.0;
    const double h = 1.0 / 32.0;
    double worstExcess = -1.0, largest = 0.0;
    for (size_t i = 0; i < u.size(); ++i) {
        const dvec3 expected = torsionFlow(1.0, 1.0, omega, local[i].x, local[i].y);
        const double error = glm::length(dvec3(glm::conjugate(tilt) * u[i]) - expected);
        const double fromEdge = std::hypot(0.5 - std::abs(local[i].x), 0.5 - std::abs(local[i].y));
        const double bound = 0.01 * wallSpeed + omega * h * std::min(1.0, h / fromEdge);
        worstExcess = std::max(worstExcess, error / bound - 1.0);
        largest = std::max(largest, glm::length(expected));
    }
    ASSERT_GT(largest, 0.5 * wallSpeed);
    EXPECT_LT(worstExcess, 0.0);
    // The walls' normal speed is matched to float round-off.
    EXPECT_LT(largestWallNormalSpeed(measureWallFlow(sim)), 1e-5f * float(wallSpeed));
}

// The sloshing tank rocked about all three axes (10, 6 and 12 degrees) while it swings, through
// two passes upright: no flow crosses its walls at any step (float round-off of the walls' speed).
TEST(RotatingBox, ARockingTankKeepsItsFlowOffItsWalls) {
    Simulation sim;
    buildSimulation(
        loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/sloshing_tank.json",
                  {"bodies.0.oscillate.angular_amplitude=[10,6,12]", "vortons.0.count=1500", "tracers.0.count=200"}),
        sim);
    float worst = 0.0f, fastestWall = 0.0f;
    for (int s = 0; s < 160; ++s) {
        sim.step(0.01f);
        for (const WallFlowSample& w : measureWallFlow(sim)) {
            worst = std::max(worst, w.normalSpeed);
            fastestWall = std::max(fastestWall, glm::length(sim.bodies()[0].surfaceVelocity(w.position)));
        }
    }
    ASSERT_GT(fastestWall, 0.3f);
    EXPECT_LT(worst, 1e-5f * fastestWall);
}
