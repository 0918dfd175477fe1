#pragma once
// Smoothed particle hydrodynamics on vortons (parts 15, 16): mesh-free density gradient for
// baroclinic generation and a pressure acceleration for the sph / hybrid fluid methods.
//
// Kernels (support h): the poly6 kernel W for number density, interpolation and the density
// gradient (smooth, so the gradient of a linear field is accurate on a lattice), and the
// gradient of the spiky kernel for pressure (it does not vanish at r -> 0, so close pairs
// repel instead of clumping).
//
// Neighbours come from a NeighbourSearch of radius h (core/neighbour_search.hpp), found once
// per update and reused by every pass. Every loop is a per-particle gather: particle i visits
// its candidates in a fixed order (partition order, 8 SIMD lanes added in lane order) and
// writes only its own outputs, so results are bitwise identical for any number of threads.
#include "core/neighbour_search.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace vfx {

// Poly6 kernel W(r, h) = 315 / (64 pi h^9) (h^2 - r^2)^3 for r < h, else 0. Integrates to 1.
float sphKernel(float r, float h);
// Gradient of the poly6 kernel with respect to x_i, for rij = x_i - x_j.
vec3 sphKernelGradient(const vec3& rij, float h);
// Gradient of the spiky kernel 15 / (pi h^6) (h - r)^3 with respect to x_i (pressure forces).
vec3 sphPressureKernelGradient(const vec3& rij, float h);
// Share of the poly6 kernel's mass (support h) on the fluid side of a flat wall, for a point at
// signed distance d from it (d > 0 on the fluid side): 1/2 at d = 0, 1 at d >= h, 0 at d <= -h.
float sphKernelShareOnFluidSide(float d, float h);
// Number density sum_j W(|x_j|, h) at a point of an infinite cubic lattice of that spacing.
float sphRestNumberDensity(float spacing, float h);

// The SPH gradient's least reach under VPM, in mean vorton spacings: about 30 neighbours.
constexpr float kSphGradientSpacings = 2.0f;
// Kernel reach h for the SPH density gradient and baroclinic sums. Under VPM, remeshing sets the
// vortons' spacing and coarsens it as the flow spreads: a reach fixed at the first spacing holds
// fewer neighbours each time, until the sums find none and buoyancy stops making vorticity. So
// there h is at least kSphGradientSpacings mean vorton spacings (cube root of the mean vorton
// volume). The SPH methods keep fluid.sph_influence_radius: their vortons are not remeshed.
float sphGradientReach(const FluidParams& fluid, const Vortons& vortons);

// Artificial viscosity nu = alpha * c * h with c = sqrt(stiffness), the sound speed.
constexpr float kSphViscosityAlpha = 0.5f;

// The fastest oscillation the SPH forces can drive, rad/s: the core repulsion's spring at full
// overlap, omega^2 = 2 kCoreRepulsion c^2 / s0^2 (sph.cpp), or the shortest sound wave the
// particles carry (wavelength 2 s0), pi c / s0, whichever is higher. The explicit velocity-then-
// position step is stable for omega dt < 2: at the drop_in_box defaults (omega 166 rad/s) a
// resting SPH drop stayed still at dt 0.012 s and jittered at 13 m/s at 0.02 s.
float sphFastestFrequency(const FluidParams& fluid);
// The sub-step keeps omega dt at or below this: 10% inside the stability bound of 2.
constexpr float kSphStepFrequencyLimit = 1.8f;

