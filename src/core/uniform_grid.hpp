#pragma once
// Axis-aligned uniform grid of sample points and a container of values on it.
// Points are indexed (ix, iy, iz) with x fastest. A "cell" is the box between 8 points.
#include "core/math.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace vfx {

// Makes room for n items with a quarter more to spare when v must grow: the step's grids follow
// the particles, and a falling drop's grid grows a little every step; without the spare room
// each step would move the values to a fresh allocation (and fault its pages in).
template <typename Vector>
void reserveWithHeadroom(Vector& v, size_t n) {
    if (n > v.capacity()) v.reserve(n + n / 4);
}

struct GridShape {
    vec3 minCorner{0.0f};
    vec3 spacing{1.0f};
    ivec3 points{2, 2, 2};  // number of points per axis, >= 2 on a real axis, 1 on a flat axis

    size_t pointCount() const { return size_t(points.x) * size_t(points.y) * size_t(points.z); }
    ivec3 cells() const { return glm::max(points - ivec3(1), ivec3(1)); }
    size_t cellCount() const {
        ivec3 c = cells();
        return size_t(c.x) * size_t(c.y) * size_t(c.z);
    }
    vec3 extent() const { return vec3(points - ivec3(1)) * spacing; }
    vec3 maxCorner() const { return minCorner + extent(); }
    float cellVolume() const;  // product of spacings over non-flat axes
    size_t index(int ix, int iy, int iz) const {
        return size_t(ix) + size_t(points.x) * (size_t(iy) + size_t(points.y) * size_t(iz));
    }
    size_t cellIndex(ivec3 c) const {
        ivec3 n = cells();
        return size_t(c.x) + size_t(n.x) * (size_t(c.y) + size_t(n.y) * size_t(c.z));
    }
    vec3 pointPosition(int ix, int iy, int iz) const {
        return minCorner + vec3(float(ix), float(iy), float(iz)) * spacing;
    }
    bool flatAxis(int axis) const { return points[axis] < 2; }
    bool anyFlatAxis() const { return flatAxis(0) || flatAxis(1) || flatAxis(2); }
    // Cell containing p (clamped into the grid) and the fractional position inside it. Inline:
    // every particle's neighbour search and grid gather starts here.
    ivec3 cellOf(const vec3& p, vec3* fraction = nullptr) const {
        ivec3 cell(0);
        vec3 frac(0.0f);
        const ivec3 n = cells();
        for (int a = 0; a < 3; ++a) {
            if (flatAxis(a)) continue;
            const float t = (p[a] - minCorner[a]) / spacing[a];
            const int c = std::clamp(int(std::floor(t)), 0, n[a] - 1);
            cell[a] = c;
            frac[a] = std::clamp(t - float(c), 0.0f, 1.0f);
        }
        if (fraction) *fraction = frac;
        return cell;
    }
    bool encloses(const vec3& p) const;

    // Grid that encloses [lo, hi] with about `targetCells` cells, at least `minSpacing` apart.
    // Each axis is rounded up and keeps at least one cell, so the count can exceed the target
    // (several times over for a thin box).
    static GridShape fitBox(vec3 lo, vec3 hi, size_t targetCells, float minSpacing);
    // The grid with cells `spacing` wide (at least `minSpacing`) centred on [lo, hi].
    static GridShape fitBoxWithSpacing(vec3 lo, vec3 hi, float spacing, float minSpacing);
    // The finest grid, to within 1% in spacing, with at most `maxCells` cells.
    static GridShape fitBoxAtMost(vec3 lo, vec3 hi, size_t maxCells, float minSpacing);
};

// Trilinear stencil: the 8 point indices around a position and their weights.
struct TrilinearStencil {
    size_t index[8];
    float weight[8];
    int count = 0;  // 8 in 3D, fewer on flat axes
};
// General version (handles flat axes).
TrilinearStencil trilinearStencilGeneral(const GridShape& shape, const vec3& p);

