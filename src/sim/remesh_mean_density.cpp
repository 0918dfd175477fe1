#include "sim/remesh.hpp"

#include "sim/remesh_lattice.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

// A node reached by at least this share of a cell's volume, or whose neighbourhood (the 3x3x3
// nodes around it) is on average, is inside the fluid. Below it, at the edge of the vortons,
// the volume reaching it is the part of its cell the fluid fills, and it keeps its deposit.
constexpr float kInside = 0.8f;

}  // namespace

// Away from walls a node's density used to be its mass over its cell. Vortons drift off the
// lattice as the flow strains them, so where they crowd more than a cell's volume reaches a node
// and it read heavier (or lighter) than every vorton there: grid-scale density noise that the
// baroclinic term turns into stirring in a layered tank. A node now takes the mean density of
// the vortons that reach it (mass over the volume that reached it, as the density field does)
// when it is inside the fluid (kInside; a thinned spot inside still is). Heavy and light masses
// are scaled back afterwards (restoreSignedMasses).
// Returns the mass deviation changed, sum |change| over the nodes (kg).
double Remesher::takeMeanDensities() {
    const float cell = lattice_.h * lattice_.h * lattice_.h;
    const ivec3 dims = lattice_.dims;
    // Row by row (y, z) of the lattice, so each node's coordinates are known without dividing.
    const size_t rows = size_t(dims.y) * size_t(dims.z);
    return deterministicReduce<double>(
        rows, 0.0,
        [&](size_t first, size_t last) {
            double sum = 0.0;
            for (size_t row = first; row < last; ++row) {
                const int y = int(row % size_t(dims.y)), z = int(row / size_t(dims.y));
                for (int x = rowFirst_[row]; x <= rowLast_[row]; ++x) {
                    Node& node = nodes_[row * size_t(dims.x) + size_t(x)];
                    if (node.nearWall || node.mass == 0.0f || !keeps(node)) continue;
                    if (!(node.volume > 0.0f) || !(node.lowest <= node.highest)) continue;
                    const bool covered =
                        node.volume >= kInside * cell || neighbourhoodVolume(ivec3(x, y, z)) >= kInside * cell;
                    if (!covered) continue;
                    // A mean of the vortons' densities lies within their range; M4''s negative weights
                    // would take it past (far past at a thinned node, where little volume reached it).
                    const float mass = std::clamp(node.mass / node.volume, node.lowest, node.highest) * cell;
                    // A node the change would drop below the cuts keeps its deposit (and its mass).
                    if (!(std::abs(mass) > massCut_ || glm::length(node.strength) > strengthCut_)) continue;
                    sum += std::abs(double(mass) - double(node.mass));
                    node.mass = mass;
                }
            }
            return sum;
        },
        [](double a, double c) { return a + c; }, 16);
}

// After the densities are bounded, every kept node is scaled, heavy and light apart, so that each
// sign's total is `wanted` (what the vortons deposited). One factor for all nodes of a sign keeps a
// uniform layer uniform: scaling only the averaged ones would set them apart from the nodes by the
// walls, a density step that stirs a layered tank. Returns a bound on the mass deviation changed (kg).
double Remesher::restoreSignedMasses(const SignedMassSums& wanted) {
    const SignedMassSums now = signedMasses();
    const double heavyScale = now.heavy != 0.0 ? wanted.heavy / now.heavy : 1.0;
    const double lightScale = now.light != 0.0 ? wanted.light / now.light : 1.0;
    parallelForEach(
        0, rowCount(),
        [&](size_t r) {
            forEachSpannedNode(r, r + 1, [&](size_t k) {
                Node& node = nodes_[k];
                if (keeps(node)) node.mass *= float(node.mass > 0.0f ? heavyScale : lightScale);
            });
        },
        16);
    return std::abs(heavyScale - 1.0) * now.heavy + std::abs(lightScale - 1.0) * -now.light;
}

// The volume reaching the 3x3x3 nodes around a node, averaged (fewer at the lattice's faces).
// Asked only where the node's own volume falls short, at the edge of the vortons.
float Remesher::neighbourhoodVolume(const ivec3& at) const {
    const ivec3 dims = lattice_.dims;
    float sum = 0.0f;
    int nodes = 0;
    for (int z = std::max(at.z - 1, 0); z <= std::min(at.z + 1, dims.z - 1); ++z)
        for (int y = std::max(at.y - 1, 0); y <= std::min(at.y + 1, dims.y - 1); ++y)
            for (int x = std::max(at.x - 1, 0); x <= std::min(at.x + 1, dims.x - 1); ++x) {
                sum += nodes_[remesh_lattice::nodeIndex(lattice_, x, y, z)].volume;
                ++nodes;
            }
    return sum / float(nodes);
}

Remesher::SignedMassSums Remesher::signedMasses() const {
    return deterministicReduce<SignedMassSums>(
        rowCount(), SignedMassSums{},
        [&](size_t b, size_t e) {
            SignedMassSums s;
            forEachSpannedNode(b, e, [&](size_t k) {
                const Node& node = nodes_[k];
                if (keeps(node)) (node.mass > 0.0f ? s.heavy : s.light) += node.mass;
            });
            return s;
        },
        [](SignedMassSums a, const SignedMassSums& c) {
            return SignedMassSums{a.heavy + c.heavy, a.light + c.light};
        },
        16);
}

}  // namespace vfx
