// The tracers' pass of a sub-step (sim/tracer_advection.hpp), eight tracers' stencils at once in
// SIMD lanes: against the grid's own trilinear lookup and the two- and three-step and midpoint rules, the same
// bits for any thread count, the moved tracers' bounds and finiteness, and a flat grid refused.
#include "core/uniform_grid.hpp"
#include "lookup_fixtures.hpp"
#include "sim/tracer_advection.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace vfx {
namespace {

using test::scatteredTracers;
using test::wavyGrid;

std::vector<vec3> scatteredVelocities(size_t count, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> component(-1.0f, 1.0f);
    std::vector<vec3> v(count);
    for (vec3& u : v) u = vec3(component(rng), component(rng), component(rng));
    return v;
}

float largestValue(const UniformGrid<FlowAndDensity>& grid) {
    float largest = 0.0f;
    for (const FlowAndDensity& v : grid.values())
        for (int c = 0; c < 4; ++c) largest = std::max(largest, std::abs(v[c]));
    return largest;
}

// A rule's weights and the bounds its sum keeps, for velocities below 1: the largest |v| (a power
// of two at or above the sum of |weights|) and how far a fused and an unfused evaluation of the
// sum may differ.
struct RuleUnderTest {
    StepWeights weights;
    bool threeStep;         // also passes u_n-2
    float speedBound;       // |v| below this
    float sumRoundingSpan;  // |fused - unfused| of the weighted sum at most this
};

// One pass against the grid's lookup and the rule's sum.
void expectPassMatchesLookupAndRule(const RuleUnderTest& rule) {
    const StepWeights weights = rule.weights;
    const bool threeStep = rule.threeStep;
    const UniformGrid<FlowAndDensity> grid = wavyGrid();
    // 37 tracers: four whole blocks of eight and a partial one.
    Tracers tracers = scatteredTracers(grid.shape(), 37, 7);
    const Tracers start = tracers;
    std::vector<vec3> last = scatteredVelocities(tracers.size(), 8);
    std::vector<vec3> before = scatteredVelocities(tracers.size(), 9);
    const std::vector<vec3> lastBefore = last;
    const std::vector<vec3> beforeBefore = before;
    const float dt = 0.1f;
    advanceTracersTwoStep(grid, weights, dt, tracers, last, threeStep ? &before : nullptr);

    // The pass may fuse each linear interpolation's multiply and add where the lookup rounds them
    // apart: at most two roundings (2^-23 of the largest value) apart per interpolation, seven of
    // them in a trilinear lookup, and convex weights never enlarge an earlier difference.
    const float lookupTolerance = 7.0f * 2.0f * std::ldexp(1.0f, -23) * largestValue(grid);
    const float velocityTolerance = weights.current * lookupTolerance + rule.sumRoundingSpan;
    for (size_t i = 0; i < tracers.size(); ++i) {
        const vec3 x = start.position[i];
        const FlowAndDensity found = grid.interpolate(x);
        const vec3 now(found[0], found[1], found[2]);
        vec3 moved = weights.current * now + weights.previous * lastBefore[i];
        if (threeStep) moved += weights.beforePrevious * beforeBefore[i];
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(last[i][a], now[a], lookupTolerance) << "tracer " << i;
            EXPECT_EQ(before[i][a], threeStep ? lastBefore[i][a] : beforeBefore[i][a]) << "tracer " << i;
            EXPECT_NEAR(tracers.velocity[i][a], moved[a], velocityTolerance) << "tracer " << i;
            // Position: dt times the velocity's difference, plus the product's and the sum's
            // roundings (of at most |x| + speedBound dt each), fused or not.
            const float positionRounding = 3.0f * (std::abs(x[a]) + rule.speedBound * dt) * std::ldexp(1.0f, -23);
            EXPECT_NEAR(tracers.position[i][a], x[a] + dt * moved[a], dt * velocityTolerance + positionRounding)
                << "tracer " << i;
        }
        EXPECT_NEAR(tracers.density[i], found[3], lookupTolerance) << "tracer " << i;
    }
}

// Weights 1.25 and -0.25: |v| < 2, and its two products and sum, fused or not, differ by at most
// two roundings of 2^-22.
TEST(TracerPass, MatchesTheGridLookupAndTheTwoStepRule) {
    expectPassMatchesLookupAndRule({StepWeights{1.25f, -0.25f}, false, 2.0f, 2.0f * std::ldexp(1.0f, -22)});
}

// Weights 5/3, -5/6, 1/6: |v| < 8/3 < 4, where a rounding is at most 2^-22; three products and
// two sums, fused or not, differ by at most five of them.
TEST(TracerPass, MatchesTheGridLookupAndTheThreeStepRule) {
    expectPassMatchesLookupAndRule(
        {StepWeights{5.0f / 3.0f, -5.0f / 6.0f, 1.0f / 6.0f}, true, 4.0f, 5.0f * std::ldexp(1.0f, -22)});
}

