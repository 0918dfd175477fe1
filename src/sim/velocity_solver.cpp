#include "sim/velocity_solver.hpp"

#include "core/parallel.hpp"
#include "core/simd_lanes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace vfx {

void directVelocity(const Vortons& vortons, const std::vector<vec3>& points, std::vector<vec3>& out) {
    const size_t n = vortons.size();
    std::vector<vec3> alpha(n);
    for (size_t i = 0; i < n; ++i) alpha[i] = vortons.vorticity[i] * vortons.volume(i);
    out.assign(points.size(), vec3(0.0f));
    parallelForEach(
        0, points.size(),
        [&](size_t p) {
            vec3 u(0.0f);
            for (size_t i = 0; i < n; ++i)
                u += vortonVelocity(points[p], vortons.position[i], alpha[i], vortons.radius[i]);
            out[p] = u;
        },
        16);
}

namespace {

// Spreads the low 10 bits of v so there are two zero bits between each (Morton interleave).
uint32_t spreadBits(uint32_t v) {
    v &= 0x3ffu;
    v = (v | (v << 16)) & 0x030000ffu;
    v = (v | (v << 8)) & 0x0300f00fu;
    v = (v | (v << 4)) & 0x030c30c3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

constexpr int kMaxDepth = 10;  // 10 bits per axis in the Morton code

// A branch-free traversal from one start node holds at most one root-to-leaf path's waiting
// siblings (7 per level of at most kMaxDepth + 1 levels) plus the eight child slots it writes
// past the top.
constexpr int kTraversalStackSize = 7 * (kMaxDepth + 1) + 1 + 8;

// The factor on theta^3 U that a cluster's estimated truncation error must stay below (see
// computeAllMoments). Chosen by measurement: it brings a ring's step grid from 1.46% to 0.51% RMS
// at theta 0.7 and leaves the heavy drop's grid as it was; 10 left the ring at 0.71%.
constexpr float kClusterErrorShare = 5.0f;

// errorReach is for theta = 1; at theta the tolerance is theta^3 times smaller, and g - size must
// be theta^(-3/5) times larger (the estimate falls as the fifth power of g - size).
float errorReachScale(float theta) { return theta > 0.0f ? std::pow(theta, -0.6f) : 0.0f; }

// Sorts keys [begin, end) of one bucket by their Morton code bits below the bucket's: a stable
// least-significant-digit radix sort, 8 bits a pass. The keys arrive in ascending index (the
// bucketing pass is stable), and stable passes keep that order among equal codes, so the result
// is the order of the whole (code, index) key.
void radixSortBucket(uint64_t* keys, uint64_t* scratch, size_t count, int codeBits) {
    if (count < 2) return;
    if (count <= 32) {
        std::sort(keys, keys + count);
        return;
    }
    uint64_t* from = keys;
    uint64_t* to = scratch;
    for (int shift = 0; shift < codeBits; shift += 8) {
        std::array<uint32_t, 257> start{};
        for (size_t k = 0; k < count; ++k) ++start[size_t((from[k] >> (32 + shift)) & 0xffu) + 1];
        for (size_t d = 0; d < 256; ++d) start[d + 1] += start[d];
        for (size_t k = 0; k < count; ++k) to[start[size_t((from[k] >> (32 + shift)) & 0xffu)]++] = from[k];
        std::swap(from, to);
    }
    if (from != keys) std::copy(from, from + count, keys);
}

// Sorts (Morton code << 32 | index) keys: a counting pass splits them by the code's top bits
// into buckets, which are then radix-sorted in parallel, with no merge. The keys are unique, so
// the result is the same for any thread count.
void sortKeysInParallel(std::vector<uint64_t>& keys) {
    const size_t n = keys.size();
    if (n < 4096) {
        std::sort(keys.begin(), keys.end());
        return;
    }
    constexpr int kBucketBits = 6;  // 64 buckets: the top two octree levels
    constexpr int kShift = 32 + 3 * kMaxDepth - kBucketBits;
    constexpr size_t kBuckets = size_t(1) << kBucketBits;
    std::array<size_t, kBuckets + 1> start{};
    for (uint64_t key : keys) ++start[size_t(key >> kShift) + 1];
    for (size_t b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
    std::vector<uint64_t> bucketed(n);
    std::array<size_t, kBuckets> next{};
    std::copy(start.begin(), start.end() - 1, next.begin());
    for (uint64_t key : keys) bucketed[next[size_t(key >> kShift)]++] = key;
    // keys is free now: each bucket uses its own stretch of it as scratch.
    parallelForEach(
        0, kBuckets,
        [&](size_t b) {
            radixSortBucket(bucketed.data() + start[b], keys.data() + start[b], start[b + 1] - start[b],
                            3 * kMaxDepth - kBucketBits);
        },
        1);
    keys.swap(bucketed);
}

// (Morton code << 32 | index) of each position in the cube over their bounding box, sorted: the
// positions' octree order. Keys are unique, so the order is the same for any thread count.
std::vector<uint64_t> sortedMortonKeys(const std::vector<vec3>& positions) {
    const size_t n = positions.size();
    vec3 lo(positions[0]), hi(positions[0]);
    for (const vec3& p : positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const float side = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, 1e-6f}) * 1.0001f;
    const float scale = 1024.0f / side;
    std::vector<uint64_t> keys(n);
    parallelForEach(
        0, n,
        [&](size_t i) {
            const vec3 q = (positions[i] - lo) * scale;
            const uint32_t x = uint32_t(std::clamp(q.x, 0.0f, 1023.0f));
            const uint32_t y = uint32_t(std::clamp(q.y, 0.0f, 1023.0f));
            const uint32_t z = uint32_t(std::clamp(q.z, 0.0f, 1023.0f));
            const uint32_t code = spreadBits(x) | (spreadBits(y) << 1) | (spreadBits(z) << 2);
            keys[i] = (uint64_t(code) << 32) | uint64_t(i);
        },
        4096);
    sortKeysInParallel(keys);
    return keys;
}

}  // namespace

void VortonTree::build(const Vortons& vortons) {
    nodes_.clear();
    const size_t n = vortons.size();
    order_.resize(n);
    pos_.resize(n);
    alpha_.resize(n);
    sigma_.resize(n);
    strength_.resize(n);
    if (n == 0) return;

    const std::vector<uint64_t> keys = sortedMortonKeys(vortons.position);
    std::vector<uint32_t> sortedCode(n);
    parallelForEach(
        0, n,
        [&](size_t k) {
            const uint32_t i = uint32_t(keys[k] & 0xffffffffu);
            order_[k] = i;
            pos_[k] = vortons.position[i];
            alpha_[k] = vortons.vorticity[i] * vortons.volume(i);
            sigma_[k] = vortons.radius[i];
            strength_[k] = glm::length(alpha_[k]);
            sortedCode[k] = uint32_t(keys[k] >> 32);
        },
        4096);
    codes_ = std::move(sortedCode);
    nodes_.reserve(2 * n / kLeafSize + 16);
    nodes_.emplace_back();
    buildNode(0, 0, uint32_t(n), 0);
    computeAllMoments();
}

uint32_t VortonTree::buildNode(uint32_t self, uint32_t begin, uint32_t end, int depth) {
    // nodes_[self] was made zeroed (moments are summed later): only the layout is set here.
    const bool leaf = (end - begin) <= kLeafSize || depth >= kMaxDepth;
    if (!leaf) {
        // Children are the runs of equal 3-bit Morton digit at this depth. The codes are sorted
        // and share every digit above this one, so the digit never decreases: each run's end is
        // found by bisection instead of a scan over the node's vortons.
        const int shift = 3 * (kMaxDepth - 1 - depth);
        uint32_t childBegins[9];
        uint32_t childCount = 0;
        uint32_t k = begin;
        while (k < end) {
            const uint32_t digit = (codes_[k] >> shift) & 7u;
            const auto runEnd = std::partition_point(codes_.begin() + k, codes_.begin() + end,
                                                     [&](uint32_t code) { return ((code >> shift) & 7u) == digit; });
            childBegins[childCount++] = k;
            k = uint32_t(runEnd - codes_.begin());
        }
        childBegins[childCount] = end;
        if (childCount == 1) {
            // All points share this digit: descend without creating a node level.
            return buildNode(self, begin, end, depth + 1);
        }
        const uint32_t firstChild = uint32_t(nodes_.size());
        nodes_.resize(nodes_.size() + childCount);
        for (uint32_t c = 0; c < childCount; ++c)
            buildNode(firstChild + c, childBegins[c], childBegins[c + 1], depth + 1);
        nodes_[self].firstChild = firstChild;
        nodes_[self].childCount = childCount;
    }
    nodes_[self].begin = begin;
    nodes_[self].end = end;
    return self;
}

// Where a node's expansion centre comes from: its vortons' |alpha|-weighted position sum, and
// the plain one for a node whose vortons all have zero strength.
struct VortonTree::CentreSums {
    float weight = 0.0f;
    vec3 weighted{0.0f};
    vec3 plain{0.0f};
    vec3 centre(uint32_t count) const { return weight > 0.0f ? weighted / weight : plain / float(count); }
};

void VortonTree::computeAllMoments() {
    // Leaves sum their vortons (in parallel); a parent then shifts its children's moments to its
    // own centre, which costs a few operations per child instead of a pass over every vorton
    // below it. Only the bounding radius needs the vortons again (an exact radius keeps the
    // opening test as tight as before); that pass is in parallel.
    std::vector<CentreSums> sums(nodes_.size());
    parallelForEach(
        0, nodes_.size(),
        [&](size_t k) {
            if (nodes_[k].childCount == 0) sums[k] = leafMoments(nodes_[k]);
        },
        16);
    // Parents one tree level at a time, deepest first: within a level they are independent.
    std::vector<std::vector<uint32_t>> parentsByLevel(1);
    std::vector<uint32_t> level(nodes_.size(), 0);
    for (uint32_t k = 0; k < nodes_.size(); ++k) {
        const Node& node = nodes_[k];
        if (node.childCount == 0) continue;
        if (parentsByLevel.size() <= level[k]) parentsByLevel.resize(level[k] + 1);
        parentsByLevel[level[k]].push_back(k);
        for (uint32_t c = node.firstChild; c < node.firstChild + node.childCount; ++c) level[c] = level[k] + 1;
    }
    for (size_t l = parentsByLevel.size(); l-- > 0;) {
        const std::vector<uint32_t>& parents = parentsByLevel[l];
        parallelForEach(
            0, parents.size(), [&](size_t p) { sums[parents[p]] = combineChildren(nodes_[parents[p]], sums); }, 16);
    }
    parallelForEach(
        0, nodes_.size(),
        [&](size_t k) {
            Node& node = nodes_[k];
            if (node.childCount == 0) return;
            float size2 = 0.0f, strength3 = 0.0f;
            for (uint32_t v = node.begin; v < node.end; ++v) {
                const vec3 d = pos_[v] - node.centre;
                const float distance2 = glm::dot(d, d);
                size2 = std::max(size2, distance2);
                strength3 += strength_[v] * distance2 * std::sqrt(distance2);
            }
            node.size = std::sqrt(size2);
            node.strength3 = strength3;
        },
        16);
    // The field's scale: all the strength at its strength-weighted radius about the root's centre,
    // U = sum |alpha| / (4 pi R^2), R^2 = sum |alpha| d^2 / sum |alpha| (vortons without strength,
    // however far, do not change it). A cluster's expansion misses terms of order |d|^3, which we
    // estimate as strength3 / (4 pi (g - size)^5) at a target g from its centre (an estimate, up to
    // a constant factor, not a bound). A cluster is taken only where that is below
    // kClusterErrorShare theta^3 U, that is g > size + errorReach theta^(-3/5). The angle test
    // alone passes big, strong clusters seen from beside them (an arc of a vortex ring from the
    // grid's corners, where the velocity is small): their error there was a third of the local
    // velocity, and 1.46% RMS over a ring's grid at theta 0.7. Weak clusters keep the angle test.
    const vec3 rootCentre = nodes_[0].centre;
    const float totalStrength = sums[0].weight;  // sum |alpha| over every vorton
    double spread = 0.0;                         // sum |alpha| d^2 about the root's centre
    for (size_t v = 0; v < pos_.size(); ++v) {
        const vec3 d = pos_[v] - rootCentre;
        spread += double(strength_[v]) * double(glm::dot(d, d));
    }
    const float radius2 = totalStrength > 0.0f ? float(spread / double(totalStrength)) : 0.0f;
    const float scale = totalStrength / std::max(radius2, 1e-12f);
    parallelForEach(
        0, nodes_.size(),
        [&](size_t k) {
            Node& node = nodes_[k];
            node.errorReach = scale > 0.0f ? std::pow(node.strength3 / (kClusterErrorShare * scale), 0.2f) : 0.0f;
        },
        1024);
    farTerms_.resize(nodes_.size());
    parallelForEach(
        0, nodes_.size(), [&](size_t k) { farTerms_[k] = farTermsOf(nodes_[k]); }, 1024);
}

VortonTree::FarTerms VortonTree::farTermsOf(const Node& node) {
    FarTerms t;
    t.centre = node.centre;
    t.alpha = node.alpha;
    t.twist = node.twist;
    const mat3* q = node.quad;  // symmetric: q[a][col][row] = q[a][row][col]
    for (int a = 0; a < 3; ++a) t.traceTerm[a] = 1.5f * (q[a][0][0] + q[a][1][1] + q[a][2][2]);
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) t.dipoleRows[row][col] = 3.0f * node.dipole[col][row];
    // (B r)_x = (Q_1 r)_z - (Q_2 r)_y, (B r)_y = (Q_2 r)_x - (Q_0 r)_z, (B r)_z = (Q_0 r)_y - (Q_1 r)_x.
    for (int col = 0; col < 3; ++col) {
        t.curlRows[0][col] = 3.0f * (q[1][col][2] - q[2][col][1]);
        t.curlRows[1][col] = 3.0f * (q[2][col][0] - q[0][col][2]);
        t.curlRows[2][col] = 3.0f * (q[0][col][1] - q[1][col][0]);
    }
    for (int a = 0; a < 3; ++a) {
        const float entries[6] = {q[a][0][0],        q[a][1][1],        q[a][2][2],
                                  2.0f * q[a][0][1], 2.0f * q[a][0][2], 2.0f * q[a][1][2]};
        for (int e = 0; e < 6; ++e) t.quadForm[a][e] = 7.5f * entries[e];
    }
    return t;
}

