#pragma once
// Trilinear stencils of eight points at once in SIMD lanes: the cell holding each point and the
// fractions across it, found as UniformGrid::interpolate finds them (same clamping), for the
// kernels that look up a grid at many particles (tracers, vortons). Helpers for kernels only
// (always inlined into each of a kernel's compiled copies; see core/simd_lanes.hpp).
#include "core/simd_lanes.hpp"
#include "core/uniform_grid.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace vfx::lanes {

using CellLanes = int32_t __attribute__((vector_size(kLanes * sizeof(int32_t))));

// Along one axis: the cell holding each point (clamped to [0, lastCell]) and the fraction of the
// way across it (clamped to [0, 1]). A NaN coordinate takes cell 0 and fraction 0: never an
// index outside the grid.
VFX_LANES_INLINE void cellAlongAxis(Lanes coordinate, float origin, float inverseSpacing, int lastCell, CellLanes& cell,
                                    Lanes& fraction) {
    const Lanes t = (coordinate - origin) * inverseSpacing;
    // Clamped first, then truncated: for t in [0, lastCell] truncation is the floor, so the cell
    // is floor(t) clamped as before, in two vector conversions (a floor per lane is a scalar
    // round each).
    Lanes c = t >= 0.0f ? t : Lanes{};
    c = c <= float(lastCell) ? c : splat(float(lastCell));
    cell = __builtin_convertvector(c, CellLanes);
    c = __builtin_convertvector(cell, Lanes);
    Lanes f = t - c;
    f = f > 0.0f ? f : Lanes{};
    fraction = f < 1.0f ? f : splat(1.0f);
}

// Points [first, first + count) in lanes, one vector per axis; lanes past count repeat the last
// one. A whole block is three loads and a deinterleave.
VFX_LANES_INLINE Lanes3 loadPoints(const vec3* v, size_t first, size_t count) {
    static_assert(sizeof(vec3) == 3 * sizeof(float), "vec3 is three packed floats");
    Lanes3 out;
    if (count == size_t(kLanes)) {
        const float* f = &v[first].x;
        const Lanes a = load(f), b = load(f + kLanes), c = load(f + 2 * kLanes);
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

// What a lookup needs of a grid's shape, for grids with at least two points on every axis and
// fewer than 2^31 points (checked: a stencil's index is a 32-bit lane).
struct LaneGrid {
    vec3 minCorner, inverseSpacing;
    ivec3 lastCell;            // points - 2 per axis: the last cell a lookup may use
    int32_t strideY, strideZ;  // between points along y and z

    explicit LaneGrid(const GridShape& shape)
        : minCorner(shape.minCorner),
          inverseSpacing(vec3(1.0f) / shape.spacing),
          lastCell(shape.points - ivec3(2)),
          strideY(shape.points.x),
          strideZ(shape.points.x * shape.points.y) {
        if (shape.anyFlatAxis()) throw std::logic_error("lane stencils: the grid has a flat axis");
        if (shape.pointCount() >= size_t(std::numeric_limits<int32_t>::max()))
            throw std::logic_error("lane stencils: the grid has 2^31 points or more");
    }
};

// The stencils of eight points: each one's first corner (index of its cell's lowest point) and
// its fractions along x, y and z.
struct Stencils {
    CellLanes corner;
    Lanes fx, fy, fz;
};
VFX_LANES_INLINE Stencils stencilsOf(const LaneGrid& g, const Lanes3& p) {
    CellLanes cx, cy, cz;
    Stencils s;
    cellAlongAxis(p.x, g.minCorner.x, g.inverseSpacing.x, g.lastCell.x, cx, s.fx);
    cellAlongAxis(p.y, g.minCorner.y, g.inverseSpacing.y, g.lastCell.y, cy, s.fy);
    cellAlongAxis(p.z, g.minCorner.z, g.inverseSpacing.z, g.lastCell.z, cz, s.fz);
    s.corner = cx + cy * g.strideY + cz * g.strideZ;
    return s;
}

// Lane l's trilinear interpolation, in UniformGrid::interpolate's order (x, then y, then z).
template <typename T>
VFX_LANES_INLINE T interpolateLane(const T* values, const LaneGrid& g, const Stencils& s, int l) {
    auto lerp = [](const T& a, const T& b, float w) { return a + (b - a) * w; };
    const T* v = values + s.corner[l];
    const size_t sy = size_t(g.strideY), sz = size_t(g.strideZ);
    const float fx = s.fx[l];
    const T y0 = lerp(lerp(v[0], v[1], fx), lerp(v[sy], v[sy + 1], fx), s.fy[l]);
    const T y1 = lerp(lerp(v[sz], v[sz + 1], fx), lerp(v[sz + sy], v[sz + sy + 1], fx), s.fy[l]);
    return lerp(y0, y1, s.fz[l]);
}

}  // namespace vfx::lanes
