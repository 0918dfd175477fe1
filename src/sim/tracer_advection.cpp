#include "sim/tracer_advection.hpp"

#include "core/parallel.hpp"
#include "core/lane_stencils.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace vfx {
namespace {

using lanes::kLanes;

struct TracerPass {
    const FlowAndDensity* values;
    lanes::LaneGrid grid;
    StepWeights weights;
    float dt;
    vec3* position;
    vec3* velocity;
    float* density;
    vec3* last;
    vec3* before;        // null: the two-step rule
    const vec3* pushed;  // null: no moving bodies
};

// The moved tracers' bounds and finiteness per lane, over a run of blocks: one horizontal
// reduction per run rather than per block. A NaN fails every comparison (it leaves the box
// alone); x - x is non-zero just for Inf and NaN.
struct LaneBounds {
    lanes::Lanes lox = lanes::splat(1e30f), loy = lox, loz = lox;
    lanes::Lanes hix = lanes::splat(-1e30f), hiy = hix, hiz = hix;
    lanes::Lanes nonFinite{};

    VFX_LANES_INLINE void include(const lanes::Lanes3& p) {
        lox = p.x < lox ? p.x : lox;
        loy = p.y < loy ? p.y : loy;
        loz = p.z < loz ? p.z : loz;
        hix = p.x > hix ? p.x : hix;
        hiy = p.y > hiy ? p.y : hiy;
        hiz = p.z > hiz ? p.z : hiz;
        const lanes::Lanes bad =
            (p.x - p.x != 0.0f || p.y - p.y != 0.0f || p.z - p.z != 0.0f) ? lanes::splat(1.0f) : lanes::Lanes{};
        nonFinite = bad > nonFinite ? bad : nonFinite;
    }
    MovedTracerBounds reduced() const {
        MovedTracerBounds b;
        for (int l = 0; l < kLanes; ++l) {
            b.lo = glm::min(b.lo, vec3(lox[l], loy[l], loz[l]));
            b.hi = glm::max(b.hi, vec3(hix[l], hiy[l], hiz[l]));
            b.finite = b.finite && nonFinite[l] == 0.0f;
        }
        return b;
    }
};

// Tracers [first, first + count), count <= kLanes: the stencils in lanes (lanes past count
// repeat the last tracer), then each tracer's lookup and step. Every tracer runs the same
// instructions whichever block and thread it falls in.
VFX_SIMD_KERNEL void advanceBlock(const TracerPass& pass, size_t first, size_t count) {
    const lanes::Lanes3 p = lanes::loadPoints(pass.position, first, count);
    const lanes::Stencils stencils = lanes::stencilsOf(pass.grid, p);
    for (size_t l = 0; l < count; ++l) {
        const FlowAndDensity found = lanes::interpolateLane(pass.values, pass.grid, stencils, int(l));
        const size_t i = first + l;
        vec3 now(found[0], found[1], found[2]);
        if (pass.pushed) now += pass.pushed[i];
        vec3 moved = pass.weights.current * now + pass.weights.previous * pass.last[i];
        if (pass.before) {
            // u_n-2 is read for the last time: its slot takes u_n, and the caller swaps the two
            // arrays, so u_n-1 stays where it is instead of being copied.
            moved += pass.weights.beforePrevious * pass.before[i];
            pass.before[i] = now;
        } else {
            pass.last[i] = now;
        }
        pass.density[i] = found[3];
        pass.velocity[i] = moved;
        pass.position[i] = vec3(p.x[l], p.y[l], p.z[l]) + pass.dt * moved;
    }
}

// The same block by the midpoint rule (no last rate to extrapolate): the flow at each tracer, then
// at the point half a step along it, both looked up in lanes.
VFX_SIMD_KERNEL void advanceBlockByMidpoint(const TracerPass& pass, size_t first, size_t count) {
    const lanes::Lanes3 p = lanes::loadPoints(pass.position, first, count);
    const lanes::Stencils stencils = lanes::stencilsOf(pass.grid, p);
    vec3 now[kLanes], midpoint[kLanes];
    for (size_t l = 0; l < count; ++l) {
        const FlowAndDensity found = lanes::interpolateLane(pass.values, pass.grid, stencils, int(l));
        now[l] = vec3(found[0], found[1], found[2]);
        pass.density[first + l] = found[3];
        midpoint[l] = vec3(p.x[l], p.y[l], p.z[l]) + 0.5f * pass.dt * now[l];
    }
    const lanes::Stencils halfway = lanes::stencilsOf(pass.grid, lanes::loadPoints(midpoint, 0, count));
    for (size_t l = 0; l < count; ++l) {
        const FlowAndDensity found = lanes::interpolateLane(pass.values, pass.grid, halfway, int(l));
        const size_t i = first + l;
        vec3 moved(found[0], found[1], found[2]);
        if (pass.before) {
            moved += pass.weights.beforePrevious * pass.before[i];
            pass.before[i] = pass.last[i];
        }
        pass.last[i] = now[l];
        pass.velocity[i] = moved;
        pass.position[i] = vec3(p.x[l], p.y[l], p.z[l]) + pass.dt * moved;
    }
}

void checkTracerHistory(size_t n, const std::vector<vec3>& lastVelocity, const std::vector<vec3>* velocityBefore,
                        const std::vector<vec3>* pushed) {
    if (lastVelocity.size() != n) throw std::logic_error("tracer advection: no last velocity for every tracer");
    if (velocityBefore && velocityBefore->size() != n)
        throw std::logic_error("tracer advection: no velocity before the last for every tracer");
    if (pushed && pushed->size() != n) throw std::logic_error("tracer advection: no pushed flow for every tracer");
}

template <typename Block>
MovedTracerBounds advanceTracersInBlocks(const UniformGrid<FlowAndDensity>& packed, StepWeights weights, float dt,
                                         Tracers& tracers, std::vector<vec3>& lastVelocity,
                                         std::vector<vec3>* velocityBefore, const std::vector<vec3>* pushed,
                                         Block block) {
    const size_t n = tracers.size();
    tracers.velocity.resize(n);
    tracers.density.resize(n);
    const TracerPass pass{packed.values().data(),
                          lanes::LaneGrid(packed.shape()),
                          weights,
                          dt,
                          tracers.position.data(),
                          tracers.velocity.data(),
                          tracers.density.data(),
                          lastVelocity.data(),
                          velocityBefore ? velocityBefore->data() : nullptr,
                          pushed ? pushed->data() : nullptr};
    const size_t blocks = (n + size_t(kLanes) - 1) / size_t(kLanes);
    return deterministicReduce<MovedTracerBounds>(
        blocks, MovedTracerBounds{},
        [&](size_t begin, size_t end) {
            // Each block's moved positions are read back one block later, once their stores have
            // left the store buffer (read at once, the vector loads wait on the scalar stores).
            LaneBounds bounds;
            for (size_t b = begin; b < end; ++b) {
                const size_t first = b * size_t(kLanes);
                block(pass, first, std::min(size_t(kLanes), n - first));
                if (b > begin) bounds.include(lanes::loadPoints(pass.position, first - size_t(kLanes), size_t(kLanes)));
            }
            const size_t last = (end - 1) * size_t(kLanes);
            bounds.include(lanes::loadPoints(pass.position, last, std::min(size_t(kLanes), n - last)));
            return bounds.reduced();
        },
        [](const MovedTracerBounds& a, const MovedTracerBounds& c) { return a.joined(c); }, 512);
}

}  // namespace