TEST(TracerPass, ParallelBlocksGiveTheSameResultForAnyThreadCount) {
    const UniformGrid<FlowAndDensity> grid = wavyGrid();
    auto run = [&](int threads) {
        Tracers tracers = scatteredTracers(grid.shape(), 20001, 11);
        std::vector<vec3> last = scatteredVelocities(tracers.size(), 12);
        tbb::task_arena arena(threads);
        arena.execute([&] { advanceTracersTwoStep(grid, StepWeights{1.5f, -0.5f}, 0.05f, tracers, last); });
        return std::make_pair(tracers, last);
    };
    const auto one = run(1), two = run(2), three = run(3);
    for (const auto* other : {&two, &three}) {
        ASSERT_EQ(other->first.size(), one.first.size());
        EXPECT_EQ(
            0, std::memcmp(other->first.position.data(), one.first.position.data(), one.first.size() * sizeof(vec3)));
        EXPECT_EQ(
            0, std::memcmp(other->first.velocity.data(), one.first.velocity.data(), one.first.size() * sizeof(vec3)));
        EXPECT_EQ(0,
                  std::memcmp(other->first.density.data(), one.first.density.data(), one.first.size() * sizeof(float)));
        EXPECT_EQ(0, std::memcmp(other->second.data(), one.second.data(), one.second.size() * sizeof(vec3)));
    }
}

// How fast the grid's trilinear lookup can change along each axis: the largest difference between
// neighbouring points along it over the spacing (a lookup's derivative along an axis is a convex
// combination of such differences; clamping outside the grid only slows it).
vec3 lookupSlopeBound(const UniformGrid<FlowAndDensity>& grid) {
    const GridShape& shape = grid.shape();
    vec3 slope(0.0f);
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) {
                const ivec3 p(x, y, z);
                for (int a = 0; a < 3; ++a) {
                    ivec3 q = p;
                    if (++q[a] >= shape.points[a]) continue;
                    const FlowAndDensity d = grid.at(q.x, q.y, q.z) - grid.at(x, y, z);
                    for (int c = 0; c < 3; ++c) slope[a] = std::max(slope[a], std::abs(d[c]) / shape.spacing[a]);
                }
            }
    return slope;
}

// The midpoint rule, v = u(x + dt/2 u(x)): u(x) and the density as the grid's lookup gives them at
// x, and v as it gives it at the half-step point found from that u (the pass's half-step point may
// round differently from this one's, by at most two roundings of its coordinates).
TEST(TracerPass, MidpointRuleMatchesTheGridLookupAtTheHalfStep) {
    const UniformGrid<FlowAndDensity> grid = wavyGrid();
    Tracers tracers = scatteredTracers(grid.shape(), 37, 7);
    const Tracers start = tracers;
    std::vector<vec3> last = scatteredVelocities(tracers.size(), 8);
    const float dt = 0.1f;
    advanceTracersByMidpoint(grid, StepWeights{}, dt, tracers, last);

    const float lookupTolerance = 7.0f * 2.0f * std::ldexp(1.0f, -23) * largestValue(grid);
    const vec3 slope = lookupSlopeBound(grid);
    for (size_t i = 0; i < tracers.size(); ++i) {
        const vec3 x = start.position[i];
        const FlowAndDensity found = grid.interpolate(x);
        const vec3 halfway = x + 0.5f * dt * last[i];
        const FlowAndDensity there = grid.interpolate(halfway);
        const vec3 moved(there[0], there[1], there[2]);
        // The half-step point's coordinates, fused or not, differ by at most two roundings of
        // |x + dt/2 u| + dt/2 |u| (the grid's components are at most 1), and the lookup there by
        // that times its slope along each axis.
        float pointRounding = 0.0f;
        for (int a = 0; a < 3; ++a)
            pointRounding += slope[a] * 2.0f * (std::abs(halfway[a]) + 0.5f * dt) * std::ldexp(1.0f, -23);
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(last[i][a], found[a], lookupTolerance) << "tracer " << i;
            EXPECT_NEAR(tracers.velocity[i][a], moved[a], lookupTolerance + pointRounding) << "tracer " << i;
            const float positionRounding = 3.0f * (std::abs(x[a]) + dt) * std::ldexp(1.0f, -23);
            EXPECT_NEAR(tracers.position[i][a], x[a] + dt * tracers.velocity[i][a], positionRounding) << "tracer " << i;
        }
        EXPECT_NEAR(tracers.density[i], found[3], lookupTolerance) << "tracer " << i;
    }
}

