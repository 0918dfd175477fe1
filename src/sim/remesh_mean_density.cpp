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
    boxAverageVolumes();
    const double changed = deterministicReduce<double>(
        nodes_.size(), 0.0,
        [&](size_t b, size_t e) {
            double sum = 0.0;
            for (size_t k = b; k < e; ++k) {
                Node& node = nodes_[k];
                if (node.nearWall || node.mass == 0.0f || !keeps(node)) continue;
                if (!(node.volume > 0.0f) || !(node.lowest <= node.highest)) continue;
                if (!(std::max(node.volume, meanVolume_[k]) >= kInside * cell)) continue;
                // A mean of the vortons' densities lies within their range; M4''s negative weights
                // would take it past (far past at a thinned node, where little volume reached it).
                const float mass = std::clamp(node.mass / node.volume, node.lowest, node.highest) * cell;
                // A node the change would drop below the cuts keeps its deposit (and its mass).
                if (!(std::abs(mass) > massCut_ || glm::length(node.strength) > strengthCut_)) continue;
                sum += std::abs(double(mass) - double(node.mass));
                node.mass = mass;
            }
            return sum;
        },
        [](double a, double c) { return a + c; }, 4096);
    return changed;
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
        0, nodes_.size(),
        [&](size_t k) {
            Node& node = nodes_[k];
            if (keeps(node)) node.mass *= float(node.mass > 0.0f ? heavyScale : lightScale);
        },
        4096);
    return std::abs(heavyScale - 1.0) * now.heavy + std::abs(lightScale - 1.0) * -now.light;
}

// meanVolume_: the volume reaching each node averaged over the 3x3x3 nodes around it (fewer at
// the lattice's faces), summed in three passes of three nodes, one along each axis.
void Remesher::boxAverageVolumes() {
    const ivec3 dims = lattice_.dims;
    const size_t count = nodes_.size();
    const size_t stride[3] = {1, size_t(dims.x), size_t(dims.x) * size_t(dims.y)};
    const auto coordinate = [&](size_t k, int axis) { return int((k / stride[axis]) % size_t(dims[axis])); };
    std::vector<float>& a = meanVolume_;
    std::vector<float>& b = boxScratch_;
    a.resize(count);
    b.resize(count);
    parallelForEach(
        0, count, [&](size_t k) { a[k] = nodes_[k].volume; }, 4096);
    for (int axis = 0; axis < 3; ++axis) {
        const std::vector<float>& from = axis == 1 ? b : a;
        std::vector<float>& to = axis == 1 ? a : b;
        parallelForEach(
            0, count,
            [&](size_t k) {
                const int at = coordinate(k, axis);
                float sum = from[k];
                if (at > 0) sum += from[k - stride[axis]];
                if (at + 1 < dims[axis]) sum += from[k + stride[axis]];
                to[k] = sum;
            },
            4096);
    }
    // Three passes ping-pong a -> b -> a -> b: the sums are in b.
    parallelForEach(
        0, count,
        [&](size_t k) {
            float nodes = 1.0f;
            for (int axis = 0; axis < 3; ++axis) {
                const int at = coordinate(k, axis);
                nodes *= float(1 + (at > 0 ? 1 : 0) + (at + 1 < dims[axis] ? 1 : 0));
            }
            a[k] = b[k] / nodes;
        },
        4096);
}

Remesher::SignedMassSums Remesher::signedMasses() const {
    return deterministicReduce<SignedMassSums>(
        nodes_.size(), SignedMassSums{},
        [&](size_t b, size_t e) {
            SignedMassSums s;
            for (size_t k = b; k < e; ++k) {
                const Node& node = nodes_[k];
                if (!keeps(node)) continue;
                (node.mass > 0.0f ? s.heavy : s.light) += node.mass;
            }
            return s;
        },
        [](SignedMassSums a, const SignedMassSums& c) {
            return SignedMassSums{a.heavy + c.heavy, a.light + c.light};
        },
        4096);
}

}  // namespace vfx