VortonTree::CentreSums VortonTree::leafMoments(Node& node) const {
    CentreSums sums;
    for (uint32_t k = node.begin; k < node.end; ++k) {
        const float w = strength_[k];
        sums.weight += w;
        sums.weighted += w * pos_[k];
        sums.plain += pos_[k];
        node.alpha += alpha_[k];
        node.maxSigma = std::max(node.maxSigma, sigma_[k]);
    }
    node.centre = sums.centre(node.end - node.begin);
    // Sums in locals (the node's members could alias the vorton arrays, so the compiler would
    // store them every iteration) and each quad[a] by its six distinct entries: d_i d_j is the
    // same product either way round.
    const vec3 centre = node.centre;
    float size2 = 0.0f, strength3 = 0.0f;
    mat3 dipole(0.0f);
    vec3 twist(0.0f);
    float quad[3][6] = {};
    for (uint32_t k = node.begin; k < node.end; ++k) {
        const vec3 d = pos_[k] - centre;
        const vec3 a = alpha_[k];
        const float distance2 = glm::dot(d, d);
        size2 = std::max(size2, distance2);
        strength3 += strength_[k] * distance2 * std::sqrt(distance2);
        dipole += glm::outerProduct(a, d);
        twist += glm::cross(a, d);
        const float dd[6] = {d.x * d.x, d.y * d.x, d.z * d.x, d.y * d.y, d.z * d.y, d.z * d.z};
        for (int c = 0; c < 3; ++c)
            for (int e = 0; e < 6; ++e) quad[c][e] += a[c] * dd[e];
    }
    node.size = std::sqrt(size2);  // the largest distance: sqrt is monotonic and exactly rounded
    node.strength3 = strength3;
    node.dipole = dipole;
    node.twist = twist;
    for (int c = 0; c < 3; ++c) {
        const float* q = quad[c];
        node.quad[c] = mat3(q[0], q[1], q[2], q[1], q[3], q[4], q[2], q[4], q[5]);
    }
    return sums;
}

