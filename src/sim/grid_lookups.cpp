#include "sim/grid_lookups.hpp"

#include "core/lane_stencils.hpp"
#include "core/parallel.hpp"

#include <algorithm>

namespace vfx {
namespace {

using lanes::kLanes;

// Points [first, first + count), count <= kLanes (lanes past count repeat the last point).
template <typename T>
VFX_LANES_INLINE void interpolateBlock(const T* values, const lanes::LaneGrid& grid, const vec3* points, size_t first,
                                       size_t count, T* out) {
    const lanes::Stencils stencils = lanes::stencilsOf(grid, lanes::loadPoints(points, first, count));
    for (size_t l = 0; l < count; ++l) out[first + l] = lanes::interpolateLane(values, grid, stencils, int(l));
}

VFX_SIMD_KERNEL void interpolateVectors(const vec3* values, const lanes::LaneGrid& grid, const vec3* points,
                                        size_t first, size_t count, vec3* out) {
    interpolateBlock(values, grid, points, first, count, out);
}

VFX_SIMD_KERNEL void interpolateMatrices(const mat3* values, const lanes::LaneGrid& grid, const vec3* points,
                                         size_t first, size_t count, mat3* out) {
    interpolateBlock(values, grid, points, first, count, out);
}

template <typename T, typename Kernel>
void interpolateAll(const UniformGrid<T>& grid, const std::vector<vec3>& points, std::vector<T>& out,
                    const Kernel& kernel) {
    const size_t n = points.size();
    out.resize(n);
    const GridShape& shape = grid.shape();
    if (shape.anyFlatAxis()) {
        parallelForEach(
            0, n, [&](size_t i) { out[i] = grid.interpolate(points[i]); }, 2048);
        return;
    }
    const lanes::LaneGrid laneGrid(shape);
    const size_t blocks = (n + size_t(kLanes) - 1) / size_t(kLanes);
    parallelForEach(
        0, blocks,
        [&](size_t b) {
            const size_t first = b * size_t(kLanes);
            kernel(grid.values().data(), laneGrid, points.data(), first, std::min(size_t(kLanes), n - first),
                   out.data());
        },
        256);
}

}  // namespace

void interpolateAtPoints(const UniformGrid<vec3>& grid, const std::vector<vec3>& points, std::vector<vec3>& out) {
    interpolateAll(grid, points, out, interpolateVectors);
}

void interpolateAtPoints(const UniformGrid<mat3>& grid, const std::vector<vec3>& points, std::vector<mat3>& out) {
    interpolateAll(grid, points, out, interpolateMatrices);
}

}  // namespace vfx
