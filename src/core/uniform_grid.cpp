#include "core/uniform_grid.hpp"

#include <cmath>

namespace vfx {

float GridShape::cellVolume() const {
    float v = 1.0f;
    for (int a = 0; a < 3; ++a)
        if (!flatAxis(a)) v *= spacing[a];
    return v;
}

bool GridShape::encloses(const vec3& p) const {
    const vec3 hi = maxCorner();
    for (int a = 0; a < 3; ++a) {
        if (flatAxis(a)) continue;
        if (!(p[a] >= minCorner[a] && p[a] <= hi[a])) return false;
    }
    return true;
}

GridShape GridShape::fitBox(vec3 lo, vec3 hi, size_t targetCells, float minSpacing) {
    targetCells = std::max<size_t>(targetCells, 1);
    const vec3 extent = glm::max(hi - lo, vec3(minSpacing));
    const float spacing = std::max(std::cbrt(extent.x * extent.y * extent.z / float(targetCells)), minSpacing);
    return fitBoxWithSpacing(lo, hi, spacing, minSpacing);
}

GridShape GridShape::fitBoxWithSpacing(vec3 lo, vec3 hi, float spacing, float minSpacing) {
    const vec3 extent = glm::max(hi - lo, vec3(minSpacing));
    GridShape shape;
    ivec3 cellCount;
    for (int a = 0; a < 3; ++a) cellCount[a] = std::max(1, int(std::ceil(extent[a] / spacing * (1.0f + 1e-6f))));
    // Centre the grid on the box; the cells overhang it a little on each side.
    const vec3 span = vec3(cellCount) * spacing;
    const vec3 centre = 0.5f * (lo + hi);
    shape.minCorner = centre - 0.5f * span;
    shape.spacing = vec3(spacing);
    shape.points = cellCount + ivec3(1);
    return shape;
}

// Widens the spacing 1% at a time from the box's share of the cap until the count fits, so the
// result is within one step of the finest spacing that fits. Past the longest side every axis
// has one cell, so the loop ends.
GridShape GridShape::fitBoxAtMost(vec3 lo, vec3 hi, size_t maxCells, float minSpacing) {
    maxCells = std::max<size_t>(maxCells, 1);
    GridShape shape = fitBox(lo, hi, maxCells, minSpacing);
    float spacing = shape.spacing.x;
    while (shape.cellCount() > maxCells) {
        spacing *= 1.01f;
        shape = fitBoxWithSpacing(lo, hi, spacing, minSpacing);
    }
    return shape;
}

TrilinearStencil trilinearStencilGeneral(const GridShape& shape, const vec3& p) {
    vec3 f;
    const ivec3 c = shape.cellOf(p, &f);
    TrilinearStencil s;
    const int nx = shape.flatAxis(0) ? 1 : 2;
    const int ny = shape.flatAxis(1) ? 1 : 2;
    const int nz = shape.flatAxis(2) ? 1 : 2;
    for (int dz = 0; dz < nz; ++dz)
        for (int dy = 0; dy < ny; ++dy)
            for (int dx = 0; dx < nx; ++dx) {
                const float wx = nx == 1 ? 1.0f : (dx ? f.x : 1.0f - f.x);
                const float wy = ny == 1 ? 1.0f : (dy ? f.y : 1.0f - f.y);
                const float wz = nz == 1 ? 1.0f : (dz ? f.z : 1.0f - f.z);
                s.index[s.count] = shape.index(c.x + dx, c.y + dy, c.z + dz);
                s.weight[s.count] = wx * wy * wz;
                ++s.count;
            }
    return s;
}

}  // namespace vfx
