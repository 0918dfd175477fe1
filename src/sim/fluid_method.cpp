#include "sim/fluid_method.hpp"

#include "core/neighbour_search.hpp"  // parallelForEachStable
#include "core/parallel.hpp"

#include <stdexcept>
#include <string>

namespace vfx {

namespace {

// Vortex particles: the vortons move with the velocity their vorticity induces, and the strain
// that distorts their set accumulates until it is remeshed onto a lattice.
class VpmStep final : public FluidMethodStep {
public:
    FluidMethod method() const override { return FluidMethod::Vpm; }
    bool mayRemesh(const FluidParams& fluid) const override { return fluid.remeshStrain > 0.0f; }
    bool remeshDue(float strainSinceRemesh, const FluidParams& fluid) const override {
        return fluid.remeshStrain > 0.0f && strainSinceRemesh >= fluid.remeshStrain;
    }
    float strainAfterSubstep(float strainSinceRemesh, float strainRate, float dt) const override {
        return strainSinceRemesh + strainRate * dt;
    }
    void advect(FluidStepState& s, float dt) const override {
        // Following hybrid, its SPH correction still moves the vortons this sub-step.
        const bool sphStillMoves = s.previous.handOverSphFlow(s);
        if (!s.tracersMoved) s.movedTracerBounds = s.advection.moveTracers(s.flow, s.tracers, s.history, dt);
        s.advection.moveVortons(s.flow, VortonVelocity{true, sphStillMoves}, s.vortons, s.history, dt);
    }
    bool tracersFollowGridFlow() const override { return true; }
    vec3 wholeVelocity(const vec3&, const vec3& vortexVelocity) const override { return vortexVelocity; }
};

// Vortex velocity a vorton moves with: the midpoint rule in the frozen grid field, as the vortex
// methods' advection takes it without a last rate.
vec3 midpointVelocity(const UniformGrid<vec3>& u, const vec3& x, float dt) {
    return u.interpolate(x + 0.5f * dt * u.interpolate(x));
}

// What sph and hybrid share: the SPH phase (pressure and viscosity between vortons, integrated
// into their SPH velocity), tracers that follow the SPH flow, and a set the pressure keeps
// spread, so it is never remeshed.
class SphMethodStep : public FluidMethodStep {
public:
    bool needsWallKernelShare(const FluidParams&) const override { return true; }
    bool sphForcesAct() const override { return true; }
    void runOwnPhases(const PhaseRunner& run, FluidStepState& s, float dt) const override {
        run(Phase::Sph, [&] { sphPhase(s, dt); });
    }

protected:
    // The SPH velocity that gives a vorton this whole velocity under this method.
    virtual vec3 sphVelocityFor(const vec3& wholeVelocity, const vec3& vortexVelocity) const = 0;
    // Acceleration the SPH integration adds to every vorton's velocity per unit rho', m^4/(kg s^2).
    virtual vec3 sphBodyAcceleration(const FluidParams&) const { return vec3(0.0f); }
    // After the SPH forces (sph: the vortons' vorticity becomes that of the SPH flow).
    virtual void afterSphForces(FluidStepState&) const {}
    void advectWith(FluidStepState& s, VortonVelocity velocity, float dt) const;

private:
    void sphPhase(FluidStepState& s, float dt) const;
    void carryVelocityAcrossSwitch(FluidStepState& s, float dt) const;
    void moveTracersWithSph(FluidStepState& s, bool correctsVortexFlow, float dt) const;
};

void SphMethodStep::sphPhase(FluidStepState& s, float dt) const {
    if (s.vortons.size() == 0) return;
    carryVelocityAcrossSwitch(s, dt);
    s.sph.update(s.vortons, s.fluid);
    s.sph.acceleration(s.vortons, s.fluid, s.wallKernelShare, dt, s.vortons.sphAcceleration);
    s.sph.integrate(s.vortons, sphBodyAcceleration(s.fluid), dt);
    afterSphForces(s);
    s.lastSphPhase = SphPhaseRecord{method(), s.substep};
}

// Re-expresses the SPH velocity when the method changes, so the velocity each vorton moves with
// stays continuous: the whole velocity under the last method, as this method splits it.
void SphMethodStep::carryVelocityAcrossSwitch(FluidStepState& s, float dt) const {
    const FluidMethodStep& previous = s.previous;
    if (&previous == this) return;
    Vortons& vortons = s.vortons;
    parallelForEachStable(
        0, vortons.size(),
        [&](size_t i) {
            vec3& v = vortons.sphVelocity[i];
            const vec3 vortex = midpointVelocity(s.flow.velocity, vortons.position[i], dt);
            v = sphVelocityFor(previous.wholeVelocity(v, vortex), vortex);
        },
        2048);
}

void SphMethodStep::advectWith(FluidStepState& s, VortonVelocity velocity, float dt) const {
    if (s.vortons.size() > 0)
        moveTracersWithSph(s, velocity.vortex, dt);
    else
        s.movedTracerBounds = s.advection.moveTracers(s.flow, s.tracers, s.history, dt);
    s.advection.moveVortons(s.flow, velocity, s.vortons, s.history, dt);
}

// Tracers colour by the density deviation where they are at the start of the sub-step and follow
// the SPH flow (interpolated from the partition the SPH phase built from the positions before
// this advection), by the midpoint rule.
void SphMethodStep::moveTracersWithSph(FluidStepState& s, bool correctsVortexFlow, float dt) const {
    Tracers& tracers = s.tracers;
    parallelForEach(
        0, tracers.size(), [&](size_t i) { tracers.density[i] = s.flow.density.interpolate(tracers.position[i]); },
        4096);
    s.sph.interpolateToGrid(s.vortons, s.flow.grid);
    s.sph.advectTracers(tracers, s.flow.velocity, correctsVortexFlow, dt);
    s.history.clearTracerVelocities();
}

// SPH alone: the SPH velocity is the whole velocity. Nothing else makes a heavy drop fall, so
// Boussinesq buoyancy g rho'/rho0 enters the SPH integration; and the vortons' vorticity is
// re-measured from the SPH flow, which keeps baroclinic generation and stretching (which still
// run) from piling up vorticity nothing uses, gives tracers the flow around the particles, and
// lets a switch back to vpm continue the motion.
class SphStep final : public SphMethodStep {
public:
    bool buoyancyActs(const FluidParams&) const override { return true; }
    FluidMethod method() const override { return FluidMethod::Sph; }
    void advect(FluidStepState& s, float dt) const override { advectWith(s, VortonVelocity{false, true}, dt); }
    vec3 wholeVelocity(const vec3& sphVelocity, const vec3&) const override { return sphVelocity; }

protected:
    vec3 sphVelocityFor(const vec3& wholeVelocity, const vec3&) const override { return wholeVelocity; }
    vec3 sphBodyAcceleration(const FluidParams& fluid) const override { return fluid.gravity / fluid.ambientDensity; }
    void afterSphForces(FluidStepState& s) const override { s.sph.vorticity(s.vortons, s.vortons.vorticity); }
};

// Vortex velocity plus an SPH correction: the baroclinic vorticity already makes a drop fall.
class HybridStep final : public SphMethodStep {
public:
    FluidMethod method() const override { return FluidMethod::Hybrid; }
    void advect(FluidStepState& s, float dt) const override { advectWith(s, VortonVelocity{true, true}, dt); }
    vec3 wholeVelocity(const vec3& sphVelocity, const vec3& vortexVelocity) const override {
        return sphVelocity + vortexVelocity;
    }
    // Leaving hybrid for vpm, the SPH correction would vanish between two steps: it still moves
    // the vortons this sub-step, and its vorticity joins theirs so the vortex velocity takes it over.
    bool handOverSphFlow(FluidStepState& s) const override {
        if (s.vortons.size() == 0) return false;
        s.sph.update(s.vortons, s.fluid);
        std::vector<vec3> correction;
        s.sph.vorticity(s.vortons, correction);
        parallelForEach(
            0, s.vortons.size(), [&](size_t i) { s.vortons.vorticity[i] += correction[i]; }, 4096);
        return true;
    }

protected:
    vec3 sphVelocityFor(const vec3& wholeVelocity, const vec3& vortexVelocity) const override {
        return wholeVelocity - vortexVelocity;
    }
};

}  // namespace

// The registered methods; a new method is a subclass, an entry here and an
// EnumNames<FluidMethod> spelling.
const FluidMethodStep& fluidMethodStep(FluidMethod method) {
    static const VpmStep vpm;
    static const SphStep sph;
    static const HybridStep hybrid;
    static const FluidMethodStep* const registered[] = {&vpm, &sph, &hybrid};
    for (const FluidMethodStep* step : registered)
        if (step->method() == method) return *step;
    throw std::invalid_argument("fluid.method: no time step for method " + std::to_string(int(method)));
}

const FluidMethodStep& methodBefore(const SphPhaseRecord& lastSphPhase, long substep) {
    return fluidMethodStep(lastSphPhase.substep == substep - 1 ? lastSphPhase.method : FluidMethod::Vpm);
}

}  // namespace vfx
