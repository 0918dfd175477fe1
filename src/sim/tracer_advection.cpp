#include "sim/tracer_advection.hpp"

#include "core/parallel.hpp"
#include "core/simd_lanes.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace vfx {
namespace {

using lanes::kLanes;
using lanes::Lanes;
using lanes::Lanes3;
using CellLanes = int32_t __attribute__((vector_size(kLanes * sizeof(int32_t))));

struct TracerPass {
    const FlowAndDensity* values;
    vec3 minCorner, inverseSpacing;
    ivec3 lastCell;            // points - 2 per axis: the last cell a lookup may use
    int32_t strideY, strideZ;  // between points along y and z (the grid holds fewer than 2^31)
    TwoStepWeights weights;
    float dt;
    vec3* position;
    vec3* velocity;
    float* density;
    vec3* last;
};

// Along one axis, for kLanes tracers: the cell holding each (clamped to the grid) and the
// fraction of the way across it (clamped to [0, 1]), as UniformGrid::interpolate finds them. A
// NaN coordinate takes cell 0 and fraction 0: never an index outside the grid.
VFX_LANES_INLINE void cellAlongAxis(Lanes coordinate, float origin, float inverseSpacing, int lastCell, CellLanes& cell,
                                    Lanes& fraction) {
    const Lanes t = (coordinate - origin) * inverseSpacing;
    Lanes c;
    for (int l = 0; l < kLanes; ++l) c[l] = __builtin_floorf(t[l]);  // one vector round
    c = c >= 0.0f ? c : Lanes{};
    c = c <= float(lastCell) ? c : lanes::splat(float(lastCell));
    Lanes f = t - c;
    f = f > 0.0f ? f : Lanes{};
    fraction = f < 1.0f ? f : lanes::splat(1.0f);
    cell = __builtin_convertvector(c, CellLanes);
}

// Positions [first, first + count) in lanes, one vector per axis; lanes past count repeat the
// last one. A whole block is three loads and a deinterleave.
VFX_LANES_INLINE Lanes3 loadPositions(const vec3* v, size_t first, size_t count) {
    static_assert(sizeof(vec3) == 3 * sizeof(float), "vec3 is three packed floats");
    Lanes3 out;
    if (count == size_t(kLanes)) {
        const float* f = &v[first].x;
        const Lanes a = lanes::load(f), b = lanes::load(f + kLanes), c = lanes::load(f + 2 * kLanes);
        out.x = __builtin_shufflevector(__builtin_shufflevector(a, b, 0, 3, 6, 9, 12, 15, 0, 0), c, 0, 1, 2, 3, 4, 5,
                                        10, 13);
        out.y = __builtin_shufflevector(__builtin_shufflevector(a, b, 1, 4, 7, 10, 13, 0, 0, 0), c, 0, 1, 2, 3, 4, 8,
                                        11, 14);
        out.z = __builtin_shufflevector(__builtin_shufflevector(a, b, 2, 5, 8, 11, 14, 0, 0, 0), c, 0, 1, 2, 3, 4, 9,
                                        12, 15);
        return out;
    }
    for (size_t l = 0; l < size_t(kLanes); ++l) {
        const vec3& p = v[first + std::min(l, count - 1)];
        out.x[l] = p.x;
        out.y[l] = p.y;
        out.z[l] = p.z;
    }
    return out;
}

// Tracers [first, first + count), count <= kLanes: the stencils in lanes (lanes past count
// repeat the last tracer), then each tracer's lookup and step. Every tracer runs the same
// instructions whichever block and thread it falls in.
VFX_SIMD_KERNEL void advanceBlock(const TracerPass& pass, size_t first, size_t count) {
    const Lanes3 p = loadPositions(pass.position, first, count);
    CellLanes cx, cy, cz;
    Lanes fx, fy, fz;
    cellAlongAxis(p.x, pass.minCorner.x, pass.inverseSpacing.x, pass.lastCell.x, cx, fx);
    cellAlongAxis(p.y, pass.minCorner.y, pass.inverseSpacing.y, pass.lastCell.y, cy, fy);
    cellAlongAxis(p.z, pass.minCorner.z, pass.inverseSpacing.z, pass.lastCell.z, cz, fz);
    const int32_t sy = pass.strideY, sz = pass.strideZ;
    const CellLanes corner = cx + cy * sy + cz * sz;  // index of each stencil's first point
    auto lerp = [](FlowAndDensity a, FlowAndDensity b, float w) { return a + (b - a) * w; };
    for (size_t l = 0; l < count; ++l) {
        const FlowAndDensity* v = pass.values + corner[l];
        const FlowAndDensity y0 = lerp(lerp(v[0], v[1], fx[l]), lerp(v[sy], v[sy + 1], fx[l]), fy[l]);
        const FlowAndDensity y1 = lerp(lerp(v[sz], v[sz + 1], fx[l]), lerp(v[sz + sy], v[sz + sy + 1], fx[l]), fy[l]);
        const FlowAndDensity found = lerp(y0, y1, fz[l]);
        const size_t i = first + l;
        const vec3 now(found[0], found[1], found[2]);
        const vec3 moved = pass.weights.current * now + pass.weights.previous * pass.last[i];
        pass.last[i] = now;
        pass.density[i] = found[3];
        pass.velocity[i] = moved;
        pass.position[i] = vec3(p.x[l], p.y[l], p.z[l]) + pass.dt * moved;
    }
}

}  // namespace

void advanceTracersTwoStep(const UniformGrid<FlowAndDensity>& packed, TwoStepWeights weights, float dt,
                           Tracers& tracers, std::vector<vec3>& lastVelocity) {
    const GridShape& shape = packed.shape();
    if (shape.flatAxis(0) || shape.flatAxis(1) || shape.flatAxis(2))
        throw std::logic_error("advanceTracersTwoStep: the grid has a flat axis");
    if (shape.pointCount() >= size_t(std::numeric_limits<int32_t>::max()))
        throw std::logic_error("advanceTracersTwoStep: the grid has 2^31 points or more");
    const size_t n = tracers.size();
    if (lastVelocity.size() != n) throw std::logic_error("advanceTracersTwoStep: no last velocity for every tracer");
    tracers.velocity.resize(n);
    tracers.density.resize(n);
    const TracerPass pass{packed.values().data(),
                          shape.minCorner,
                          vec3(1.0f) / shape.spacing,
                          shape.points - ivec3(2),
                          shape.points.x,
                          shape.points.x * shape.points.y,
                          weights,
                          dt,
                          tracers.position.data(),
                          tracers.velocity.data(),
                          tracers.density.data(),
                          lastVelocity.data()};
    const size_t blocks = (n + size_t(kLanes) - 1) / size_t(kLanes);
    parallelForEach(
        0, blocks,
        [&](size_t b) {
            const size_t first = b * size_t(kLanes);
            advanceBlock(pass, first, std::min(size_t(kLanes), n - first));
        },
        512);
}

}  // namespace vfx
