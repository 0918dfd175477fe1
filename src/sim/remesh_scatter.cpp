// The deposit's scatter: every vorton's M4' shares of strength, mass and volume onto the lattice
// nodes of its footprint, one lattice plane per task, so no two tasks write the same node and the
// order of every sum is fixed by the vortons' indices, whatever the thread count.
#include "sim/remesh.hpp"
#include "sim/remesh_lattice.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace vfx {

using remesh_lattice::nodeIndex;

// Vortons bucketed by the first lattice plane (z) of their footprint, in index order, so each
// plane gathers its contributions alone: no two tasks write the same node, and the order of the
// sums does not depend on the threads.
void Remesher::bucketByPlane(const std::vector<Footprint>& footprint) {
    const size_t n = footprint.size();
    const int planes = lattice_.dims.z;
    planeStart_.assign(size_t(planes) + 1, 0);
    for (size_t i = 0; i < n; ++i) ++planeStart_[size_t(footprint[i].first.z) + 1];
    for (int p = 0; p < planes; ++p) planeStart_[size_t(p) + 1] += planeStart_[size_t(p)];
    byPlane_.resize(n);
    std::vector<uint32_t> fill(planeStart_.begin(), planeStart_.end() - 1);
    for (size_t i = 0; i < n; ++i) byPlane_[fill[size_t(footprint[i].first.z)]++] = uint32_t(i);
}

// Room for `count` nodes on pages already touched: a box past the last one's size would otherwise
// copy the nodes over and fault in fresh pages (3 times the scatter's own time for the 2,176-vorton
// drop's box growing from 17,000 to 21,000 nodes).
void Remesher::reserveNodes(size_t count) {
    if (nodes_.capacity() >= count) return;
    std::vector<Node> room(count);
    room.clear();
    nodes_.swap(room);
}

// Each lattice plane sums the M4' shares of strength, mass and volume it receives, one plane per
// task; near walls a vorton's shares go to fluid nodes only, rescaled (cutScale_).
void Remesher::scatterToNodes(const Vortons& v, const std::vector<Footprint>& footprint, bool walls) {
    const Lattice& lattice = lattice_;
    const int planes = lattice.dims.z;
    const size_t nodeCount = size_t(lattice.dims.x) * size_t(lattice.dims.y) * size_t(planes);
    // The plane-wise sums in lanes need whole 4-node rows (no flat x axis) and no walls.
    const bool inLanes = !walls && !lattice.flat.x;
    if (nodes_.capacity() < nodeCount) reserveNodes(2 * nodeCount);
    if (inLanes)
        nodes_.resize(nodeCount);  // every plane writes all its nodes
    else
        nodes_.assign(nodeCount, Node{});
    rowFirst_.assign(size_t(lattice.dims.y) * size_t(planes), std::numeric_limits<int>::max());
    rowLast_.assign(rowFirst_.size(), -1);
    parallelForEach(
        0, size_t(planes),
        [&](size_t plane) {
            if (inLanes)
                scatterToPlaneInLanes(v, footprint, plane);
            else if (walls)
                scatterToPlane<true>(v, footprint, plane);
            else
                scatterToPlane<false>(v, footprint, plane);
        },
        1);
}

namespace {

// Four consecutive nodes of a lattice row: a vorton's footprint along x.
using Quad = float __attribute__((vector_size(4 * sizeof(float))));

Quad loadQuad(const float* p) {
    Quad q;
    std::memcpy(&q, p, sizeof q);
    return q;
}

void storeQuad(float* p, Quad q) { std::memcpy(p, &q, sizeof q); }

// One plane's sums, a row of floats per quantity, so a footprint's four nodes along x are summed
// as one vector: the same products and sums per node as one node at a time, bit for bit.
struct PlaneSums {
    size_t size;
    std::vector<float> values;  // strength x, y, z, mass, volume, lowest, highest
    explicit PlaneSums(size_t nodes) : size(nodes), values(7 * nodes, 0.0f) {
        std::fill(values.begin() + ptrdiff_t(5 * nodes), values.begin() + ptrdiff_t(6 * nodes),
                  std::numeric_limits<float>::infinity());
        std::fill(values.begin() + ptrdiff_t(6 * nodes), values.end(), -std::numeric_limits<float>::infinity());
    }
    float* row(int quantity, size_t node) { return values.data() + size_t(quantity) * size + node; }
};

}  // namespace

