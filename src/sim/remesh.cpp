#include "sim/remesh.hpp"

#include "sim/remesh_lattice.hpp"
#include "sim/remesh_totals.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vfx {

float diffusionSpreadRate(float viscosity, float spacing) {
    return spacing > 0.0f ? 4.0f * viscosity / (spacing * spacing) : 0.0f;
}

bool diffusionRemeshDue(float spreadSinceRemesh, float strainSinceRemesh, float remeshStrain) {
    return remeshStrain > 0.0f && spreadSinceRemesh >= 1.0f && strainSinceRemesh >= 0.1f * remeshStrain;
}

namespace {

constexpr size_t kMaxLatticeNodes = size_t(1) << 24;
constexpr float kLeastWallNodeVolume = 0.02f;  // of a cell

using Footprint = Remesher::Footprint;
using remesh_lattice::forEachFaceNeighbour;
using remesh_lattice::nodeIndex;

template <typename Lattice>
vec3 nodePosition(const Lattice& l, int x, int y, int z) {
    const ivec3 k(x, y, z);
    vec3 p;
    for (int a = 0; a < 3; ++a) p[a] = l.flat[a] ? l.flatCoordinate[a] : float(l.lo[a] + k[a]) * l.h;
    return p;
}

// Linear (cloud-in-cell) weight of a node at distance |x| in lattice spacings: never negative.
float linearWeight(float x) {
    x = std::abs(x);
    return x < 1.0f ? 1.0f - x : 0.0f;
}

// The 4 nodes per axis around a vorton and their weights under `kernel` (M4' by default; the
// linear kernel puts its weight on the middle two).
template <typename Lattice>
Footprint footprintOf(const Lattice& l, const vec3& x, float (*kernel)(float) = m4PrimeWeight) {
    Footprint f{};
    for (int a = 0; a < 3; ++a) {
        if (l.flat[a]) {
            f.first[a] = 0;
            f.weight[a][0] = 1.0f;
            continue;
        }
        const float t = x[a] / l.h;
        const int base = int(std::floor(t)) - 1;
        f.first[a] = base - l.lo[a];
        for (int k = 0; k < 4; ++k) f.weight[a][k] = kernel(t - float(base + k));
    }
    return f;
}

// Lattice box covering every vorton's footprint. Returns false if it would be too large.
template <typename Lattice>
bool fitLattice(const Vortons& v, float h, Lattice& lattice) {
    vec3 lo(v.position[0]), hi(v.position[0]);
    for (const vec3& p : v.position) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    lattice.h = h;
    size_t total = 1;
    for (int a = 0; a < 3; ++a) {
        lattice.flat[a] = hi[a] - lo[a] <= 1e-6f * h;
        lattice.flatCoordinate[a] = lo[a];
        // The cell is found as footprintOf finds it (the quotient in float: in double it can fall
        // on the other side of a node for a vorton sitting on one, and its footprint would reach past
        // the box), then range-checked in double: a vorton flung very far must not overflow the indices.
        const double first = std::floor(double(lo[a] / h)) - 1.0, last = std::floor(double(hi[a] / h)) + 2.0;
        if (!lattice.flat[a] && (first < -1e9 || last > 1e9 || last - first + 1.0 > double(kMaxLatticeNodes)))
            return false;
        lattice.lo[a] = lattice.flat[a] ? 0 : int(first);
        lattice.dims[a] = lattice.flat[a] ? 1 : int(last - first) + 1;
        total *= size_t(lattice.dims[a]);
        if (total > kMaxLatticeNodes) return false;
    }
    return true;
}

}  // namespace

void Remesher::reserveFor(const Vortons& v, float h, float growth) {
    if (v.size() == 0 || !(h > 0.0f) || !fitLattice(v, h, lattice_)) return;
    const size_t nodes = size_t(lattice_.dims.x) * size_t(lattice_.dims.y) * size_t(lattice_.dims.z);
    reserveNodes(std::min(size_t(double(growth) * double(nodes)), kMaxLatticeNodes));
}

