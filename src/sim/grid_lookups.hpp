#pragma once
// A grid's values at many particles: UniformGrid::interpolate at each point, with the cells and
// fractions of eight points found at once in SIMD lanes and each point's interpolation fusing
// its multiply-adds (so values may differ from interpolate() in the last bits, the same for any
// thread count). Grids with a flat axis take interpolate() point by point.
#include "core/uniform_grid.hpp"

#include <vector>

namespace vfx {

void interpolateAtPoints(const UniformGrid<vec3>& grid, const std::vector<vec3>& points, std::vector<vec3>& out);
void interpolateAtPoints(const UniformGrid<mat3>& grid, const std::vector<vec3>& points, std::vector<mat3>& out);
// The same, but only for the blocks of kLanes points (0-7, 8-15, ...) that hold a point marked
// in `marked` (one flag a point); every point of the other blocks reads zero. A point it reads
// gets the same bits as from interpolateAtPoints.
void interpolateAtMarkedBlocks(const UniformGrid<vec3>& grid, const std::vector<vec3>& points,
                               const std::vector<uint8_t>& marked, std::vector<vec3>& out);

}  // namespace vfx