// Moments about a new centre from moments about the old one, with delta = old - new, so each
// offset d becomes d + delta:
//   dipole += alpha delta^T, twist += alpha x delta,
//   quad_a += m_a delta^T + delta m_a^T + alpha_a delta delta^T  (m_a = sum alpha_i,a d_i, row a
//   of the dipole).
VortonTree::CentreSums VortonTree::combineChildren(Node& node, const std::vector<CentreSums>& sums) const {
    CentreSums total;
    for (uint32_t c = node.firstChild; c < node.firstChild + node.childCount; ++c) {
        total.weight += sums[c].weight;
        total.weighted += sums[c].weighted;
        total.plain += sums[c].plain;
        node.alpha += nodes_[c].alpha;
        node.maxSigma = std::max(node.maxSigma, nodes_[c].maxSigma);
    }
    node.centre = total.centre(node.end - node.begin);
    for (uint32_t c = node.firstChild; c < node.firstChild + node.childCount; ++c) {
        const Node& child = nodes_[c];
        const vec3 delta = child.centre - node.centre;
        node.dipole += child.dipole + glm::outerProduct(child.alpha, delta);
        node.twist += child.twist + glm::cross(child.alpha, delta);
        const mat3 deltaDelta = glm::outerProduct(delta, delta);
        for (int a = 0; a < 3; ++a) {
            const vec3 m(child.dipole[0][a], child.dipole[1][a], child.dipole[2][a]);
            node.quad[a] +=
                child.quad[a] + glm::outerProduct(m, delta) + glm::outerProduct(delta, m) + child.alpha[a] * deltaDelta;
        }
    }
    return total;
}

