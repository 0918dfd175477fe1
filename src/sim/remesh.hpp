#pragma once
// Remeshing: the vortons' strengths are redistributed onto a regular lattice with the M4'
// interpolation kernel (Monaghan), and the lattice nodes that received strength become the new
// vortons. The flow distorts the particle set (it stretches in some directions, gaps open in
// others) until the cores no longer overlap and the particle field stops representing a smooth
// vorticity field; remeshing restores a uniform spacing h and so the overlap sigma/h.
//
// M4' conserves the zeroth, first and second moments of what it redistributes: total vorticity
// sum(omega V), linear impulse 1/2 sum(x x omega V), mass deviation sum(rho' V) and its centre.
#include "sim/particles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace vfx {

// M4' weight of a node at distance |x| (in lattice spacings): a cubic spline that interpolates
// (weight 1 at 0, 0 at the other nodes) and reproduces polynomials to second order.
inline float m4PrimeWeight(float x) {
    x = std::abs(x);
    if (x < 1.0f) return 1.0f - 2.5f * x * x + 1.5f * x * x * x;
    if (x < 2.0f) return 0.5f * (2.0f - x) * (2.0f - x) * (1.0f - x);
    return 0.0f;
}

// How fast viscosity nu (m^2/s) spreads vorticity past the vortons, in squared lattice spacings
// h per second: 4 nu / h^2 (the growth of a diffusing core's mean square radius). Diffusion by
// particle strength exchange only moves strength among the vortons there are, so a core cannot
// widen past them until a remesh lays a lattice around it.
float diffusionSpreadRate(float viscosity, float spacing);
// Whether diffusion has spread vorticity a lattice spacing (the integral of that rate reached 1)
// in a flow that is moving: one that has also strained a tenth of remeshStrain since the last
// remesh. Fluid at rest has nothing to spread, and remeshing it would only stir it. Without this
// a laminar ring at nu 0.01 (R 1, a 0.1, 8,000 vortons), which strains too little to be remeshed
// often, widened its core at 74% of the physical rate over 2 s (mean square radius; 93% with it).
bool diffusionRemeshDue(float spreadSinceRemesh, float strainSinceRemesh, float remeshStrain);

struct RemeshSettings {
    float spacing = 0.0f;      // lattice spacing h, m (grown when the result would exceed maxCount)
    size_t maxCount = 0;       // most vortons the lattice may produce (0 = no limit)
    size_t hardCap = 0;        // most vortons ever (0 = none): past it the weakest nodes are left out
    float coreOverlap = 1.5f;  // new vortons' sigma / h
    float threshold = 1e-4f;   // nodes below this share of the largest strength are dropped
    // Over maxCount, the weakest nodes are left out instead of coarsening the lattice when they
    // hold at most fringeShare of the total |omega V| and at most fringeMassShare of the total
    // |rho' V| (0 = always coarsen).
    float fringeShare = 0.0f;
    float fringeMassShare = 0.0f;
    // When the lattice at `spacing` would have to be coarsened, stop there: apply() leaves the
    // vortons alone, returns false, and lastDeferred() and lastSpacing() give the coarser spacing
    // its next attempt would have taken, so a later apply() at that spacing lays them (the same
    // vortons then give what one apply() makes).
    bool deferCoarsening = false;
    // Only find out whether the lattice at `spacing` must be coarsened, never laying the vortons:
    // when it must, lastDeferred() and lastSpacing() say so as under deferCoarsening; when it need
    // not, apply() returns false with nothing recorded, and a later apply() remeshes as before.
    bool sizeOnly = false;
};

class Remesher {
public:
    // Where the fluid may be (outside solids, inside containers); empty: everywhere.
    using FluidRegion = std::function<bool(const vec3&)>;
    // Share of the cloud-in-cell support of spacing h around a point that lies in fluid. A node
    // whose share at 3h is 1 (away from the walls it knows) or negative (walls it leaves alone)
    // keeps what was deposited on it.
    using FluidShare = std::function<float(const vec3& point, float h)>;

