// The lookups that find eight particles' stencils at once in SIMD lanes (the tracers' pass of a
// sub-step, sim/tracer_advection.hpp, and the vortons' lookups, sim/grid_lookups.hpp) against
// the grid's own trilinear lookup, and their independence of the thread count.
#include "core/uniform_grid.hpp"
#include "sim/grid_lookups.hpp"
#include "sim/tracer_advection.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace vfx {
namespace {

// A packed grid with a smooth but far from trilinear field, values of order 1.
UniformGrid<FlowAndDensity> wavyGrid() {
    GridShape shape;
    shape.minCorner = vec3(-1.0f, -0.5f, 0.25f);
    shape.spacing = vec3(0.2f, 0.25f, 0.3f);
    shape.points = ivec3(9, 7, 6);
    UniformGrid<FlowAndDensity> grid(shape);
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) {
                const vec3 p = shape.pointPosition(x, y, z);
                grid.at(x, y, z) = FlowAndDensity{std::sin(3.0f * p.x + p.z), std::cos(2.0f * p.y - p.x),
                                                  0.5f * std::sin(p.x * p.y + 4.0f * p.z), std::cos(5.0f * p.z)};
            }
    return grid;
}

// Tracers inside the grid and beyond each face (they take the nearest cell, as lookups do).
Tracers scatteredTracers(const GridShape& shape, size_t count, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> share(-0.2f, 1.2f);
    Tracers t;
    for (size_t i = 0; i < count; ++i)
        t.add(shape.minCorner + vec3(share(rng), share(rng), share(rng)) * shape.extent());
    return t;
}

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

TEST(TracerPass, MatchesTheGridLookupAndTheTwoStepRule) {
    const UniformGrid<FlowAndDensity> grid = wavyGrid();
    // 37 tracers: four whole blocks of eight and a partial one.
    Tracers tracers = scatteredTracers(grid.shape(), 37, 7);
    const Tracers start = tracers;
    std::vector<vec3> last = scatteredVelocities(tracers.size(), 8);
    const std::vector<vec3> lastBefore = last;
    const TwoStepWeights weights{1.25f, -0.25f};
    const float dt = 0.1f;
    advanceTracersTwoStep(grid, weights, dt, tracers, last);

    // The pass may fuse each linear interpolation's multiply and add where the lookup rounds them
    // apart: at most two roundings (2^-23 of the largest value) apart per interpolation, seven of
    // them in a trilinear lookup, and convex weights never enlarge an earlier difference.
    const float lookupTolerance = 7.0f * 2.0f * std::ldexp(1.0f, -23) * largestValue(grid);
    // The two-step sum |v| < 2 (weights 1.25 and -0.25 of values below 1): fused or not, its two
    // products and sum differ by at most two roundings of 2^-22.
    const float velocityTolerance = weights.current * lookupTolerance + 2.0f * std::ldexp(1.0f, -22);
    for (size_t i = 0; i < tracers.size(); ++i) {
        const vec3 x = start.position[i];
        const FlowAndDensity found = grid.interpolate(x);
        const vec3 now(found[0], found[1], found[2]);
        const vec3 moved = weights.current * now + weights.previous * lastBefore[i];
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(last[i][a], now[a], lookupTolerance) << "tracer " << i;
            EXPECT_NEAR(tracers.velocity[i][a], moved[a], velocityTolerance) << "tracer " << i;
            // Position: dt times the velocity's difference, plus the product's and the sum's
            // roundings (of at most |x| + 2 dt each), fused or not.
            const float positionRounding = 3.0f * (std::abs(x[a]) + 2.0f * dt) * std::ldexp(1.0f, -23);
            EXPECT_NEAR(tracers.position[i][a], x[a] + dt * moved[a], dt * velocityTolerance + positionRounding)
                << "tracer " << i;
        }
        EXPECT_NEAR(tracers.density[i], found[3], lookupTolerance) << "tracer " << i;
    }
}

