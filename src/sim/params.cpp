// The one declaration of every fluid and time parameter: key, member, range, unit, whether a
// change needs a reset, and the description shown as tooltip and in the README. Defaults are
// the members' own (sim/params.hpp).
#include "sim/param_declarations.hpp"

#include "sim/quality.hpp"

#include <algorithm>
#include <stdexcept>

namespace vfx {

const std::vector<std::string>& EnumNames<FluidMethod>::names() {
    static const std::vector<std::string> n{"vpm", "sph", "hybrid"};
    return n;
}
const std::vector<std::string>& EnumNames<GradientSource>::names() {
    static const std::vector<std::string> n{"grid", "sph"};
    return n;
}
const std::vector<std::string>& EnumNames<Poisoning>::names() {
    static const std::vector<std::string> n{"none", "hits", "walls"};
    return n;
}
const std::vector<std::string>& EnumNames<PoisonVariant>::names() {
    static const std::vector<std::string> n{"serial", "atomic", "partitioned"};
    return n;
}
const std::vector<std::string>& EnumNames<VelocitySolver>::names() {
    static const std::vector<std::string> n{"tree", "direct", "box"};
    return n;
}
const std::vector<std::string>& EnumNames<StretchingScheme>::names() {
    static const std::vector<std::string> n{"classic", "transpose", "mixed"};
    return n;
}
const std::vector<std::string>& EnumNames<StretchingIntegrator>::names() {
    static const std::vector<std::string> n{"explicit", "exponential"};
    return n;
}
const std::vector<std::string>& EnumNames<AdvectionIntegrator>::names() {
    static const std::vector<std::string> n{"explicit", "exponential", "three_step", "exponential_in_cores"};
    return n;
}
const std::vector<std::string>& EnumNames<Quality>::names() {
    static const std::vector<std::string> n{"custom", "preview", "game", "film"};
    return n;
}
const std::vector<std::string>& EnumNames<RemeshTrigger>::names() {
    static const std::vector<std::string> n{"grid_strain", "lattice"};
    return n;
}
const std::vector<std::string>& EnumNames<SubgridModel>::names() {
    static const std::vector<std::string> n{"none",  "smagorinsky", "vreman",       "wale",
                                            "sigma", "dynamic",     "dynamic_local"};
    return n;
}

namespace {

using F = FluidParams;

template <typename T>
Spec fluidParam(const char* key, T F::*member, const char* description) {
    return param("fluid", key, member, description);
}

void addPhysics(std::vector<ParamSpec>& t) {
    t.push_back(fluidParam("ambient_density", &F::ambientDensity,
                           "Density rho0 of the undisturbed fluid; a particle's density is rho0 plus its deviation.")
                    .unit("kg/m^3")
                    .above(0)
                    .atMost(1e6));
    t.push_back(fluidParam("gravity", &F::gravity, "Gravitational acceleration [x, y, z].")
                    .unit("m/s^2")
                    .atLeast(-1000)
                    .atMost(1000));
    t.push_back(fluidParam("viscosity", &F::viscosity,
                           "Kinematic viscosity nu that diffuses vorticity between vortons (0 = inviscid).")
                    .unit("m^2/s")
                    .atLeast(0)
                    .atMost(10));
    t.push_back(fluidParam("method", &F::method,
                           "Fluid model: vortex particles only (vpm), SPH pressure only (sph), or both (hybrid)."));
    t.push_back(fluidParam(
        "density_gradient", &F::densityGradient,
        "Source of the density gradient that drives buoyancy: finite differences on the grid, or SPH sums over neighbouring vortons."));
    t.push_back(fluidParam(
        "poisoning", &F::poisoning,
        "Removes the wall-normal part of the density gradient near walls, the normal's part across gravity (the part that drives vorticity; at a curved or tilted wall the rest would turn level layers' vertical gradient into a horizontal one): never, at vortons that hit a wall last step, or everywhere within reach of a wall."));
    t.push_back(fluidParam(
        "poison_variant", &F::poisonVariant,
        "How hits poisoning is parallelised: one thread, lock-free atomics, or per grid-cell partition (a speed choice)."));
}

void addVelocity(std::vector<ParamSpec>& t) {
    t.push_back(fluidParam(
        "velocity_solver", &F::velocitySolver,
        "Velocity from vorticity: Barnes-Hut tree code, O(N log N); direct summation over all vortons, O(N^2); or box: "
        "vortex-in-cell on the scene's box container (sine/cosine FFTs), with no flow through its walls and vortex "
        "lines free to end on them (needs one container, a box, which may move, tilt and rotate)."));
    t.push_back(
        fluidParam("tree_opening_angle", &F::treeOpeningAngle,
                   "Barnes-Hut opening angle theta: a cluster acts as one when size/distance is below it and its "
                   "estimated truncation error is small against the field's scale (0 = exact).")
            .atLeast(0)
            .atMost(1.5));
    t.push_back(fluidParam("grid_cells_per_vorton", &F::gridCellsPerVorton,
                           "Resolution of the velocity grid in cells per vorton (Gourlay uses 1).")
                    .above(0)
                    .atMost(8));
    t.push_back(
        fluidParam(
            "max_grid_cells", &F::maxGridCells,
            "Most cells the velocity grid may have, whatever grid_cells_per_vorton asks (0 = no cap): past it the "
            "grid coarsens, so its own passes (the velocity on its points, the density, buoyancy and stretching "
            "fields) stop growing with the vorton count, and the vortons' finer detail is carried but not "
            "resolved by the grid.")
            .atLeast(0)
            .atMost(100000000));
    t.push_back(fluidParam("stretching", &F::stretching,
                           "Vortex stretching and tilting of vorticity by the velocity gradient."));
    t.push_back(fluidParam(
        "stretching_scheme", &F::stretchingScheme,
        "Form of the stretching term: (omega . grad) u (classic), its transpose (conserves total vorticity), or their mean (mixed)."));
    t.push_back(fluidParam(
        "stretching_integrator", &F::stretchingIntegrator,
        "How a sub-step applies stretching, d(omega)/dt = M omega: explicit adds dt times the two-step Adams-Bashforth rate (Euler without adams_bashforth), accurate while max|grad u| dt stays small; exponential multiplies omega by exp(dt M) with M extrapolated to the sub-step's middle (second-order Magnus), exact for a frozen gradient, so rotation and compression never grow omega however large the sub-step."));
    t.push_back(fluidParam(
        "advection_integrator", &F::advectionIntegrator,
        "How a sub-step moves the vortons: explicit takes the two-step Adams-Bashforth rule (the midpoint rule without a last rate), which spirals a particle circling in a vortex core outwards by 0.24% a step at 0.3 radian a step and 6.8% at 0.6, smearing strong cores unless max|grad u| dt stays small; exponential moves each vorton exactly through the flow linearised about it (its velocity, the velocity gradient there and the flow's change since the last sub-step; Hochbruck & Ostermann 2010), so rotation and strain are followed at any sub-step; three_step takes the three-step Adams-Bashforth family member with weights 5/3, -5/6, 1/6 (its last two rates), which keeps a particle's orbit to 0.007% a step at 0.3 radian a step and 0.06% at 0.42, at the two-step rule's cost, and falls back to the two-step rule on sub-steps past max|grad u| dt 0.85 (its stability bound under compression is 0.75); the tracers follow it too; exponential_in_cores moves by the exponential rule the vortons in vortex cores (|S|^2 < 2 |Omega|^2 for the strain and rotation parts of the velocity gradient, after the Q criterion of Hunt, Wray & Moin 1988), which it keeps turning exactly at any sub-step, and by three_step the others and the tracers (strained sheets and the dye, whose paths the linearised flow extrapolates poorly over a long sub-step). Under explicit and exponential the tracers take the explicit rule."));
    t.push_back(
        fluidParam(
            "vorticity_relaxation", &F::vorticityRelaxation,
            "Rate at which the part of each vorton's vorticity across curl u of the grid velocity decays, the part along it kept, with total vorticity and impulse restored afterwards (after Pedrizzetti 1992; Alvarez & Ning 2022): removes the part of the particles' vorticity that does not match the field they induce, which transpose stretching would otherwise precess and amplify where the flow breaks into scales finer than the grid; coherent vortices, already aligned, are untouched. 0 = off.")
            .unit("1/s")
            .atLeast(0)
            .atMost(1000));
    t.push_back(
        fluidParam(
            "core_overlap", &F::coreOverlap,
            "Core radius of each vorton's velocity kernel over its particle spacing, sigma/h: above 1 the cores overlap and the vorticity field is smooth enough for stretching (Beale-Majda); 0 keeps each vorton's own radius.")
            .atLeast(0)
            .atMost(4));
}

void addTimeStepping(std::vector<ParamSpec>& t) {
    static const std::string qualityText =
        "A level that sets the sub-step limits, the remesh budget and the velocity grid together, for a cost per frame: " +
        describeQualityLevels() +
        " custom leaves them as set. In a scene file the parameters given beside it override its values; "
        "changed live (panels, fluid() in an engine) it applies at the next step, from Python's sim.set at once (a value set after it stays).";
    t.push_back(fluidParam("quality", &F::quality, qualityText.c_str()));
    t.push_back(
        fluidParam(
            "cfl_limit", &F::cflLimit,
            "Largest fraction of a grid spacing, |u| dt / h, that the fastest flow may cross in one sub-step; step(dt) splits into as many sub-steps as this needs.")
            .above(0)
            .atMost(10));
    t.push_back(
        fluidParam(
            "strain_limit", &F::strainLimit,
            "Largest max|grad u| dt one sub-step may take: bounds how far stretching, tilting and the particles' turn in a vortex core act in one explicit update. 0.8, the default with the three-step move, takes 2.05 sub-steps a frame on the 17,256-vorton dye drop at 1/30 s, where the two-step rule needed 0.6 and 2.28 sub-steps for the same fall (docs/method.md, the time rules).")
            .above(0)
            .atMost(10));
    t.push_back(
        fluidParam(
            "max_substeps", &F::maxSubsteps,
            "Cap on the sub-steps one step(dt) call takes. A bound on the cost of a frame, not on stability: when the cap binds, sub-steps exceed the CFL and strain limits and the flow can go unstable (a 65,536-vorton dye drop at dt 1/30 did with a cap of 16).")
            .atLeast(1)
            .atMost(1024));
    t.push_back(
        fluidParam(
            "max_substep_dt", &F::maxSubstepDt,
            "Longest sub-step, s (0 = as long as cfl_limit and strain_limit allow). A frame takes at least frame_dt / max_substep_dt sub-steps (max_substeps still caps them), so the sub-step count, and with it the cost, stays steady through a flow whose strain varies: the film level takes 1/240 s, eight sub-steps a 1/30 s frame, where the limits alone ask for 1 to 9 on the 17,256-vorton author's drop and its worst frame cost 5.6 times its median (docs/performance.md).")
            .atLeast(0)
            .atMost(10));
    t.push_back(
        fluidParam(
            "remesh_strain", &F::remeshStrain,
            "Strain the flow may accumulate since the last remesh (remesh_trigger: the integral of max|S| dt, S the strain rate, or the stretch of the particles' lattice) before the vortons are remeshed onto a regular lattice with the moment-conserving M4' kernel, restoring the core overlap the flow distorts; a remesh is also due once viscosity could have spread vorticity a lattice spacing h past the vortons (the integral of 4 nu / h^2 dt reaches 1) in a flow that has strained a tenth of this; 0 = never. VPM only. Nodes inside solids and outside containers are left out, and a vorton whose footprint a wall cuts deposits on the fluid side only, so mass and circulation stay exact.")
            .atLeast(0)
            .atMost(1000));
    t.push_back(fluidParam(
        "remesh_trigger", &F::remeshTrigger,
        "What remesh_strain is compared with. grid_strain: the largest strain rate on the velocity grid, integrated since the last remesh. lattice: the logarithmic stretch of the lattice each vorton's neighbours form as the flow carries them (their offsets taken by the deformation gradient since the last remesh and reduced to the lattice's shortest basis), the largest over the vortons a remesh would keep (remesh_threshold); shear and the turning of a vortex core slide rows of particles past each other without opening gaps, so they do not count, and only stretching that pulls particles apart does: a laminar ring is remeshed about half as often and keeps more of its speed (docs/performance.md), at 35-50 ns a vorton a sub-step on 2 threads."));
    t.push_back(
        fluidParam(
            "vorton_budget", &F::vortonBudget,
            "Most vortons a remesh may make, as a multiple of the count at the first remesh: past it the weakest fringe goes (remesh_fringe_share) or the lattice coarsens, so the cost per step stays bounded while the flow spreads (0 = no limit). Below 1, a scene is remeshed to that share of its vortons as it loads.")
            .atLeast(0)
            .atMost(1000));
    t.push_back(
        fluidParam(
            "max_vortons", &F::maxVortons,
            "Most vortons there may ever be, whatever vorton_budget allows (0 = no cap): a bound on a frame's cost. A remesh first leaves out its faint fringe (remesh_fringe_share) or coarsens its lattice toward it; if the lattice still holds more nodes, only the strongest are kept (by strength and mass deviation) and their strengths and densities take the least correction that keeps total vorticity, linear impulse and mass exact. A scene seeded with more is remeshed as it loads; lowered live, the cap remeshes at the next step. VPM only.")
            .atLeast(0)
            .atMost(100000000));
    t.push_back(
        fluidParam(
            "remesh_threshold", &F::remeshThreshold,
            "Lattice nodes whose vorticity and mass-deviation strengths are both below this share of the largest are not kept as vortons when remeshing.")
            .atLeast(0)
            .atMost(0.5));
    t.push_back(
        fluidParam(
            "remesh_fringe_share", &F::remeshFringeShare,
            "When a remesh would make more vortons than vorton_budget or max_vortons allow, it first leaves out its weakest lattice nodes, if together they hold at most this share of the total vorticity strength |omega V| (and at most remesh_fringe_mass_share of the total mass deviation |rho' V|), and corrects the rest so total vorticity, linear impulse and mass stay exact; only a larger share coarsens the lattice. Each M4' remesh lays a faint fringe around a compact flow, and coarsening for it would blur a vortex ring's core within seconds (0 = always coarsen).")
            .atLeast(0)
            .atMost(0.5));
    t.push_back(
        fluidParam(
            "remesh_fringe_mass_share", &F::remeshFringeMassShare,
            "The most of the total mass deviation |rho' V| the nodes remesh_fringe_share leaves out may hold. A vortex core's faint nodes are a halo of M4' weights, but a drop's are its dyed fringe and wake, where the buoyancy acts: leaving out a tenth of those (their mass handed to the rest) took 15% off the author's drop's fall in 5 s (docs/performance.md), so this share is kept far below the strength's.")
            .atLeast(0)
            .atMost(0.5));
    t.push_back(fluidParam(
        "remesh_split", &F::remeshSplit,
        "Spread a remesh that must coarsen its lattice (to stay within vorton_budget or max_vortons) over two frames: the first deposits the vortons on the lattice it has, finds it would hold too many and sizes a coarser one; the second lays the vortons on that one. Each frame then pays for one deposit instead of one frame paying for two (on the author's 2,176-vorton drop most remeshes coarsen, about 0.5 ms each), and such a remesh comes one frame late. The first remesh, which may not wait (a young flow's first lattice evens out its peaks of strain), is sized instead at the end of the frame before it and laid on time, as the whole remesh lays it. Not while there are more vortons than max_vortons. false = the whole remesh in one frame."));
    t.push_back(fluidParam(
        "remesh_to_hold_substeps", &F::remeshToHoldSubsteps,
        "Remesh at the start of a frame, before remesh_strain is reached, when the strain the frame's first sub-step will meet (this frame's and the last one's extrapolated) would take it one more sub-step than the strain alone asked for in this frame and the vortons have gone at least half of remesh_strain since the last remesh. A distorted lattice concentrates the grid's strain in spikes a remesh evens out: the author's 2,176-vorton drop at the game level peaks at max|grad u| dt 1.8 in its sixth frame before its first remesh and 1.35 after it, so it takes that frame in one sub-step instead of two. VPM only."));
    t.push_back(fluidParam(
        "adams_bashforth", &F::adamsBashforth,
        "Second-order time integration: particle motion and vortex stretching use the two-step Adams-Bashforth rule (this sub-step's rate and the last one's), so an inviscid ring keeps its energy at the same sub-step size; false = one-step rules (the frozen-field midpoint for motion, Euler for stretching), first order in time. The first sub-step after a reset is one-step; after a remesh the new vortons move on with the last sub-step's velocity of the fluid they carry, and stretching restarts with Euler."));
}

void addSourcesAndWalls(std::vector<ParamSpec>& t) {
    t.push_back(fluidParam("diffusion", &F::diffusion,
                           "Viscous diffusion of vorticity by particle strength exchange (acts when viscosity > 0)."));
    t.push_back(fluidParam(
        "diffusion_per_frame", &F::diffusionPerFrame,
        "Diffuse once per frame: the viscous and subgrid exchange runs at the frame's last sub-step over the whole frame's time (viscous splitting, Chorin 1973) instead of at every sub-step, so the sub-steps advection, stretching and buoyancy need do not each pay for it. The exchange is cycled within its explicit bound, (nu + nu_t) dt / eps^2 <= 1/4. The splitting error is of order nu times the frame's time; on the author's drop at the game level the fall at 5 s moved by 0.01%."));
    t.push_back(
        fluidParam(
            "diffusion_interval", &F::diffusionInterval,
            "Under diffusion_per_frame, the frames from one diffusion to the next, each diffusion over the time since the last (viscous splitting at a longer step, the exchange cycled within its explicit bound as before); from 2 on, a frame that remeshed passes its turn to the next, up to twice the interval, so the two costliest phases do not meet in one frame. Diffusion is the slowest process a frame steps: a viscous core widens by a spacing h in h^2 / (4 nu), 6 s at the game level's h on the author's drop at nu 0.01. 1 = every frame.")
            .atLeast(1)
            .atMost(8));
    t.push_back(fluidParam(
        "subgrid_model", &F::subgridModel,
        "Subgrid eddy viscosity nu_t = (C_s Delta)^2 D that drains the motion below what the vortons resolve. smagorinsky: D = |S| (Smagorinsky 1963), acts on every strain, laminar vortex cores included; vreman (Vreman 2004): zero in pure shear; wale (Nicoud & Ducros 1999): zero in pure shear, not in rotation; sigma (Nicoud et al. 2011): zero in pure shear, solid rotation, any two-component flow and isotropic expansion; dynamic (the default): Smagorinsky with Germano's coefficient (Germano et al. 1991, Lilly 1992), found each sub-step by test-filtering the grid flow, which stays near zero where the resolved scales pass no energy down (laminar vortex rings keep their energy) and never exceeds subgrid_coefficient; dynamic_local: the same coefficient averaged over each grid point's neighbourhood instead of the whole flow (Zang et al. 1993), which drains a cascade wherever it runs but also sees a ring's under-resolved core (the thin ring loses 11% of its energy in 3 s); none: no model. Each algebraic model's constant is scaled from subgrid_coefficient by its authors' calibration on isotropic turbulence."));
    t.push_back(
        fluidParam(
            "subgrid_coefficient", &F::subgridCoefficient,
            "Strength of the subgrid model as a Smagorinsky-equivalent coefficient C_s: diffusion adds an eddy viscosity (C_s Delta)^2 D (D the model's rate, |S| for Smagorinsky; Delta the width of the filter the vortons see the flow through: their uniform core of radius sigma followed by the velocity grid's trilinear interpolation, Delta^2 = 12 (sigma^2/5 + h_grid^2/6)) that drains the flow's cascade below the resolved scale instead of letting stretching pile it up there; 0 = none (Lilly's value is 0.17).")
            .atLeast(0)
            .atMost(1));
    t.push_back(fluidParam(
        "baroclinic_sharing", &F::baroclinicSharing,
        "Baroclinic generation at the physical rate: the fluid's impulse grows at g sum(rho' V) / rho0 whatever the vortons' layout. Grid gradient: each grid point's source is shared among the vortons within 1.5 grid spacings; SPH gradient: a pairwise SPH curl of rho' g / rho0 whose impulse is exact. false = Gourlay's sampling of the gradient at the vortons, which misses the part of the interface outside them."));
    t.push_back(fluidParam(
        "baroclinic", &F::baroclinic,
        "Baroclinic generation of vorticity where density gradient and gravity are not parallel (fluid buoyancy)."));
    t.push_back(fluidParam(
        "wall_sources", &F::wallSources,
        "Experimental (a dynamic solid near a wall can still destabilise the flow, docs/method.md). No flow through walls: every container and kinematic solid carries point sources a few sample spacings off its surface, on the side away from the fluid, whose strengths are solved each sub-step so the flow's normal speed at the surface equals the wall's (the method of fundamental solutions); a dynamic solid keeps the dipole flow it pushes aside. The fluid then moves with a moving container, so the container's acceleration enters the baroclinic term (gravity minus the acceleration, as in the container's frame). The vortons, tracers and bodies then move in a flow that stays in its tank; false = the free-space flow of Gourlay's part 14, which particles are pushed back from after they cross."));
    t.push_back(fluidParam(
        "close_solids", &F::closeSolids,
        "No flow through dynamic spheres: besides the dipole that cancels the uniform part of the flow a ball meets, it pushes aside the potential flow that cancels the rest at its surface (a passing vortex, its own wake, what a nearby wall takes from the dipole): point sources inside the ball fitted each sub-step to the flow's normal speed at 1,024 points of its surface. Off by default for its cost: sinking_ball's median step takes 8.8 ms with it against 5.5 ms without (1,000 steps, 2 threads). false = the dipole alone, through which the flow's uneven part crosses the ball (1.3% of its speed for a ball falling through still fluid, against 0.04% closed)."));
    t.push_back(
        fluidParam(
            "contact_film", &F::contactFilm,
            "Dynamic solids come to rest this share of their equivalent radius off a container's walls, on the film of fluid a real contact squeezes out only slowly. The flow between a ball and a wall it touches must stop in the wedge between them, which the closure of close_solids (sources inside the ball, mirrored in the wall) cannot stop: sinking_ball's ball resting on the floor let 2.3% of the peak speed through its surface at 0, 0.15% at 0.1 (box solver, 1,000 steps). 0 = solids touch the walls.")
            .atLeast(0)
            .atMost(1));
    t.push_back(fluidParam(
        "no_slip", &F::noSlip,
        "No slip at containers and kinematic solids: a vorton touching the wall carries the vortex sheet n x (u - u_wall) that stops the fluid sliding along it, renewed each step on top of the vorticity the fluid made there (Gourlay's part 14 replaced that vorticity), so walls shed vorticity and damp a layered tank's internal waves as a Stokes layer does. false = free slip: walls keep particles out (and, with wall_sources, the flow off them) without adding vorticity, the inviscid limit in which a vortex ring meets a wall as its image ring drives it."));
    t.push_back(fluidParam("poison_test_radius", &F::poisonTestRadius,
                           "Distance from a wall within which walls poisoning acts; 0 = two grid spacings.")
                    .unit("m")
                    .atLeast(0)
                    .atMost(100));
    t.push_back(fluidParam(
        "coverage_density", &F::coverageDensity,
        "Grid buoyancy from the mean density of the vortons at each grid point times a ramp of how fully they cover it, instead of the raw deposited mass: fluid filling a tank stays still (false = Gourlay's raw deposit, whose grid-scale noise slowly stirs it)."));
}

void addSph(std::vector<ParamSpec>& t) {
    t.push_back(
        fluidParam(
            "sph_influence_radius", &F::sphInfluenceRadius,
            "SPH kernel support radius h. Under VPM the SPH density gradient reaches at least two mean vorton spacings, so it keeps its neighbours as remeshing coarsens the vortons.")
            .unit("m")
            .above(0)
            .atMost(100));
    t.push_back(fluidParam("sph_rest_spacing", &F::sphRestSpacing,
                           "Spacing between vortons that SPH pressure drives them towards.")
                    .unit("m")
                    .above(0)
                    .atMost(100));
    t.push_back(fluidParam("sph_stiffness", &F::sphStiffness,
                           "SPH equation-of-state stiffness: pressure per unit of relative compression.")
                    .unit("m^2/s^2")
                    .above(0)
                    .atMost(1e6));
    t.push_back(
        fluidParam(
            "sph_cohesion", &F::sphCohesion,
            "Share of the SPH pressure's pull where vortons are sparser than at rest: 1 holds a drop together (vortons cling), 0 only pushes apart.")
            .atLeast(0)
            .atMost(1));
}

std::vector<ParamSpec> buildFluidSpecs() {
    std::vector<ParamSpec> t;
    addPhysics(t);
    addVelocity(t);
    addTimeStepping(t);
    addSourcesAndWalls(t);
    addSph(t);
    return t;
}

std::vector<ParamSpec> buildTimeSpecs() {
    std::vector<ParamSpec> t;
    t.push_back(param("time", "dt", &TimeParams::dt, "Simulated time per step.").unit("s").above(0).atMost(1));
    t.push_back(
        param("time", "steps", &TimeParams::steps, "Number of steps a headless run takes unless --steps is given.")
            .atLeast(0)
            .atMost(1e9));
    return t;
}

}  // namespace

const std::vector<ParamSpec>& fluidParamSpecs() {
    static const std::vector<ParamSpec> specs = buildFluidSpecs();
    return specs;
}

const std::vector<ParamSpec>& timeParamSpecs() {
    static const std::vector<ParamSpec> specs = buildTimeSpecs();
    return specs;
}

double FluidParams::gridCellTarget(double vortons) const {
    const double cells = std::max(vortons * double(gridCellsPerVorton), 64.0);
    return maxGridCells > 0 ? std::min(cells, double(maxGridCells)) : cells;
}

void requireValidParams(const FluidParams& fluid) {
    const std::string problem = firstInvalidParam(fluidParamSpecs(), fluid);
    if (!problem.empty()) throw std::invalid_argument(problem);
}

}  // namespace vfx
