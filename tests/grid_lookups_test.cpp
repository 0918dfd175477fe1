// The vortons' grid lookups (sim/grid_lookups.hpp), eight points' stencils at once in SIMD lanes:
// against the grid's own trilinear lookup of vectors and matrices, the same bits for any thread
// count, a flat grid taking the grid's lookup point by point, and the lookup of marked blocks only.
#include "core/uniform_grid.hpp"
#include "lookup_fixtures.hpp"
#include "sim/grid_lookups.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace vfx {
namespace {

using test::scatteredTracers;
using test::wavyGrid;

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

// A vector field over it: the matrices' middle columns.
UniformGrid<vec3> wavyVectors(const UniformGrid<mat3>& matrices) {
    UniformGrid<vec3> vectors(matrices.shape());
    for (size_t k = 0; k < vectors.size(); ++k) vectors[k] = matrices[k][1];
    return vectors;
}

TEST(GridLookups, MatchTheGridLookupOfVectorsAndMatrices) {
    const GridShape shape = wavyGrid().shape();
    const UniformGrid<mat3> matrices = wavyMatrices(shape);
    const UniformGrid<vec3> vectors = wavyVectors(matrices);
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

// Points far past a face read the face's nearest point, and a non-finite coordinate never leads
// outside the grid: +inf reads the last point along its axis, -inf and NaN the first.
TEST(GridLookups, FarAndNonFinitePointsReadAPointOfTheGrid) {
    const GridShape shape = wavyGrid().shape();
    const UniformGrid<vec3> grid = wavyVectors(wavyMatrices(shape));
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const vec3 lo = shape.minCorner,
               hi = shape.pointPosition(shape.points.x - 1, shape.points.y - 1, shape.points.z - 1);
    const std::vector<vec3> points{
        vec3(-1e30f), vec3(1e30f), vec3(-inf), vec3(inf), vec3(nan), vec3(nan, inf, -inf), vec3(1e30f, nan, lo.z), hi};
    const ivec3 last = shape.points - ivec3(1);
    const std::vector<ivec3> expectedPoint{
        ivec3(0), last, ivec3(0), last, ivec3(0), ivec3(0, last.y, 0), ivec3(last.x, 0, 0), last};
    std::vector<vec3> v;
    interpolateAtPoints(grid, points, v);
    // A fraction of 1 takes a + (b - a) 1, a rounding or two from b on each of the seven lerps.
    const float tolerance = 7.0f * 2.0f * std::ldexp(1.0f, -23);
    for (size_t i = 0; i < points.size(); ++i) {
        const ivec3 p = expectedPoint[i];
        const vec3 expected = grid[shape.index(p.x, p.y, p.z)];
        for (int a = 0; a < 3; ++a) EXPECT_NEAR(v[i][a], expected[a], tolerance) << "point " << i;
    }
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

// Only the blocks of eight holding a marked point are read, to the same bits as the full lookup;
// every point of the other blocks reads zero (here blocks 0 and 2 of 2.5 are marked, by their
// last and first point).
TEST(GridLookups, MarkedBlocksReadAsTheFullLookupAndTheRestReadZero) {
    const GridShape shape = wavyGrid().shape();
    const UniformGrid<vec3> grid = wavyVectors(wavyMatrices(shape));
    const std::vector<vec3> points = scatteredTracers(shape, 20, 23).position;
    std::vector<uint8_t> marked(points.size(), 0);
    marked[7] = marked[16] = 1;
    std::vector<vec3> all, some;
    interpolateAtPoints(grid, points, all);
    interpolateAtMarkedBlocks(grid, points, marked, some);
    ASSERT_EQ(some.size(), points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        const bool read = i < 8 || i >= 16;
        const vec3 expected = read ? all[i] : vec3(0.0f);
        EXPECT_EQ(0, std::memcmp(&some[i], &expected, sizeof(vec3))) << "point " << i;
    }
    EXPECT_NE(all[8], vec3(0.0f));  // the unread block's points would read something
}

}  // namespace
}  // namespace vfx
