// The single declaration of every scene parameter. The loader validates against this table,
// --set resolves paths through it, the demo builds its panels and tooltips from it and
// `vortonfx-sim --params-markdown` prints it for the README. Defaults of the fluid and time
// sections must equal the FluidParams / TimeParams struct defaults (tests/scene_test.cpp).
#include "scene/schema.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>

namespace vfx {
namespace {

using nlohmann::json;

// Enum spellings, indexed by the enum's value: the spec's choices and the accessors share them.
const std::vector<std::string> kMethodNames{"vpm", "sph", "hybrid"};
const std::vector<std::string> kGradientNames{"grid", "sph"};
const std::vector<std::string> kPoisoningNames{"none", "hits", "walls"};
const std::vector<std::string> kPoisonVariantNames{"serial", "atomic", "partitioned"};
const std::vector<std::string> kSolverNames{"tree", "direct"};
const std::vector<std::string> kStretchingNames{"classic", "transpose", "mixed"};

constexpr double kMaxCount = 16777216.0;  // 2^24 particles per region: beyond that memory runs out first

json vec3Json(float x, float y, float z) { return json::array({jsonFromFloat(x), jsonFromFloat(y), jsonFromFloat(z)}); }

// Small builder so each row of the table below reads as one declaration.
class Spec {
public:
    Spec(std::string section, std::string key, ParamType type, json defaultValue, std::string description) {
        s_.section = std::move(section);
        s_.key = std::move(key);
        s_.type = type;
        s_.defaultValue = std::move(defaultValue);
        s_.description = std::move(description);
    }
    Spec& above(double v) { s_.minValue = v; s_.minExclusive = true; return *this; }
    Spec& atLeast(double v) { s_.minValue = v; s_.minExclusive = false; return *this; }
    Spec& atMost(double v) { s_.maxValue = v; return *this; }
    Spec& choices(std::vector<std::string> c) { s_.choices = std::move(c); return *this; }
    Spec& reset() { s_.needsReset = true; return *this; }
    Spec& child(std::string section) { s_.childSection = std::move(section); return *this; }
    Spec& tuple(int n) { s_.tupleSize = n; return *this; }
    Spec& shapes(std::vector<std::string> names) { s_.onlyForShapes = std::move(names); return *this; }
    operator ParamSpec() const { return s_; }

private:
    ParamSpec s_;
};

void addTopLevelSpecs(std::vector<ParamSpec>& t) {
    using T = ParamType;
    t.push_back(Spec("", "name", T::String, "", "Display name of the scene."));
    t.push_back(Spec("", "description", T::String, "", "One sentence saying what the scene shows."));
    t.push_back(Spec("", "fluid", T::Object, json::object(), "Fluid parameters.").child("fluid"));
    t.push_back(Spec("", "time", T::Object, json::object(), "Time stepping.").child("time"));
    t.push_back(Spec("", "vortons", T::Array, json::array(),
                     "Regions filled with vortons (vortex particles carrying vorticity and density deviation).")
                    .child("vortons[]").reset());
    t.push_back(Spec("", "tracers", T::Array, json::array(),
                     "Regions filled with passive tracer particles that show the flow.")
                    .child("tracers[]").reset());
    t.push_back(Spec("", "bodies", T::Array, json::array(),
                     "Rigid bodies: solids the fluid flows around and containers (hole) it flows inside.")
                    .child("bodies[]").reset());
    t.push_back(Spec("", "view", T::Object, json::object(), "Initial view of the demo.").child("view"));
    t.push_back(Spec("view", "camera", T::Object, json::object(), "Orbit camera.").child("view.camera"));
}

void addFluidSpecs(std::vector<ParamSpec>& t) {
    using T = ParamType;
    const std::string f = "fluid";
    t.push_back(Spec(f, "ambient_density", T::Float, 1.0,
                     "Density rho0 of the undisturbed fluid, kg/m^3; a particle's density is rho0 plus its deviation.")
                    .above(0).atMost(1e6));
    t.push_back(Spec(f, "gravity", T::Vec3, vec3Json(0.0f, -9.8f, 0.0f),
                     "Gravitational acceleration [x, y, z], m/s^2.")
                    .atLeast(-1000).atMost(1000));
    t.push_back(Spec(f, "viscosity", T::Float, 0.001,
                     "Kinematic viscosity nu, m^2/s, that diffuses vorticity between vortons (0 = inviscid).")
                    .atLeast(0).atMost(10));
    t.push_back(Spec(f, "method", T::Enum, "vpm",
                     "Fluid model: vortex particles only (vpm), SPH pressure only (sph), or both (hybrid).")
                    .choices(kMethodNames));
    t.push_back(Spec(f, "density_gradient", T::Enum, "grid",
                     "Source of the density gradient that drives buoyancy: finite differences on the grid, or SPH sums over neighbouring vortons.")
                    .choices(kGradientNames));
    t.push_back(Spec(f, "poisoning", T::Enum, "none",
                     "Removes the wall-normal part of the density gradient near container walls: never, at vortons that hit a wall last step, or everywhere within reach of a wall.")
                    .choices(kPoisoningNames));
    t.push_back(Spec(f, "poison_variant", T::Enum, "partitioned",
                     "How hits poisoning is parallelised: one thread, lock-free atomics, or per grid-cell partition (a speed choice).")
                    .choices(kPoisonVariantNames));
    t.push_back(Spec(f, "velocity_solver", T::Enum, "tree",
                     "Velocity from vorticity: Barnes-Hut tree code, O(N log N), or direct summation over all vortons, O(N^2).")
                    .choices(kSolverNames));
    t.push_back(Spec(f, "tree_opening_angle", T::Float, 0.5,
                     "Barnes-Hut opening angle theta, dimensionless: a cluster acts as one when size/distance is below it (0 = exact).")
                    .atLeast(0).atMost(1.5));
    t.push_back(Spec(f, "grid_cells_per_vorton", T::Float, 1.0,
                     "Resolution of the velocity grid in cells per vorton, dimensionless (Gourlay uses 1).")
                    .above(0).atMost(8));
    t.push_back(Spec(f, "stretching", T::Bool, true,
                     "Vortex stretching and tilting of vorticity by the velocity gradient."));
    t.push_back(Spec(f, "stretching_scheme", T::Enum, "transpose",
                     "Form of the stretching term: (omega . grad) u (classic), its transpose (conserves total vorticity), or their mean (mixed).")
                    .choices(kStretchingNames));
    t.push_back(Spec(f, "core_overlap", T::Float, 1.5,
                     "Core radius of each vorton's velocity kernel over its particle spacing, sigma/h, dimensionless: above 1 the cores overlap and the vorticity field is smooth enough for stretching (Beale-Majda); 0 keeps each vorton's own radius.")
                    .atLeast(0).atMost(4));
    t.push_back(Spec(f, "cfl_limit", T::Float, 1.0,
                     "Largest fraction of a grid spacing, |u| dt / h, that the fastest flow may cross in one sub-step; step(dt) splits into as many sub-steps as this needs.")
                    .above(0).atMost(10));
    t.push_back(Spec(f, "strain_limit", T::Float, 0.1,
                     "Largest max|grad u| dt, dimensionless, one sub-step may take: bounds how far stretching and tilting act in one explicit update.")
                    .above(0).atMost(10));
    t.push_back(Spec(f, "max_substeps", T::Int, 64,
                     "Cap on the sub-steps one step(dt) call takes, dimensionless. A bound on the cost of a frame, not on stability: when the cap binds, sub-steps exceed the CFL and strain limits and the flow can go unstable (a 65,536-vorton dye drop at dt 1/30 did with a cap of 16).")
                    .atLeast(1).atMost(1024));
    t.push_back(Spec(f, "remesh_strain", T::Float, 1.0,
                     "Strain the flow may accumulate, the integral of max|S| dt (S the strain rate) since the last remesh, before the vortons are remeshed onto a regular lattice with the moment-conserving M4' kernel, restoring the core overlap the flow distorts; dimensionless, 0 = never. VPM only. The lattice ignores walls: in a tank the fluid fills to its walls (the sloshing tank) it piles mass onto them, so such scenes set 0.")
                    .atLeast(0).atMost(1000));
    t.push_back(Spec(f, "vorton_budget", T::Float, 2.5,
                     "Most vortons a remesh may make, as a multiple of the count at the first remesh, dimensionless: past it the lattice coarsens so the cost per step stays bounded while the flow spreads (0 = no limit).")
                    .atLeast(0).atMost(1000));
    t.push_back(Spec(f, "remesh_threshold", T::Float, 1e-3,
                     "Lattice nodes whose vorticity and mass-deviation strengths are both below this share of the largest are not kept as vortons when remeshing, dimensionless.")
                    .atLeast(0).atMost(0.5));
    t.push_back(Spec(f, "adams_bashforth", T::Bool, true,
                     "Second-order time integration: particle motion and vortex stretching use the two-step Adams-Bashforth rule (this sub-step's rate and the last one's), so an inviscid ring keeps its energy at the same sub-step size; false = one-step rules (the frozen-field midpoint for motion, Euler for stretching), first order in time. The first sub-step after a reset or a remesh is one-step."));
    t.push_back(Spec(f, "diffusion", T::Bool, true,
                     "Viscous diffusion of vorticity by particle strength exchange (acts when viscosity > 0)."));
    t.push_back(Spec(f, "subgrid_coefficient", T::Float, 0.17,
                     "Smagorinsky coefficient C_s, dimensionless: diffusion adds an eddy viscosity (C_s h)^2 |S| (h the vorton spacing, S the strain rate) that drains the flow's cascade below the resolved scale instead of letting stretching pile it up there; 0 = none (Lilly's value is 0.17).")
                    .atLeast(0).atMost(1));
    t.push_back(Spec(f, "baroclinic_sharing", T::Bool, true,
                     "Baroclinic generation at the physical rate: the fluid's impulse grows at g sum(rho' V) / rho0 whatever the vortons' layout. Grid gradient: each grid point's source is shared among the vortons within two grid spacings; SPH gradient: a pairwise SPH curl of rho' g / rho0 whose impulse is exact. false = Gourlay's sampling of the gradient at the vortons, which misses the part of the interface outside them."));
    t.push_back(Spec(f, "baroclinic", T::Bool, true,
                     "Baroclinic generation of vorticity where density gradient and gravity are not parallel (fluid buoyancy)."));
    t.push_back(Spec(f, "poison_test_radius", T::Float, 0.0,
                     "Distance from a wall, m, within which walls poisoning acts; 0 = one grid spacing.")
                    .atLeast(0).atMost(100));
    t.push_back(Spec(f, "coverage_density", T::Bool, true,
                     "Grid buoyancy from the mean density of the vortons at each grid point times a ramp of how fully they cover it, instead of the raw deposited mass: fluid filling a tank stays still (false = Gourlay's raw deposit, whose grid-scale noise slowly stirs it)."));
    t.push_back(Spec(f, "sph_influence_radius", T::Float, 0.15,
                     "SPH kernel support radius h, m.")
                    .above(0).atMost(100));
    t.push_back(Spec(f, "sph_rest_spacing", T::Float, 0.06,
                     "Spacing between vortons, m, that SPH pressure drives them towards.")
                    .above(0).atMost(100));
    t.push_back(Spec(f, "sph_stiffness", T::Float, 2.0,
                     "SPH equation-of-state stiffness, m^2/s^2: pressure per unit of relative compression.")
                    .above(0).atMost(1e6));
    t.push_back(Spec(f, "sph_cohesion", T::Float, 1.0,
                     "Share of the SPH pressure's pull, dimensionless, where vortons are sparser than at rest: 1 holds a drop together (vortons cling), 0 only pushes apart.")
                    .atLeast(0).atMost(1));
}

void addTimeSpecs(std::vector<ParamSpec>& t) {
    using T = ParamType;
    t.push_back(Spec("time", "dt", T::Float, 0.01, "Simulated time per step, s.").above(0).atMost(1));
    t.push_back(Spec("time", "steps", T::Int, 600,
                     "Number of steps a headless run takes unless --steps is given.")
                    .atLeast(0).atMost(1e9));
}

// vortons[] and tracers[] share the region vocabulary; circulation, vorticity and vorton radius
// only mean something for vortons.
void addRegionSpecs(std::vector<ParamSpec>& t, const std::string& section, bool vortons) {
    using T = ParamType;
    const std::string what = vortons ? "vortons" : "tracers";
    t.push_back(Spec(section, "shape", T::Enum, "sphere",
                     "Shape of the region: sphere (center, radius), box (min, max) or ring (torus: center, axis, radius, core_radius).")
                    .choices({"sphere", "box", "ring"}).reset());
    t.push_back(Spec(section, "center", T::Vec3, vec3Json(0, 0, 0), "Centre of the sphere or ring, m.")
                    .shapes({"sphere", "ring"}).reset());
    t.push_back(Spec(section, "radius", T::Float, 0.5,
                     "Sphere radius, or ring radius from the axis to the middle of the core, m.")
                    .above(0).atMost(1e4).shapes({"sphere", "ring"}).reset());
    t.push_back(Spec(section, "min", T::Vec3, vec3Json(-0.5f, -0.5f, -0.5f), "Lower corner of the box, m.")
                    .shapes({"box"}).reset());
    t.push_back(Spec(section, "max", T::Vec3, vec3Json(0.5f, 0.5f, 0.5f), "Upper corner of the box, m.")
                    .shapes({"box"}).reset());
    t.push_back(Spec(section, "axis", T::Vec3, vec3Json(0, 1, 0),
                     "Direction of the ring's axis, non-zero (normalised); positive circulation moves the ring along +axis.")
                    .shapes({"ring"}).reset());
    t.push_back(Spec(section, "core_radius", T::Float, 0.1,
                     "Radius of the ring's core (the tube of the torus), m; smaller than radius.")
                    .above(0).atMost(1e4).shapes({"ring"}).reset());
    if (vortons)
        t.push_back(Spec(section, "circulation", T::Float, 1.0,
                         "Circulation around the ring's core, m^2/s: vorticity is uniform in the core, circulation/(pi core_radius^2), circling the axis by the right-hand rule.")
                        .atLeast(-1e6).atMost(1e6).shapes({"ring"}).reset());
    t.push_back(Spec(section, "count", T::Int, 0,
                     "Number of " + what + " in the region (lattice layout: about this many); required.")
                    .above(0).atMost(kMaxCount).reset());
    t.push_back(Spec(section, "layout", T::Enum, "random",
                     "Placement: random (uniform, reproducible from seed) or lattice (regular cubic lattice filling the region).")
                    .choices({"random", "lattice"}).reset());
    t.push_back(Spec(section, "seed", T::Int, 1, "Seed of the random layout; the same seed gives the same particles.")
                    .atLeast(0).atMost(4294967295.0).reset());
    t.push_back(Spec(section, "density", T::Float, 0.0,
                     vortons ? "Density deviation rho' from ambient at the region's centre, kg/m^3 (positive: heavier than ambient)."
                             : "Initial density deviation the tracers show, kg/m^3, until the first step samples the density grid.")
                    .atLeast(-1e6).atMost(1e6).reset());
    t.push_back(Spec(section, "density_gradient", T::Vec3, vec3Json(0, 0, 0),
                     "Linear change of the density deviation with position, d(rho')/dx, kg/m^4 (stratified layers).")
                    .atLeast(-1e6).atMost(1e6).reset());
    if (vortons) {
        t.push_back(Spec(section, "vorticity", T::Vec3, vec3Json(0, 0, 0),
                         "Uniform initial vorticity of the region, 1/s (a ring's comes from its circulation).")
                        .atLeast(-1e6).atMost(1e6).shapes({"sphere", "box"}).reset());
        t.push_back(Spec(section, "vorton_radius", T::Float, 0.0,
                         "Vorton core radius sigma, m; 0 = automatic: fluid.core_overlap times the particle spacing (the cube root of the region's volume per vorton).")
                        .atLeast(0).atMost(1e4).reset());
    }
}

void addBodySpecs(std::vector<ParamSpec>& t) {
    using T = ParamType;
    const std::string b = "bodies[]";
    t.push_back(Spec(b, "name", T::String, "",
                     "Name shown in the demo and used for the stats columns body_<name>_x/_y/_z; unique when given.")
                    .reset());
    t.push_back(Spec(b, "shape", T::Enum, "sphere", "Collision shape: sphere (radius), box (half_extents) or convex polytope (planes or vertices).")
                    .choices({"sphere", "box", "polytope"}).reset());
    t.push_back(Spec(b, "radius", T::Float, 0.5, "Sphere radius, m.").above(0).atMost(1e4).shapes({"sphere"}).reset());
    t.push_back(Spec(b, "half_extents", T::Vec3, vec3Json(0.5f, 0.5f, 0.5f),
                     "Half the box's size along its local x, y and z axes, m.")
                    .above(0).atMost(1e4).shapes({"box"}).reset());
    t.push_back(Spec(b, "planes", T::Array, json::array(),
                     "Faces of a convex polytope as [nx, ny, nz, d] with n.x = d and n pointing out of the solid, in the body frame, m.")
                    .tuple(4).shapes({"polytope"}).reset());
    t.push_back(Spec(b, "vertices", T::Array, json::array(),
                     "Corners [x, y, z] of a convex polytope (it is their convex hull), in the body frame, m.")
                    .tuple(3).shapes({"polytope"}).reset());
    t.push_back(Spec(b, "position", T::Vec3, vec3Json(0, 0, 0),
                     "Initial position of the body's origin (kinematic: its rest position), m.")
                    .atLeast(-1e4).atMost(1e4).reset());
    t.push_back(Spec(b, "orientation", T::Vec3, vec3Json(0, 0, 0),
                     "Initial orientation (kinematic: rest orientation) as rotations about the fixed x, then y, then z axes, degrees.")
                    .atLeast(-3600).atMost(3600).reset());
    t.push_back(Spec(b, "velocity", T::Vec3, vec3Json(0, 0, 0), "Initial velocity, m/s; a kinematic body keeps it as a constant drift added to its oscillation.")
                    .atLeast(-1e4).atMost(1e4).reset());
    t.push_back(Spec(b, "density", T::Float, 1.0,
                     "Density of the body's material, kg/m^3; above the fluid's it sinks, below it rises.")
                    .above(0).atMost(1e6).reset());
    t.push_back(Spec(b, "hole", T::Bool, false,
                     "true: the shape is a container turned inside out, the fluid lives in its cavity (needs motion kinematic).")
                    .reset());
    t.push_back(Spec(b, "motion", T::Enum, "dynamic",
                     "dynamic: moved by gravity, buoyancy and the fluid; kinematic: follows its rest pose and oscillate.")
                    .choices({"dynamic", "kinematic"}).reset());
    t.push_back(Spec(b, "oscillate", T::Object, json::object(),
                     "Sinusoidal motion of a kinematic body about its rest pose.")
                    .child("bodies[].oscillate").reset());
    const std::string o = "bodies[].oscillate";
    t.push_back(Spec(o, "amplitude", T::Vec3, vec3Json(0, 0, 0), "Peak displacement from the rest position, m.")
                    .atLeast(-1e4).atMost(1e4).reset());
    t.push_back(Spec(o, "angular_amplitude", T::Vec3, vec3Json(0, 0, 0),
                     "Peak rotation about the x, y and z axes from the rest orientation, degrees.")
                    .atLeast(-360).atMost(360).reset());
    t.push_back(Spec(o, "period", T::Float, 0.0, "Period of the oscillation, s; 0 = the body stays at its rest pose.")
                    .atLeast(0).atMost(1e6).reset());
}

void addCameraSpecs(std::vector<ParamSpec>& t) {
    using T = ParamType;
    const std::string c = "view.camera";
    t.push_back(Spec(c, "target", T::Vec3, vec3Json(0, 0, 0), "Point the camera orbits and looks at, m.")
                    .atLeast(-1e4).atMost(1e4));
    t.push_back(Spec(c, "distance", T::Float, 5.0, "Distance from the camera to its target, m.").above(0).atMost(1e4));
    t.push_back(Spec(c, "yaw", T::Float, 30.0, "Orbit angle about the vertical axis, degrees.").atLeast(-3600).atMost(3600));
    t.push_back(Spec(c, "pitch", T::Float, 20.0, "Elevation above the horizontal, degrees.").atLeast(-89).atMost(89));
}

std::vector<ParamSpec> buildTable() {
    std::vector<ParamSpec> t;
    addTopLevelSpecs(t);
    addFluidSpecs(t);
    addTimeSpecs(t);
    addRegionSpecs(t, "vortons[]", true);
    addRegionSpecs(t, "tracers[]", false);
    addBodySpecs(t);
    addCameraSpecs(t);
    return t;
}

// --- value checks ----------------------------------------------------------------------------

std::string formatNumber(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

bool hasRange(const ParamSpec& s) { return s.minValue > -1e29 || s.maxValue < 1e29; }

std::string rangeText(const ParamSpec& s) {
    std::string lower = s.minValue > -1e29 ? (s.minExclusive ? "> " : ">= ") + formatNumber(s.minValue) : "";
    std::string upper = s.maxValue < 1e29 ? "<= " + formatNumber(s.maxValue) : "";
    if (!lower.empty() && !upper.empty()) return lower + " and " + upper;
    return lower + upper;
}

bool inRange(const ParamSpec& s, double v) {
    const bool lowOk = s.minExclusive ? v > s.minValue : v >= s.minValue;
    return lowOk && v <= s.maxValue;
}

bool isFiniteNumber(const json& v) { return v.is_number() && std::isfinite(v.get<double>()); }

std::string joinChoices(const std::vector<std::string>& c, const char* separator = ", ") {
    std::string out;
    for (size_t i = 0; i < c.size(); ++i) out += (i ? separator : "") + c[i];
    return out;
}

std::string checkNumber(const ParamSpec& spec, const json& value, bool whole) {
    if (!value.is_number()) return std::string("must be ") + (whole ? "a whole number" : "a number") + ", got " + describeJsonValue(value);
    const double v = value.get<double>();
    if (!std::isfinite(v)) return "must be a finite number, got " + describeJsonValue(value);
    if (whole && v != std::floor(v)) return "must be a whole number, got " + describeJsonValue(value);
    if (!inRange(spec, v)) return "must be " + rangeText(spec) + ", got " + describeJsonValue(value);
    return "";
}

std::string checkVec3(const ParamSpec& spec, const json& value) {
    bool shapeOk = value.is_array() && value.size() == 3;
    for (size_t i = 0; shapeOk && i < 3; ++i) shapeOk = isFiniteNumber(value[i]);
    if (!shapeOk) return "must be 3 finite numbers [x, y, z], got " + describeJsonValue(value);
    for (size_t i = 0; i < 3; ++i)
        if (!inRange(spec, value[i].get<double>()))
            return "each component must be " + rangeText(spec) + ", got " + describeJsonValue(value);
    return "";
}

std::string checkArray(const ParamSpec& spec, const json& value) {
    if (!value.is_array()) return "must be an array [...], got " + describeJsonValue(value);
    if (spec.tupleSize <= 0) return "";
    const std::string form = spec.tupleSize == 4 ? "[nx, ny, nz, d]" : "[x, y, z]";
    for (size_t i = 0; i < value.size(); ++i) {
        const json& e = value[i];
        bool ok = e.is_array() && e.size() == size_t(spec.tupleSize);
        for (size_t k = 0; ok && k < e.size(); ++k) ok = isFiniteNumber(e[k]);
        if (!ok)
            return "element " + std::to_string(i) + " must be " + std::to_string(spec.tupleSize) +
                   " finite numbers " + form + ", got " + describeJsonValue(e);
    }
    return "";
}

// --- FluidParams / TimeParams accessors, keyed like the spec table ---------------------------

template <typename Params>
struct FieldAccess {
    std::string key;
    std::function<json(const Params&)> get;
    std::function<void(Params&, const json&)> set;  // value already validated
};

template <typename Params>
FieldAccess<Params> floatField(const char* key, float Params::*member) {
    return {key, [member](const Params& p) { return jsonFromFloat(p.*member); },
            [member](Params& p, const json& v) { p.*member = v.get<float>(); }};
}

template <typename Params>
FieldAccess<Params> intField(const char* key, int Params::*member) {
    return {key, [member](const Params& p) { return json(p.*member); },
            [member](Params& p, const json& v) { p.*member = int(v.get<double>()); }};
}

template <typename Params>
FieldAccess<Params> boolField(const char* key, bool Params::*member) {
    return {key, [member](const Params& p) { return json(p.*member); },
            [member](Params& p, const json& v) { p.*member = v.get<bool>(); }};
}

template <typename Params>
FieldAccess<Params> vec3Field(const char* key, vec3 Params::*member) {
    return {key, [member](const Params& p) { const vec3& v = p.*member; return vec3Json(v.x, v.y, v.z); },
            [member](Params& p, const json& v) { p.*member = vec3(v[0].get<float>(), v[1].get<float>(), v[2].get<float>()); }};
}

template <typename Params, typename E>
FieldAccess<Params> enumField(const char* key, E Params::*member, const std::vector<std::string>& names) {
    return {key, [member, &names](const Params& p) { return json(names[size_t(p.*member)]); },
            [member, &names](Params& p, const json& v) {
                const std::string s = v.get<std::string>();
                for (size_t i = 0; i < names.size(); ++i)
                    if (names[i] == s) p.*member = E(i);
            }};
}

const std::vector<FieldAccess<FluidParams>>& fluidFields() {
    using F = FluidParams;
    static const std::vector<FieldAccess<F>> fields{
        floatField("ambient_density", &F::ambientDensity),
        vec3Field("gravity", &F::gravity),
        floatField("viscosity", &F::viscosity),
        enumField("method", &F::method, kMethodNames),
        enumField("density_gradient", &F::densityGradient, kGradientNames),
        enumField("poisoning", &F::poisoning, kPoisoningNames),
        enumField("poison_variant", &F::poisonVariant, kPoisonVariantNames),
        enumField("velocity_solver", &F::velocitySolver, kSolverNames),
        floatField("tree_opening_angle", &F::treeOpeningAngle),
        floatField("grid_cells_per_vorton", &F::gridCellsPerVorton),
        boolField("stretching", &F::stretching),
        enumField("stretching_scheme", &F::stretchingScheme, kStretchingNames),
        floatField("core_overlap", &F::coreOverlap),
        floatField("cfl_limit", &F::cflLimit),
        floatField("strain_limit", &F::strainLimit),
        intField("max_substeps", &F::maxSubsteps),
        boolField("adams_bashforth", &F::adamsBashforth),
        floatField("remesh_strain", &F::remeshStrain),
        floatField("vorton_budget", &F::vortonBudget),
        floatField("remesh_threshold", &F::remeshThreshold),
        boolField("diffusion", &F::diffusion),
        floatField("subgrid_coefficient", &F::subgridCoefficient),
        boolField("baroclinic_sharing", &F::baroclinicSharing),
        boolField("baroclinic", &F::baroclinic),
        floatField("poison_test_radius", &F::poisonTestRadius),
        boolField("coverage_density", &F::coverageDensity),
        floatField("sph_influence_radius", &F::sphInfluenceRadius),
        floatField("sph_rest_spacing", &F::sphRestSpacing),
        floatField("sph_stiffness", &F::sphStiffness),
        floatField("sph_cohesion", &F::sphCohesion),
    };
    return fields;
}

const std::vector<FieldAccess<TimeParams>>& timeFields() {
    static const std::vector<FieldAccess<TimeParams>> fields{
        floatField("dt", &TimeParams::dt),
        intField("steps", &TimeParams::steps),
    };
    return fields;
}

template <typename Params>
const FieldAccess<Params>* findField(const std::vector<FieldAccess<Params>>& fields, const std::string& key) {
    for (const auto& f : fields)
        if (f.key == key) return &f;
    return nullptr;
}

template <typename Params>
json getParam(const std::vector<FieldAccess<Params>>& fields, const Params& params, const std::string& key) {
    const FieldAccess<Params>* f = findField(fields, key);
    return f ? f->get(params) : json();
}

template <typename Params>
std::string setParam(const std::vector<FieldAccess<Params>>& fields, const char* section, Params& params,
                     const std::string& key, const json& value) {
    const ParamSpec* spec = findParamSpec(section, key);
    const FieldAccess<Params>* f = findField(fields, key);
    if (!spec || !f) return std::string("unknown ") + section + " parameter \"" + key + "\"";
    std::string problem = checkParamValue(*spec, value);
    if (!problem.empty()) return problem;
    f->set(params, value);
    return "";
}

// --- markdown --------------------------------------------------------------------------------

std::string typeName(const ParamSpec& s) {
    switch (s.type) {
        case ParamType::Float: return "number";
        case ParamType::Int: return "integer";
        case ParamType::Bool: return "boolean";
        case ParamType::Vec3: return "[x, y, z]";
        case ParamType::Enum: return "choice";
        case ParamType::String: return "string";
        case ParamType::Array:
            return s.tupleSize == 4 ? "[[nx, ny, nz, d], ...]" : s.tupleSize == 3 ? "[[x, y, z], ...]" : "array of objects";
        case ParamType::Object: return "object";
    }
    return "?";
}

std::string qualifiedName(const ParamSpec& s) { return s.section.empty() ? s.key : s.section + "." + s.key; }

std::string escapeCell(std::string text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

}  // namespace

// --- public ------------------------------------------------------------------------------------

const std::vector<ParamSpec>& allParamSpecs() {
    static const std::vector<ParamSpec> table = buildTable();
    return table;
}

std::vector<const ParamSpec*> paramSpecsInSection(const std::string& section) {
    std::vector<const ParamSpec*> out;
    for (const ParamSpec& s : allParamSpecs())
        if (s.section == section) out.push_back(&s);
    return out;
}

const ParamSpec* findParamSpec(const std::string& section, const std::string& key) {
    for (const ParamSpec& s : allParamSpecs())
        if (s.section == section && s.key == key) return &s;
    return nullptr;
}

std::string checkParamValue(const ParamSpec& spec, const json& value) {
    switch (spec.type) {
        case ParamType::Float: return checkNumber(spec, value, false);
        case ParamType::Int: return checkNumber(spec, value, true);
        case ParamType::Bool:
            return value.is_boolean() ? "" : "must be true or false, got " + describeJsonValue(value);
        case ParamType::Vec3: return checkVec3(spec, value);
        case ParamType::Enum:
            if (value.is_string())
                for (const std::string& c : spec.choices)
                    if (c == value.get<std::string>()) return "";
            return "must be one of " + joinChoices(spec.choices) + ", got " + describeJsonValue(value);
        case ParamType::String:
            return value.is_string() ? "" : "must be a string \"...\", got " + describeJsonValue(value);
        case ParamType::Array: return checkArray(spec, value);
        case ParamType::Object:
            return value.is_object() ? "" : "must be an object {...}, got " + describeJsonValue(value);
    }
    return "";
}

std::string describeJsonValue(const json& value) {
    std::string text;
    if (value.is_number_float()) {
        const double v = value.get<double>();
        text = std::isfinite(v) ? value.dump() : formatNumber(v);
    } else if (value.is_array()) {
        text = "[";
        for (size_t i = 0; i < value.size() && text.size() < 80; ++i) text += (i ? ", " : "") + describeJsonValue(value[i]);
        text += "]";
    } else if (value.is_null()) {
        text = "null";
    } else {
        text = value.dump();
    }
    if (text.size() > 80) text = text.substr(0, 77) + "...";
    return text;
}

json jsonFromFloat(float value) {
    if (!std::isfinite(value)) return json(double(value));
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, value);
    *result.ptr = '\0';
    return json(std::strtod(buf, nullptr));
}

json getFluidParam(const FluidParams& fluid, const std::string& key) { return getParam(fluidFields(), fluid, key); }

std::string setFluidParam(FluidParams& fluid, const std::string& key, const json& value) {
    return setParam(fluidFields(), "fluid", fluid, key, value);
}

json getTimeParam(const TimeParams& time, const std::string& key) { return getParam(timeFields(), time, key); }

std::string setTimeParam(TimeParams& time, const std::string& key, const json& value) {
    return setParam(timeFields(), "time", time, key, value);
}

std::string parameterReferenceMarkdown() {
    std::ostringstream md;
    md << "| Parameter | Type | Default | Allowed | Live | Description |\n";
    md << "| --- | --- | --- | --- | --- | --- |\n";
    for (const ParamSpec& s : allParamSpecs()) {
        std::string allowed = s.type == ParamType::Enum ? joinChoices(s.choices, " | ") : hasRange(s) ? rangeText(s) : "";
        if (s.type == ParamType::Vec3 && hasRange(s)) allowed = "each " + allowed;
        const bool nested = s.type == ParamType::Object || (s.type == ParamType::Array && s.tupleSize == 0);
        std::string description = s.description;
        if (!s.onlyForShapes.empty()) description += " Shapes: " + joinChoices(s.onlyForShapes) + ".";
        md << "| `" << qualifiedName(s) << "` | " << escapeCell(typeName(s)) << " | "
           << (nested ? std::string("-") : "`" + escapeCell(describeJsonValue(s.defaultValue)) + "`") << " | "
           << escapeCell(allowed) << " | " << (s.needsReset ? "reset" : "yes") << " | " << escapeCell(description)
           << " |\n";
    }
    return md.str();
}

}  // namespace vfx
