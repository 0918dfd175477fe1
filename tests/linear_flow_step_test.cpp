// Exponential advection (sim/linear_flow_step.hpp): a particle's move through its linearised flow
// against the exact solutions of solid rotation, uniform strain and a flow changing in time, and
// a vorton circling in a grid's solid rotation keeping its radius at 0.6 radian a sub-step, where
// the two-step Adams-Bashforth rule grows it by 6.8% a step.
#include "core/matrix_exponential.hpp"
#include "sim/exponential_advection.hpp"
#include "sim/linear_flow_step.hpp"
#include "sim/particle_advection.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace vfx {
namespace {

TEST(LinearFlowStep, SolidRotationTurnsByExactlyOmegaDt) {
    const float omega = 2.0f, dt = 0.3f;  // 0.6 radian
    const mat3 j = test::rotationGradient(omega);
    const vec3 x0(1.0f, 0.0f, 0.5f);
    const vec3 moved = x0 + linearFlowDisplacement(j, j * x0, vec3(0.0f), dt);
    EXPECT_NEAR(moved.x, std::cos(0.6f), 1e-6f);
    EXPECT_NEAR(moved.y, std::sin(0.6f), 1e-6f);
    EXPECT_NEAR(moved.z, 0.5f, 1e-7f);
}

TEST(LinearFlowStep, UniformStrainStretchesExponentially) {
    mat3 j(0.0f);
    j[0][0] = 3.0f;
    j[1][1] = -3.0f;
    const float dt = 0.5f;  // 1.5 e-foldings: the series runs in pieces
    const vec3 x0(1.0f, 1.0f, 0.0f);
    const vec3 moved = x0 + linearFlowDisplacement(j, j * x0, vec3(0.0f), dt);
    EXPECT_NEAR(moved.x, std::exp(1.5f), 1e-5f * std::exp(1.5f));
    EXPECT_NEAR(moved.y, std::exp(-1.5f), 1e-6f);
}

// dx/dt = u + J (x - x0) + t g, integrated by the classical Runge-Kutta rule in fine steps.
dvec3 referenceMove(const glm::dmat3& j, const dvec3& u, const dvec3& g, double dt) {
    const int n = 20000;
    const double h = dt / n;
    dvec3 y(0.0);
    const auto f = [&](const dvec3& p, double t) { return u + j * p + t * g; };
    for (int k = 0; k < n; ++k) {
        const double t = k * h;
        const dvec3 k1 = f(y, t), k2 = f(y + 0.5 * h * k1, t + 0.5 * h), k3 = f(y + 0.5 * h * k2, t + 0.5 * h),
                    k4 = f(y + h * k3, t + h);
        y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    return y;
}

TEST(LinearFlowStep, AFlowChangingInTimeIsIntegratedExactly) {
    mat3 j = test::rotationGradient(1.5f);
    j[2][2] = -0.4f;
    j[2][0] = 0.7f;  // du/dz along x: shear on top of the rotation
    const vec3 u(0.3f, -0.2f, 1.0f), g(2.0f, 0.5f, -1.0f);
    const float dt = 0.4f;
    const vec3 move = linearFlowDisplacement(j, u, g, dt);
    const dvec3 expected = referenceMove(glm::dmat3(j), dvec3(u), dvec3(g), double(dt));
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(double(move[c]), expected[c], 2e-6) << c;
}

// A grid laid with the linear flow u = J x, 17 x 17 x 5 points 0.25 m apart about the origin.
UniformGrid<vec3> linearFlowGrid(const mat3& j) {
    GridShape shape;
    shape.minCorner = vec3(-2.0f, -2.0f, -0.5f);
    shape.spacing = vec3(0.25f);
    shape.points = ivec3(17, 17, 5);
    UniformGrid<vec3> velocity;
    velocity.reshape(shape);
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) velocity.at(x, y, z) = j * shape.pointPosition(x, y, z);
    return velocity;
}

// A vorton circling at radius 1 in a grid's solid rotation, 0.6 radian a sub-step, 50 sub-steps:
// the exponential move keeps its radius (trilinear lookups of a linear field are exact, and the
// time-change estimate is zero in a steady linear flow); the two-step rule's would grow 1.068^50.
TEST(LinearFlowStep, VortonInAVortexCoreKeepsItsRadius) {
    const float omega = 2.0f, dt = 0.3f;
    const mat3 j = test::rotationGradient(omega);
    const UniformGrid<vec3> velocity = linearFlowGrid(j);
    UniformGrid<float> density;
    density.reshape(velocity.shape());
    const std::vector<PotentialFlow> none;
    Vortons vortons;
    vortons.add(vec3(1.0f, 0.0f, 0.0f), vec3(0.0f, 0.0f, 1.0f), 0.1f, 0.0f);
    const std::vector<mat3> gradient{j};
    const StepFlow flow{velocity.shape(), velocity, density, none, true, &gradient};
    GridFlowAdvection advection;
    MotionHistory history;
    for (int step = 0; step < 50; ++step) advection.moveVortons(flow, VortonVelocity{}, vortons, history, dt);
    const vec3 x = vortons.position[0];
    EXPECT_NEAR(std::hypot(x.x, x.y), 1.0f, 1e-4f);
    const float angle = std::atan2(x.y, x.x), expected = std::remainder(50.0f * omega * dt, 2.0f * float(M_PI));
    EXPECT_NEAR(std::remainder(angle - expected, 2.0f * float(M_PI)), 0.0f, 1e-3f);
}

// Where a vorton starting at `start` is after `steps` sub-steps of the steady linear flow J x, moved
// by the three-step rule (no gradient given) or with the gradient J at it, exponentially or, in
// cores-only mode, by whichever rule the core criterion (|S|^2 < 2 |Omega|^2) picks.
vec3 movedThroughLinearFlow(const mat3& j, const vec3& start, bool withGradient, bool coresOnly, int steps, float dt) {
    const UniformGrid<vec3> velocity = linearFlowGrid(j);
    UniformGrid<float> density;
    density.reshape(velocity.shape());
    const std::vector<PotentialFlow> none;
    const std::vector<mat3> gradient{j};
    StepFlow flow{velocity.shape(), velocity, density, none, true, withGradient ? &gradient : nullptr};
    flow.threeStep = !withGradient || coresOnly;
    flow.threeStepAllowed = true;
    flow.exponentialInCoresOnly = coresOnly;
    Vortons vortons;
    vortons.add(start, vec3(0.0f, 0.0f, 1.0f), 0.1f, 0.0f);
    GridFlowAdvection advection;
    MotionHistory history;
    for (int step = 0; step < steps; ++step) advection.moveVortons(flow, VortonVelocity{}, vortons, history, dt);
    return vortons.position[0];
}

// exponential_in_cores: in solid rotation (S = 0: a core) a vorton takes the exponential
// move and keeps its radius at 0.6 radian a sub-step as that move does (to 1e-4, where the
// three-step rule's orbit drifts by about 0.06% a sub-step at 0.42 radian and more beyond); in a
// pure strain (Omega = 0) it moves exactly as the three-step rule moves it, its last rates kept
// for that rule across sub-steps, and not as the exponential move would.
TEST(LinearFlowStep, CoresOnlyModePicksTheExponentialMoveInCoresAndThreeStepsInStrain) {
    const float dt = 0.3f;
    const vec3 onCircle(1.0f, 0.0f, 0.0f);
    const vec3 inCore = movedThroughLinearFlow(test::rotationGradient(2.0f), onCircle, true, true, 50, dt);
    EXPECT_NEAR(std::hypot(inCore.x, inCore.y), 1.0f, 1e-4f);
    const vec3 byThreeSteps = movedThroughLinearFlow(test::rotationGradient(2.0f), onCircle, false, false, 50, dt);
    EXPECT_GT(std::abs(std::hypot(byThreeSteps.x, byThreeSteps.y) - 1.0f), 1e-3f);

    mat3 strain(0.0f);
    strain[0][0] = 0.8f;  // stretching along x, compression along y
    strain[1][1] = -0.8f;
    const vec3 start(0.2f, 1.0f, 0.0f);
    const vec3 coresOnly = movedThroughLinearFlow(strain, start, true, true, 6, dt);
    const vec3 threeSteps = movedThroughLinearFlow(strain, start, false, false, 6, dt);
    const vec3 exponential = movedThroughLinearFlow(strain, start, true, false, 6, dt);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(coresOnly[c], threeSteps[c]) << c;
    EXPECT_GT(glm::length(exponential - threeSteps), 1e-4f);
}

// A vortex core in solid rotation drifting with the flow, u(x, t) = U + Omega x (x - c0 - U t), laid
// on a fresh grid each sub-step (shifted by a third of a spacing each time, as the grid follows
// the particles), 0.5 radian a sub-step for 40 sub-steps. The flow is linear in x and t, so the
// exponential move with the change read through the last sub-step's grid is exact: the vorton
// stays on its circle about the moving centre. Read from the vorton's last velocity alone, the
// change is turned by half a sub-step's rotation and lengthened along U by (1 - cos) / dt
// (sim/exponential_advection.hpp): a drift of about U dt theta^2 / 4 a sub-step, 0.06 m here.
TEST(LinearFlowStep, VortonInADriftingCoreKeepsItsOrbit) {
    const float omega = 5.0f, dt = 0.1f, radius = 0.5f;
    const vec3 drift(1.0f, 0.5f, 0.0f), centre0(0.0f);
    const mat3 j = test::rotationGradient(omega);
    const auto centreAt = [&](float t) { return centre0 + drift * t; };
    const auto gridAt = [&](float t, int step) {
        GridShape shape;
        shape.spacing = vec3(0.25f);
        shape.minCorner = vec3(-3.0f, -3.0f, -0.5f) + vec3(float(step % 3) / 3.0f * 0.25f);
        shape.points = ivec3(41, 33, 5);
        UniformGrid<vec3> velocity;
        velocity.reshape(shape);
        for (int z = 0; z < shape.points.z; ++z)
            for (int y = 0; y < shape.points.y; ++y)
                for (int x = 0; x < shape.points.x; ++x)
                    velocity.at(x, y, z) = drift + j * (shape.pointPosition(x, y, z) - centreAt(t));
        return velocity;
    };
    const std::vector<PotentialFlow> none;
    Vortons vortons;
    vortons.add(centre0 + vec3(radius, 0.0f, 0.0f), vec3(0.0f, 0.0f, 1.0f), 0.1f, 0.0f);
    const std::vector<mat3> gradient{j};
    GridFlowAdvection advection;
    // The sub-step before the first: where the vorton was on its circle, its velocity and grid then.
    const vec3 before = centreAt(-dt) + vec3(radius * std::cos(-omega * dt), radius * std::sin(-omega * dt), 0.0f);
    MotionHistory history;
    history.vortonVelocity = {drift + j * (before - centreAt(-dt))};
    history.dt = dt;
    UniformGrid<vec3> previous = gridAt(-dt, 2);
    const int steps = 40;
    for (int step = 0; step < steps; ++step) {
        const UniformGrid<vec3> velocity = gridAt(float(step) * dt, step);
        UniformGrid<float> density;
        density.reshape(velocity.shape());
        StepFlow flow{velocity.shape(), velocity, density, none, true, &gradient};
        flow.previousVelocity = &previous;
        advection.moveVortons(flow, VortonVelocity{}, vortons, history, dt);
        previous = velocity;
    }
    const vec3 offset = vortons.position[0] - centreAt(float(steps) * dt);
    const float turned = std::remainder(std::atan2(offset.y, offset.x) - float(steps) * omega * dt, 2.0f * float(M_PI));
    EXPECT_NEAR(std::hypot(offset.x, offset.y), radius, 1e-3f * radius);
    EXPECT_NEAR(turned, 0.0f, 1e-3f);
}

// The move eight vortons at a time (sim/exponential_advection) against the one-vorton formulas:
// gradients whose steps need one to five pieces in one block, vortons with and without a last
// velocity (a wall moved them), a partial last block, and a vorton whose gradient is not finite
// (its block falls back to the one-vorton rules, which pass the non-finite value on for the
// caller's checks).
TEST(ExponentialAdvection, EightAtATimeMovesAsOneAtATime) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const size_t n = 21;
    std::vector<vec3> now(n), previous(n);
    std::vector<mat3> gradient(n);
    std::vector<uint8_t> hitWall(n);
    for (size_t i = 0; i < n; ++i) {
        const float strength = 0.5f + 3.0f * float(i % 5);  // |J dt| from about 0.1 to 2
        for (int c = 0; c < 3; ++c) {
            gradient[i][c] = vec3(unit(rng), unit(rng), unit(rng)) * strength;
            now[i][c] = unit(rng);
            previous[i][c] = unit(rng);
        }
        hitWall[i] = i % 3 == 0 ? 1u : 0u;  // a wall moved these: no last velocity to read
    }
    gradient[18][1][2] = std::numeric_limits<float>::quiet_NaN();
    std::vector<vec3> eulerian(n);
    for (vec3& g : eulerian) g = vec3(unit(rng), unit(rng), unit(rng)) * 20.0f;
    const float previousDt = 0.04f, dt = 0.05f;
    for (const bool withEulerian : {false, true}) {
        std::vector<vec3> lastVelocity = previous, velocity;
        ExponentialMoveInputs in{now, gradient, hitWall, true, previousDt, dt};
        if (withEulerian) in.eulerianChange = &eulerian;
        exponentialMoveVelocities(in, lastVelocity, velocity);
        ASSERT_EQ(velocity.size(), n);
        for (size_t i = 0; i < n; ++i) {
            vec3 change(0.0f);
            if (hitWall[i] == 0u) {
                change = (now[i] - exponentialTimes(gradient[i] * previousDt, previous[i])) / previousDt;
                // phi1(J h) g - g, h the last sub-step: what a flow changing by g leaves in that read.
                if (withEulerian)
                    change -= linearFlowDisplacement(gradient[i], eulerian[i], vec3(0.0f), previousDt) / previousDt -
                              eulerian[i];
            }
            const vec3 expected = linearFlowDisplacement(gradient[i], now[i], change, dt) / dt;
            EXPECT_EQ(lastVelocity[i], now[i]) << i;
            if (i == 18) {
                EXPECT_FALSE(std::isfinite(velocity[i].x + velocity[i].y + velocity[i].z));
                continue;
            }
            // Both sum the same convergent series (remainders below 5e-9 of the move) in single
            // precision, in as many pieces or more: they agree to rounding.
            EXPECT_LT(glm::length(velocity[i] - expected), 1e-5f * glm::length(expected)) << i << " " << withEulerian;
        }
    }
}

}  // namespace
}  // namespace vfx
