// The vorton tree (sim/velocity_solver.hpp, Barnes-Hut with dipole corrections) against direct
// summation: a vortex ring at the vortons and on the step's grid within 1% RMS, exact at opening
// angle 0, the blocked grid and Morton-block evaluations as accurate as one traversal per point,
// and the shared group traversal handing each block exactly its own interaction lists.
#include "sim/direct_velocity.hpp"
#include "sim/simulation.hpp"
#include "sim/velocity_solver.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace vfx {
namespace {

// --- tree code vs direct summation ---------------------------------------------------------

// Vortex ring R = 1, a = 0.25, Gamma = 1, N = 4096 random vortons. The tree code (Barnes-Hut
// with dipole corrections) at the default opening angle must reproduce direct summation at
// the vortons with relative RMS error  sqrt(sum |u_tree - u_direct|^2 / sum |u_direct|^2) <= 1%.
TEST(TreeVsDirect, VortexRingRelativeRmsErrorBelowOnePercent) {
    Vortons v;
    test::addVortexRing(v, test::RingSpec{});
    const float theta = FluidParams{}.treeOpeningAngle;
    std::vector<vec3> direct, tree;
    directVelocity(v, v.position, direct);
    VortonTree t;
    t.build(v);
    t.velocity(v.position, tree, theta);
    const double error = test::relativeRms(tree, direct);
    std::cout << "tree vs direct, ring N=4096, theta=" << theta << ": relative RMS error " << 100.0 * error << " %\n";
    ::testing::Test::RecordProperty("tree_rms_error_percent", std::to_string(100.0 * error));
    EXPECT_LE(error, 0.01);
    // A wider opening angle must cost accuracy (the criterion is really used).
    std::vector<vec3> coarse;
    t.velocity(v.position, coarse, 1.0f);
    EXPECT_GT(test::relativeRms(coarse, direct), error);
}

// The same ring on the grid a simulation step lays around it, out to the grid's corners where
// the velocity is small: the velocity phase's error budget, 1% RMS against direct summation at
// the default angle, holds there too, for the blocked grid evaluation and for one traversal per
// point. The angle test alone took big arcs of the ring as single clusters seen from the corners
// (1.46% RMS, a third of the local velocity at the worst points): the clusters' estimated
// truncation error must also be small against the field's scale.
TEST(TreeVsDirect, VortexRingOnTheStepGridRelativeRmsErrorBelowOnePercent) {
    Simulation sim;
    test::addVortexRing(sim.vortons(), test::RingSpec{});
    sim.step(1e-4f);
    const GridShape& shape = sim.gridShape();
    std::vector<vec3> points;
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) points.push_back(shape.pointPosition(x, y, z));
    std::vector<vec3> direct, tree;
    directVelocity(sim.vortons(), points, direct);
    VortonTree t;
    t.build(sim.vortons());
    t.velocityOnGrid(shape, tree, FluidParams{}.treeOpeningAngle);
    const double error = test::relativeRms(tree, direct);
    std::vector<vec3> perPoint;
    t.velocityPerPoint(points, perPoint, FluidParams{}.treeOpeningAngle);
    const double perPointError = test::relativeRms(perPoint, direct);
    std::printf(
        "tree vs direct, ring N=4096 on the step's grid (%zu points): relative RMS error %.3f%% blocked, "
        "%.3f%% per point\n",
        points.size(), 100.0 * error, 100.0 * perPointError);
    EXPECT_LE(error, 0.01);
    EXPECT_LE(perPointError, 0.01);
}

// --- opening angle, grid blocks and shared traversals ----------------------------------------

// With opening angle 0 no cluster is ever accepted, so the tree sums every vorton: it must
// agree with direct summation to float round-off (relative RMS < 1e-5).
TEST(VortonTree, ZeroOpeningAngleEqualsDirect) {
    Vortons v;
    test::addVortexRing(v, test::RingSpec{vec3(0.1f, 0.2f, -0.3f), 1.0f, 0.25f, 1.0f, 1500, 4});
    VortonTree tree;
    tree.build(v);
    std::vector<vec3> direct, viaTree;
    directVelocity(v, v.position, direct);
    tree.velocity(v.position, viaTree, 0.0f);
    EXPECT_LT(test::relativeRms(viaTree, direct), 1e-5);
}

// Points of a grid around a ring, in index order, with the grid (odd counts per axis, so the
// last 2x2x2 blocks are partial).
std::pair<GridShape, std::vector<vec3>> gridAroundRing(const Vortons& v) {
    vec3 lo(1e30f), hi(-1e30f);
    for (const vec3& p : v.position) lo = glm::min(lo, p), hi = glm::max(hi, p);
    GridShape shape = GridShape::fitBox(lo, hi, 3000, 1e-4f);
    for (int a = 0; a < 3; ++a) shape.points[a] |= 1;
    std::vector<vec3> points(shape.pointCount());
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) points[shape.index(x, y, z)] = shape.pointPosition(x, y, z);
    return {shape, points};
}

