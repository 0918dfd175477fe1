#include "core/cell_partition.hpp"

#include "core/parallel.hpp"

namespace vfx {

void CellPartition::build(const GridShape& shape, const std::vector<vec3>& positions) {
    shape_ = shape;
    cellDims_ = shape.cells();
    const size_t cellCount = shape.cellCount();
    const size_t n = positions.size();
    cellOfParticle_.resize(n);
    parallelForEach(
        0, n, [&](size_t i) { cellOfParticle_[i] = uint32_t(shape_.cellIndex(shape_.cellOf(positions[i]))); }, 4096);
    // Counting sort keeps ascending particle index inside each cell: deterministic order.
    cellStart_.assign(cellCount + 1, 0);
    for (size_t i = 0; i < n; ++i) ++cellStart_[cellOfParticle_[i] + 1];
    for (size_t c = 0; c < cellCount; ++c) cellStart_[c + 1] += cellStart_[c];
    sorted_.resize(n);
    std::vector<uint32_t> cursor(cellStart_.begin(), cellStart_.end() - 1);
    for (size_t i = 0; i < n; ++i) sorted_[cursor[cellOfParticle_[i]]++] = uint32_t(i);
}

}  // namespace vfx