bool Remesher::apply(Vortons& v, const RemeshSettings& settings, const FluidRegion& fluidRegion,
                     const FluidShare& fluidShare) {
    lastDeferred_ = false;
    if (v.size() == 0 || !(settings.spacing > 0.0f)) return false;
    float h = settings.spacing;
    size_t kept = 0;
    bool trimmed = false;
    // The node count grows as about 1/h^3 (a little slower: the halo around the vortons is a
    // surface), so a few coarsenings with a margin land inside the budget.
    for (int attempt = 0;; ++attempt) {
        if (!fitLattice(v, h, lattice_)) return false;
        kept = deposit(v, settings.threshold, fluidRegion);
        if (kept == 0) return false;  // nothing to carry: keep the vortons as they are
        if (settings.maxCount == 0 || kept <= settings.maxCount || attempt == 8) {
            if (settings.sizeOnly) return false;
            break;
        }
        if (settings.fringeShare > 0.0f) {
            const auto ranked = rankBySignificance(settings.maxCount);
            const Shares beyond = sharesBeyond(ranked, settings.maxCount);
            if (beyond.strength <= double(settings.fringeShare) && beyond.mass <= double(settings.fringeMassShare)) {
                if (settings.sizeOnly) return false;
                kept = dropBeyond(ranked, settings.maxCount);
                trimmed = true;
                break;
            }
        }
        h *= 1.05f * std::cbrt(float(kept) / float(settings.maxCount));
        if (settings.deferCoarsening || settings.sizeOnly) {
            lastSpacing_ = h;
            lastDeferred_ = true;
            return false;
        }
    }
    const bool overCap = settings.hardCap > 0 && kept > settings.hardCap;
    if (overCap) kept = dropBeyond(rankBySignificance(settings.hardCap), settings.hardCap);
    const bool capped = trimmed || overCap;
    const bool settled = fluidRegion && fluidShare && settleWallNodes(fluidShare);
    const SignedMassSums deposited = signedMasses();
    lastAveragedMass_ = takeMeanDensities();
    lastMovedMass_ = boundDensities();
    if (lastAveragedMass_ > 0.0) lastAveragedMass_ += restoreSignedMasses(deposited);
    // A node that gave mass may fall below the cuts (and what it holds is then left out).
    const bool reweighed = lastMovedMass_ > 0.0 || lastAveragedMass_ > 0.0;
    if (reweighed) kept = countKeptNodes();
    // The vortons are still the ones deposited: the totals the new ones must keep.
    const bool restore = capped || settled || reweighed;
    const VortonTotals before = restore ? vortonTotals(v) : VortonTotals{};
    Vortons out;
    out.resize(kept);
    collect(settings.coreOverlap, out);
    if (restore) restoreTotals(out, before);
    v = std::move(out);
    lastSpacing_ = h;
    return true;
}