// Taylor expansion of sum_i alpha_i x f(R - d_i), f(R) = R / |R|^3, about the cluster centre:
//   f(R - d) = f - (d.grad) f + 1/2 (d.grad)^2 f + O(|d|^3 / |R|^4)
// With v_a = Q_a R, s_a = R.v_a and t_a = trace Q_a the three orders add up to
//   u = c x R - W / |R|^3 - 3 / |R|^5 sum_a e_a x v_a,
//   c = A / |R|^3 + 3 (M R) / |R|^5 - 3/2 t / |R|^5 + 15/2 s / |R|^7,
// so one cross product with R serves every "x R" term.
vec3 VortonTree::farField(const FarTerms& t, const vec3& r, float dist2) {
    const float invDist2 = 1.0f / dist2;
    const float invDist3 = std::sqrt(invDist2) * invDist2;
    const float invDist5 = invDist3 * invDist2;
    const float invDist7 = invDist5 * invDist2;
    const float monomials[6] = {r.x * r.x, r.y * r.y, r.z * r.z, r.x * r.y, r.x * r.z, r.y * r.z};
    auto form = [&](const float* q) {
        float sum = 0.0f;
        for (int e = 0; e < 6; ++e) sum += q[e] * monomials[e];
        return sum;
    };
    auto row = [&](const float* m) { return m[0] * r.x + m[1] * r.y + m[2] * r.z; };
    vec3 c, curl;
    for (int a = 0; a < 3; ++a) {
        c[a] =
            t.alpha[a] * invDist3 + (row(t.dipoleRows[a]) - t.traceTerm[a]) * invDist5 + form(t.quadForm[a]) * invDist7;
        curl[a] = row(t.curlRows[a]);
    }
    return glm::cross(c, r) - t.twist * invDist3 - curl * invDist5;
}