class SphFluid {
public:
    // Partitions the vortons into cells of size >= h and computes number densities. Cheap when
    // the positions have not changed since the last call.
    void update(const Vortons& vortons, const FluidParams& fluid);
    // Density gradient at each vorton: canonical form where proximity >= h, difference form nearer.
    // `vortons` must be those passed to the last update().
    // wallShare (vorton order; empty = all 1) is each vorton's kernel share on the fluid side
    // of the walls (computeWallKernelShare).
    void densityGradient(const Vortons& vortons, const std::vector<float>& wallProximity,
                         const std::vector<float>& wallShare, const FluidParams& fluid, std::vector<vec3>& out) const;
    // Baroclinic vorticity gained in dt, added to vortons.vorticity, as the SPH curl of
    // F = rho' g / rho0 in a pairwise form whose total is zero and whose impulse is exactly
    // sum F V per unit time (see sph.cpp): the rate physics gives, whatever the layout and even
    // with no ambient particles around a drop. Vortons within h of a wall (wallProximity) take
    // dt (grad rho x g) / rho0 from `gradient` (the difference form) instead, as walls would
    // otherwise look like an interface. `vortons` must be those passed to the last update().
    void addBaroclinicVorticity(Vortons& vortons, const std::vector<float>& wallProximity,
                                const std::vector<vec3>& gradient, const vec3& gravity, float ambientDensity,
                                float dt) const;
    // Pressure-gradient acceleration at each vorton (keeps particles near the rest spacing).
    // wallShare (vorton order; empty = no walls) corrects the number density near walls.
    void pressureAcceleration(const Vortons& vortons, const FluidParams& fluid, const std::vector<float>& wallShare,
                              std::vector<vec3>& out) const;
    // Pressure plus artificial viscosity acting on sphVelocity: the SPH acceleration of a step.
    // Also sets each vorton's ambient drag rate, which integrate() applies.
    void acceleration(const Vortons& vortons, const FluidParams& fluid, const std::vector<float>& wallShare, float dt,
                      std::vector<vec3>& out);
    // Artificial kinematic viscosity nu = alpha c h, capped so explicit steps of dt stay stable.
    float viscosity(const FluidParams& fluid, float dt) const;
    // Vorticity of the sphVelocity field, canonical SPH curl sum_j gradW_ij x v_j / n_j. The
    // fluid outside the particles counts as still, so a moving drop gets its surface vortex
    // sheet: the vortex (Biot-Savart) velocity of the result roughly reproduces the SPH flow.
    void vorticity(const Vortons& vortons, std::vector<vec3>& out) const;
    // SPH interpolation of sphVelocity at the points of `shape`: velocity = sum_j v_j W / n_j
    // and weight = sum_j W / n_j (about 1 inside the particles, 0 away from them). Carries
    // tracers with the SPH flow.
    void interpolateToGrid(const Vortons& vortons, const GridShape& shape);
    const UniformGrid<vec3>& gridVelocity() const { return gridVelocity_; }
    const UniformGrid<float>& gridWeight() const { return gridWeight_; }

    // sphAcceleration += rho' * reducedGravity; sphVelocity += dt * sphAcceleration with the
    // ambient drag of acceleration() applied implicitly, minus any into-wall component for
    // vortons that hit a wall in the last collision phase.
    void integrate(Vortons& vortons, const vec3& reducedGravity, float dt) const;
    // Midpoint advection of tracers after interpolateToGrid(). correctsVortexFlow (hybrid): the
    // interpolated SPH velocity is added to the vortex velocity; otherwise (sph) the SPH velocity
    // holds inside the particles and the vortex velocity (of the SPH vorticity) outside, blended
    // by the interpolation weight.
    void advectTracers(Tracers& tracers, const UniformGrid<vec3>& vortexVelocity, bool correctsVortexFlow,
                       float dt) const;

    const std::vector<float>& numberDensity() const { return numberDensity_; }
    // Rest number density n0 for the current parameters (cached).
    float restNumberDensity(const FluidParams& fluid) const;

private:
    void computeNumberDensity();
    // Number density in partition order with the kernel mass behind a nearby wall counted in.
    std::vector<float> sortedEffectiveNumberDensity(const std::vector<float>& wallShare) const;
    // (p / rho) / n of every particle in partition order; checks stiffness and cohesion.
    std::vector<float> sortedPressureOverN(const FluidParams& fluid, const std::vector<float>& effectiveN) const;
    // Pressure plus, with velocities, viscosity nu toward the neighbours' velocities.
    void accelerationTerms(const Vortons& vortons, const FluidParams& fluid, const std::vector<float>& effectiveN,
                           float nu, std::vector<vec3>& out, const std::vector<vec3>* velocities) const;

    NeighbourSearch search_;  // candidates within h, partition order
    float h_ = 0.0f;
    std::vector<float> sortedNumberDensity_;  // n in partition order (padded)
    std::vector<float> numberDensity_;        // n in vorton order
    std::vector<float> dragRate_;             // ambient drag rate, 1/s, in vorton order
    UniformGrid<vec3> gridVelocity_;
    UniformGrid<float> gridWeight_;
    mutable float cachedRestSpacing_ = -1.0f, cachedRestH_ = -1.0f, cachedRestDensity_ = 0.0f;
};

}  // namespace vfx
