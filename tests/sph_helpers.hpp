#pragma once
// Lattices and parameters of the SPH tests (sph_test.cpp, fluid_method_test.cpp), and the kernel
// mass on the fluid side of walls by quadrature (sph_test.cpp, wall_fields_test.cpp).
#include "sim/params.hpp"
#include "sim/particles.hpp"
#include "sim/sph.hpp"
#include "test_helpers.hpp"

#include <functional>

namespace vfx::test {

constexpr float kSpacing = 0.05f;      // lattice spacing of the gradient tests
constexpr float kH = 2.5f * kSpacing;  // kernel support: ~65 neighbours inside h

inline FluidParams sphParams(float h = kH, float restSpacing = kSpacing) {
    FluidParams f;
    f.sphInfluenceRadius = h;
    f.sphRestSpacing = restSpacing;
    return f;
}

// n^3 lattice at kSpacing with its first point at the origin.
inline Vortons latticeOf(int n, const std::function<float(const vec3&)>& density) {
    Vortons v;
    addLattice(v, ivec3(n), vec3(0.0f), kSpacing, density, nullptr);
    return v;
}

// True if x is at least `margin` inside the lattice's bounding box [0, (n-1) s]^3.
inline bool interior(const vec3& x, int n, float margin) {
    const float extent = float(n - 1) * kSpacing;
    for (int a = 0; a < 3; ++a)
        if (x[a] < margin || x[a] > extent - margin) return false;
    return true;
}

// Kernel mass at `centre` that lies where inFluid holds: midpoint rule on 80^3 cells across
// the support (cell centres, so no sample sits on a wall plane).
inline double kernelMassWhere(const vec3& centre, float h, const std::function<bool(const vec3&)>& inFluid) {
    const float dx = h / 40.0f;
    double mass = 0.0;
    for (int z = -40; z < 40; ++z)
        for (int y = -40; y < 40; ++y)
            for (int x = -40; x < 40; ++x) {
                const vec3 offset = dx * (vec3(float(x), float(y), float(z)) + 0.5f);
                if (inFluid(centre + offset)) mass += sphKernel(glm::length(offset), h);
            }
    return mass * dx * dx * dx;
}

}  // namespace vfx::test
