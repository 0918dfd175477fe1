#pragma once
// A packed grid with a smooth field far from trilinear, and tracers inside it and beyond each
// face: the input of the SIMD lookups' tests (tracer_advection_test.cpp, grid_lookups_test.cpp).
#include "core/uniform_grid.hpp"
#include "sim/particles.hpp"
#include "sim/tracer_advection.hpp"

#include <cmath>
#include <random>

namespace vfx::test {

// A packed grid with a smooth but far from trilinear field, values of order 1.
inline UniformGrid<FlowAndDensity> wavyGrid() {
    GridShape shape;
    shape.minCorner = vec3(-1.0f, -0.5f, 0.25f);
    shape.spacing = vec3(0.2f, 0.25f, 0.3f);
    shape.points = ivec3(9, 7, 6);
    UniformGrid<FlowAndDensity> grid(shape);
    for (int z = 0; z < shape.points.z; ++z)
        for (int y = 0; y < shape.points.y; ++y)
            for (int x = 0; x < shape.points.x; ++x) {
                const vec3 p = shape.pointPosition(x, y, z);
                grid.at(x, y, z) = FlowAndDensity{std::sin(3.0f * p.x + p.z), std::cos(2.0f * p.y - p.x),
                                                  0.5f * std::sin(p.x * p.y + 4.0f * p.z), std::cos(5.0f * p.z)};
            }
    return grid;
}

// Tracers inside the grid and beyond each face (they take the nearest cell, as lookups do).
inline Tracers scatteredTracers(const GridShape& shape, size_t count, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> share(-0.2f, 1.2f);
    Tracers t;
    for (size_t i = 0; i < count; ++i)
        t.add(shape.minCorner + vec3(share(rng), share(rng), share(rng)) * shape.extent());
    return t;
}

}  // namespace vfx::test