vec3 VortonTree::velocityAt(const vec3& x, float theta) const {
    if (nodes_.empty()) return vec3(0.0f);
    if (!(theta > 0.0f)) theta = 0.0f;  // no cluster is ever taken, as in traversalNodes
    constexpr float inv4Pi = 1.0f / (4.0f * kPi);
    const float errorScale = errorReachScale(theta);
    vec3 u(0.0f);
    uint32_t stack[64 * 8];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const uint32_t index = stack[--top];
        const Node& node = nodes_[index];
        const vec3 r = x - node.centre;
        const float dist2 = glm::dot(r, r);
        const float reach = node.size + node.maxSigma;
        const float errorDistance = node.size + node.errorReach * errorScale;
        const bool farEnough = node.size * node.size < theta * theta * dist2 && reach * reach < dist2 &&
                               errorDistance * errorDistance < dist2;
        if (farEnough) {
            u += farField(farTerms_[index], r, dist2);
        } else if (node.childCount == 0) {
            for (uint32_t k = node.begin; k < node.end; ++k) {
                const vec3 d = x - pos_[k];
                const float dist = std::max(glm::length(d), sigma_[k]);
                u += glm::cross(alpha_[k], d) / (dist * dist * dist);
            }
        } else {
            for (uint32_t c = 0; c < node.childCount; ++c) stack[top++] = node.firstChild + c;
        }
    }
    return u * inv4Pi;
}

