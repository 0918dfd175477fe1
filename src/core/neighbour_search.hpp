#pragma once
// Fixed-radius neighbour sums over particles (SPH, PSE diffusion).
//
// NeighbourSearch sorts particles into cells at least `radius` deep in y and z and a quarter of
// that long in x (a counting sort, so the order is deterministic), keeps their positions by
// component in that order, and finds each particle's candidate neighbours once per build: in
// each of the 3 x 3 rows of cells around its own that the sphere of the radius reaches, the
// cells the sphere spans, one contiguous range of that order (cells along x are consecutive).
// Every pass of a step then reuses them.
//
// Sums over candidates run kLanes consecutive candidates at a time in one SIMD vector
// (core/simd_lanes.hpp) and add the lanes in lane order. Terms have no branches: a
// candidate beyond the radius must contribute an exact zero (e.g. through max(r0^2 - r^2, 0)),
// and lanes past the end of a range are masked. The order of every addition is fixed by the
// partition alone, so results are bitwise the same for any number of threads. Arrays read this
// way are in partition order and padded with kLanes zeros (see lanes::padded).
#include "core/cell_partition.hpp"
#include "core/parallel.hpp"
#include "core/simd_lanes.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace vfx {

// parallelForEach whose body is compiled exactly once: each chunk of items runs through one
// out-of-line loop. Inlined into several of TBB's call sites, each copy of a body could be
// optimised differently; which copy runs an item depends on the thread count. (The loop's own
// vector body and scalar remainder do the same IEEE operations: the project builds with
// -ffp-contract=off, so neither fuses multiply-adds the other does not.)
template <typename Body>
[[gnu::noinline]] void runItemsOutOfLine(const Body& body, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) body(i);
}

template <typename Body>
void parallelForEachStable(size_t begin, size_t end, const Body& body, size_t grain = 256) {
    parallelForRange(
        begin, end, [&](size_t b, size_t e) { runItemsOutOfLine(body, b, e); }, grain);
}

class NeighbourSearch {
public:
    // Sorts the positions into cells and, unless told not to, finds every particle's candidates
    // within radius (forEachParticle reads them; forEachRowColoured does not need them).
    enum class Candidates { Stored, None };
    void build(const std::vector<vec3>& positions, float radius, Candidates candidates = Candidates::Stored);
    // True if the last build() saw exactly these positions and this radius.
    bool matches(const std::vector<vec3>& positions, float radius) const;

    size_t size() const { return count_; }
    float radius() const { return radius_; }
    const CellPartition& partition() const { return partition_; }
    // Particle index of each position in partition order.
    const std::vector<uint32_t>& order() const { return partition_.sortedIndices(); }
    // Positions by component in partition order (padded).
    const float* x() const { return x_.data(); }
    const float* y() const { return y_.data(); }
    const float* z() const { return z_.data(); }

    // Candidates of an arbitrary point (e.g. a grid point); returns the number of ranges.
    int candidateRanges(const vec3& p, lanes::Ranges& ranges) const;

    // Runs body(k, ranges, rangeCount) for every particle k (partition order) in parallel with
    // its candidates. body must write only particle k's outputs.
    template <typename Body>
    void forEachParticle(Body&& body) const {
        if (ranges_.size() != count_)
            throw std::logic_error("NeighbourSearch::forEachParticle after a build without stored candidates");
        constexpr size_t kChunk = 64;  // consecutive in partition order, so spatially close
        const size_t n = count_;
        parallelForEachStable(
            0, (n + kChunk - 1) / kChunk,
            [&](size_t c) {
                const size_t end = std::min(n, (c + 1) * kChunk);
                for (size_t k = c * kChunk; k < end; ++k) body(k, ranges_[k], int(rangeCount_[k]));
            },
            1);
    }

    // The half of particle k's candidates a symmetric pair sum visits from k: in k's own row the
    // particles after k, and the rows (y + 1, z) and (y - 1 .. y + 1, z + 1). Every pair within
    // the radius is then met exactly once, from its first particle. Returns the number of ranges.
    int forwardRanges(size_t k, lanes::Ranges& ranges) const;

    // Runs body(begin, end) for each row of cells (y, z), the particles [begin, end) in partition
    // order, in six passes, rows (y mod 3, z mod 2) at a time, rows of a pass in parallel. A row's
    // forward pairs write rows y and y + 1 at z and y - 1 .. y + 1 at z + 1; rows of one pass are
    // at least 3 apart in y (same z) or 2 apart in z, so they never write the same particles. A
    // pair sum over forwardRanges may then write to both particles of a pair without races, and
    // each particle receives its terms in an order fixed by the partition alone.
    template <typename Body>
    void forEachRowColoured(Body&& body) const {
        const ivec3 cells = partition_.cells();
        struct Row {
            uint32_t begin, end;
        };
        std::vector<Row> rows;
        for (int colour = 0; colour < 6; ++colour) {
            rows.clear();
            for (int z = colour / 3; z < cells.z; z += 2)
                for (int y = colour % 3; y < cells.y; y += 3) {
                    const uint32_t b = partition_.begin(partition_.cellIndex(ivec3(0, y, z)));
                    const uint32_t e = partition_.end(partition_.cellIndex(ivec3(cells.x - 1, y, z)));
                    if (e > b) rows.push_back(Row{b, e});
                }
            // Longest rows first, so the pass does not wait on a long row started last. (The
            // order rows run in changes no result: rows of a pass write different vortons.)
            std::stable_sort(rows.begin(), rows.end(),
                             [](const Row& a, const Row& b) { return a.end - a.begin > b.end - b.begin; });
            parallelForEachStable(
                0, rows.size(), [&](size_t r) { body(size_t(rows[r].begin), size_t(rows[r].end)); }, 1);
        }
    }

    // value(i) of every particle i gathered into partition order (padded).
    template <typename Value>
    std::vector<float> sorted(Value&& value) const {
        std::vector<float> out = lanes::padded(count_);
        const std::vector<uint32_t>& o = order();
        parallelForEachStable(
            0, count_, [&](size_t k) { out[k] = value(o[k]); }, 4096);
        return out;
    }

private:
    // A hair over the radius: a particle whose cell was decided by rounding at a face is not lost.
    float reach() const { return radius_ * (1.0f + 1e-5f); }
    // Squared distance from a point (`local`, relative to the corner) to the slab of cell c along
    // axis (zero inside it).
    float squaredSlabGap(const vec3& local, int axis, int c) const;
    // Appends to ranges the particles of row (y, z) in the cells the sphere spans there, `rest`
    // being reach^2 less the row's squared gap in y and z, from partition index `from` on.
    void appendRow(const vec3& local, int y, int z, float rest, uint32_t from, lanes::Ranges& ranges, int& count) const;

    CellPartition partition_;
    float radius_ = 0.0f;
    size_t count_ = 0;
    std::vector<float> x_, y_, z_;
    std::vector<lanes::Ranges> ranges_;
    std::vector<uint8_t> rangeCount_;
};

}  // namespace vfx