void Remesher::shareAmongFluidNodes(const Vortons& v, const FluidRegion& fluidRegion,
                                    std::vector<Footprint>& footprints) {
    const Lattice& lattice = lattice_;
    const size_t planeSize = size_t(lattice.dims.x) * size_t(lattice.dims.y);
    fluidNode_.resize(planeSize * size_t(lattice.dims.z));
    parallelForEach(
        0, size_t(lattice.dims.z),
        [&](size_t z) {
            for (int y = 0; y < lattice.dims.y; ++y)
                for (int x = 0; x < lattice.dims.x; ++x)
                    fluidNode_[nodeIndex(lattice, x, y, int(z))] =
                        fluidRegion(nodePosition(lattice, x, y, int(z))) ? 1 : 0;
        },
        1);
    const int tx = lattice.flat.x ? 1 : 4, ty = lattice.flat.y ? 1 : 4, tz = lattice.flat.z ? 1 : 4;
    // Sum of a footprint's weights on fluid nodes, and whether any nonzero weight lies outside.
    const auto insideShare = [&](const Footprint& f, bool& cut) {
        float inside = 0.0f;
        cut = false;
        for (int dz = 0; dz < tz; ++dz)
            for (int dy = 0; dy < ty; ++dy)
                for (int dx = 0; dx < tx; ++dx) {
                    const float w = f.weight[2][dz] * f.weight[1][dy] * f.weight[0][dx];
                    if (fluidNode_[nodeIndex(lattice, f.first.x + dx, f.first.y + dy, f.first.z + dz)])
                        inside += w;
                    else
                        cut = cut || w != 0.0f;
                }
        return inside;
    };
    cutScale_.assign(v.size(), 0.0f);
    parallelForEach(
        0, v.size(),
        [&](size_t i) {
            bool cut = false;
            insideShare(footprints[i], cut);
            if (!cut) return;
            // Next to a wall: the linear (cloud-in-cell) weights, which are never negative, so
            // every node there gets a positive share of volume and a density between its
            // contributors' (M4''s negative lobes on a node holding a sliver of fluid would not).
            Footprint linear = footprintOf(lattice, v.position[i], linearWeight);
            const float inside = insideShare(linear, cut);
            // Any share in fluid takes it all (a vorton in a corner may have an eighth of its
            // weights there); a vorton with none of its eight nodes in fluid (far past a wall)
            // keeps its plain weights.
            if (inside > 1e-6f) {
                footprints[i] = linear;
                cutScale_[i] = cut ? 1.0f / inside : 1.0f;
            }
        },
        4096);
}

size_t Remesher::deposit(const Vortons& v, float threshold, const FluidRegion& fluidRegion) {
    leastWallNodeVolume_ = kLeastWallNodeVolume * lattice_.h * lattice_.h * lattice_.h;
    // Kept between remeshes, so a remesh does not zero fresh pages for it (60 bytes a vorton).
    std::vector<Footprint>& footprint = footprints_;
    footprint.resize(v.size());
    parallelForEach(
        0, v.size(), [&](size_t i) { footprint[i] = footprintOf(lattice_, v.position[i]); }, 4096);
    bucketByPlane(footprint);
    const bool walls = bool(fluidRegion);
    if (walls)
        shareAmongFluidNodes(v, fluidRegion, footprint);
    else
        fluidNode_.clear();
    scatterToNodes(v, footprint, walls);
    if (walls) {
        markNodesByWalls();
        mergeSlivers();
    }

    // The largest strength and mass deviation (a maximum: the same for any split of the nodes).
    const glm::vec2 largest = deterministicReduce<glm::vec2>(
        rowCount(), glm::vec2(0.0f),
        [&](size_t b, size_t e) {
            glm::vec2 m(0.0f);
            forEachSpannedNode(b, e, [&](size_t k) {
                m = glm::max(m, glm::vec2(glm::length(nodes_[k].strength), std::abs(nodes_[k].mass)));
            });
            return m;
        },
        [](glm::vec2 x, glm::vec2 y) { return glm::max(x, y); }, 16);
    strengthCut_ = threshold * largest.x;
    strengthCutSquared_ = strengthCut_ * strengthCut_;
    massCut_ = threshold * largest.y;
    if (threshold > 0.0f) mergeDropped();
    return countKeptNodes();
}

// A node whose cell a wall cuts holds only part of a cell of fluid, whatever reached it: a vorton
// sitting exactly on it (as every vorton does after a remesh) has M4' weights on it alone and
// none past the wall, so only its neighbours tell. Taking the whole cell there gave the nodes on
// a tank's walls twice (edges four times) the fluid they hold: 20% more volume than the tank and
// half the density on its faces, which stirred a resting layered tank.
void Remesher::markNodesByWalls() {
    parallelForEach(
        0, nodes_.size(),
        [&](size_t k) {
            if (fluidNode_[k] && !nodes_[k].nearWall) nodes_[k].nearWall = bordersOutside(k);
        },
        4096);
}

