#include "core/neighbour_search.hpp"

#include <algorithm>
#include <array>
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

void NeighbourSearch::build(const std::vector<vec3>& positions, float radius, Candidates candidates) {
    const size_t n = positions.size();
    radius_ = radius;
    count_ = n;
    // Cells at least `radius` deep in y and z, so a particle's neighbours lie in the 3 x 3 rows of
    // cells around its own, and a quarter of that long in x: a row is one contiguous run of the
    // partition's order whatever its cells, and the shorter cells let candidateRanges() trim each
    // row to the sphere more tightly (a third fewer candidates than cells `radius` long).
    constexpr float kSlicesAlongX = 4.0f;
    const Box box = boundingBox(positions);
    float cell = radius;
    const vec3 extent = box.hi - box.lo;
    auto cellsAlong = [&](float size, float length) {
        return std::max(1, int(std::ceil(size / length * (1.0f + 1e-6f))));
    };
    auto cellCount = [&] {
        return size_t(cellsAlong(extent.x, cell / kSlicesAlongX)) * size_t(cellsAlong(extent.y, cell)) *
               size_t(cellsAlong(extent.z, cell));
    };
    while (cellCount() > maxCellsFor(n)) cell *= 1.5f;
    GridShape shape;
    shape.minCorner = box.lo;
    shape.spacing = vec3(cell / kSlicesAlongX, cell, cell);
    shape.points =
        ivec3(cellsAlong(extent.x, shape.spacing.x), cellsAlong(extent.y, cell), cellsAlong(extent.z, cell)) + ivec3(1);
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
    if (candidates == Candidates::None) {
        ranges_.clear();
        rangeCount_.clear();
        return;
    }
    ranges_.resize(n);
    rangeCount_.resize(n);
    parallelForEach(
        0, n, [&](size_t k) { rangeCount_[k] = uint8_t(candidateRanges(vec3(x_[k], y_[k], z_[k]), ranges_[k])); },
        1024);
}

bool NeighbourSearch::matches(const std::vector<vec3>& positions, float radius) const {
    const size_t n = positions.size();
    if (radius != radius_ || n != count_ || n != order().size() || ranges_.size() != n) return false;
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

// Inline (as appendRow): both run for every row of every particle's stencil.
inline __attribute__((always_inline)) float NeighbourSearch::squaredSlabGap(const vec3& local, int axis, int c) const {
    const float size = partition_.shape().spacing[axis];
    const float below = float(c) * size, above = below + size;
    const float gap = std::max({below - local[axis], local[axis] - above, 0.0f});
    return gap * gap;
}

inline __attribute__((always_inline)) void NeighbourSearch::appendRow(const vec3& local, int y, int z, float rest,
                                                                      uint32_t from, lanes::Ranges& ranges,
                                                                      int& count) const {
    if (rest < 0.0f) return;  // this row of cells is out of reach
    // Cells along x are consecutive in the counting sort: the cells of the row the sphere
    // touches are one contiguous range of particles.
    const int cellsX = partition_.cells().x;
    const float length = partition_.shape().spacing.x;
    const float halfWidth = std::sqrt(rest);
    const int x0 = std::clamp(int(std::floor((local.x - halfWidth) / length)), 0, cellsX - 1);
    const int x1 = std::clamp(int(std::floor((local.x + halfWidth) / length)), 0, cellsX - 1);
    const size_t row = partition_.cellIndex(ivec3(0, y, z));
    const uint32_t b = std::max(partition_.begin(row + size_t(x0)), from);
    const uint32_t e = partition_.end(row + size_t(x1));
    if (e > b) {
        ranges[size_t(count)][0] = b;
        ranges[size_t(count)][1] = e;
        ++count;
    }
}

int NeighbourSearch::forwardRanges(size_t k, lanes::Ranges& ranges) const {
    const ivec3 dims = partition_.cells();
    const vec3 p(x_[k], y_[k], z_[k]);
    const vec3 local = p - partition_.shape().minCorner;
    const ivec3 home = partition_.shape().cellOf(p);
    const float reach2 = reach() * reach();
    int count = 0;
    appendRow(local, home.y, home.z, reach2, uint32_t(k + 1), ranges, count);  // the rest of k's row
    if (home.y + 1 < dims.y)
        appendRow(local, home.y + 1, home.z, reach2 - squaredSlabGap(local, 1, home.y + 1), 0, ranges, count);
    if (home.z + 1 < dims.z) {
        const float restZ = reach2 - squaredSlabGap(local, 2, home.z + 1);
        for (int y = std::max(home.y - 1, 0); y <= std::min(home.y + 1, dims.y - 1); ++y)
            appendRow(local, y, home.z + 1, restZ - squaredSlabGap(local, 1, y), 0, ranges, count);
    }
    return count;
}

int NeighbourSearch::candidateRanges(const vec3& p, lanes::Ranges& ranges) const {
    const ivec3 dims = partition_.cells();
    const vec3 local = p - partition_.shape().minCorner;
    const ivec3 home = partition_.shape().cellOf(p);
    const int loY = std::max(home.y - 1, 0), hiY = std::min(home.y + 1, dims.y - 1);
    const int loZ = std::max(home.z - 1, 0), hiZ = std::min(home.z + 1, dims.z - 1);
    // The gap of each neighbouring layer along y, found once and shared by the rows.
    std::array<float, 3> gapY2{};
    for (int y = loY; y <= hiY; ++y) gapY2[size_t(y - home.y + 1)] = squaredSlabGap(local, 1, y);
    const float reach2 = reach() * reach();
    int count = 0;
    for (int z = loZ; z <= hiZ; ++z) {
        const float restZ = reach2 - squaredSlabGap(local, 2, z);
        for (int y = loY; y <= hiY; ++y)
            appendRow(local, y, z, restZ - gapY2[size_t(y - home.y + 1)], 0, ranges, count);
    }
    return count;
}

}  // namespace vfx
