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

int NeighbourSearch::forwardRanges(size_t k, lanes::Ranges& ranges) const {
    const GridShape& shape = partition_.shape();
    const ivec3 dims = partition_.cells();
    const vec3 cell = shape.spacing;
    const float reach = radius_ * (1.0f + 1e-5f);
    const vec3 p(x_[k], y_[k], z_[k]);
    const vec3 local = p - shape.minCorner;
    const ivec3 home = shape.cellOf(p);
    const float reach2 = reach * reach;
    auto squaredGap = [&](int axis, int c) {
        const float below = float(c) * cell[axis], above = below + cell[axis];
        const float gap = std::max({below - local[axis], local[axis] - above, 0.0f});
        return gap * gap;
    };
    int count = 0;
    // The row's cells the sphere spans, from `from` on (the home row starts after k).
    auto addRow = [&](int y, int z, float rest, size_t from) {
        if (rest < 0.0f) return;
        const float halfWidth = std::sqrt(rest);
        const int x0 = std::clamp(int(std::floor((local.x - halfWidth) / cell.x)), 0, dims.x - 1);
        const int x1 = std::clamp(int(std::floor((local.x + halfWidth) / cell.x)), 0, dims.x - 1);
        const size_t row = partition_.cellIndex(ivec3(0, y, z));
        const uint32_t b = std::max(partition_.begin(row + size_t(x0)), uint32_t(from));
        const uint32_t e = partition_.end(row + size_t(x1));
        if (e > b) {
            ranges[size_t(count)][0] = b;
            ranges[size_t(count)][1] = e;
            ++count;
        }
    };
    addRow(home.y, home.z, reach2, k + 1);
    if (home.y + 1 < dims.y) addRow(home.y + 1, home.z, reach2 - squaredGap(1, home.y + 1), 0);
    if (home.z + 1 < dims.z) {
        const float restZ = reach2 - squaredGap(2, home.z + 1);
        for (int y = std::max(home.y - 1, 0); y <= std::min(home.y + 1, dims.y - 1); ++y)
            addRow(y, home.z + 1, restZ - squaredGap(1, y), 0);
    }
    return count;
}

int NeighbourSearch::candidateRanges(const vec3& p, lanes::Ranges& ranges) const {
    const GridShape& shape = partition_.shape();
    const ivec3 dims = partition_.cells();
    const vec3 cell = shape.spacing;
    // A hair over the radius: a particle whose cell was decided by rounding at a face is not lost.
    const float reach = radius_ * (1.0f + 1e-5f);
    const vec3 local = p - shape.minCorner;
    const ivec3 home = shape.cellOf(p);
    const int loY = std::max(home.y - 1, 0), hiY = std::min(home.y + 1, dims.y - 1);
    const int loZ = std::max(home.z - 1, 0), hiZ = std::min(home.z + 1, dims.z - 1);
    // Squared distance from the point to the slab of each neighbouring layer of cells along y or
    // z (the home layer's is zero), found once and shared by the rows.
    auto squaredGaps = [&](int axis, int lo, int hi) {
        std::array<float, 3> gap2{};
        for (int c = lo; c <= hi; ++c) {
            const float below = float(c) * cell[axis], above = below + cell[axis];
            const float gap = std::max({below - local[axis], local[axis] - above, 0.0f});
            gap2[size_t(c - home[axis] + 1)] = gap * gap;
        }
        return gap2;
    };
    const std::array<float, 3> gy2 = squaredGaps(1, loY, hiY), gz2 = squaredGaps(2, loZ, hiZ);
    const float reach2 = reach * reach;
    int count = 0;
    for (int z = loZ; z <= hiZ; ++z) {
        const float restZ = reach2 - gz2[size_t(z - home.z + 1)];
        for (int y = loY; y <= hiY; ++y) {
            const float rest = restZ - gy2[size_t(y - home.y + 1)];
            if (rest < 0.0f) continue;  // this row of cells is out of reach
            // Cells along x are consecutive in the counting sort: the cells of the row the
            // sphere touches are one contiguous range of particles.
            const float halfWidth = std::sqrt(rest);
            const int x0 = std::clamp(int(std::floor((local.x - halfWidth) / cell.x)), 0, dims.x - 1);
            const int x1 = std::clamp(int(std::floor((local.x + halfWidth) / cell.x)), 0, dims.x - 1);
            const size_t row = partition_.cellIndex(ivec3(0, y, z));
            const uint32_t b = partition_.begin(row + size_t(x0));
            const uint32_t e = partition_.end(row + size_t(x1));
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
