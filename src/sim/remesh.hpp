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

#include <vector>

namespace vfx {

// M4' weight of a node at distance |x| (in lattice spacings): a cubic spline that interpolates
// (weight 1 at 0, 0 at the other nodes) and reproduces polynomials to second order.
float m4PrimeWeight(float x);

struct RemeshSettings {
    float spacing = 0.0f;      // lattice spacing h, m (grown when the result would exceed maxCount)
    size_t maxCount = 0;       // most vortons the lattice may produce (0 = no limit)
    float coreOverlap = 1.5f;  // new vortons' sigma / h
    float threshold = 1e-4f;   // nodes below this share of the largest strength are dropped
};

class Remesher {
public:
    // Replaces the vortons by lattice vortons of volume h^3. Returns false (and leaves the vortons
    // alone) if the lattice box would be unreasonably large (a vorton flung far from the rest).
    // When the lattice would hold more than maxCount vortons it is coarsened until it does not.
    bool apply(Vortons& vortons, const RemeshSettings& settings);
    float lastSpacing() const { return lastSpacing_; }

private:
    struct Node {
        vec3 strength{0.0f};  // sum of w * omega V
        float mass = 0.0f;    // sum of w * rho' V
    };
    // Deposits every vorton onto lattice_; returns the number of nodes kept.
    size_t deposit(const Vortons& vortons, float threshold);
    bool keeps(const Node& node) const;
    void collect(float coreOverlap, Vortons& out) const;

    float lastSpacing_ = 0.0f;
    std::vector<Node> nodes_;
    std::vector<size_t> keptBefore_;  // kept nodes in the planes before each plane
    float strengthCut_ = 0.0f, massCut_ = 0.0f;
    struct Lattice {
        float h = 1.0f;
        ivec3 lo{0}, dims{1};    // first node index and node count per axis
        glm::bvec3 flat{false};  // all vortons share one coordinate along this axis
        vec3 flatCoordinate{0.0f};
    } lattice_;
    std::vector<uint32_t> byPlane_;
    std::vector<uint32_t> planeStart_;
};

}  // namespace vfx
