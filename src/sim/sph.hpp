#pragma once
// Smoothed particle hydrodynamics on vortons (parts 15, 16): mesh-free density gradient for
// baroclinic generation and a pressure acceleration for the sph / hybrid fluid methods.
#include "core/cell_partition.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

class SphFluid {
public:
    // Partitions the vortons into cells of size >= h and computes number densities.
    void update(const Vortons& vortons, const FluidParams& fluid);
    // Density gradient at each vorton: canonical form where proximity >= h, difference form nearer.
    void densityGradient(const Vortons& vortons, const std::vector<float>& wallProximity,
                         const FluidParams& fluid, std::vector<vec3>& out) const;
    // Pressure-gradient acceleration at each vorton (keeps particles near the rest spacing).
    void pressureAcceleration(const Vortons& vortons, const FluidParams& fluid, std::vector<vec3>& out) const;
    const std::vector<float>& numberDensity() const { return numberDensity_; }

private:
    CellPartition partition_;
    std::vector<float> numberDensity_;
};

}  // namespace vfx