// --- blocked evaluation on a grid ------------------------------------------------------------
//
// Neighbouring grid points need almost the same clusters, so a 2x2x2 block of them shares one
// traversal. A node is taken as a cluster when it is far enough from every point of the block's
// bounding sphere (size < theta (d - R), the cores out of reach, the estimated error small: see
// clusterDistance), which implies the per-point
// criterion of velocityAt for each target: accuracy is the same or better. The block's points
// are then evaluated together, the loops running over them in SIMD lanes (structure of arrays,
// a fixed lane count, no branches). Deterministic: blocks depend only on the grid, and each
// point sums its block's lists in list order whatever thread runs it. Bigger blocks were
// slower: 4x2x2 points (16 lanes) took 7.3 ms per step where 2x2x2 take 4.9 (4k dye drop); their
// wider sphere sends ~3x more vortons to the direct sum.
// A group of 2x2x2 blocks first finds what all of them share (collectShared); below the nodes
// where they differ, one traversal serves the eight blocks at once, a block in each lane of the
// distance test, and hands each block the lists its own traversal would make, in the same order.

namespace {

// Grid points per block along x, y, z: one SIMD lane each.
const ivec3 kBlockDims(2, 2, 2);
// Blocks per group along x, y, z: a group's blocks share the top of their tree traversal.
const ivec3 kGroupDims(2, 2, 2);
static_assert(lanes::kLanes == 8, "a 2x2x2 block fills the lanes");

}  // namespace

// The points of a block in lanes (positions in, velocities out).
struct VortonTree::TargetBlock {
    lanes::Lanes x{}, y{}, z{};
    lanes::Lanes ux{}, uy{}, uz{};
};

// A traversal's stack, reused by the calls on one thread (cleared by each; no result depends on
// what a thread ran before).
static std::vector<uint32_t>& traversalStack() {
    thread_local std::vector<uint32_t> stack;
    return stack;
}

// A block's interaction lists, reused by the calls on one thread (cleared by each).
struct BlockLists {
    std::vector<uint32_t> far, near;
};
static BlockLists& blockLists() {
    thread_local BlockLists lists;
    return lists;
}

// A node may stand for its vortons as one cluster for targets in a sphere `gap` away from its
// centre (nearest target at distance gap) when it looks small enough from there, size < theta
// gap, the cores are out of reach, size + maxSigma < gap, and its estimated truncation error is
// small, errorDistance < gap (see computeAllMoments): when gap exceeds this distance. theta = 0
// never takes a cluster.
static float clusterDistance(float size, float maxSigma, float errorDistance, float theta) {
    if (!(theta > 0.0f)) return std::numeric_limits<float>::infinity();
    return std::max({size / theta, size + maxSigma, errorDistance});
}

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

VFX_SIMD_KERNEL void VortonTree::evaluateBlock(TargetBlock& t, const InteractionRuns& lists) const {
    using lanes::Lanes;
    using lanes::sqrtLanes;
    const Lanes tx = t.x, ty = t.y, tz = t.z;
    Lanes ux{}, uy{}, uz{};
    for (const NodeRun& run : lists.far)
        for (const uint32_t* entry = run.begin; entry != run.begin + run.count; ++entry) {
            // farField (see above) with the node's terms as scalars and the targets in lanes.
            const FarTerms& n = farTerms_[*entry];
            const Lanes rx = tx - n.centre.x, ry = ty - n.centre.y, rz = tz - n.centre.z;
            const Lanes xx = rx * rx, yy = ry * ry, zz = rz * rz, xy = rx * ry, xz = rx * rz, yz = ry * rz;
            const Lanes invDist2 = 1.0f / (xx + yy + zz);
            const Lanes invDist3 = sqrtLanes(invDist2) * invDist2;
            const Lanes invDist5 = invDist3 * invDist2;
            const Lanes invDist7 = invDist5 * invDist2;
            auto form = [&](const float* q) {
                return q[0] * xx + q[1] * yy + q[2] * zz + q[3] * xy + q[4] * xz + q[5] * yz;
            };
            auto row = [&](const float* m) { return m[0] * rx + m[1] * ry + m[2] * rz; };
            auto cOf = [&](int a) {
                return n.alpha[a] * invDist3 + (row(n.dipoleRows[a]) - n.traceTerm[a]) * invDist5 +
                       form(n.quadForm[a]) * invDist7;
            };
            const Lanes cx = cOf(0), cy = cOf(1), cz = cOf(2);
            ux += (cy * rz - cz * ry) - n.twist.x * invDist3 - row(n.curlRows[0]) * invDist5;
            uy += (cz * rx - cx * rz) - n.twist.y * invDist3 - row(n.curlRows[1]) * invDist5;
            uz += (cx * ry - cy * rx) - n.twist.z * invDist3 - row(n.curlRows[2]) * invDist5;
        }
    for (const NodeRun& run : lists.near)
        for (const uint32_t* entry = run.begin; entry != run.begin + run.count; ++entry) {
            const Node& n = nodes_[*entry];
            for (uint32_t k = n.begin; k < n.end; ++k) {
                const vec3 a = alpha_[k];
                const Lanes dx = tx - pos_[k].x, dy = ty - pos_[k].y, dz = tz - pos_[k].z;
                Lanes dist = sqrtLanes(dx * dx + dy * dy + dz * dz);
                dist = dist > sigma_[k] ? dist : Lanes{} + sigma_[k];
                const Lanes inv = 1.0f / (dist * dist * dist);
                ux += (a.y * dz - a.z * dy) * inv;
                uy += (a.z * dx - a.x * dz) * inv;
                uz += (a.x * dy - a.y * dx) * inv;
            }
        }
    t.ux = ux;
    t.uy = uy;
    t.uz = uz;
}

