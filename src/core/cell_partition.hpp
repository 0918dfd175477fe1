#pragma once
// Spatial partition of particles into the cells of a uniform grid, built with a counting
// sort so the order of particles inside a cell is always ascending index (deterministic).
// Used by PSE diffusion, SPH neighbour visits and partitioned poisoning.
#include "core/uniform_grid.hpp"

#include <cstdint>
#include <vector>

namespace vfx {

class CellPartition {
public:
    // Cells are those of `shape` (points - 1 per axis, at least 1).
    void build(const GridShape& shape, const std::vector<vec3>& positions);

    const GridShape& shape() const { return shape_; }
    ivec3 cells() const { return cellDims_; }
    size_t cellCount() const { return cellStart_.empty() ? 0 : cellStart_.size() - 1; }
    size_t cellIndex(ivec3 c) const { return shape_.cellIndex(c); }
    // Particles in cell c are sorted_[begin(c)] .. sorted_[end(c) - 1].
    uint32_t begin(size_t cell) const { return cellStart_[cell]; }
    uint32_t end(size_t cell) const { return cellStart_[cell + 1]; }
    const std::vector<uint32_t>& sortedIndices() const { return sorted_; }
    const std::vector<uint32_t>& cellOfParticle() const { return cellOfParticle_; }

    // Visits every particle index in the 3x3x3 block of cells around cell c (clamped).
    template <typename Visit>
    void forEachNeighbour(ivec3 c, Visit&& visit) const {
        ivec3 lo = glm::max(c - ivec3(1), ivec3(0));
        ivec3 hi = glm::min(c + ivec3(1), cellDims_ - ivec3(1));
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x) {
                    size_t cell = shape_.cellIndex(ivec3(x, y, z));
                    for (uint32_t k = cellStart_[cell]; k < cellStart_[cell + 1]; ++k) visit(sorted_[k]);
                }
    }

private:
    GridShape shape_;
    ivec3 cellDims_{1};
    std::vector<uint32_t> cellStart_;
    std::vector<uint32_t> sorted_;
    std::vector<uint32_t> cellOfParticle_;
};

}  // namespace vfx