TEST(VortonTree, GridBlocksMatchDirectSummation) {
    // The blocked grid evaluation (2x2x2 points share a traversal, SIMD over the points) at
    // theta = 0 is direct summation (1e-5: float rounding of sums of 1 500 terms, ~sqrt(1500)
    // 6e-8), and at the default theta every point sums the same or nearer clusters than its own
    // traversal would (the block's acceptance test is stricter). Nearer clusters usually, not
    // always, err less: 5% slack on the per-point error, no theorem behind the margin. Measured:
    // 1500-vorton ring, 5 103 grid points: per point 0.70%, blocked 0.42% RMS.
    Vortons v;
    test::addVortexRing(v, test::RingSpec{vec3(0.1f, 0.2f, -0.3f), 1.0f, 0.25f, 1.0f, 1500, 4});
    VortonTree tree;
    tree.build(v);
    const auto [shape, points] = gridAroundRing(v);
    std::vector<vec3> direct, exact, blocked, perPoint;
    directVelocity(v, points, direct);
    tree.velocityOnGrid(shape, exact, 0.0f);
    EXPECT_LT(test::relativeRms(exact, direct), 1e-5);
    const float theta = FluidParams{}.treeOpeningAngle;
    tree.velocityOnGrid(shape, blocked, theta);
    tree.velocityPerPoint(points, perPoint, theta);
    const double blockedError = test::relativeRms(blocked, direct), perPointError = test::relativeRms(perPoint, direct);
    std::printf("grid around a ring, %zu points: per-point RMS error %.3f%%, blocked %.3f%%\n", points.size(),
                100.0 * perPointError, 100.0 * blockedError);
    EXPECT_LE(blockedError, perPointError * 1.05);
    EXPECT_LT(blockedError, 0.01);
}

TEST(VortonTree, GridBlocksAtASmallOpeningAngleStayAsAccurateAsPerPoint) {
    // At a small opening angle a group of blocks leaves many nodes for each block to decide (the
    // nodes in a shell about size / theta away): the traversal must handle any number of them,
    // and each block still gets the interactions its own traversal would, so it is at least as
    // accurate as the per-point traversal at the same angle.
    Vortons v;  // a swirling ball: 16,384 vortons, a few thousand tree nodes
    test::addBall(v, test::BallSpec{vec3(0.0f), 0.5f, 16384, 0.0f, vec3(0.0f), 5});
    for (size_t i = 0; i < v.size(); ++i) v.vorticity[i] = vec3(-v.position[i].y, v.position[i].x, 1.0f);
    VortonTree tree;
    tree.build(v);
    const auto [shape, points] = gridAroundRing(v);
    std::vector<vec3> direct, blocked, perPoint;
    directVelocity(v, points, direct);
    for (float theta : {0.05f, 0.15f}) {
        tree.velocityOnGrid(shape, blocked, theta);
        tree.velocityPerPoint(points, perPoint, theta);
        const double blockedError = test::relativeRms(blocked, direct);
        // Same criterion, stricter per block: as accurate as per point up to the 5% slack of the
        // test above (nearer clusters usually, not always, err less), plus 1e-7 of float
        // rounding when both are near exact.
        EXPECT_LE(blockedError, test::relativeRms(perPoint, direct) * 1.05 + 1e-7) << "theta " << theta;
        // The second-order expansion's error falls as theta^3: from ~0.6% at the default 0.7
        // (the grid test above) to ~0.01% at 0.15, so 0.1% is a bound the method must meet.
        EXPECT_LT(blockedError, 1e-3) << "theta " << theta;
    }
}

}  // namespace

// Reaches the tree's private traversal pieces (a friend of VortonTree).
struct VortonTreeInternals {
    // For every 2x2x2 group of the grid's 2x2x2-point blocks: the lists the shared traversal hands
    // each block must be, entry for entry, the lists the block's own traversal from the group's
    // open nodes makes. Returns how many blocks were compared and how many open nodes there were.
    static std::pair<size_t, size_t> compareGroupTraversals(const VortonTree& tree, const GridShape& shape,
                                                            float theta) {
        const std::vector<VortonTree::TraversalNode> nodes = tree.traversalNodes(theta);
        const ivec3 blocks = (shape.points + ivec3(1)) / 2;
        size_t compared = 0, openNodes = 0;
        for (int gz = 0; gz < blocks.z; gz += 2)
            for (int gy = 0; gy < blocks.y; gy += 2)
                for (int gx = 0; gx < blocks.x; gx += 2) {
                    std::array<VortonTree::BlockSphere, 8> spheres;
                    int count = 0;
                    for (int bz = gz; bz < std::min(gz + 2, blocks.z); ++bz)
                        for (int by = gy; by < std::min(gy + 2, blocks.y); ++by)
                            for (int bx = gx; bx < std::min(gx + 2, blocks.x); ++bx)
                                spheres[size_t(count++)] = VortonTree::blockSphere(shape, ivec3(bx, by, bz));
                    VortonTree::SharedLists shared;
                    VortonTree::collectShared(nodes, VortonTree::sharedTargets(spheres.data(), count), shared);
                    openNodes += shared.open.size();
                    VortonTree::GroupLists group;
                    VortonTree::collectForBlocks(nodes, shared.open, spheres.data(), count, group);
                    for (int k = 0; k < count; ++k) {
                        std::vector<uint32_t> far, near;
                        VortonTree::collectInteractions(nodes, shared.open, spheres[size_t(k)].centre,
                                                        spheres[size_t(k)].radius, far, near);
                        const uint32_t* groupFar = group.far.data() + size_t(k) * group.capacity;
                        const uint32_t* groupNear = group.near.data() + size_t(k) * group.capacity;
                        EXPECT_EQ(far, std::vector<uint32_t>(groupFar, groupFar + group.farCount[k]));
                        EXPECT_EQ(near, std::vector<uint32_t>(groupNear, groupNear + group.nearCount[k]));
                        ++compared;
                    }
                }
        return {compared, openNodes};
    }
};

