// Evaluating the vorton tree on a grid, in blocks of 2x2x2 points and groups of 2x2x2 blocks.
//
// Neighbouring grid points need almost the same clusters, so a 2x2x2 block of them shares one
// traversal. A node is taken as a cluster when it is far enough from every point of the block's
// bounding sphere (size < theta (d - R), the cores out of reach, the estimated error small: see
// clusterDistance), which implies the per-point criterion of velocityAt for each target:
// accuracy is the same or better. The block's points are then evaluated together, the loops
// running over them in SIMD lanes (structure of arrays, a fixed lane count, no branches).
// Deterministic: blocks depend only on the grid, and each point sums its block's lists in list
// order whatever thread runs it. Bigger blocks are slower: their wider sphere sends more vortons
// to the direct sum.
// A group of 2x2x2 blocks first finds what all of them share (collectShared); below the nodes
// where they differ, one traversal serves the eight blocks at once, a block in each lane of the
// distance test, and hands each block the lists its own traversal would make, in the same order.
#include "sim/velocity_solver.hpp"

#include "core/parallel.hpp"
#include "sim/vorton_tree_target_block.hpp"

#include <algorithm>
#include <array>

namespace vfx {

namespace {

// Grid points per block along x, y, z: one SIMD lane each.
const ivec3 kBlockDims(2, 2, 2);
// Blocks per group along x, y, z: a group's blocks share the top of their tree traversal.
const ivec3 kGroupDims(2, 2, 2);
static_assert(lanes::kLanes == 8, "a 2x2x2 block fills the lanes");

}  // namespace

void VortonTree::velocityOnGrid(const GridShape& shape, std::vector<vec3>& out, float theta) const {
    if (nodes_.empty()) {
        out.assign(shape.pointCount(), vec3(0.0f));
        return;
    }
    out.resize(shape.pointCount());  // each point lies in one block, which writes it
    const ivec3 blocks = (shape.points + kBlockDims - ivec3(1)) / kBlockDims;
    const ivec3 groups = (blocks + kGroupDims - ivec3(1)) / kGroupDims;
    const std::vector<TraversalNode> nodes = traversalNodes(theta);
    parallelForEach(
        0, size_t(groups.x) * size_t(groups.y) * size_t(groups.z),
        [&](size_t gi) {
            const ivec3 firstBlock =
                kGroupDims * ivec3(int(gi % size_t(groups.x)), int((gi / size_t(groups.x)) % size_t(groups.y)),
                                   int(gi / (size_t(groups.x) * size_t(groups.y))));
            const ivec3 lastBlock = glm::min(firstBlock + kGroupDims, blocks) - ivec3(1);
            // The group's blocks as target spheres, and one traversal for what they share.
            std::array<BlockSphere, 8> spheres;
            int count = 0;
            for (int bz = firstBlock.z; bz <= lastBlock.z; ++bz)
                for (int by = firstBlock.y; by <= lastBlock.y; ++by)
                    for (int bx = firstBlock.x; bx <= lastBlock.x; ++bx)
                        spheres[size_t(count++)] = blockSphere(shape, ivec3(bx, by, bz));
            SharedLists shared;
            collectShared(nodes, sharedTargets(spheres.data(), count), shared);
            thread_local GroupLists own;  // reused by the groups a thread runs (refilled by each)
            collectForBlocks(nodes, shared.open, spheres.data(), count, own);
            for (int k = 0; k < count; ++k) {
                const size_t ownFirst = size_t(k) * own.capacity;
                const InteractionRuns lists{
                    {{shared.far.data(), shared.far.size()}, {&own.far[ownFirst], own.farCount[k]}},
                    {{shared.near.data(), shared.near.size()}, {&own.near[ownFirst], own.nearCount[k]}}};
                evaluateGridBlock(shape, spheres[size_t(k)].first, lists, out);
            }
        },
        1);
}

VortonTree::SharedTargets VortonTree::sharedTargets(const BlockSphere* spheres, int count) {
    SharedTargets group;
    group.centre = 0.5f * (spheres[0].centre + spheres[count - 1].centre);
    group.enclosingRadius = 0.0f;
    group.largestGapGain = -1e30f;
    for (int k = 0; k < count; ++k) {
        const float offset = glm::length(spheres[k].centre - group.centre);
        group.enclosingRadius = std::max(group.enclosingRadius, offset + spheres[k].radius);
        group.largestGapGain = std::max(group.largestGapGain, offset - spheres[k].radius);
    }
    // Rounding in the distances must never make the group decide for a block what the block's
    // own test would decide otherwise: both bounds err on the safe side.
    group.margin = 1e-4f * group.enclosingRadius + 1e-6f * glm::length(group.centre);
    group.enclosingRadius += group.margin;
    return group;
}

VortonTree::BlockSphere VortonTree::blockSphere(const GridShape& shape, const ivec3& block) {
    BlockSphere b;
    b.first = kBlockDims * block;
    const ivec3 last = glm::min(b.first + kBlockDims, shape.points) - ivec3(1);
    const vec3 lo = shape.pointPosition(b.first.x, b.first.y, b.first.z),
               hi = shape.pointPosition(last.x, last.y, last.z);
    b.centre = 0.5f * (lo + hi);
    b.radius = 0.5f * glm::length(hi - lo) * 1.0001f + 1e-7f;
    return b;
}

void VortonTree::evaluateGridBlock(const GridShape& shape, const ivec3& first, const InteractionRuns& lists,
                                   std::vector<vec3>& out) const {
    const ivec3 last = glm::min(first + kBlockDims, shape.points) - ivec3(1);
    // Lanes of points outside the grid repeat the block's first point (results dropped).
    TargetBlock block;
    size_t lane = 0;
    for (int z = first.z; z < first.z + kBlockDims.z; ++z)
        for (int y = first.y; y < first.y + kBlockDims.y; ++y)
            for (int x = first.x; x < first.x + kBlockDims.x; ++x, ++lane) {
                const bool inside = x <= last.x && y <= last.y && z <= last.z;
                const vec3 p = inside ? shape.pointPosition(x, y, z) : shape.pointPosition(first.x, first.y, first.z);
                block.x[lane] = p.x;
                block.y[lane] = p.y;
                block.z[lane] = p.z;
            }
    evaluateBlock(block, lists);
    constexpr float inv4Pi = 1.0f / (4.0f * kPi);
    lane = 0;
    for (int z = first.z; z < first.z + kBlockDims.z; ++z)
        for (int y = first.y; y < first.y + kBlockDims.y; ++y)
            for (int x = first.x; x < first.x + kBlockDims.x; ++x, ++lane)
                if (x <= last.x && y <= last.y && z <= last.z)
                    out[shape.index(x, y, z)] = vec3(block.ux[lane], block.uy[lane], block.uz[lane]) * inv4Pi;
}

}  // namespace vfx
