#include "core/neighbour_search.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

// Largest number of partition cells: bounds memory when a stray particle stretches the box.
size_t maxCellsFor(size_t particles) { return std::max<size_t>(4096, 8 * particles); }

struct Box {
    vec3 lo, hi;
};

Box boundingBox(const std::vector<vec3>& positions) {
    if (positions.empty()) return Box{vec3(0.0f), vec3(0.0f)};
    const Box empty{vec3(1e30f), vec3(-1e30f)};
    return deterministicReduce<Box>(
        positions.size(), empty,
        [&](size_t b, size_t e) {
            Box r = empty;
            for (size_t i = b; i < e; ++i) {
                r.lo = glm::min(r.lo, positions[i]);
                r.hi = glm::max(r.hi, positions[i]);
            }
            return r;
        },
        [](Box a, const Box& c) {
            return Box{glm::min(a.lo, c.lo), glm::max(a.hi, c.hi)};
        });
}

}  // namespace

void NeighbourSearch::build(const std::vector<vec3>& positions, float radius) {
    const size_t n = positions.size();
    radius_ = radius;
    count_ = n;
    // Cells at least `radius` wide, so the neighbours of a particle lie in the 3x3x3 block
    // around its cell; candidateRanges() skips the rows of that block the sphere misses.
    const Box box = boundingBox(positions);
    float cell = radius;
    const vec3 extent = box.hi - box.lo;
    auto cellsAlong = [&](float size) { return std::max(1, int(std::ceil(size / cell * (1.0f + 1e-6f)))); };
    while (size_t(cellsAlong(extent.x)) * size_t(cellsAlong(extent.y)) * size_t(cellsAlong(extent.z)) > maxCellsFor(n))
        cell *= 1.5f;
    GridShape shape;
    shape.minCorner = box.lo;
    shape.spacing = vec3(cell);
    shape.points = ivec3(cellsAlong(extent.x), cellsAlong(extent.y), cellsAlong(extent.z)) + ivec3(1);
    partition_.build(shape, positions);
    // Positions by component in partition order: neighbour loops read them contiguously.
    const std::vector<uint32_t>& o = order();
    x_ = lanes::padded(n);
    y_ = lanes::padded(n);
    z_ = lanes::padded(n);
    parallelForEach(
        0, n,
        [&](size_t k) {
            const vec3& p = positions[o[k]];
            x_[k] = p.x;
            y_[k] = p.y;
            z_[k] = p.z;
        },
        4096);
    ranges_.resize(n);
    rangeCount_.resize(n);
    parallelForEach(
        0, n, [&](size_t k) { rangeCount_[k] = uint8_t(candidateRanges(vec3(x_[k], y_[k], z_[k]), ranges_[k])); },
        1024);
}

bool NeighbourSearch::matches(const std::vector<vec3>& positions, float radius) const {
    const size_t n = positions.size();
    if (radius != radius_ || n != count_ || n != order().size()) return false;
    const std::vector<uint32_t>& o = order();
    return deterministicReduce<bool>(
        n, true,
        [&](size_t b, size_t e) {
            for (size_t k = b; k < e; ++k)
                if (positions[o[k]] != vec3(x_[k], y_[k], z_[k])) return false;
            return true;
        },
        [](bool a, bool c) { return a && c; }, 4096);
}

int NeighbourSearch::candidateRanges(const vec3& p, lanes::Ranges& ranges) const {
    const GridShape& shape = partition_.shape();
    const ivec3 dims = partition_.cells();
    const float c = shape.spacing.x;
    // A hair over the radius: a particle whose cell was decided by rounding at a face is not lost.
    const float reach = radius_ * (1.0f + 1e-5f);
    const vec3 local = p - shape.minCorner;
    const ivec3 home = shape.cellOf(p);
    auto gapTo = [&](float coordinate, int cell) {  // distance from a coordinate to a cell's slab
        const float lo = float(cell) * c, hi = lo + c;
        return std::max({lo - coordinate, coordinate - hi, 0.0f});
    };
    int count = 0;
    for (int z = std::max(home.z - 1, 0); z <= std::min(home.z + 1, dims.z - 1); ++z) {
        const float gz = gapTo(local.z, z);
        for (int y = std::max(home.y - 1, 0); y <= std::min(home.y + 1, dims.y - 1); ++y) {
            const float gy = gapTo(local.y, y);
            const float rest = reach * reach - gy * gy - gz * gz;
            if (rest < 0.0f) continue;  // this row of cells is out of reach
            // Cells along x are consecutive in the counting sort: the cells of the row the
            // sphere touches are one contiguous range of particles.
            const float halfWidth = std::sqrt(rest);
            const int x0 = std::clamp(int(std::floor((local.x - halfWidth) / c)), 0, dims.x - 1);
            const int x1 = std::clamp(int(std::floor((local.x + halfWidth) / c)), 0, dims.x - 1);
            const uint32_t b = partition_.begin(partition_.cellIndex(ivec3(x0, y, z)));
            const uint32_t e = partition_.end(partition_.cellIndex(ivec3(x1, y, z)));
            if (e > b) {
                ranges[size_t(count)][0] = b;
                ranges[size_t(count)][1] = e;
                ++count;
            }
        }
    }
    return count;
}

}  // namespace vfx
