#pragma once
// Velocity from vorticity by a tree, approximating the Biot-Savart sum of direct_velocity.hpp:
// VortonTree is a Barnes-Hut octree whose clusters carry the Taylor expansion of the kernel to
// second order (monopole, dipole and quadrupole moments of omega V about the cluster centre).
// Implemented in vorton_tree_build.cpp (octree and moments), vorton_tree_traversal.cpp (which
// nodes a target sphere takes as clusters), vorton_tree_evaluation.cpp (sums at points) and
// vorton_tree_grid.cpp (sums on a grid). directVelocity, the accuracy reference, comes with it.
#include "core/math.hpp"
#include "core/uniform_grid.hpp"
#include "sim/direct_velocity.hpp"
#include "sim/particles.hpp"

#include <cstdint>
#include <vector>

namespace vfx {

class VortonTree {
public:
    // Builds the octree over the vortons (deterministic: sorted by Morton code of position).
    void build(const Vortons& vortons);
    // Velocity at each point; theta is the opening angle (cluster size / distance). Points are
    // taken kLanes at a time in Morton order, each run sharing one traversal whose acceptance
    // test holds for every point of it (as accurate as per point, or more) and evaluated in SIMD
    // lanes.
    void velocity(const std::vector<vec3>& points, std::vector<vec3>& out, float theta) const;
    // The same with one traversal per point (velocityAt): the simple reference.
    void velocityPerPoint(const std::vector<vec3>& points, std::vector<vec3>& out, float theta) const;
    vec3 velocityAt(const vec3& x, float theta) const;
    // Velocity at every point of a grid, in its index order: blocks of neighbouring points share
    // one traversal and are evaluated together in SIMD lanes (see vorton_tree_grid.cpp).
    void velocityOnGrid(const GridShape& shape, std::vector<vec3>& out, float theta) const;
    size_t nodeCount() const { return nodes_.size(); }

private:
    friend struct VortonTreeInternals;  // lets the tests check the traversal's pieces one by one
    struct Node {
        vec3 centre{0.0f};  // expansion centre (|alpha|-weighted centroid)
        float size = 0.0f;  // radius of the bounding sphere about centre
        vec3 alpha{0.0f};   // sum omega V
        mat3 dipole{0.0f};  // sum alpha_i (x_i - centre)^T  (column j = sum alpha d_j)
        vec3 twist{0.0f};   // sum alpha_i x (x_i - centre)
        mat3 quad[3]{mat3(0.0f), mat3(0.0f),
                     mat3(0.0f)};  // quad[a] = sum alpha_i,a d_i d_i^T (glm does not zero by default)
        float maxSigma = 0.0f;     // largest core radius inside
        float strength3 = 0.0f;    // sum |alpha_i| |x_i - centre|^3: the expansion's error estimate
        // How far beyond size the nearest target must be, at opening angle 1, for the expansion's
        // estimated error to be small against the field's scale (see computeAllMoments).
        float errorReach = 0.0f;
        uint32_t firstChild = 0;  // index of first child node, 0 if leaf
        uint32_t childCount = 0;
        uint32_t begin = 0, end = 0;  // range of tree-ordered vortons inside
    };
    // A node's expansion as the far-field formula reads it, constant factors folded in: with
    // r = target - centre and s_a = r . Q_a r (Q_a = quad[a]),
    //   c = alpha / r^3 + (3 M r - 1.5 tr Q_a) / r^5 + 7.5 s / r^7,
    //   u = c x r - twist / r^3 - 3 B r / r^5,  (B r)_x = (Q_1 r)_z - (Q_2 r)_y and cyclic.
    struct FarTerms {
        vec3 centre{0.0f}, alpha{0.0f}, twist{0.0f};
        vec3 traceTerm{0.0f};         // 1.5 tr Q_a
        float dipoleRows[3][3] = {};  // rows of 3 M
        float curlRows[3][3] = {};    // rows of 3 B
        // 7.5 Q_a's distinct entries as the coefficients of xx, yy, zz, xy, xz, yz in s_a.
        float quadForm[3][6] = {};
    };
    static FarTerms farTermsOf(const Node& node);
    struct TargetBlock;
    // What a traversal reads of a node, packed (a Node is ~200 bytes of moments): its centre, the
    // distance beyond which targets may take it as one cluster at the traversal's opening angle,
    // and its children.
    struct TraversalNode {
        vec3 centre{0.0f};
        float clusterDistance = 0.0f;
        uint32_t firstChild = 0;
        uint32_t childCount = 0;
    };
    std::vector<TraversalNode> traversalNodes(float theta) const;
    // The factor on errorReach (made for opening angle 1) at opening angle theta.
    static float errorReachScale(float theta);
    uint32_t buildNode(uint32_t self, uint32_t begin, uint32_t end, int depth);
    // Continues the traversal from each node of `start` for one block's sphere (centre, radius):
    // appends the nodes it may take as clusters (far) and the leaves it must sum vorton by vorton
    // (near).
    static void collectInteractions(const std::vector<TraversalNode>& nodes, const std::vector<uint32_t>& start,
                                    const vec3& centre, float radius, std::vector<uint32_t>& far,
                                    std::vector<uint32_t>& near);
    // A group of neighbouring blocks: a sphere enclosing all of their spheres, and the most a
    // block's nearest-target distance can exceed the distance to the group's centre.
    struct SharedTargets {
        vec3 centre{0.0f};
        float enclosingRadius = 0.0f;
        float largestGapGain = 0.0f;
        float margin = 0.0f;  // allowance for rounding in the distances, on the safe side
    };
    // What every block of a group takes as clusters (far), what every one sums vorton by vorton
    // (near), and the nodes where the blocks' decisions differ (open), each block continuing from
    // there: the same interactions as a traversal per block from the root.
    struct SharedLists {
        std::vector<uint32_t> far, near, open;
    };
    static void collectShared(const std::vector<TraversalNode>& nodes, const SharedTargets& group, SharedLists& lists);
    // Each block's own lists of a group (what its traversal from the open nodes finds), filled by
    // one traversal for all of the group's blocks.
    struct GroupLists {
        std::vector<uint32_t> far, near;  // block b's entries start at b * capacity
        uint32_t farCount[8] = {}, nearCount[8] = {};
        size_t capacity = 0;
    };
    struct BlockSphere {
        ivec3 first{0};  // the block's first grid point
        vec3 centre{0.0f};
        float radius = 0.0f;
    };
    static BlockSphere blockSphere(const GridShape& shape, const ivec3& block);
    // The group of `count` neighbouring block spheres (first and last are opposite corners).
    static SharedTargets sharedTargets(const BlockSphere* spheres, int count);
    // Continues the traversal from each open node for up to 8 block spheres at once, one SIMD
    // lane per block: each node is tested against every block that reached it, and a block's
    // lists come out in the order of its own traversal (collectInteractions from the same nodes).
    static void collectForBlocks(const std::vector<TraversalNode>& nodes, const std::vector<uint32_t>& open,
                                 const BlockSphere* spheres, int count, GroupLists& lists);
    // A run of node indices, and a block's lists as up to two runs each: a group's shared part,
    // then the block's own (evaluated in that order, as one list would be).
    struct NodeRun {
        const uint32_t* begin = nullptr;
        size_t count = 0;
    };
    struct InteractionRuns {
        NodeRun far[2], near[2];
    };
    void evaluateGridBlock(const GridShape& shape, const ivec3& first, const InteractionRuns& lists,
                           std::vector<vec3>& out) const;
    void evaluateBlock(TargetBlock& block, const InteractionRuns& lists) const;
    struct CentreSums;
    void computeAllMoments();
    CentreSums leafMoments(Node& node) const;
    CentreSums combineChildren(Node& node, const std::vector<CentreSums>& sums) const;
    void boundParent(Node& node) const;
    static vec3 farField(const FarTerms& terms, const vec3& r, float dist2);
    std::vector<Node> nodes_;
    std::vector<FarTerms> farTerms_;  // per node, made with the moments
    std::vector<uint32_t> order_;
    std::vector<vec3> pos_;    // positions in tree order
    std::vector<vec3> alpha_;  // omega V in tree order
    std::vector<float> sigma_;
    std::vector<float> strength_;  // |omega V| in tree order
    std::vector<uint32_t> codes_;  // Morton codes in tree order
    static constexpr uint32_t kLeafSize = 16;
};

}  // namespace vfx
