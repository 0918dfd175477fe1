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

}  // namespace vfx
