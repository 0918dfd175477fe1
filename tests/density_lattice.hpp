#pragma once
// A lattice of vortons carrying a linear density deviation on a grid of the lattice's own spacing,
// and the step and gravity of the density-gradient and baroclinic tests (density_field_test.cpp,
// baroclinic_test.cpp).
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <cmath>

namespace vfx::test {

constexpr float kDt = 0.01f;
inline const vec3 kGravity(0.0f, -9.8f, 0.0f);

// A lattice of vortons (spacing h, volume h^3) carrying rho'(x) = a + b.x, with the grid spacing
// forced to h: two massless tracers at the corners of a box set the grid's extent E = 16 h, and
// gridCellsPerVorton makes the target cell count (E / h)^3. On a lattice of the grid's spacing
// the trilinear (tent) weights reproduce linear functions, so wherever a grid point has all 8
// lattice neighbours the deposited density is exactly a + b.x, and the centred gradient is
// exactly b one point further in. Vortons two spacings inside the lattice interpolate b.
struct LatticeSetup {
    static constexpr int kCount = 12;  // vortons per axis
    static constexpr float kSpacing = 0.1f;
    float offset = 0.5f * float(kCount - 1) * kSpacing;  // lattice spans [-offset, offset]^3
    float a = 0.3f;
    vec3 b{0.2f, -0.5f, 0.1f};
};

inline void buildLattice(Simulation& sim, const LatticeSetup& s) {
    const float h = LatticeSetup::kSpacing;
    test::addLattice(
        sim.vortons(), ivec3(LatticeSetup::kCount), vec3(-s.offset), h,
        [&](const vec3& p) { return s.a + glm::dot(s.b, p); }, nullptr);
    const float sigma = sim.vortons().radius[0];
    const int gridCells = 16;
    const float corner = 0.5f * float(gridCells) * h - sigma;  // padded by sigma on each side: E = 16 h
    sim.editTracers().add(vec3(-corner));
    sim.editTracers().add(vec3(corner));
    const double target = double(gridCells) * gridCells * gridCells;
    sim.fluid().gridCellsPerVorton = float((target + 0.5) / double(sim.vortons().size()));
    sim.fluid().viscosity = 0.0f;
    sim.fluid().stretching = false;
}

inline bool insideLattice(const vec3& p, float margin, const LatticeSetup& s) {
    for (int a = 0; a < 3; ++a)
        if (std::abs(p[a]) > s.offset - margin + 1e-4f) return false;
    return true;
}

}  // namespace vfx::test
