#pragma once
// Run-time parameters of the simulation. Every switch the articles implement with #if is a
// field here so the demo can flip it live and a test can compare both sides in one process.
// A member's default is its parameter's default; its key, range, unit and description are
// declared once, in sim/params.cpp (a test fails if a member has no row there).
#include "core/enum_names.hpp"
#include "core/math.hpp"

namespace vfx {

enum class FluidMethod { Vpm, Sph, Hybrid };
enum class GradientSource { Grid, Sph };
enum class Poisoning { None, Hits, Walls };
enum class PoisonVariant { Serial, Atomic, Partitioned };
enum class VelocitySolver { Tree, Direct, Box };
enum class StretchingScheme { Classic, Transpose, Mixed };
enum class StretchingIntegrator { Explicit, Exponential };
enum class AdvectionIntegrator { Explicit, Exponential, ThreeStep, ExponentialInCores };
// Whether the integrator moves vortons by the exponential move, which reads the velocity gradient
// at each of them and the last sub-step's velocity grid.
inline bool readsGradientToMove(AdvectionIntegrator a) {
    return a == AdvectionIntegrator::Exponential || a == AdvectionIntegrator::ExponentialInCores;
}
enum class Quality { Custom, Preview, Game, Film };
enum class RemeshTrigger { GridStrain, Lattice };
enum class SubgridModel { None, Smagorinsky, Vreman, Wale, Sigma, Dynamic, DynamicLocal };

template <>
struct EnumNames<FluidMethod> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<GradientSource> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<Poisoning> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<PoisonVariant> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<VelocitySolver> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<StretchingScheme> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<StretchingIntegrator> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<AdvectionIntegrator> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<Quality> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<RemeshTrigger> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<SubgridModel> {
    static const std::vector<std::string>& names();
};

struct FluidParams {
    // Density rho0 of the undisturbed fluid, kg/m^3.
    float ambientDensity = 1.0f;
    // Gravitational acceleration, m/s^2 (y is up).
    vec3 gravity{0.0f, -9.8f, 0.0f};
    // Kinematic viscosity nu, m^2/s: diffuses vorticity between vortons (0 = inviscid).
    float viscosity = 0.001f;
    // Vortex particles (part 8), SPH pressure (part 16) or both.
    FluidMethod method = FluidMethod::Vpm;
    // Density gradient for buoyancy: grid differences or SPH sums over neighbours (part 16).
    GradientSource densityGradient = GradientSource::Grid;
    // Drops the wall-normal density gradient near container walls (part 14).
    Poisoning poisoning = Poisoning::None;
    // How hits poisoning is parallelised; a speed choice, same result.
    PoisonVariant poisonVariant = PoisonVariant::Partitioned;
    // Velocity from vorticity: Barnes-Hut tree, O(N log N), or direct summation, O(N^2).
    VelocitySolver velocitySolver = VelocitySolver::Tree;
    // Barnes-Hut theta: largest cluster size / distance a cluster may act as one (0 = exact).
    float treeOpeningAngle = 0.7f;
    // Velocity grid resolution in cells per vorton (Gourlay uses 1).
    float gridCellsPerVorton = 1.0f;
    // Most cells the velocity grid may have (0 = no cap): past it the grid coarsens, so the
    // grid's own passes stop growing with the vorton count.
    int maxGridCells = 0;
    // Vortex stretching and tilting of vorticity by the velocity gradient.
    bool stretching = true;
    // (omega . grad) u, its transpose (conserves total vorticity) or their mean.
    StretchingScheme stretchingScheme = StretchingScheme::Transpose;
    // How a sub-step applies stretching: explicit two-step rule or the exponential of the gradient.
    StretchingIntegrator stretchingIntegrator = StretchingIntegrator::Explicit;
    // How vortons move in a sub-step: the explicit two-step rule, exactly through the flow
    // linearised about each (sim/linear_flow_step.hpp), or the three-step rule
    // (sim/time_integration.hpp), which keeps a core's orbits at the two-step rule's cost.
    AdvectionIntegrator advectionIntegrator = AdvectionIntegrator::ThreeStep;
    // Core radius sigma over particle spacing h: above 1 the cores overlap, smooth enough for
    // stretching (Beale-Majda); 0 keeps each vorton's own radius.
    float coreOverlap = 1.5f;
    // Rate at which the part of each vorton's vorticity across curl u of the grid velocity decays
    // (Pedrizzetti relaxation; sim/vorticity_relaxation.hpp), 1/s; 0 = off.
    float vorticityRelaxation = 2.0f;
    // A level that sets the sub-step limits, remesh policy, grid and vorton budget together
    // (sim/quality.hpp); custom leaves them as set.
    Quality quality = Quality::Custom;
    // Largest |u| dt / h_grid a sub-step may take (CFL).
    float cflLimit = 1.0f;
    // Largest max|grad u| dt a sub-step may take: bounds one explicit stretching update.
    float strainLimit = 0.8f;
    // Cap on sub-steps per step(frame_dt) call: bounds a frame's cost, not its stability.
    int maxSubsteps = 64;
    // Longest sub-step, s (0 = as long as the limits allow): a steady sub-step count per frame.
    float maxSubstepDt = 0.0f;
    // Two-step Adams-Bashforth motion and stretching, second order in time (false: one-step rules).
    bool adamsBashforth = true;
    // Strain, integral of max|S| dt, after which vortons are remeshed (0 = never; vpm only).
    float remeshStrain = 1.0f;
    // What remesh_strain measures: max|S| on the grid integrated in time, or the stretch of the
    // lattice each vorton's neighbours form as the flow carries them (shear does not count).
    RemeshTrigger remeshTrigger = RemeshTrigger::GridStrain;
    // Most vortons a remesh may make, times the count at the first remesh (0 = no limit).
    float vortonBudget = 2.5f;
    // Most vortons there may ever be (0 = no cap): a remesh past it keeps the strongest.
    int maxVortons = 0;
    // Remesh lattice nodes below this share of the largest strength hand it to a neighbour.
    float remeshThreshold = 1e-3f;
    // Over the vorton budget, a remesh leaves out its weakest nodes if they hold at most this share
    // of the total strength, and the mass share of the total mass deviation, instead of coarsening
    // its lattice (0 = coarsen).
    float remeshFringeShare = 0.0f;
    float remeshFringeMassShare = 0.0f;
    // A remesh that must coarsen its lattice sizes it in one frame and lays the vortons on it in
    // the next, so no frame deposits twice.
    bool remeshSplit = false;
    // Remesh at a frame's start when the strain, growing from frame to frame, would otherwise
    // take it one more sub-step and the lattice is half as distorted as remeshStrain allows.
    bool remeshToHoldSubsteps = false;
    // Viscous diffusion by particle strength exchange (PSE).
    bool diffusion = true;
    // Diffusion (viscous and subgrid) once per frame, over the frame's time, at its last sub-step.
    bool diffusionPerFrame = false;
    // Under diffusionPerFrame, frames between diffusions, each over the time since the last (1 = every frame).
    int diffusionInterval = 1;
    // Subgrid eddy-viscosity model (sim/subgrid_model.hpp).
    SubgridModel subgridModel = SubgridModel::Dynamic;
    // Strength of the subgrid model as a Smagorinsky-equivalent C_s (0 = none; Lilly's 0.17).
    float subgridCoefficient = 0.17f;
    // Baroclinic source at the exact impulse rate (grid: shared, SPH: pairwise curl);
    // false = Gourlay's sampling at the vortons.
    bool baroclinicSharing = true;
    // Baroclinic generation of vorticity (fluid buoyancy, part 8).
    bool baroclinic = true;
    // No flow through walls: each body's sources cancel the flow's normal speed at its surface.
    bool wallSources = false;
    // Dynamic spheres push aside, besides their dipole, the flow that cancels the rest of the
    // flow through their surface (sim/sphere_closure.hpp).
    bool closeSolids = false;
    // Dynamic solids come to rest this share of their equivalent radius off a container's walls.
    float contactFilm = 0.1f;
    // Vortons touching a container or kinematic solid take the wall's vortex sheet (false: free slip).
    bool noSlip = true;
    // Reach of walls poisoning from a wall, m; 0 = two grid spacings.
    float poisonTestRadius = 0.0f;
    // Buoyancy from coverage-normalised density, so a full tank stays still (false: raw deposit).
    bool coverageDensity = true;
    // SPH kernel support radius h, m.
    float sphInfluenceRadius = 0.15f;
    // Spacing SPH pressure drives the vortons towards, m.
    float sphRestSpacing = 0.06f;
    // Equation-of-state stiffness: pressure per unit of relative compression, m^2/s^2.
    float sphStiffness = 2.0f;
    // Share of the pressure's pull where vortons are sparser than at rest, 0..1 (1 holds a drop).
    float sphCohesion = 1.0f;

    // Cells the velocity grid aims at for this many vortons: grid_cells_per_vorton each, at least
    // 64, at most max_grid_cells (which wins if lower).
    double gridCellTarget(double vortons) const;
};

struct TimeParams {
    // Simulated time per step, s.
    float dt = 0.01f;
    // Steps a headless run takes unless --steps is given.
    int steps = 600;
};

}  // namespace vfx