TEST(TracerPass, MidpointBlocksGiveTheSameResultForAnyThreadCount) {
    const UniformGrid<FlowAndDensity> grid = wavyGrid();
    auto run = [&](int threads) {
        Tracers tracers = scatteredTracers(grid.shape(), 20001, 11);
        std::vector<vec3> last(tracers.size(), vec3(0.0f));
        tbb::task_arena arena(threads);
        arena.execute([&] { advanceTracersByMidpoint(grid, StepWeights{}, 0.05f, tracers, last); });
        return std::make_pair(tracers, last);
    };
    const auto one = run(1), two = run(2), three = run(3);
    for (const auto* other : {&two, &three}) {
        EXPECT_EQ(
            0, std::memcmp(other->first.position.data(), one.first.position.data(), one.first.size() * sizeof(vec3)));
        EXPECT_EQ(0, std::memcmp(other->second.data(), one.second.data(), one.second.size() * sizeof(vec3)));
    }
}

// The box the moved tracers span, scanned after the pass, against the one the pass returns:
// exactly (min and max do not round). 20,001 tracers are 2,501 blocks of eight in chunks of 512
// blocks; each side of the box is set by a tracer placed far out in another part of them: the
// first of the first chunk, the last of it, the first of the second, a middle lane of the third,
// the last of the fourth, and the partial last block.
void expectBoundsOfTheMovedTracers(bool midpoint) {
    const UniformGrid<FlowAndDensity> grid = wavyGrid();
    Tracers tracers = scatteredTracers(grid.shape(), 20001, 13);
    const vec3 centre = grid.shape().minCorner + 0.5f * grid.shape().extent();
    const float far = 3.0f * glm::length(grid.shape().extent());
    struct Side {
        size_t tracer;
        int axis;
        float sign;
    };
    const Side sides[] = {{0, 0, -1.0f},    {4095, 0, 1.0f},   {4096, 1, -1.0f},
                          {10003, 1, 1.0f}, {16383, 2, -1.0f}, {20000, 2, 1.0f}};
    for (const Side& side : sides) {
        tracers.position[side.tracer] = centre;
        tracers.position[side.tracer][side.axis] += side.sign * far;
    }
    std::vector<vec3> last = scatteredVelocities(tracers.size(), 14);
    const MovedTracerBounds bounds = midpoint
                                         ? advanceTracersByMidpoint(grid, StepWeights{}, 0.05f, tracers, last)
                                         : advanceTracersTwoStep(grid, StepWeights{1.5f, -0.5f}, 0.05f, tracers, last);
    vec3 lo(1e30f), hi(-1e30f);
    for (const vec3& x : tracers.position) {
        lo = glm::min(lo, x);
        hi = glm::max(hi, x);
    }
    EXPECT_TRUE(bounds.finite);
    for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(bounds.lo[a], lo[a]) << "axis " << a;
        EXPECT_EQ(bounds.hi[a], hi[a]) << "axis " << a;
    }
    for (const Side& side : sides) {
        const float bound = side.sign < 0.0f ? bounds.lo[side.axis] : bounds.hi[side.axis];
        EXPECT_EQ(bound, tracers.position[side.tracer][side.axis]) << "tracer " << side.tracer;
    }
}

TEST(TracerPass, ReturnsTheBoundsOfTheMovedTracers) { expectBoundsOfTheMovedTracers(false); }

TEST(TracerPass, MidpointPassReturnsTheBoundsOfTheMovedTracers) { expectBoundsOfTheMovedTracers(true); }

// A tracer the pass moves to Inf or NaN (its last rate is NaN, or huge) is reported: in a whole
// block, at the end of the first chunk and in the partial last block.
TEST(TracerPass, ReportsATracerThatLeftTheFiniteNumbers) {
    const UniformGrid<FlowAndDensity> grid = wavyGrid();
    for (size_t broken : {size_t(3), size_t(4095), size_t(20000)})
        for (float bad : {std::nanf(""), 1e38f}) {
            Tracers tracers = scatteredTracers(grid.shape(), 20001, 15);
            std::vector<vec3> last = scatteredVelocities(tracers.size(), 16);
            last[broken] = vec3(bad);
            const MovedTracerBounds bounds = advanceTracersTwoStep(grid, StepWeights{1.5f, -1e3f}, 1.0f, tracers, last);
            EXPECT_FALSE(bounds.finite) << "tracer " << broken << ", last rate " << bad;
        }
}

TEST(TracerPass, RefusesAFlatGrid) {
    GridShape flat;
    flat.points = ivec3(4, 4, 1);
    const UniformGrid<FlowAndDensity> grid(flat);
    Tracers tracers;
    tracers.add(vec3(0.5f));
    std::vector<vec3> last(1);
    EXPECT_THROW(advanceTracersTwoStep(grid, StepWeights{}, 0.1f, tracers, last), std::logic_error);
}

}  // namespace
}  // namespace vfx
