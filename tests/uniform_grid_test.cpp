// The uniform grid (core/uniform_grid.hpp): fitBox encloses a box with about the asked-for number
// of cubic cells, fitBoxAtMost gives the finest grid within a cap, and trilinear interpolation
// reproduces linear fields exactly.
#include "core/uniform_grid.hpp"

#include <gtest/gtest.h>

#include <random>

namespace vfx {
namespace {

struct Box {
    vec3 lo, hi;
};

// A box somewhere in [-5, 5]^3 with sides from `smallest` to 4 m.
Box randomBox(std::mt19937& rng, float smallest) {
    std::uniform_real_distribution<float> coord(-5.0f, 5.0f), size(smallest, 4.0f);
    const vec3 lo(coord(rng), coord(rng), coord(rng));
    return {lo, lo + vec3(size(rng), size(rng), size(rng))};
}

void expectEncloses(const GridShape& s, const vec3& lo, const vec3& hi, int k) {
    EXPECT_TRUE(s.encloses(lo)) << k;
    EXPECT_TRUE(s.encloses(hi)) << k;
    EXPECT_TRUE(s.encloses(0.5f * (lo + hi))) << k;
}

TEST(UniformGrid, FitBoxEnclosesBoxWithAboutTargetCells) {
    std::mt19937 rng(11);
    for (int k = 0; k < 200; ++k) {
        const auto [lo, hi] = randomBox(rng, 0.01f);
        const size_t target = 64 + size_t(k) * 97;
        const GridShape s = GridShape::fitBox(lo, hi, target, 1e-4f);
        expectEncloses(s, lo, hi, k);
        for (int a = 0; a < 3; ++a) EXPECT_GE(s.points[a], 2) << k;
        // Cubic cells of the volume's share: the count is near the target (ceil per axis adds
        // at most one layer per axis, a thin axis is at least one cell).
        EXPECT_GE(double(s.cellCount()), 0.9 * double(target)) << k;
        EXPECT_LE(double(s.cellCount()), 8.0 * double(target) + 64.0) << k;
        EXPECT_FLOAT_EQ(s.spacing.x, s.spacing.y);
        EXPECT_FLOAT_EQ(s.spacing.x, s.spacing.z);
    }
}

// fitBoxAtMost never exceeds its cap, however thin the box or small the cap, and it gives up no
// more than it must: a grid 1% finer would not fit (the count only grows as the spacing shrinks,
// so this holds whichever refit found it), unless the first fit already did.
TEST(UniformGrid, FitBoxAtMostIsTheFinestGridWithinItsCap) {
    std::mt19937 rng(12);
    for (int k = 0; k < 300; ++k) {
        const auto [lo, hi] = randomBox(rng, 0.01f);
        const size_t cap = 1 + size_t(k) * size_t(k) / 3;
        const GridShape s = GridShape::fitBoxAtMost(lo, hi, cap, 1e-4f);
        expectEncloses(s, lo, hi, k);
        EXPECT_LE(s.cellCount(), cap) << k;
        const GridShape first = GridShape::fitBox(lo, hi, cap, 1e-4f);
        if (s.spacing.x > first.spacing.x) {
            const GridShape finer = GridShape::fitBoxWithSpacing(lo, hi, s.spacing.x / 1.0101f, 1e-4f);
            EXPECT_GT(finer.cellCount(), cap) << k;
        }
    }
}

// Trilinear interpolation reproduces any linear field exactly (tolerance: float round-off,
// 1e-5 of the field's scale), anywhere inside the grid, for scalars and vectors.
TEST(UniformGrid, TrilinearInterpolationOfLinearFieldIsExact) {
    GridShape s;
    s.minCorner = vec3(-1.0f, 0.5f, 2.0f);
    s.spacing = vec3(0.1f, 0.2f, 0.15f);
    s.points = ivec3(11, 7, 9);
    const vec3 b(1.5f, -2.0f, 0.75f);
    const float a = 0.3f;
    auto scalar = [&](const vec3& p) { return a + glm::dot(b, p); };
    auto vector = [&](const vec3& p) { return vec3(scalar(p), 2.0f * p.y - p.z, -p.x + 3.0f); };
    UniformGrid<float> f(s);
    UniformGrid<vec3> g(s);
    for (int z = 0; z < s.points.z; ++z)
        for (int y = 0; y < s.points.y; ++y)
            for (int x = 0; x < s.points.x; ++x) {
                f.at(x, y, z) = scalar(s.pointPosition(x, y, z));
                g.at(x, y, z) = vector(s.pointPosition(x, y, z));
            }
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (int k = 0; k < 1000; ++k) {
        const vec3 p = s.minCorner + vec3(unit(rng), unit(rng), unit(rng)) * s.extent();
        EXPECT_NEAR(f.interpolate(p), scalar(p), 1e-5f * 8.0f);
        const vec3 want = vector(p), got = g.interpolate(p);
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[c], want[c], 1e-5f * 8.0f);
    }
    // Weights are a partition of unity even at points outside the grid (clamped).
    const TrilinearStencil st = trilinearStencil(s, vec3(5.0f, -3.0f, 2.3f));
    float sum = 0.0f;
    for (int k = 0; k < st.count; ++k) sum += st.weight[k];
    EXPECT_EQ(st.count, 8);
    EXPECT_NEAR(sum, 1.0f, 1e-6f);
}

}  // namespace
}  // namespace vfx