// Hot path of every particle lookup: inline, branch-light when all three axes are real.
inline TrilinearStencil trilinearStencil(const GridShape& shape, const vec3& p) {
    if (shape.points.x < 2 || shape.points.y < 2 || shape.points.z < 2) return trilinearStencilGeneral(shape, p);
    const vec3 t = (p - shape.minCorner) / shape.spacing;
    const ivec3 last = shape.points - ivec3(2);
    const ivec3 c = glm::clamp(ivec3(glm::floor(t)), ivec3(0), last);
    const vec3 f = glm::clamp(t - vec3(c), vec3(0.0f), vec3(1.0f));
    const vec3 g = vec3(1.0f) - f;
    const size_t sx = 1, sy = size_t(shape.points.x), sz = size_t(shape.points.x) * size_t(shape.points.y);
    const size_t base = shape.index(c.x, c.y, c.z);
    TrilinearStencil s;
    s.count = 8;
    s.index[0] = base;
    s.weight[0] = g.x * g.y * g.z;
    s.index[1] = base + sx;
    s.weight[1] = f.x * g.y * g.z;
    s.index[2] = base + sy;
    s.weight[2] = g.x * f.y * g.z;
    s.index[3] = base + sx + sy;
    s.weight[3] = f.x * f.y * g.z;
    s.index[4] = base + sz;
    s.weight[4] = g.x * g.y * f.z;
    s.index[5] = base + sx + sz;
    s.weight[5] = f.x * g.y * f.z;
    s.index[6] = base + sy + sz;
    s.weight[6] = g.x * f.y * f.z;
    s.index[7] = base + sx + sy + sz;
    s.weight[7] = f.x * f.y * f.z;
    return s;
}

template <typename T>
class UniformGrid {
public:
    UniformGrid() = default;
    explicit UniformGrid(const GridShape& s, const T& fill = T{}) { reset(s, fill); }

    void reset(const GridShape& s, const T& fill = T{}) {
        reshape(s);
        std::fill(values_.begin(), values_.end(), fill);
    }
    // The same, with values left as they were (or zero where the grid grew): for a caller that
    // writes every point next, which then needs no fill.
    void reshape(const GridShape& s) {
        shape_ = s;
        inverseSpacing_ = vec3(1.0f) / s.spacing;
        reserveWithHeadroom(values_, s.pointCount());
        values_.resize(s.pointCount());
    }
    const GridShape& shape() const { return shape_; }
    size_t size() const { return values_.size(); }
    T& operator[](size_t i) { return values_[i]; }
    const T& operator[](size_t i) const { return values_[i]; }
    T& at(int ix, int iy, int iz) { return values_[shape_.index(ix, iy, iz)]; }
    const T& at(int ix, int iy, int iz) const { return values_[shape_.index(ix, iy, iz)]; }
    std::vector<T>& values() { return values_; }
    const std::vector<T>& values() const { return values_; }

    T interpolate(const vec3& p) const {
        const ivec3 n = shape_.points;
        if (n.x < 2 || n.y < 2 || n.z < 2) {
            TrilinearStencil s = trilinearStencilGeneral(shape_, p);
            T sum{};
            for (int k = 0; k < s.count; ++k) sum += values_[s.index[k]] * s.weight[k];
            return sum;
        }
        // Hot path of every tracer and vorton lookup (scalar code, no glm vector temporaries): the
        // 8 corners from one base index and fixed strides, combined
        // as 7 linear interpolations (x, then y, then z).
        const float tx = (p.x - shape_.minCorner.x) * inverseSpacing_.x;
        const float ty = (p.y - shape_.minCorner.y) * inverseSpacing_.y;
        const float tz = (p.z - shape_.minCorner.z) * inverseSpacing_.z;
        const int cx = std::min(std::max(int(std::floor(tx)), 0), n.x - 2);
        const int cy = std::min(std::max(int(std::floor(ty)), 0), n.y - 2);
        const int cz = std::min(std::max(int(std::floor(tz)), 0), n.z - 2);
        const float fx = std::min(std::max(tx - float(cx), 0.0f), 1.0f);
        const float fy = std::min(std::max(ty - float(cy), 0.0f), 1.0f);
        const float fz = std::min(std::max(tz - float(cz), 0.0f), 1.0f);
        const size_t sy = size_t(n.x), sz = size_t(n.x) * size_t(n.y);
        const T* v = values_.data() + size_t(cx) + sy * size_t(cy) + sz * size_t(cz);
        auto lerp = [](const T& a, const T& b, float w) { return a + (b - a) * w; };
        const T y0 = lerp(lerp(v[0], v[1], fx), lerp(v[sy], v[sy + 1], fx), fy);
        const T y1 = lerp(lerp(v[sz], v[sz + 1], fx), lerp(v[sz + sy], v[sz + sy + 1], fx), fy);
        return lerp(y0, y1, fz);
    }

private:
    GridShape shape_;
    vec3 inverseSpacing_{1.0f};
    std::vector<T> values_;
};

}  // namespace vfx
