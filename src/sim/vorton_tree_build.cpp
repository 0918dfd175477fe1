// Building the vorton tree: vortons sorted into Morton order, split into octree nodes, and each
// node's moments (about its |alpha|-weighted centre) and far-field terms.
#include "sim/velocity_solver.hpp"

#include "core/parallel.hpp"
#include "sim/morton_order.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

// The factor on theta^3 U that a cluster's estimated truncation error must stay below (see
// computeAllMoments). Set by measurement on a vortex ring's grid at theta 0.7 (about 0.5% RMS
// error there).
constexpr float kClusterErrorShare = 5.0f;

}  // namespace

// errorReach is for theta = 1; at theta the tolerance is theta^3 times smaller, and g - size must
// be theta^(-3/5) times larger (the estimate falls as the fifth power of g - size).
float VortonTree::errorReachScale(float theta) { return theta > 0.0f ? std::pow(theta, -0.6f) : 0.0f; }

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
    const bool leaf = (end - begin) <= kLeafSize || depth >= kMortonDepth;
    if (!leaf) {
        // Children are the runs of equal 3-bit Morton digit at this depth. The codes are sorted
        // and share every digit above this one, so the digit never decreases: each run's end is
        // found by bisection instead of a scan over the node's vortons.
        const int shift = 3 * (kMortonDepth - 1 - depth);
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
    // opening test tight); that pass is in parallel.
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
    // The field's scale: all the strength at its strength-weighted radius about the root's centre,
    // U = sum |alpha| / (4 pi R^2), R^2 = sum |alpha| d^2 / sum |alpha| (vortons without strength,
    // however far, do not change it). A cluster's expansion misses terms of order |d|^3, which we
    // estimate as strength3 / (4 pi (g - size)^5) at a target g from its centre (an estimate, up to
    // a constant factor, not a bound). A cluster is taken only where that is below
    // kClusterErrorShare theta^3 U, that is g > size + errorReach theta^(-3/5). The angle test
    // alone passes big, strong clusters seen from beside them (an arc of a vortex ring from the
    // grid's corners, where the velocity is small), whose error there can reach a third of the
    // local velocity. Weak clusters keep the angle test.
    const vec3 rootCentre = nodes_[0].centre;
    const float totalStrength = sums[0].weight;  // sum |alpha| over every vorton
    double spread = 0.0;                         // sum |alpha| d^2 about the root's centre
    for (size_t v = 0; v < pos_.size(); ++v) {
        const vec3 d = pos_[v] - rootCentre;
        spread += double(strength_[v]) * double(glm::dot(d, d));
    }
    const float radius2 = totalStrength > 0.0f ? float(spread / double(totalStrength)) : 0.0f;
    const float scale = totalStrength / std::max(radius2, 1e-12f);
    // Each node's radius and error reach, and its far-field terms, in one pass.
    farTerms_.resize(nodes_.size());
    parallelForEach(
        0, nodes_.size(),
        [&](size_t k) {
            Node& node = nodes_[k];
            if (node.childCount > 0) boundParent(node);
            node.errorReach = scale > 0.0f ? std::pow(node.strength3 / (kClusterErrorShare * scale), 0.2f) : 0.0f;
            farTerms_[k] = farTermsOf(node);
        },
        16);
}

// A parent's exact bounding radius about its centre and its strength3, from its vortons (the
// children's moments shifted to its centre do not give them).
void VortonTree::boundParent(Node& node) const {
    float size2 = 0.0f, strength3 = 0.0f;
    for (uint32_t v = node.begin; v < node.end; ++v) {
        const vec3 d = pos_[v] - node.centre;
        const float distance2 = glm::dot(d, d);
        size2 = std::max(size2, distance2);
        strength3 += strength_[v] * distance2 * std::sqrt(distance2);
    }
    node.size = std::sqrt(size2);
    node.strength3 = strength3;
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

}  // namespace vfx
