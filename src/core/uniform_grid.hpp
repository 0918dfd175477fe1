#pragma once
// Axis-aligned uniform grid of sample points and a container of values on it.
// Points are indexed (ix, iy, iz) with x fastest. A "cell" is the box between 8 points.
#include "core/math.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace vfx {

struct GridShape {
    vec3 minCorner{0.0f};
    vec3 spacing{1.0f};
    ivec3 points{2, 2, 2};  // number of points per axis, >= 2 on a real axis, 1 on a flat axis

    size_t pointCount() const { return size_t(points.x) * size_t(points.y) * size_t(points.z); }
    ivec3 cells() const { return glm::max(points - ivec3(1), ivec3(1)); }
    size_t cellCount() const { ivec3 c = cells(); return size_t(c.x) * size_t(c.y) * size_t(c.z); }
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
    // Cell containing p (clamped into the grid) and the fractional position inside it.
    ivec3 cellOf(const vec3& p, vec3* fraction = nullptr) const;
    bool encloses(const vec3& p) const;

    // Grid that encloses [lo, hi] with about `targetCells` cells, at least `minSpacing` apart.
    static GridShape fitBox(vec3 lo, vec3 hi, size_t targetCells, float minSpacing);
};

// Trilinear stencil: the 8 point indices around a position and their weights.
struct TrilinearStencil {
    size_t index[8];
    float weight[8];
    int count = 0;  // 8 in 3D, fewer on flat axes
};
TrilinearStencil trilinearStencil(const GridShape& shape, const vec3& p);

template <typename T>
class UniformGrid {
public:
    UniformGrid() = default;
    explicit UniformGrid(const GridShape& s, const T& fill = T{}) { reset(s, fill); }

    void reset(const GridShape& s, const T& fill = T{}) {
        shape_ = s;
        values_.assign(s.pointCount(), fill);
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
        TrilinearStencil s = trilinearStencil(shape_, p);
        T sum{};
        for (int k = 0; k < s.count; ++k) sum += values_[s.index[k]] * s.weight[k];
        return sum;
    }

private:
    GridShape shape_;
    std::vector<T> values_;
};

}  // namespace vfx
