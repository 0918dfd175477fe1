// The cell partition (core/cell_partition.hpp): every particle listed once, in its own cell, in
// ascending order within the cell.
#include "core/cell_partition.hpp"
#include "core/uniform_grid.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace vfx {
namespace {

// Every particle is listed exactly once, in the cell its position falls in, and indices within
// a cell ascend (the counting sort's determinism guarantee).
TEST(CellPartition, ContainsEveryParticleOnceAscendingPerCell) {
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> coord(-1.0f, 1.0f);
    std::vector<vec3> positions(5000);
    for (vec3& p : positions) p = vec3(coord(rng), 0.5f * coord(rng), coord(rng));
    positions.push_back(vec3(3.0f, 0.0f, 0.0f));  // outside the grid: clamped into an edge cell
    const GridShape shape = GridShape::fitBox(vec3(-1.0f, -0.5f, -1.0f), vec3(1.0f, 0.5f, 1.0f), 500, 1e-4f);
    CellPartition part;
    part.build(shape, positions);
    ASSERT_EQ(part.cellCount(), shape.cellCount());
    std::vector<int> seen(positions.size(), 0);
    const ivec3 cells = part.cells();
    for (int z = 0; z < cells.z; ++z)
        for (int y = 0; y < cells.y; ++y)
            for (int x = 0; x < cells.x; ++x) {
                const ivec3 c(x, y, z);
                const size_t cell = part.cellIndex(c);
                for (uint32_t k = part.begin(cell); k < part.end(cell); ++k) {
                    const uint32_t i = part.sortedIndices()[k];
                    ++seen[i];
                    if (k > part.begin(cell)) {
                        EXPECT_LT(part.sortedIndices()[k - 1], i);
                    }
                    EXPECT_EQ(shape.cellOf(positions[i]), c);
                    EXPECT_EQ(part.cellOfParticle()[i], cell);
                    if (shape.encloses(positions[i])) {
                        const vec3 lo = shape.pointPosition(x, y, z), hi = lo + shape.spacing;
                        for (int a = 0; a < 3; ++a) {
                            EXPECT_GE(positions[i][a], lo[a] - 1e-5f);
                            EXPECT_LE(positions[i][a], hi[a] + 1e-5f);
                        }
                    }
                }
            }
    for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << "particle " << i;
}

}  // namespace
}  // namespace vfx