    // Replaces the vortons by lattice vortons of volume h^3. Returns false (and leaves the vortons
    // alone) if the lattice box would be unreasonably large (a vorton flung far from the rest).
    // When the lattice would hold more than maxCount vortons, its weakest nodes are left out if
    // they hold at most fringeShare of the strength and fringeMassShare of the mass deviation (the faint fringe
    // each M4' remesh lays around a compact flow, which would otherwise coarsen the lattice of a
    // vortex ring within seconds); otherwise it is coarsened until it holds at most maxCount. If it
    // still holds more than hardCap, only the hardCap strongest nodes are kept. Whenever nodes are
    // left out, the strengths and densities of the rest are corrected so total vorticity, linear
    // impulse and mass stay exact (sim/remesh_totals.hpp).
    // With a fluid region, no lattice node outside it receives anything: a vorton whose footprint
    // reaches past a wall shares its strengths among its nodes in the fluid only (its weights
    // renormalised, so total vorticity and mass are still conserved exactly), and the nodes such
    // vortons reach take the fluid volume deposited on them rather than h^3, so a node on a wall
    // holding half a cell of fluid keeps the fluid's density instead of reading half of it. With
    // a fluid share as well, every node by the walls it knows holds the fluid its cell has
    // (share times h^3) at the density and vorticity that reached it, the masses by walls scaled
    // so that each sign's total stays exact and the vorticity and impulse totals restored.
    bool apply(Vortons& vortons, const RemeshSettings& settings, const FluidRegion& fluidRegion = {},
               const FluidShare& fluidShare = {});
    // Lays out room for the lattice boxes of `growth` times the nodes the vortons' box at spacing
    // h has (touched now, so that no remesh pays for fresh pages as the flow spreads).
    void reserveFor(const Vortons& vortons, float h, float growth);
    float lastSpacing() const { return lastSpacing_; }
    // Whether the last apply() stopped at coarsening the lattice (RemeshSettings::deferCoarsening).
    bool lastDeferred() const { return lastDeferred_; }
    // Mass deviation (kg) the last apply() moved one spacing to keep node densities within the
    // range of the vortons that reached them.
    double lastMovedMass() const { return lastMovedMass_; }
    // Bound on the mass deviation (kg) the last apply() changed at covered nodes by giving them
    // their vortons' mean density (heavy and light scaled back to their totals): the mass centre
    // may move by up to this times the farthest node's distance from it / |total mass|.
    double lastAveragedMass() const { return lastAveragedMass_; }

    // Where one vorton lands on the lattice: the first of its (up to) 4 nodes per axis and their weights.
    struct Footprint {
        ivec3 first;
        float weight[3][4];
    };

private:
    struct Node {
        vec3 strength{0.0f};  // sum of w * omega V
        float mass = 0.0f;    // sum of w * rho' V
        float volume = 0.0f;  // sum of w * V
        // Range of the density deviations of the vortons that reached it (boundDensities).
        float lowest = std::numeric_limits<float>::infinity();
        float highest = -std::numeric_limits<float>::infinity();
        bool nearWall = false;  // a wall cuts its cell, or a vorton's footprint reached past one
        bool dropped = false;   // left out by the hard cap
        bool settled = false;   // by a wall, given its cell's fluid volume: kept
    };
    void reserveNodes(size_t count);
    // Deposits every vorton onto lattice_; returns the number of nodes kept.
    size_t deposit(const Vortons& vortons, float threshold, const FluidRegion& fluidRegion);
    void bucketByPlane(const std::vector<Footprint>& footprint);
    void scatterToNodes(const Vortons& vortons, const std::vector<Footprint>& footprint, bool walls);
    template <bool Walls>
    void scatterToPlane(const Vortons& vortons, const std::vector<Footprint>& footprint, size_t plane);
    void scatterToPlaneInLanes(const Vortons& vortons, const std::vector<Footprint>& footprint, size_t plane);
    size_t countKeptNodes();
    // Nodes away from walls take their vortons' mean density; returns the mass changed (kg).
    double takeMeanDensities();
    struct SignedMassSums {
        double heavy = 0.0, light = 0.0;
    };
    SignedMassSums signedMasses() const;  // over the kept nodes
    // Scales the kept nodes to each sign's total in `wanted`; returns a bound on the change (kg).
    double restoreSignedMasses(const SignedMassSums& wanted);
    float neighbourhoodVolume(const ivec3& at) const;
    // Returns the mass deviation it moved (kg).
    double boundDensities();
    // A node's fluid volume: its cell, or by a wall what was deposited on it.
    float nodeVolume(const Node& node) const;
    // Kept nodes as (significance, index), the `cap` most significant first (the rest after them,
    // unordered). A node's significance is the larger of its strength and mass deviation over the
    // largest; ties go to the lower index, so the choice is deterministic.
    std::vector<std::pair<float, size_t>> rankBySignificance(size_t cap) const;
    // The shares of total |strength| and of total |mass| held by ranked[cap...].
    struct Shares {
        double strength = 0.0, mass = 0.0;
    };
    Shares sharesBeyond(const std::vector<std::pair<float, size_t>>& ranked, size_t cap) const;
    // Leaves out ranked[cap...]; returns the count kept.
    size_t dropBeyond(const std::vector<std::pair<float, size_t>>& ranked, size_t cap);
    // Vortons whose M4' footprint reaches past a wall switch to linear weights on fluid nodes
    // only, renormalised (cutScale_); their nodes are marked nearWall.
    void shareAmongFluidNodes(const Vortons& vortons, const FluidRegion& fluidRegion,
                              std::vector<Footprint>& footprints);
    // Marks nearWall every fluid node with a node outside the fluid among its 26 neighbours.
    void markNodesByWalls();
    bool bordersOutside(size_t k) const;  // a node outside the fluid among node k's 26 neighbours
    // Gives the nodes by the walls fluidShare knows their cell's fluid; false if there were none.
    bool settleWallNodes(const FluidShare& fluidShare);
    // Whether a node becomes a vorton (called for every node by most passes, so inline).
    bool keeps(const Node& node) const {
        if (node.dropped) return false;
        if (node.settled) return true;
        // A sliver by a wall that found no neighbour to merge into is left out.
        if (node.nearWall && !(node.volume > leastWallNodeVolume_)) return false;
        return glm::dot(node.strength, node.strength) > strengthCutSquared_ || std::abs(node.mass) > massCut_;
    }
    template <class Visit>
    void forEachNodeByPlaneColour(Visit&& visit);
    void mergeSlivers();
    void mergeDropped();
    template <class Score>
    size_t bestNeighbour(size_t k, float floor, Score score) const;
    void handOver(size_t from, size_t to);
    static bool holdsAnything(const Node& node);
    void collect(float coreOverlap, Vortons& out) const;

