#pragma once
// One time-step object per fluid method. What differs between vortex particles (vpm), SPH
// pressure (sph) and both (hybrid) is said here, once: whether the SPH phase runs, what moves
// the vortons, what drives an SPH-only drop, whether the particle set is remeshed. The step
// asks the object for the method in force instead of switching on FluidParams::method.
#include "sim/params.hpp"

namespace vfx {

class FluidMethodStep {
public:
    virtual ~FluidMethodStep() = default;
    virtual FluidMethod method() const = 0;
    // The SPH phase runs: pressure and viscosity between vortons, and tracers follow that flow.
    virtual bool sphPressure() const = 0;
    // Vortons move with the velocity their vorticity induces (the tree or direct solve).
    virtual bool vortexVelocity() const = 0;
    // Strain accumulates and triggers remeshing onto a lattice. Under sph and hybrid the
    // pressure keeps the particles spread, so their set is never remeshed.
    virtual bool remeshes() const { return false; }
    // Acceleration the SPH integration adds to every vorton's velocity: under sph nothing else
    // makes a heavy drop fall, so Boussinesq buoyancy g rho'/rho0 enters here; under hybrid the
    // baroclinic vorticity already does it.
    virtual vec3 sphBodyAcceleration(const FluidParams&) const { return vec3(0.0f); }
    // The vortons' vorticity is re-measured from the SPH flow after each SPH phase (sph only:
    // keeps generation and stretching from piling up vorticity nothing uses).
    virtual bool vorticityFromSph() const { return false; }
    // Particles need each vorton's SPH kernel share on the fluid side of walls.
    bool needsWallKernelShare(const FluidParams& fluid) const {
        return sphPressure() || fluid.densityGradient == GradientSource::Sph;
    }
};

// The object for fluid.method (a static instance; the objects hold no state).
const FluidMethodStep& fluidMethodStep(FluidMethod method);

}  // namespace vfx
