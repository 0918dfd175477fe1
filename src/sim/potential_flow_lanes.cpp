#include "sim/potential_flow_lanes.hpp"

#include "core/lane_stencils.hpp"  // loadPoints
#include "core/parallel.hpp"

#include <algorithm>

namespace vfx {

namespace {

using lanes::Lanes;
using lanes::Lanes3;
using Mask = decltype(Lanes{} < Lanes{});
constexpr size_t kWidth = size_t(lanes::kLanes);

VFX_LANES_INLINE bool anyLane(Mask m) {
    for (int l = 0; l < lanes::kLanes; ++l)
        if (m[l]) return true;
    return false;
}

// The sources' flow at eight points, kept in the lanes `use` selects (the others may hold
// anything, a point on a source included).
VFX_LANES_INLINE Lanes3 sourcesFlow(const SourceLanes& s, const Lanes3& p, Mask use) {
    Lanes ux{}, uy{}, uz{};
    for (size_t j = 0; j < s.x.size(); ++j) {
        const Lanes rx = p.x - s.x[j], ry = p.y - s.y[j], rz = p.z - s.z[j];
        const Lanes distance2 = rx * rx + ry * ry + rz * rz;
        const Lanes scale = s.strength[j] / (distance2 * lanes::sqrtLanes(distance2));
        ux += scale * rx;
        uy += scale * ry;
        uz += scale * rz;
    }
    return {use ? ux : Lanes{}, use ? uy : Lanes{}, use ? uz : Lanes{}};
}

// One flow's own velocity (dipole and closure, no images) at eight points, as
// ownPotentialFlowVelocity gives it at each.
VFX_LANES_INLINE Lanes3 ownFlow(const PotentialFlow& f, const Lanes3& q) {
    const Lanes rx = q.x - f.centre.x, ry = q.y - f.centre.y, rz = q.z - f.centre.z;
    const Lanes r2 = rx * rx + ry * ry + rz * rz;
    const float radius2 = f.radius * f.radius;
    Lanes3 u{Lanes{}, Lanes{}, Lanes{}};
    if (!f.closure.sources.empty()) {
        // The closure's reach: outside 0.9 R and within kClosureReach radii; the fine sources
        // within kClosureNear radii, the coarse ones beyond (sim/sphere_closure.cpp).
        const Mask reached = (r2 > 0.81f * radius2) & (r2 < kClosureReach * kClosureReach * radius2);
        const Mask near = r2 < kClosureNear * kClosureNear * radius2;
        if (anyLane(reached & near)) {
            const Lanes3 a = sourcesFlow(f.closure.nearLanes, q, reached & near);
            u = {u.x + a.x, u.y + a.y, u.z + a.z};
        }
        if (anyLane(reached & ~near)) {
            const Lanes3 a = sourcesFlow(f.closure.farLanes, q, reached & ~near);
            u = {u.x + a.x, u.y + a.y, u.z + a.z};
        }
    }
    const vec3 w = f.relativeVelocity;
    const Mask inside = r2 <= radius2;
    const Mask within = r2 <= kPotentialFlowReach * kPotentialFlowReach * radius2;
    // Outside: the dipole of a sphere moving at W, R^3 / (2 r^3) (3 (W.r^) r^ - W).
    const Lanes scale = (0.5f * radius2 * f.radius) / (r2 * lanes::sqrtLanes(r2));
    const Lanes along = 3.0f * (w.x * rx + w.y * ry + w.z * rz) / r2;
    const Lanes dx = inside ? lanes::splat(w.x) : scale * (along * rx - w.x);
    const Lanes dy = inside ? lanes::splat(w.y) : scale * (along * ry - w.y);
    const Lanes dz = inside ? lanes::splat(w.z) : scale * (along * rz - w.z);
    return {u.x + (within ? dx : Lanes{}), u.y + (within ? dy : Lanes{}), u.z + (within ? dz : Lanes{})};
}

// A symmetric 3x3 matrix in lanes: xx, yy, zz, xy, xz, yz (the flows' gradients are symmetric:
// irrotational).
struct LaneSymmetric {
    Lanes xx, yy, zz, xy, xz, yz;
};

VFX_LANES_INLINE void add(LaneSymmetric& a, const LaneSymmetric& b, Mask use) {
    a.xx += use ? b.xx : Lanes{}, a.yy += use ? b.yy : Lanes{}, a.zz += use ? b.zz : Lanes{};
    a.xy += use ? b.xy : Lanes{}, a.xz += use ? b.xz : Lanes{}, a.yz += use ? b.yz : Lanes{};
}

// The sources' velocity gradient at eight points, q / (4 pi) (delta_ij / r^3 - 3 r_i r_j / r^5),
// kept in the lanes `use` selects.
VFX_LANES_INLINE LaneSymmetric sourcesGradient(const SourceLanes& s, const Lanes3& p, Mask use) {
    LaneSymmetric g{};
    for (size_t j = 0; j < s.x.size(); ++j) {
        const Lanes rx = p.x - s.x[j], ry = p.y - s.y[j], rz = p.z - s.z[j];
        const Lanes inverse2 = 1.0f / (rx * rx + ry * ry + rz * rz);
        const Lanes scale = s.strength[j] * inverse2 * lanes::sqrtLanes(inverse2);
        const Lanes three = 3.0f * scale * inverse2;
        g.xx += scale - three * rx * rx, g.yy += scale - three * ry * ry, g.zz += scale - three * rz * rz;
        g.xy -= three * rx * ry, g.xz -= three * rx * rz, g.yz -= three * ry * rz;
    }
    LaneSymmetric kept{};
    add(kept, g, use);
    return kept;
}

// One flow's own velocity gradient (dipole and closure, no images) at eight points, as
// ownPotentialFlowGradient gives it at each.
VFX_LANES_INLINE LaneSymmetric ownGradient(const PotentialFlow& f, const Lanes3& q) {
    const Lanes rx = q.x - f.centre.x, ry = q.y - f.centre.y, rz = q.z - f.centre.z;
    const Lanes r2 = rx * rx + ry * ry + rz * rz;
    const float radius2 = f.radius * f.radius;
    LaneSymmetric g{};
    if (!f.closure.sources.empty()) {
        const Mask reached = (r2 > 0.81f * radius2) & (r2 < kClosureReach * kClosureReach * radius2);
        const Mask near = r2 < kClosureNear * kClosureNear * radius2;
        if (anyLane(reached & near)) add(g, sourcesGradient(f.closure.nearLanes, q, reached & near), reached & near);
        if (anyLane(reached & ~near)) add(g, sourcesGradient(f.closure.farLanes, q, reached & ~near), reached & ~near);
    }
    // Outside, within reach: R^3 / 2 (3 (W_j r_i + W_i r_j + (W.r) delta_ij) / r^5 - 15 (W.r) r_i r_j / r^7).
    const Mask dipole = (r2 > radius2) & (r2 <= kPotentialFlowReach * kPotentialFlowReach * radius2);
    if (!anyLane(dipole)) return g;
    const vec3 w = f.relativeVelocity;
    const Lanes inverse2 = 1.0f / r2;
    const Lanes scale = 0.5f * radius2 * f.radius * inverse2 * inverse2 / lanes::sqrtLanes(r2);
    const Lanes along = w.x * rx + w.y * ry + w.z * rz;
    const Lanes fifteen = 15.0f * along * inverse2;
    LaneSymmetric d;
    d.xx = scale * (3.0f * (2.0f * w.x * rx + along) - fifteen * rx * rx);
    d.yy = scale * (3.0f * (2.0f * w.y * ry + along) - fifteen * ry * ry);
    d.zz = scale * (3.0f * (2.0f * w.z * rz + along) - fifteen * rz * rz);
    d.xy = scale * (3.0f * (w.y * rx + w.x * ry) - fifteen * rx * ry);
    d.xz = scale * (3.0f * (w.z * rx + w.x * rz) - fifteen * rx * rz);
    d.yz = scale * (3.0f * (w.z * ry + w.y * rz) - fifteen * ry * rz);
    add(g, d, dipole);
    return g;
}

// M G M for a mirror's matrix M (symmetric: a reflection), G symmetric.
VFX_LANES_INLINE LaneSymmetric reflected(const mat3& m, const LaneSymmetric& g) {
    // Rows of G times M's columns, then M's rows (M = M^T).
    const Lanes gm[3][3] = {{g.xx, g.xy, g.xz}, {g.xy, g.yy, g.yz}, {g.xz, g.yz, g.zz}};
    Lanes t[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) t[i][j] = gm[i][0] * m[j][0] + gm[i][1] * m[j][1] + gm[i][2] * m[j][2];
    Lanes r[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r[i][j] = m[0][i] * t[0][j] + m[1][i] * t[1][j] + m[2][i] * t[2][j];
    return {r[0][0], r[1][1], r[2][2], r[0][1], r[0][2], r[1][2]};
}

// m x + shift (or m v, shift 0) in lanes; glm's mat3 is column-major.
VFX_LANES_INLINE Lanes3 transform(const mat3& m, const Lanes3& p, const vec3& shift) {
    return {m[0][0] * p.x + m[1][0] * p.y + m[2][0] * p.z + shift.x,
            m[0][1] * p.x + m[1][1] * p.y + m[2][1] * p.z + shift.y,
            m[0][2] * p.x + m[1][2] * p.y + m[2][2] * p.z + shift.z};
}

// Points [first, first + count), count <= kWidth (lanes past count repeat the last point).
VFX_SIMD_KERNEL void addBlock(const std::vector<PotentialFlow>& flows, const vec3* points, size_t first, size_t count,
                              vec3* velocity) {
    const Lanes3 p = lanes::loadPoints(points, first, count);
    Lanes3 sum{Lanes{}, Lanes{}, Lanes{}};
    for (const PotentialFlow& f : flows) {
        const Lanes3 own = ownFlow(f, p);
        sum = {sum.x + own.x, sum.y + own.y, sum.z + own.z};
        for (const Mirror& m : f.mirrors) {
            const Lanes3 image = transform(m.matrix, ownFlow(f, transform(m.matrix, p, m.shift)), vec3(0.0f));
            sum = {sum.x + image.x, sum.y + image.y, sum.z + image.z};
        }
    }
    for (size_t l = 0; l < count; ++l) velocity[first + l] += vec3(sum.x[l], sum.y[l], sum.z[l]);
}

VFX_SIMD_KERNEL void addGradientBlock(const std::vector<PotentialFlow>& flows, const vec3* points, size_t first,
                                      size_t count, mat3* gradient) {
    const Lanes3 p = lanes::loadPoints(points, first, count);
    const Mask all = Lanes{} == Lanes{};
    LaneSymmetric sum{};
    for (const PotentialFlow& f : flows) {
        add(sum, ownGradient(f, p), all);
        for (const Mirror& m : f.mirrors)
            add(sum, reflected(m.matrix, ownGradient(f, transform(m.matrix, p, m.shift))), all);
    }
    for (size_t l = 0; l < count; ++l) {
        mat3& g = gradient[first + l];
        g[0][0] += sum.xx[l], g[1][1] += sum.yy[l], g[2][2] += sum.zz[l];
        g[1][0] += sum.xy[l], g[0][1] += sum.xy[l];
        g[2][0] += sum.xz[l], g[0][2] += sum.xz[l];
        g[2][1] += sum.yz[l], g[1][2] += sum.yz[l];
    }
}

// Calls block(first, count) for the points in blocks of kWidth, `grain` blocks per task.
template <class Block>
void forEachBlock(size_t n, size_t grain, Block&& block) {
    parallelForEach(
        0, (n + kWidth - 1) / kWidth,
        [&](size_t b) {
            const size_t first = b * kWidth;
            block(first, std::min(kWidth, n - first));
        },
        grain);
}

}  // namespace

void addPotentialFlowGradients(const std::vector<PotentialFlow>& flows, const std::vector<vec3>& points,
                               std::vector<mat3>& gradient) {
    if (flows.empty()) return;
    forEachBlock(points.size(), 32, [&](size_t first, size_t count) {
        addGradientBlock(flows, points.data(), first, count, gradient.data());
    });
}

void addPotentialFlowVelocities(const std::vector<PotentialFlow>& flows, const std::vector<vec3>& points,
                                std::vector<vec3>& velocity) {
    if (flows.empty()) return;
    forEachBlock(points.size(), 64,
                 [&](size_t first, size_t count) { addBlock(flows, points.data(), first, count, velocity.data()); });
}

}  // namespace vfx
