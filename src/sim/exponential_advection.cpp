#include "sim/exponential_advection.hpp"

#include "core/matrix_exponential.hpp"
#include "core/neighbour_search.hpp"  // parallelForEachStable
#include "core/simd_lanes.hpp"
#include "sim/linear_flow_step.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

using lanes::Lanes;
using lanes::Lanes3;
constexpr size_t kWidth = size_t(lanes::kLanes);

// Eight 3x3 matrices, one per lane: m[c][r] is row r of column c, as glm stores them.
struct LaneMatrix {
    Lanes m[3][3];
};

VFX_LANES_INLINE Lanes3 times(const LaneMatrix& a, const Lanes3& v) {
    return {a.m[0][0] * v.x + a.m[1][0] * v.y + a.m[2][0] * v.z, a.m[0][1] * v.x + a.m[1][1] * v.y + a.m[2][1] * v.z,
            a.m[0][2] * v.x + a.m[1][2] * v.y + a.m[2][2] * v.z};
}

VFX_LANES_INLINE Lanes3 plus(const Lanes3& a, const Lanes3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }

VFX_LANES_INLINE Lanes3 scaled(const Lanes3& a, Lanes s) { return {a.x * s, a.y * s, a.z * s}; }

VFX_LANES_INLINE LaneMatrix scaled(const LaneMatrix& a, float s) {
    LaneMatrix out;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) out.m[c][r] = a.m[c][r] * s;
    return out;
}

// The largest Frobenius norm over the lanes.
VFX_LANES_INLINE float widestNorm(const LaneMatrix& a) {
    Lanes sum{};
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) sum += a.m[c][r] * a.m[c][r];
    float widest = 0.0f;
    for (int l = 0; l < lanes::kLanes; ++l) widest = std::max(widest, sum[l]);
    return std::sqrt(widest);
}

VFX_LANES_INLINE int piecesFor(float norm) { return std::max(1, int(std::ceil(norm / kExponentialPieceNorm))); }

// exp(A) v, as exponentialTimes (core/matrix_exponential.hpp), in `pieces` pieces.
VFX_LANES_INLINE Lanes3 exponentialTimes(const LaneMatrix& a, Lanes3 v, int pieces) {
    const LaneMatrix piece = scaled(a, 1.0f / float(pieces));
    for (int p = 0; p < pieces; ++p) {
        Lanes3 term = v, sum = v;
        for (int k = 1; k <= kExponentialTerms; ++k) {
            term = scaled(times(piece, term), lanes::splat(1.0f / float(k)));
            sum = plus(sum, term);
        }
        v = sum;
    }
    return v;
}

// x(dt) - x0 of the move through u + J (x - x0) + t g, as linearFlowDisplacement, with a = J dt,
// b = u dt, c = g dt^2; the augmented system's time components are the same in every lane.
VFX_LANES_INLINE Lanes3 linearFlowDisplacement(const LaneMatrix& a, const Lanes3& b, const Lanes3& c, int pieces) {
    const float h = 1.0f / float(pieces);
    Lanes3 y{Lanes{}, Lanes{}, Lanes{}};
    float p = 0.0f;
    for (int piece = 0; piece < pieces; ++piece) {
        Lanes3 termY = y, sumY = y;
        float termP = p, termQ = 1.0f, sumP = p;
        for (int k = 1; k <= kExponentialTerms; ++k) {
            const float scale = h / float(k);
            const Lanes3 inner =
                plus(plus(times(a, termY), scaled(c, lanes::splat(termP))), scaled(b, lanes::splat(termQ)));
            termY = scaled(inner, lanes::splat(scale));
            termP = termQ * scale;
            termQ = 0.0f;
            sumY = plus(sumY, termY);
            sumP += termP;
        }
        y = sumY;
        p = sumP;
    }
    return y;
}