    float lastSpacing_ = 0.0f;
    bool lastDeferred_ = false;
    std::vector<double> movedMass_;  // per lattice plane, scratch of boundDensities
    double lastMovedMass_ = 0.0;
    double lastAveragedMass_ = 0.0;
    std::vector<Node> nodes_;
    std::vector<Footprint> footprints_;  // scratch of deposit: each vorton's nodes and weights
    std::vector<float> nodeScore_;       // scratch of mergeDropped: each node's strength over the cuts
    std::vector<size_t> keptBefore_;     // kept nodes in the planes before each plane
    float strengthCut_ = 0.0f, massCut_ = 0.0f;
    float strengthCutSquared_ = 0.0f, leastWallNodeVolume_ = 0.0f;
    struct Lattice {
        float h = 1.0f;
        ivec3 lo{0}, dims{1};    // first node index and node count per axis
        glm::bvec3 flat{false};  // all vortons share one coordinate along this axis
        vec3 flatCoordinate{0.0f};
    } lattice_;
    std::vector<uint8_t> fluidNode_;  // 1 where the lattice node lies in the fluid region
    std::vector<float> cutScale_;     // per vorton: 1 / (sum of its weights on fluid nodes), 0 if uncut
    std::vector<uint32_t> byPlane_;
    std::vector<uint32_t> planeStart_;

    // Each lattice row's (index y + dims.y z) span of nodes that may hold anything: what the
    // deposit reached, widened by hand-overs (first > last: none). Every node outside the spans is
    // empty, so the passes over the nodes visit the spans only: a falling drop's trail fills about
    // a quarter of its lattice box.
    std::vector<int> rowFirst_, rowLast_;
    void spanNode(size_t k) {
        const size_t nx = size_t(lattice_.dims.x), row = k / nx;
        const int x = int(k % nx);
        rowFirst_[row] = std::min(rowFirst_[row], x);
        rowLast_[row] = std::max(rowLast_[row], x);
    }
    size_t rowCount() const { return rowFirst_.size(); }
    size_t rowsPerPlane() const { return size_t(lattice_.dims.y); }
    // Calls visit(k) for each spanned node of rows [firstRow, lastRow), in index order (a span a
    // visit widens is read as it grows).
    template <class Visit>
    void forEachSpannedNode(size_t firstRow, size_t lastRow, Visit&& visit) const {
        const size_t nx = size_t(lattice_.dims.x);
        for (size_t r = firstRow; r < lastRow; ++r)
            for (int x = rowFirst_[r]; x <= rowLast_[r]; ++x) visit(r * nx + size_t(x));
    }
};

}  // namespace vfx