bool Remesher::bordersOutside(size_t k) const {
    const ivec3 n = lattice_.dims;
    const size_t nx = size_t(n.x), ny = size_t(n.y);
    const ivec3 p(int(k % nx), int((k / nx) % ny), int(k / (nx * ny)));
    const ivec3 lo = glm::max(p - ivec3(1), ivec3(0)), hi = glm::min(p + ivec3(1), n - ivec3(1));
    for (int z = lo.z; z <= hi.z; ++z)
        for (int y = lo.y; y <= hi.y; ++y)
            for (int x = lo.x; x <= hi.x; ++x)
                if (!fluidNode_[nodeIndex(lattice_, x, y, z)]) return true;
    return false;
}

// What reached a node by a wall depends on how the vortons sat there (a mix of M4' and linear
// weights; a lattice node on the wall got 0.44 of a cell where its cell holds 0.5), and a volume
// taken from it turns into a density error at the next remesh, when the node is inside. Its
// density and vorticity are what reached it, over the volume that reached it, which every layout
// gets right, and its volume the fluid its cell has. The masses so set are scaled, heavy and
// light apart, to the masses that reached those nodes; apply() then restores the vorticity and
// impulse totals.
bool Remesher::settleWallNodes(const FluidShare& fluidShare) {
    struct Sums {
        double heavy = 0.0, light = 0.0, settledHeavy = 0.0, settledLight = 0.0;
        size_t count = 0;
    };
    const float cell = lattice_.h * lattice_.h * lattice_.h;
    const size_t nx = size_t(lattice_.dims.x), ny = size_t(lattice_.dims.y);
    // Each node by a wall is settled in place; the sums are of its mass before and after.
    const Sums sums = deterministicReduce<Sums>(
        rowCount(), Sums{},
        [&](size_t b, size_t e) {
            Sums s;
            forEachSpannedNode(b, e, [&](size_t k) {
                Node& node = nodes_[k];
                if (!node.nearWall || !keeps(node)) return;
                const vec3 at = nodePosition(lattice_, int(k % nx), int((k / nx) % ny), int(k / (nx * ny)));
                // Only by the walls the share knows: within three spacings, where a vorton whose
                // footprint a wall cuts took its M4' weights away.
                const float reach = fluidShare(at, 3.0f * lattice_.h);
                if (!(reach >= 0.0f && reach < 1.0f)) return;
                const float volume = std::max(fluidShare(at, lattice_.h), kLeastWallNodeVolume) * cell;
                (node.mass > 0.0f ? s.heavy : s.light) += node.mass;
                node.mass *= volume / node.volume;
                node.strength *= volume / node.volume;
                node.volume = volume;
                node.settled = true;
                (node.mass > 0.0f ? s.settledHeavy : s.settledLight) += node.mass;
                ++s.count;
            });
            return s;
        },
        [](Sums a, const Sums& c) {
            return Sums{a.heavy + c.heavy, a.light + c.light, a.settledHeavy + c.settledHeavy,
                        a.settledLight + c.settledLight, a.count + c.count};
        },
        16);
    if (sums.count == 0) return false;
    const float heavyScale = sums.settledHeavy != 0.0 ? float(sums.heavy / sums.settledHeavy) : 1.0f;
    const float lightScale = sums.settledLight != 0.0 ? float(sums.light / sums.settledLight) : 1.0f;
    parallelForEach(
        0, rowCount(),
        [&](size_t r) {
            forEachSpannedNode(r, r + 1, [&](size_t k) {
                Node& node = nodes_[k];
                if (node.settled) node.mass *= node.mass > 0.0f ? heavyScale : lightScale;
            });
        },
        16);
    return true;
}