// The shares plane `plane` receives, as scatterToPlane<false> sums them (the same products in the
// same vorton order), four nodes along x at a time; then the plane's nodes are written whole.
void Remesher::scatterToPlaneInLanes(const Vortons& v, const std::vector<Footprint>& footprint, size_t plane) {
    const Lattice& lattice = lattice_;
    const size_t nx = size_t(lattice.dims.x), ny = size_t(lattice.dims.y);
    const int ty = lattice.flat.y ? 1 : 4, tz = lattice.flat.z ? 1 : 4;
    PlaneSums sums(nx * ny);
    const Quad zero{0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k < tz && int(plane) - k >= 0; ++k) {
        const size_t first = plane - size_t(k);
        for (uint32_t s = planeStart_[first]; s < planeStart_[first + 1]; ++s) {
            const uint32_t i = byPlane_[s];
            const Footprint& f = footprint[i];
            const float volume = v.volume(i);
            const float share[5] = {v.vorticity[i].x * volume, v.vorticity[i].y * volume, v.vorticity[i].z * volume,
                                    v.density[i] * volume, volume};
            const Quad density = zero + v.density[i];
            const Quad alongX = loadQuad(f.weight[0]);
            for (int dy = 0; dy < ty; ++dy) {
                const size_t row = size_t(f.first.y + dy) + ny * plane;
                rowFirst_[row] = std::min(rowFirst_[row], f.first.x);
                rowLast_[row] = std::max(rowLast_[row], f.first.x + 3);
                const Quad w = (f.weight[2][k] * f.weight[1][dy]) * alongX;
                const size_t at = size_t(f.first.y + dy) * nx + size_t(f.first.x);
                for (int q = 0; q < 5; ++q) storeQuad(sums.row(q, at), loadQuad(sums.row(q, at)) + w * share[q]);
                const auto reached = w != zero;
                const Quad lowest = loadQuad(sums.row(5, at)), highest = loadQuad(sums.row(6, at));
                storeQuad(sums.row(5, at), reached && (density < lowest) ? density : lowest);
                storeQuad(sums.row(6, at), reached && (highest < density) ? density : highest);
            }
        }
    }
    Node* out = nodes_.data() + plane * nx * ny;
    for (size_t n = 0; n < nx * ny; ++n)
        out[n] = Node{vec3(*sums.row(0, n), *sums.row(1, n), *sums.row(2, n)), *sums.row(3, n), *sums.row(4, n),
                      *sums.row(5, n), *sums.row(6, n)};
}

// The shares plane `plane` receives from the vortons whose footprints reach it, in index order.
template <bool Walls>
void Remesher::scatterToPlane(const Vortons& v, const std::vector<Footprint>& footprint, size_t plane) {
    const Lattice& lattice = lattice_;
    const int tx = lattice.flat.x ? 1 : 4, ty = lattice.flat.y ? 1 : 4, tz = lattice.flat.z ? 1 : 4;
    const int z = int(plane);
    for (int k = 0; k < tz && z - k >= 0; ++k) {
        const size_t first = size_t(z - k);
        for (uint32_t s = planeStart_[first]; s < planeStart_[first + 1]; ++s) {
            const uint32_t i = byPlane_[s];
            const Footprint& f = footprint[i];
            const float volume = v.volume(i);
            const vec3 strength = v.vorticity[i] * volume;
            const float mass = v.density[i] * volume;
            const float density = v.density[i];
            const float cutScale = Walls ? cutScale_[i] : 0.0f;
            for (int dy = 0; dy < ty; ++dy) {
                const size_t row = size_t(f.first.y + dy) + size_t(lattice.dims.y) * plane;
                rowFirst_[row] = std::min(rowFirst_[row], f.first.x);
                rowLast_[row] = std::max(rowLast_[row], f.first.x + tx - 1);
                const float wzy = f.weight[2][k] * f.weight[1][dy];
                const size_t rowStart = nodeIndex(lattice, f.first.x, f.first.y + dy, z);
                for (int dx = 0; dx < tx; ++dx) {
                    const size_t index = rowStart + size_t(dx);
                    float w = wzy * f.weight[0][dx];
                    Node& node = nodes_[index];
                    if (Walls && cutScale > 0.0f) {
                        w *= float(fluidNode_[index]) * cutScale;
                        node.nearWall = true;
                    }
                    node.strength += w * strength;
                    node.mass += w * mass;
                    node.volume += w * volume;
                    if (w != 0.0f) {
                        node.lowest = std::min(node.lowest, density);
                        node.highest = std::max(node.highest, density);
                    }
                }
            }
        }
    }
}

}  // namespace vfx