namespace {

TEST(VortonTree, SharedGroupTraversalGivesEachBlockItsOwnListsInOrder) {
    // The grid evaluation traverses once for a group's eight blocks (a block per SIMD lane) below
    // the nodes where they differ; each block's sum depends on its lists' order, so they must be
    // exactly its own traversal's. A ring (odd point counts: partial groups) and a swirling ball,
    // at the default angle and at a small one (many nodes left for the blocks to decide).
    Vortons ring, ball;
    test::addVortexRing(ring, test::RingSpec{vec3(0.1f, 0.2f, -0.3f), 1.0f, 0.25f, 1.0f, 1500, 4});
    test::addBall(ball, test::BallSpec{vec3(0.0f), 0.5f, 8192, 0.0f, vec3(0.0f), 5});
    for (size_t i = 0; i < ball.size(); ++i) ball.vorticity[i] = vec3(-ball.position[i].y, ball.position[i].x, 1.0f);
    for (const Vortons* v : {&ring, &ball}) {
        VortonTree tree;
        tree.build(*v);
        const GridShape shape = gridAroundRing(*v).first;
        for (float theta : {FluidParams{}.treeOpeningAngle, 0.15f}) {
            const auto [compared, openNodes] = VortonTreeInternals::compareGroupTraversals(tree, shape, theta);
            EXPECT_GT(compared, 500u);
            EXPECT_GT(openNodes, compared / 8) << "the groups must leave nodes for their blocks to decide";
        }
    }
}

TEST(VortonTree, ScatteredPointsInMortonBlocksAreAsAccurateAsPerPoint) {
    // Scattered points (the vortons themselves, shuffled, and points far outside the ring; a
    // count that leaves the last block partial) taken in Morton-ordered blocks of eight: each
    // block's acceptance test holds for each of its points, so every point sums the same or
    // nearer clusters than its own traversal would. Nearer clusters usually, not always, err
    // less, so the blocked sum is held to the per-point error with 5% slack (as above, no theorem
    // behind the margin), and at theta = 0 both are direct summation (1e-5 RMS: float rounding).
    Vortons v;
    test::addVortexRing(v, test::RingSpec{vec3(0.1f, 0.2f, -0.3f), 1.0f, 0.25f, 1.0f, 1500, 4});
    std::vector<vec3> points = v.position;
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> coord(-4.0f, 4.0f);
    for (int k = 0; k < 203; ++k) points.push_back(vec3(coord(rng), coord(rng), coord(rng)));
    std::shuffle(points.begin(), points.end(), rng);
    ASSERT_NE(points.size() % 8, 0u);
    VortonTree tree;
    tree.build(v);
    std::vector<vec3> direct, blocked, perPoint;
    directVelocity(v, points, direct);
    tree.velocity(points, blocked, 0.0f);
    EXPECT_LT(test::relativeRms(blocked, direct), 1e-5);
    // Each point got its own sum, not another lane's: at theta = 0 every point is direct
    // summation up to float rounding (1e-4 of the largest speed; a swapped point is off by the
    // field's own scale).
    float largest = 0.0f;
    for (const vec3& u : direct) largest = std::max(largest, glm::length(u));
    for (size_t p = 0; p < points.size(); ++p) ASSERT_LT(glm::length(blocked[p] - direct[p]), 1e-4f * largest) << p;
    const float theta = FluidParams{}.treeOpeningAngle;
    tree.velocity(points, blocked, theta);
    tree.velocityPerPoint(points, perPoint, theta);
    const double blockedError = test::relativeRms(blocked, direct), perPointError = test::relativeRms(perPoint, direct);
    std::printf("scattered points around a ring, %zu points: per-point RMS error %.3f%%, blocked %.3f%%\n",
                points.size(), 100.0 * perPointError, 100.0 * blockedError);
    EXPECT_LE(blockedError, perPointError * 1.05);
    EXPECT_LT(blockedError, 0.01);
}

}  // namespace
}  // namespace vfx
