// Simulation's walls, density and baroclinic phases: each vorton's distance to the walls, the
// density gradient (grid, poisoned near walls, or SPH) and the vorticity buoyancy makes from it.
#include "core/parallel.hpp"
#include "sim/baroclinic.hpp"
#include "sim/density_field.hpp"
#include "sim/fluid_method.hpp"
#include "sim/grid_lookups.hpp"
#include "sim/simulation.hpp"
#include "sim/simulation_workspace.hpp"
#include "sim/sph.hpp"
#include "sim/wall_fields.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace vfx {

// --- 4. walls, density gradient, baroclinic generation -----------------------------------------

// Walls phase: each vorton's distance to the nearest wall (for poisoning and the SPH gradient's
// wall treatment) and, when an SPH sum runs this step, its kernel's share on the fluid side.
void Simulation::computeWallFields(const FluidMethodStep& method) {
    if (bodies_.empty()) {
        walls_.proximity.assign(vortons_.size(), 1e30f);
        walls_.kernelShare.clear();
        return;
    }
    const float h = sphGradientReach(fluid_, vortons_);
    const float reach = std::max(h, gridShape_.spacing.x);
    computeWallProximity(bodies_, vortons_.position, reach, walls_.proximity);
    if (method.needsWallKernelShare(fluid_))
        computeWallKernelShare(bodies_, vortons_.position, h, walls_.kernelShare);
    else
        walls_.kernelShare.clear();
}

// Density phase, after the deposit: the density gradient at the vortons, from the grid (poisoned
// near walls if asked) or from SPH sums. (Tracers take their colour from the density grid in the
// advection phase, from the same grid lookup that moves them.)
void Simulation::computeDensityGradient() {
    if (fluid_.densityGradient == GradientSource::Sph && vortons_.size() > 0) {
        FluidParams sph = fluid_;
        sph.sphInfluenceRadius = sphGradientReach(fluid_, vortons_);
        work_->sph.update(vortons_, sph);
        work_->sph.densityGradient(vortons_, walls_.proximity, walls_.kernelShare, sph, vortons_.densityGradient);
        return;
    }
    DensityField& density = work_->density;
    density.computeBuoyancyField(fluid_, bodies_);
    density.computeGradientGrid();
    if (fluid_.poisoning != Poisoning::None && !bodies_.empty())
        density.poisonGradientGrid(bodies_, vortons_, partition_, fluid_);
    interpolateAtPoints(density.gradientGrid(), vortons_.position, vortons_.densityGradient);
}

void Simulation::computeDensityGradientGrid() {
    DensityField& density = work_->density;
    if (density.gradientGridCurrent()) return;
    density.computeBuoyancyField(fluid_, bodies_);
    density.computeGradientGrid();
}

const UniformGrid<float>& Simulation::densityGrid() const { return work_->density.densityGrid(); }
const UniformGrid<vec3>& Simulation::densityGradientGrid() const { return work_->density.gradientGrid(); }
const UniformGrid<float>& Simulation::buoyancyDensityGrid() const { return work_->density.buoyancyField(); }

bool Simulation::gravityActsOnGrid() const {
    // Boussinesq generation needs gravity along some axis the grid actually spans.
    for (int a = 0; a < 3; ++a)
        if (!gridShape_.flatAxis(a) && std::abs(fluid_.gravity[a]) > 1e-12f) return true;
    return false;
}

// Gravity as the fluid feels it: with wall sources or the box solver the fluid in a container moves with it, and in
// the container's frame an acceleration a adds -a to gravity (the rho' a the Boussinesq form keeps
// out of the inertia, kept as the baroclinic term of a tank that is not in free fall). The first
// kinematic container counts; its rotation's terms are left out.
vec3 Simulation::buoyancyGravity() const {
    if (!fluid_.wallSources && fluid_.velocitySolver != VelocitySolver::Box) return fluid_.gravity;
    for (const RigidBody& body : bodies_)
        if (body.isHole() && body.motion == MotionKind::Kinematic)
            return fluid_.gravity - kinematicAcceleration(body, substepTime_);
    return fluid_.gravity;
}

// Whether the baroclinic phase's rates can be found in the velocity phase (prepareBaroclinicRates):
// the grid's sharing, whose density gradient and rates read only the vortons' positions and
// volumes, the density gather and the bodies, which the sub-step leaves until those phases.
bool Simulation::baroclinicRatesEarly() const {
    return fluid_.baroclinic && fluid_.baroclinicSharing && fluid_.densityGradient == GradientSource::Grid &&
           gravityActsOnGrid();
}

void Simulation::prepareBaroclinicRates() {
    baroclinicRatesPrepared_ = baroclinicRatesEarly();
    if (!baroclinicRatesPrepared_) return;
    const auto start = std::chrono::steady_clock::now();
    computeDensityGradient();
    DensityField& density = work_->density;
    const UniformGrid<float>* share = bodies_.empty() ? nullptr : &density.gridFluidShare(bodies_);
    work_->baroclinic.prepare(density.gradientGrid(), share, partition_, buoyancyGravity(), fluid_.ambientDensity,
                              vortons_);
    lastBaroclinicRatesMs_ +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void Simulation::generateBaroclinicVorticity(float dt) {
    if (baroclinicRatesPrepared_) {
        work_->baroclinic.add(dt, vortons_);
        return;
    }
    if (!gravityActsOnGrid()) return;
    const vec3 g = buoyancyGravity();
    if (fluid_.baroclinicSharing && vortons_.size() > 0) {
        work_->sph.addBaroclinicVorticity(vortons_, walls_.proximity, vortons_.densityGradient, g,
                                          fluid_.ambientDensity, dt);
        return;
    }
    const float scale = dt / fluid_.ambientDensity;
    parallelForEach(
        0, vortons_.size(),
        [&](size_t i) { vortons_.vorticity[i] += scale * glm::cross(vortons_.densityGradient[i], g); }, 2048);
}

}  // namespace vfx
