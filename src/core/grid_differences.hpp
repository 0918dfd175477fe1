#pragma once
// Finite differences on a UniformGrid: centred inside, one-sided at the faces, zero along a flat
// axis. They give the velocity gradient of the step's grid (stretching, the sub-step size, the
// subgrid model) and the grid density gradient (baroclinic generation, part 9).
#include "core/math.hpp"
#include "core/parallel.hpp"
#include "core/uniform_grid.hpp"

#include <algorithm>
#include <cstddef>

namespace vfx {

// Derivative of a grid field along one axis at point (x, y, z): the centred difference, one-sided
// at the faces, zero along a flat axis.
template <typename T>
T axisDerivative(const UniformGrid<T>& g, int x, int y, int z, int axis) {
    const GridShape& s = g.shape();
    if (s.flatAxis(axis)) return T{};
    ivec3 p(x, y, z), lo = p, hi = p;
    lo[axis] = std::max(p[axis] - 1, 0);
    hi[axis] = std::min(p[axis] + 1, s.points[axis] - 1);
    const float h = float(hi[axis] - lo[axis]) * s.spacing[axis];
    return (g.at(hi.x, hi.y, hi.z) - g.at(lo.x, lo.y, lo.z)) * (1.0f / h);
}

// Gradient of a grid field at every point: component (or column) a is d/dx_a, so a float field
// gives a vec3 and a vec3 field a mat3 whose column j holds du/dx_j. Interior points of a grid
// without a flat axis take the centred difference by fixed strides; the rest axisDerivative.
template <typename T, typename Gradient>
void differentiate(const UniformGrid<T>& field, UniformGrid<Gradient>& out) {
    const GridShape& shape = field.shape();
    out.reshape(shape);  // every point is written below
    const ivec3 n = shape.points;
    const bool solid = !shape.anyFlatAxis();
    const size_t stride[3] = {1, size_t(n.x), size_t(n.x) * size_t(n.y)};
    // 1 / (2 h): the same factor axisDerivative takes for a centred difference.
    const float invSpan[3] = {1.0f / (2.0f * shape.spacing.x), 1.0f / (2.0f * shape.spacing.y),
                              1.0f / (2.0f * shape.spacing.z)};
    parallelForEach(
        0, size_t(n.z),
        [&](size_t zi) {
            const int z = int(zi);
            for (int y = 0; y < n.y; ++y)
                for (int x = 0; x < n.x; ++x) {
                    Gradient g;
                    const bool interior = solid && x > 0 && y > 0 && z > 0 && x < n.x - 1 && y < n.y - 1 && z < n.z - 1;
                    if (interior) {
                        const size_t k = shape.index(x, y, z);
                        for (int a = 0; a < 3; ++a) g[a] = (field[k + stride[a]] - field[k - stride[a]]) * invSpan[a];
                    } else {
                        for (int a = 0; a < 3; ++a) g[a] = axisDerivative(field, x, y, z, a);
                    }
                    out.at(x, y, z) = g;
                }
        },
        1);
}

// S:S for the strain rate S = (J + J^T) / 2, the symmetric part of a velocity gradient J whose
// column j holds du/dx_j (1/s^2).
inline __attribute__((always_inline)) float strainRateSquared(const mat3& j) {
    const mat3 strain = 0.5f * (j + glm::transpose(j));
    return glm::dot(strain[0], strain[0]) + glm::dot(strain[1], strain[1]) + glm::dot(strain[2], strain[2]);
}

}  // namespace vfx