void VortonTree::velocityPerPoint(const std::vector<vec3>& points, std::vector<vec3>& out, float theta) const {
    out.resize(points.size());
    parallelForEach(
        0, points.size(), [&](size_t p) { out[p] = velocityAt(points[p], theta); }, 64);
}

// Scattered points (the vortons themselves, for the flow's energy) are taken in Morton order,
// so that each run of kLanes of them is a compact block: the block shares one traversal for the
// sphere about its points' bounding box and is evaluated in SIMD lanes, as on the grid.
void VortonTree::velocity(const std::vector<vec3>& points, std::vector<vec3>& out, float theta) const {
    out.assign(points.size(), vec3(0.0f));
    if (nodes_.empty() || points.empty()) return;
    const std::vector<uint64_t> keys = sortedMortonKeys(points);
    const std::vector<TraversalNode> nodes = traversalNodes(theta);
    const std::vector<uint32_t> root{0u};
    constexpr size_t kWidth = size_t(lanes::kLanes);
    parallelForEach(
        0, (points.size() + kWidth - 1) / kWidth,
        [&](size_t b) {
            const size_t first = b * kWidth, count = std::min(kWidth, points.size() - first);
            auto pointOf = [&](size_t lane) { return uint32_t(keys[first + std::min(lane, count - 1)] & 0xffffffffu); };
            TargetBlock block;
            vec3 lo = points[pointOf(0)], hi = lo;
            for (size_t lane = 0; lane < kWidth; ++lane) {
                const vec3 p = points[pointOf(lane)];  // lanes past the last point repeat it
                block.x[lane] = p.x;
                block.y[lane] = p.y;
                block.z[lane] = p.z;
                lo = glm::min(lo, p);
                hi = glm::max(hi, p);
            }
            // The sphere about the box's centre that holds every point, measured after rounding
            // the centre, with room for rounding in the traversal's distances.
            const vec3 centre = 0.5f * (lo + hi);
            float farthest2 = 0.0f;
            for (size_t lane = 0; lane < count; ++lane) {
                const vec3 d = points[pointOf(lane)] - centre;
                farthest2 = std::max(farthest2, glm::dot(d, d));
            }
            const float radius = std::sqrt(farthest2) * 1.0001f + 1e-6f * glm::length(centre) + 1e-7f;
            std::vector<uint32_t>& far = blockLists().far;
            std::vector<uint32_t>& near = blockLists().near;
            far.clear();
            near.clear();
            collectInteractions(nodes, root, centre, radius, far, near);
            evaluateBlock(block, InteractionRuns{{{far.data(), far.size()}, {}}, {{near.data(), near.size()}, {}}});
            constexpr float inv4Pi = 1.0f / (4.0f * kPi);
            for (size_t lane = 0; lane < count; ++lane)
                out[pointOf(lane)] = vec3(block.ux[lane], block.uy[lane], block.uz[lane]) * inv4Pi;
        },
        4);
}

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