TEST(TracerPass, ParallelBlocksGiveTheSameResultForAnyThreadCount) {
    const UniformGrid<FlowAndDensity> grid = wavyGrid();
    auto run = [&](int threads) {
        Tracers tracers = scatteredTracers(grid.shape(), 20001, 11);
        std::vector<vec3> last = scatteredVelocities(tracers.size(), 12);
        tbb::task_arena arena(threads);
        arena.execute([&] { advanceTracersTwoStep(grid, TwoStepWeights{1.5f, -0.5f}, 0.05f, tracers, last); });
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

TEST(TracerPass, RefusesAFlatGrid) {
    GridShape flat;
    flat.points = ivec3(4, 4, 1);
    const UniformGrid<FlowAndDensity> grid(flat);
    Tracers tracers;
    tracers.add(vec3(0.5f));
    std::vector<vec3> last(1);
    EXPECT_THROW(advanceTracersTwoStep(grid, TwoStepWeights{}, 0.1f, tracers, last), std::logic_error);
}

// A matrix field over the same grid (rows of different wavelengths) and the same for vectors.
UniformGrid<mat3> wavyMatrices(const GridShape& shape) {
    UniformGrid<mat3> grid(shape);
    for (size_t k = 0; k < grid.size(); ++k) {
        const float s = 0.37f * float(k);
        grid[k] = mat3(std::sin(s), std::cos(s), std::sin(2.0f * s), std::cos(3.0f * s), std::sin(0.5f * s), 0.25f,
                       std::cos(s + 1.0f), std::sin(s - 2.0f), std::cos(0.7f * s));
    }
    return grid;
}

TEST(GridLookups, MatchTheGridLookupOfVectorsAndMatrices) {
    const GridShape shape = wavyGrid().shape();
    const UniformGrid<mat3> matrices = wavyMatrices(shape);
    UniformGrid<vec3> vectors(shape);
    for (size_t k = 0; k < vectors.size(); ++k) vectors[k] = matrices[k][1];
    // 45 points: five whole blocks of eight and a partial one, some beyond each face.
    const std::vector<vec3> points = scatteredTracers(shape, 45, 21).position;
    std::vector<vec3> v;
    std::vector<mat3> m;
    interpolateAtPoints(vectors, points, v);
    interpolateAtPoints(matrices, points, m);
    ASSERT_EQ(v.size(), points.size());
    ASSERT_EQ(m.size(), points.size());
    // As for the tracers: seven linear interpolations, each at most two roundings (2^-23 of the
    // largest value, here 1) from the lookup's unfused one.
    const float tolerance = 7.0f * 2.0f * std::ldexp(1.0f, -23);
    for (size_t i = 0; i < points.size(); ++i) {
        const vec3 expectedV = vectors.interpolate(points[i]);
        const mat3 expectedM = matrices.interpolate(points[i]);
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(v[i][a], expectedV[a], tolerance) << "point " << i;
            for (int b = 0; b < 3; ++b) EXPECT_NEAR(m[i][a][b], expectedM[a][b], tolerance) << "point " << i;
        }
    }
}

TEST(GridLookups, ParallelBlocksGiveTheSameResultForAnyThreadCount) {
    const GridShape shape = wavyGrid().shape();
    const UniformGrid<mat3> matrices = wavyMatrices(shape);
    const std::vector<vec3> points = scatteredTracers(shape, 10007, 22).position;
    auto run = [&](int threads) {
        std::vector<mat3> m;
        tbb::task_arena arena(threads);
        arena.execute([&] { interpolateAtPoints(matrices, points, m); });
        return m;
    };
    const std::vector<mat3> one = run(1), two = run(2), three = run(3);
    EXPECT_EQ(0, std::memcmp(two.data(), one.data(), one.size() * sizeof(mat3)));
    EXPECT_EQ(0, std::memcmp(three.data(), one.data(), one.size() * sizeof(mat3)));
}

TEST(GridLookups, AFlatGridTakesTheGridLookupPointByPoint) {
    GridShape flat;
    flat.minCorner = vec3(0.0f);
    flat.spacing = vec3(0.5f);
    flat.points = ivec3(5, 4, 1);
    UniformGrid<vec3> grid(flat);
    for (size_t k = 0; k < grid.size(); ++k) grid[k] = vec3(float(k), 0.5f * float(k * k), -float(k));
    const std::vector<vec3> points{vec3(0.3f, 0.7f, 0.0f), vec3(1.9f, 1.2f, 0.4f), vec3(-1.0f, 5.0f, 0.0f)};
    std::vector<vec3> v;
    interpolateAtPoints(grid, points, v);
    for (size_t i = 0; i < points.size(); ++i) EXPECT_EQ(v[i], grid.interpolate(points[i])) << "point " << i;
}

}  // namespace
}  // namespace vfx