// Kept nodes per plane, then a prefix sum: collect() fills each plane's run in lattice order.
size_t Remesher::countKeptNodes() {
    const int planes = lattice_.dims.z;
    keptBefore_.assign(size_t(planes) + 1, 0);
    const size_t rows = rowsPerPlane();
    parallelForEach(
        0, size_t(planes),
        [&](size_t p) {
            size_t count = 0;
            forEachSpannedNode(p * rows, (p + 1) * rows, [&](size_t k) { count += keeps(nodes_[k]) ? 1 : 0; });
            keptBefore_[p + 1] = count;
        },
        1);
    for (size_t p = 0; p < size_t(planes); ++p) keptBefore_[p + 1] += keptBefore_[p];
    return keptBefore_.back();
}

// M4''s negative lobes put a node by a sharp density jump beyond the density of every vorton that
// reaches it (a jittered two-layer lattice, 0.3 over -0.1, gave nodes of 0.314): grid-scale
// inversions, heavy over light, that the flow then overturns (a nudged two-layer tank gained
// kinetic energy without bound). A node the vortons cover (half its cell or more; a drop's fringe
// in ambient fluid is left to M4') hands the mass past its contributors' range to its covered
// face neighbours, in proportion to the room each has under (or over) its own range; what finds
// no room stays. Mass is exact; the mass moved (returned) goes one spacing, so the mass centre
// moves by at most h movedMass / |total mass|. Planes three apart in parallel, each in index
// order: deterministic.
double Remesher::boundDensities() {
    const auto bounded = [&](const Node& n) {
        return n.lowest <= n.highest && nodeVolume(n) > 0.0f && n.volume >= 0.5f * nodeVolume(n) && keeps(n);
    };
    const size_t planeSize = size_t(lattice_.dims.x) * size_t(lattice_.dims.y);
    movedMass_.assign(size_t(lattice_.dims.z), 0.0);
    forEachNodeByPlaneColour([&](size_t k) {
        Node& node = nodes_[k];
        if (!bounded(node)) return;
        const float volume = nodeVolume(node), density = node.mass / volume;
        const float excess = (density - std::clamp(density, node.lowest, node.highest)) * volume;
        if (excess == 0.0f) return;
        size_t neighbour[6];
        float room[6], totalRoom = 0.0f;
        int count = 0;
        forEachFaceNeighbour(lattice_, k, [&](size_t j) {
            const Node& n = nodes_[j];
            if (!bounded(n)) return;
            const float d = n.mass / nodeVolume(n);
            const float r = (excess > 0.0f ? n.highest - d : d - n.lowest) * nodeVolume(n);
            if (!(r > 0.0f)) return;
            neighbour[count] = j;
            room[count++] = r;
            totalRoom += r;
        });
        if (count == 0) return;
        const float moved = std::copysign(std::min(std::abs(excess), totalRoom), excess);
        for (int i = 0; i < count; ++i) nodes_[neighbour[i]].mass += moved * room[i] / totalRoom;
        movedMass_[k / planeSize] += std::abs(double(moved));
        node.mass -= moved;
    });
    double total = 0.0;
    for (double m : movedMass_) total += m;
    return total;
}

float Remesher::nodeVolume(const Node& node) const {
    return node.nearWall ? node.volume : lattice_.h * lattice_.h * lattice_.h;
}

// The face neighbour of node k (in fluid, where walls are known) with the largest score above
// `floor`; k itself if there is none.
template <class Score>
size_t Remesher::bestNeighbour(size_t k, float floor, Score score) const {
    size_t best = k;
    float bestScore = floor;
    forEachFaceNeighbour(lattice_, k, [&](size_t j) {
        if (!fluidNode_.empty() && !fluidNode_[j]) return;
        const float s = score(j);
        if (s > bestScore) {
            best = j;
            bestScore = s;
        }
    });
    return best;
}