// One vorton by the scalar rules: a block whose step is not finite (the caller's checks see it).
vec3 moveOne(const ExponentialMoveInputs& in, size_t i, vec3& previous) {
    const mat3& j = in.gradient[i];
    const vec3 now = in.now[i];
    vec3 change(0.0f);
    if (in.readsChange(i)) {
        change = (now - vfx::exponentialTimes(j * in.previousDt, previous)) * (1.0f / in.previousDt);
        if (in.eulerianChange) {
            const vec3 g = (*in.eulerianChange)[i];
            change -= vfx::linearFlowDisplacement(j, g, vec3(0.0f), in.previousDt) * (1.0f / in.previousDt) - g;
        }
    }
    previous = now;
    return vfx::linearFlowDisplacement(j, now, change, in.dt) * (1.0f / in.dt);
}

VFX_SIMD_KERNEL void moveBlock(const ExponentialMoveInputs& in, size_t first, std::vector<vec3>& previous,
                               std::vector<vec3>& velocity) {
    const size_t n = in.now.size(), count = std::min(kWidth, n - first);
    LaneMatrix j;
    Lanes3 now, last, eulerian{Lanes{}, Lanes{}, Lanes{}};
    Lanes twoStep{};
    for (size_t l = 0; l < kWidth; ++l) {
        const size_t i = first + std::min(l, count - 1);  // lanes past the last vorton repeat it
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) j.m[c][r][l] = in.gradient[i][c][r];
        now.x[l] = in.now[i].x, now.y[l] = in.now[i].y, now.z[l] = in.now[i].z;
        last.x[l] = previous[i].x, last.y[l] = previous[i].y, last.z[l] = previous[i].z;
        twoStep[l] = in.readsChange(i) ? 1.0f : 0.0f;
        if (in.eulerianChange) {
            const vec3 g = (*in.eulerianChange)[i];
            eulerian.x[l] = g.x, eulerian.y[l] = g.y, eulerian.z[l] = g.z;
        }
    }
    const LaneMatrix back = scaled(j, in.previousDt), ahead = scaled(j, in.dt);
    const float backNorm = widestNorm(back), aheadNorm = widestNorm(ahead);
    if (!(backNorm < 1e6f) || !(aheadNorm < 1e6f)) {
        for (size_t i = first; i < first + count; ++i) velocity[i] = moveOne(in, i, previous[i]);
        return;
    }
    Lanes3 change{Lanes{}, Lanes{}, Lanes{}};
    if (in.previousDt > 0.0f) {
        const Lanes3 carried = exponentialTimes(back, last, piecesFor(backNorm));
        const Lanes rate = lanes::splat(1.0f / in.previousDt);
        Lanes3 found{(now.x - carried.x) * rate, (now.y - carried.y) * rate, (now.z - carried.z) * rate};
        if (in.eulerianChange) {
            // What a flow changing by g at fixed points would leave in that read: phi1(J h) g.
            const Lanes3 expected =
                linearFlowDisplacement(back, eulerian, Lanes3{Lanes{}, Lanes{}, Lanes{}}, piecesFor(backNorm));
            found = {found.x - (expected.x - eulerian.x), found.y - (expected.y - eulerian.y),
                     found.z - (expected.z - eulerian.z)};
        }
        change = {twoStep > 0.5f ? found.x : Lanes{}, twoStep > 0.5f ? found.y : Lanes{},
                  twoStep > 0.5f ? found.z : Lanes{}};
    }
    const float dt2 = in.dt * in.dt;
    const Lanes3 move = linearFlowDisplacement(ahead, scaled(now, lanes::splat(in.dt)),
                                               scaled(change, lanes::splat(dt2)), piecesFor(aheadNorm));
    const float inverseDt = 1.0f / in.dt;
    for (size_t l = 0; l < count; ++l) {
        velocity[first + l] = vec3(move.x[l], move.y[l], move.z[l]) * inverseDt;
        previous[first + l] = in.now[first + l];
    }
}

}  // namespace

void exponentialMoveVelocities(const ExponentialMoveInputs& in, std::vector<vec3>& previous,
                               std::vector<vec3>& velocity) {
    const size_t n = in.now.size();
    velocity.resize(n);
    previous.resize(n);
    parallelForEachStable(
        0, (n + kWidth - 1) / kWidth,
        [&](size_t b) {
            if (!in.only || lanes::blockHoldsMark(*in.only, b * kWidth)) moveBlock(in, b * kWidth, previous, velocity);
        },
        256);
}

}  // namespace vfx
