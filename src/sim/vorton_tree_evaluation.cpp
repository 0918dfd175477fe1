// Evaluating the vorton tree at targets: the far field of a node's expansion and the direct sum
// over a leaf's vortons, for one point at a time (velocityAt) and for blocks of eight points in
// SIMD lanes (evaluateBlock), fed by the scattered points here and by the grid
// (vorton_tree_grid.cpp).
#include "sim/velocity_solver.hpp"

#include "core/parallel.hpp"
#include "sim/morton_order.hpp"
#include "sim/vorton_tree_target_block.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

// A block's interaction lists, reused by the calls on one thread (cleared by each).
struct BlockLists {
    std::vector<uint32_t> far, near;
};
BlockLists& blockLists() {
    thread_local BlockLists lists;
    return lists;
}

}  // namespace

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

}  // namespace vfx