// Node `from` hands everything it holds to node `to` (totals unchanged); both count as by a wall
// if either was.
void Remesher::handOver(size_t from, size_t to) {
    Node& source = nodes_[from];
    Node& target = nodes_[to];
    target.strength += source.strength;
    target.mass += source.mass;
    target.volume += source.volume;
    target.lowest = std::min(target.lowest, source.lowest);
    target.highest = std::max(target.highest, source.highest);
    target.nearWall = target.nearWall || source.nearWall;
    spanNode(to);
    const bool nearWall = source.nearWall;
    source = Node{};
    source.nearWall = nearWall;
}

bool Remesher::holdsAnything(const Node& node) {
    return node.volume != 0.0f || node.mass != 0.0f || node.strength != vec3(0.0f);
}

// Visits every node, in three passes of lattice planes z = c (mod 3), c = 0, 1, 2, the planes of a
// pass in parallel and each plane's nodes in index order. A visit reads and writes only its own
// plane and the two beside it, so planes three apart never touch the same node: race-free, and
// the order of every hand-over is fixed by the lattice, the same for any thread count.
template <class Visit>
void Remesher::forEachNodeByPlaneColour(Visit&& visit) {
    const size_t planes = size_t(lattice_.dims.z);
    for (size_t colour = 0; colour < 3 && colour < planes; ++colour)
        parallelForEach(
            0, (planes - colour + 2) / 3,
            [&](size_t j) {
                const size_t z = colour + 3 * j;
                forEachSpannedNode(z * rowsPerPlane(), (z + 1) * rowsPerPlane(), visit);
            },
            1);
}

// A node by a wall that holds next to no fluid (or less than none: the negative M4' lobes of the
// vortons further in) would carry a meaningless density; it hands everything it holds to the
// neighbour in fluid holding the most fluid, so the totals stay exact. In index order, and a
// sliver handed to another sliver moves on in the next pass: deterministic.
void Remesher::mergeSlivers() {
    const float least = leastWallNodeVolume_;
    for (int pass = 0; pass < 4; ++pass)
        forEachNodeByPlaneColour([&](size_t k) {
            if (!nodes_[k].nearWall || nodes_[k].volume > least || !holdsAnything(nodes_[k])) return;
            const size_t to =
                bestNeighbour(k, -std::numeric_limits<float>::infinity(), [&](size_t j) { return nodes_[j].volume; });
            if (to != k) handOver(k, to);  // none in fluid: left as it is, and dropped by keeps()
        });
}

// Nodes below the threshold are not simply dropped: the M4' lobes leave a fringe of small
// negative strengths around everything deposited, and dropping it would add mass and circulation.
// Each hands what it holds to the
// neighbour holding the most (an exchange of one lattice spacing), so the totals stay exact.
// Every node's score is kept in nodeScore_ (an empty node's is 0) and renewed by each hand-over,
// so the search among a node's neighbours reads six numbers instead of working them out again.
void Remesher::mergeDropped() {
    const auto strength = [&](const Node& node) {
        return (strengthCut_ > 0.0f ? glm::length(node.strength) / strengthCut_ : 0.0f) +
               (massCut_ > 0.0f ? std::abs(node.mass) / massCut_ : 0.0f);
    };
    nodeScore_.assign(nodes_.size(), 0.0f);
    parallelForEach(
        0, rowCount(),
        [&](size_t r) { forEachSpannedNode(r, r + 1, [&](size_t k) { nodeScore_[k] = strength(nodes_[k]); }); }, 16);
    for (int pass = 0; pass < 2; ++pass)
        forEachNodeByPlaneColour([&](size_t k) {
            if ((nodes_[k].mass == 0.0f && nodes_[k].strength == vec3(0.0f)) || keeps(nodes_[k])) return;
            const size_t to = bestNeighbour(k, 0.0f, [&](size_t j) { return nodeScore_[j]; });
            if (to == k) return;
            handOver(k, to);
            nodeScore_[k] = 0.0f;
            nodeScore_[to] = strength(nodes_[to]);
        });
}

