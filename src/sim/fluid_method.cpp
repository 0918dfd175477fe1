#include "sim/fluid_method.hpp"

#include <stdexcept>
#include <string>

namespace vfx {

namespace {

class VpmStep final : public FluidMethodStep {
public:
    FluidMethod method() const override { return FluidMethod::Vpm; }
    bool sphPressure() const override { return false; }
    bool vortexVelocity() const override { return true; }
    bool remeshes() const override { return true; }
};

class SphStep final : public FluidMethodStep {
public:
    FluidMethod method() const override { return FluidMethod::Sph; }
    bool sphPressure() const override { return true; }
    bool vortexVelocity() const override { return false; }
    vec3 sphBodyAcceleration(const FluidParams& fluid) const override { return fluid.gravity / fluid.ambientDensity; }
    bool vorticityFromSph() const override { return true; }
};

class HybridStep final : public FluidMethodStep {
public:
    FluidMethod method() const override { return FluidMethod::Hybrid; }
    bool sphPressure() const override { return true; }
    bool vortexVelocity() const override { return true; }
};

}  // namespace

const FluidMethodStep& fluidMethodStep(FluidMethod method) {
    static const VpmStep vpm;
    static const SphStep sph;
    static const HybridStep hybrid;
    switch (method) {
        case FluidMethod::Vpm:
            return vpm;
        case FluidMethod::Sph:
            return sph;
        case FluidMethod::Hybrid:
            return hybrid;
    }
    throw std::invalid_argument("fluid.method: no time step for method " + std::to_string(int(method)));
}

}  // namespace vfx