MovedTracerBounds MovedTracerBounds::joined(const MovedTracerBounds& o) const {
    return {glm::min(lo, o.lo), glm::max(hi, o.hi), finite && o.finite};
}

MovedTracerBounds advanceTracersTwoStep(const UniformGrid<FlowAndDensity>& packed, StepWeights weights, float dt,
                                        Tracers& tracers, std::vector<vec3>& lastVelocity,
                                        std::vector<vec3>* velocityBefore, const std::vector<vec3>* pushed) {
    checkTracerHistory(tracers.size(), lastVelocity, velocityBefore, pushed);
    const MovedTracerBounds bounds =
        advanceTracersInBlocks(packed, weights, dt, tracers, lastVelocity, velocityBefore, pushed, advanceBlock);
    if (velocityBefore) std::swap(lastVelocity, *velocityBefore);  // u_n into lastVelocity, u_n-1 before it
    return bounds;
}

MovedTracerBounds advanceTracersByMidpoint(const UniformGrid<FlowAndDensity>& packed, StepWeights weights, float dt,
                                           Tracers& tracers, std::vector<vec3>& lastVelocity,
                                           std::vector<vec3>* velocityBefore) {
    checkTracerHistory(tracers.size(), lastVelocity, velocityBefore, nullptr);
    return advanceTracersInBlocks(packed, weights, dt, tracers, lastVelocity, velocityBefore, nullptr,
                                  advanceBlockByMidpoint);
}

}  // namespace vfx