std::vector<std::pair<float, size_t>> Remesher::rankBySignificance(size_t cap) const {
    // The kept nodes in lattice order, each plane filling its own run (keptBefore_ is current:
    // every pass that changes what is kept recounts).
    std::vector<std::pair<float, size_t>> ranked(keptBefore_.back());
    const size_t rows = rowsPerPlane();
    parallelForEach(
        0, size_t(lattice_.dims.z),
        [&](size_t p) {
            size_t slot = keptBefore_[p];
            forEachSpannedNode(p * rows, (p + 1) * rows, [&](size_t k) {
                if (keeps(nodes_[k])) ranked[slot++] = {0.0f, k};
            });
        },
        1);
    const glm::vec2 largest = deterministicReduce<glm::vec2>(
        ranked.size(), glm::vec2(0.0f),
        [&](size_t b, size_t e) {
            glm::vec2 m(0.0f);
            for (size_t j = b; j < e; ++j) {
                const Node& node = nodes_[ranked[j].second];
                m = glm::max(m, glm::vec2(glm::length(node.strength), std::abs(node.mass)));
            }
            return m;
        },
        [](glm::vec2 x, glm::vec2 y) { return glm::max(x, y); }, 4096);
    parallelForEach(
        0, ranked.size(),
        [&](size_t j) {
            const Node& node = nodes_[ranked[j].second];
            ranked[j].first = std::max(largest.x > 0.0f ? glm::length(node.strength) / largest.x : 0.0f,
                                       largest.y > 0.0f ? std::abs(node.mass) / largest.y : 0.0f);
        },
        4096);
    if (cap < ranked.size())
        std::nth_element(ranked.begin(), ranked.begin() + ptrdiff_t(cap), ranked.end(),
                         [](const auto& a, const auto& b) {
                             return a.first > b.first || (a.first == b.first && a.second < b.second);
                         });
    return ranked;
}

Remesher::Shares Remesher::sharesBeyond(const std::vector<std::pair<float, size_t>>& ranked, size_t cap) const {
    double strength = 0.0, mass = 0.0, strengthBeyond = 0.0, massBeyond = 0.0;
    for (size_t j = 0; j < ranked.size(); ++j) {
        const Node& node = nodes_[ranked[j].second];
        const double s = glm::length(node.strength), m = std::abs(node.mass);
        strength += s;
        mass += m;
        if (j >= cap) {
            strengthBeyond += s;
            massBeyond += m;
        }
    }
    return {strength > 0.0 ? strengthBeyond / strength : 0.0, mass > 0.0 ? massBeyond / mass : 0.0};
}

size_t Remesher::dropBeyond(const std::vector<std::pair<float, size_t>>& ranked, size_t cap) {
    for (size_t j = cap; j < ranked.size(); ++j) nodes_[ranked[j].second].dropped = true;
    return countKeptNodes();
}

void Remesher::collect(float coreOverlap, Vortons& out) const {
    const Lattice& lattice = lattice_;
    const float sigma = coreOverlap * lattice.h;
    parallelForEach(
        0, size_t(lattice.dims.z),
        [&](size_t p) {
            size_t slot = keptBefore_[p];
            for (int y = 0; y < lattice.dims.y; ++y) {
                const size_t row = size_t(y) + rowsPerPlane() * p;
                for (int x = rowFirst_[row]; x <= rowLast_[row]; ++x) {
                    const Node& node = nodes_[nodeIndex(lattice, x, y, int(p))];
                    if (!keeps(node)) continue;
                    const float volume = nodeVolume(node);
                    out.position[slot] = nodePosition(lattice, x, y, int(p));
                    out.vorticity[slot] = node.strength / volume;
                    out.density[slot] = node.mass / volume;
                    out.radius[slot] = sigma;
                    out.volumes[slot] = volume;
                    ++slot;
                }
            }
        },
        1);
}

}  // namespace vfx
