// Traversing the vorton tree: for a sphere of targets, the nodes it may take as clusters (far)
// and the leaves it must sum vorton by vorton (near); for a group of grid blocks, what they share
// and, below where they differ, every block's own lists from one traversal in SIMD lanes. The
// lists come out in the same order for any thread count.
#include "sim/velocity_solver.hpp"

#include "core/parallel.hpp"
#include "core/simd_lanes.hpp"
#include "sim/morton_order.hpp"

#include <algorithm>
#include <limits>

namespace vfx {

namespace {

// A branch-free traversal from one start node holds at most one root-to-leaf path's waiting
// siblings (7 per level of at most kMortonDepth + 1 levels) plus the eight child slots it writes
// past the top.
constexpr int kTraversalStackSize = 7 * (kMortonDepth + 1) + 1 + 8;

// A traversal's stack, reused by the calls on one thread (cleared by each; no result depends on
// what a thread ran before).
std::vector<uint32_t>& traversalStack() {
    thread_local std::vector<uint32_t> stack;
    return stack;
}

// A node may stand for its vortons as one cluster for targets in a sphere `gap` away from its
// centre (nearest target at distance gap) when it looks small enough from there, size < theta
// gap, the cores are out of reach, size + maxSigma < gap, and its estimated truncation error is
// small, errorDistance < gap (see computeAllMoments): when gap exceeds this distance. theta = 0
// never takes a cluster.
float clusterDistance(float size, float maxSigma, float errorDistance, float theta) {
    if (!(theta > 0.0f)) return std::numeric_limits<float>::infinity();
    return std::max({size / theta, size + maxSigma, errorDistance});
}

}  // namespace

std::vector<VortonTree::TraversalNode> VortonTree::traversalNodes(float theta) const {
    std::vector<TraversalNode> packed(nodes_.size());
    const float errorScale = errorReachScale(theta);
    parallelForEach(
        0, nodes_.size(),
        [&](size_t k) {
            const Node& n = nodes_[k];
            const float errorDistance = n.size + n.errorReach * errorScale;
            packed[k] = TraversalNode{n.centre, clusterDistance(n.size, n.maxSigma, errorDistance, theta), n.firstChild,
                                      n.childCount};
        },
        1024);
    return packed;
}

void VortonTree::collectInteractions(const std::vector<TraversalNode>& nodes, const std::vector<uint32_t>& start,
                                     const vec3& centre, float radius, std::vector<uint32_t>& far,
                                     std::vector<uint32_t>& near) {
    // Without branches on the outcome, which follows no pattern the CPU could predict: each node
    // is written to both lists and counted in the one it belongs to, and all eight child slots
    // are written to the stack, of which it keeps the node's children if it opens. One start node
    // at a time, so the stack never outgrows kTraversalStackSize.
    uint32_t stack[kTraversalStackSize];
    thread_local std::vector<uint32_t> farFound, nearFound;  // reused by each call on a thread
    farFound.resize(nodes.size());
    nearFound.resize(nodes.size());
    size_t farCount = 0, nearCount = 0;
    for (uint32_t root : start) {
        int top = 0;
        stack[top++] = root;
        while (top > 0) {
            const uint32_t index = stack[--top];
            const TraversalNode& node = nodes[index];
            // The nearest target, radius inside the sphere, is beyond the cluster distance:
            // compared squared (both sides are non-negative), no square root per node.
            const vec3 offset = centre - node.centre;
            const float needed = radius + node.clusterDistance;
            const bool isFar = glm::dot(offset, offset) > needed * needed;
            const bool isLeaf = node.childCount == 0;
            farFound[farCount] = index;
            farCount += size_t(isFar);
            nearFound[nearCount] = index;
            nearCount += size_t(!isFar & isLeaf);
            for (uint32_t c = 0; c < 8; ++c) stack[top + int(c)] = node.firstChild + c;
            top += (!isFar & !isLeaf) ? int(node.childCount) : 0;
        }
    }
    far.insert(far.end(), farFound.begin(), farFound.begin() + long(farCount));
    near.insert(near.end(), nearFound.begin(), nearFound.begin() + long(nearCount));
}

namespace {

// One bit per lane where the comparison holds (lane l is bit l).
VFX_LANES_INLINE uint32_t laneBits(lanes::Lanes a, lanes::Lanes b) {
#if defined(__AVX__)
    return uint32_t(__builtin_ia32_movmskps256(a > b ? lanes::Lanes{} - 1.0f : lanes::Lanes{}));
#else
    using Mask = int32_t __attribute__((vector_size(lanes::kLanes * sizeof(int32_t))));
    const Mask bit = {1, 2, 4, 8, 16, 32, 64, 128};
    const Mask set = (a > b) & bit;
    uint32_t bits = 0;
    for (int l = 0; l < lanes::kLanes; ++l) bits |= uint32_t(set[l]);
    return bits;
#endif
}

}  // namespace

// Unfused: each lane's distance test must be the one collectInteractions computes for the block,
// bit for bit, so every block gets the same lists as its own traversal would.
VFX_SIMD_KERNEL_UNFUSED void VortonTree::collectForBlocks(const std::vector<TraversalNode>& nodes,
                                                          const std::vector<uint32_t>& open, const BlockSphere* spheres,
                                                          int count, GroupLists& lists) {
    using lanes::Lanes;
    Lanes cx{}, cy{}, cz{}, radius{};
    for (int b = 0; b < count; ++b) {
        cx[b] = spheres[b].centre.x;
        cy[b] = spheres[b].centre.y;
        cz[b] = spheres[b].centre.z;
        radius[b] = spheres[b].radius;
    }
    lists.capacity = nodes.size();
    lists.far.resize(8 * lists.capacity);
    lists.near.resize(8 * lists.capacity);
    uint32_t farCount[8] = {}, nearCount[8] = {};
    // As in collectInteractions: no branch on the outcome, each node written to every block's
    // lists and counted in the ones it belongs to, all eight child slots written and kept if
    // some block opens the node; each entry carries the blocks that reached it.
    uint32_t stackIndex[kTraversalStackSize], stackBlocks[kTraversalStackSize];
    const uint32_t allBlocks = (1u << count) - 1u;
    uint32_t* far = lists.far.data();
    uint32_t* near = lists.near.data();
    const size_t capacity = lists.capacity;
    for (uint32_t root : open) {
        int top = 0;
        stackIndex[top] = root;
        stackBlocks[top++] = allBlocks;
        while (top > 0) {
            --top;
            const uint32_t index = stackIndex[top], reached = stackBlocks[top];
            const TraversalNode& node = nodes[index];
            const Lanes ox = cx - node.centre.x, oy = cy - node.centre.y, oz = cz - node.centre.z;
            const Lanes needed = radius + node.clusterDistance;
            const uint32_t farBits = reached & laneBits(ox * ox + oy * oy + oz * oz, needed * needed);
            const uint32_t closeBits = reached & ~farBits;
            const bool isLeaf = node.childCount == 0;
            const uint32_t nearBits = isLeaf ? closeBits : 0u, openBits = isLeaf ? 0u : closeBits;
            for (uint32_t bits = farBits; bits != 0u; bits &= bits - 1u) {
                const int b = __builtin_ctz(bits);
                far[size_t(b) * capacity + farCount[b]++] = index;
            }
            for (uint32_t bits = nearBits; bits != 0u; bits &= bits - 1u) {
                const int b = __builtin_ctz(bits);
                near[size_t(b) * capacity + nearCount[b]++] = index;
            }
            for (uint32_t c = 0; c < 8; ++c) {
                stackIndex[top + int(c)] = node.firstChild + c;
                stackBlocks[top + int(c)] = openBits;
            }
            top += openBits != 0u ? int(node.childCount) : 0;
        }
    }
    std::copy(farCount, farCount + 8, lists.farCount);
    std::copy(nearCount, nearCount + 8, lists.nearCount);
}

void VortonTree::collectShared(const std::vector<TraversalNode>& nodes, const SharedTargets& g, SharedLists& lists) {
    lists.far.clear();
    lists.near.clear();
    lists.open.clear();
    std::vector<uint32_t>& stack = traversalStack();
    stack.assign(1, 0u);
    while (!stack.empty()) {
        const uint32_t index = stack.back();
        stack.pop_back();
        const TraversalNode& node = nodes[index];
        const float distance = glm::length(g.centre - node.centre);
        if (distance - g.enclosingRadius > node.clusterDistance) {
            lists.far.push_back(index);  // every block's sphere lies inside g's: far for each
        } else if (distance + g.largestGapGain + g.margin > node.clusterDistance) {
            lists.open.push_back(index);  // some block may take it as a cluster: each decides
        } else if (node.childCount == 0) {
            lists.near.push_back(index);  // no block can: summed vorton by vorton by all
        } else {
            for (uint32_t c = 0; c < node.childCount; ++c) stack.push_back(node.firstChild + c);
        }
    }
}

}  // namespace vfx
