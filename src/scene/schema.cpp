// The scene file's own parameters: document keys, vorton and tracer regions, bodies and the
// camera, each row bound to the member of the scene struct it fills (scene/scene.hpp), whose
// default is the parameter's default. The fluid and time rows come from sim/params.cpp.
#include "scene/schema.hpp"

#include "scene/scene.hpp"
#include "sim/param_declarations.hpp"

namespace vfx {

const std::vector<std::string>& EnumNames<RegionShape>::names() {
    static const std::vector<std::string> n{"sphere", "box", "ring"};
    return n;
}

const std::vector<std::string>& EnumNames<RegionLayout>::names() {
    static const std::vector<std::string> n{"random", "lattice"};
    return n;
}

namespace {

using nlohmann::json;

constexpr double kMaxCount = 16777216.0;  // 2^24 particles per region: beyond that memory runs out first
constexpr double kWorld = kWorldExtent;
constexpr double kShortest = kShortestLength;

// --- codecs for members whose JSON form is not their C++ form --------------------------------

// A string member restricted to a list of spellings (the body's shape).
struct ChoiceStringCodec {
    static constexpr ParamType type = ParamType::Enum;
    static json toJson(const std::string& v) { return v; }
    static std::string fromJson(const json& j) { return j.get<std::string>(); }
};

// Angles kept in radians, written in degrees.
struct DegreesCodec {
    static constexpr ParamType type = ParamType::Vec3;
    static json toJson(const vec3& radians) { return param_detail::Codec<vec3>::toJson(glm::degrees(radians)); }
    static vec3 fromJson(const json& j) { return glm::radians(param_detail::Codec<vec3>::fromJson(j)); }
};

struct PlanesCodec {
    static constexpr ParamType type = ParamType::Array;
    static json toJson(const std::vector<Plane>& planes) {
        json out = json::array();
        for (const Plane& p : planes)
            out.push_back(
                {jsonFromFloat(p.normal.x), jsonFromFloat(p.normal.y), jsonFromFloat(p.normal.z), jsonFromFloat(p.d)});
        return out;
    }
    static std::vector<Plane> fromJson(const json& array) {
        std::vector<Plane> planes;
        for (const json& p : array) planes.push_back(Plane{param_detail::Codec<vec3>::fromJson(p), p[3].get<float>()});
        return planes;
    }
};

struct PointsCodec {
    static constexpr ParamType type = ParamType::Array;
    static json toJson(const std::vector<vec3>& points) {
        json out = json::array();
        for (const vec3& p : points) out.push_back(param_detail::Codec<vec3>::toJson(p));
        return out;
    }
    static std::vector<vec3> fromJson(const json& array) {
        std::vector<vec3> points;
        for (const json& p : array) points.push_back(param_detail::Codec<vec3>::fromJson(p));
        return points;
    }
};

// A key that opens a nested section (an object, or an array of objects).
Spec section(const std::string& parent, const std::string& key, ParamType type, const std::string& child,
             const std::string& description) {
    return Spec(parent, key, type, description)
        .defaultsTo(type == ParamType::Object ? json::object() : json::array())
        .child(child);
}

void addDocumentSpecs(std::vector<ParamSpec>& t) {
    using T = ParamType;
    t.push_back(param("", "name", &Scene::name, "Display name of the scene."));
    t.push_back(param("", "description", &Scene::description, "One sentence saying what the scene shows."));
    t.push_back(section("", "fluid", T::Object, "fluid", "Fluid parameters."));
    t.push_back(section("", "time", T::Object, "time", "Time stepping."));
    t.push_back(section("", "vortons", T::Array, "vortons[]",
                        "Regions filled with vortons (vortex particles carrying vorticity and density deviation).")
                    .items(kMaxRegions)
                    .reset());
    t.push_back(section("", "tracers", T::Array, "tracers[]",
                        "Regions filled with passive tracer particles that show the flow.")
                    .items(kMaxRegions)
                    .reset());
    t.push_back(section("", "bodies", T::Array, "bodies[]",
                        "Rigid bodies: solids the fluid flows around and containers (hole) it flows inside.")
                    .items(kMaxBodies)
                    .reset());
    t.push_back(section("", "view", T::Object, "view", "Initial view of the demo."));
    t.push_back(section("view", "camera", T::Object, "view.camera", "Orbit camera."));
}

// vortons[] and tracers[] share the region vocabulary; circulation, vorticity and vorton radius
// only mean something for vortons.
void addRegionShapeSpecs(std::vector<ParamSpec>& t, const std::string& s) {
    using R = RegionDesc;
    t.push_back(
        param(
            s, "shape", &R::shape,
            "Shape of the region: sphere (center, radius), box (min, max) or ring (torus: center, axis, radius, core_radius).")
            .reset());
    t.push_back(param(s, "center", &R::centre, "Centre of the sphere or ring.")
                    .unit("m")
                    .atLeast(-kWorld)
                    .atMost(kWorld)
                    .shapes({"sphere", "ring"})
                    .reset());
    t.push_back(param(s, "radius", &R::radius, "Sphere radius, or ring radius from the axis to the middle of the core.")
                    .unit("m")
                    .atLeast(kShortest)
                    .atMost(kWorld)
                    .shapes({"sphere", "ring"})
                    .reset());
    t.push_back(param(s, "min", &R::boxMin, "Lower corner of the box.")
                    .unit("m")
                    .atLeast(-kWorld)
                    .atMost(kWorld)
                    .shapes({"box"})
                    .reset());
    t.push_back(param(s, "max", &R::boxMax, "Upper corner of the box.")
                    .unit("m")
                    .atLeast(-kWorld)
                    .atMost(kWorld)
                    .shapes({"box"})
                    .reset());
    t.push_back(
        param(s, "axis", &R::axis,
              "Direction of the ring's axis, non-zero (normalised); positive circulation moves the ring along +axis.")
            .atLeast(-kWorld)
            .atMost(kWorld)
            .shapes({"ring"})
            .reset());
    t.push_back(
        param(
            s, "core_radius", &R::coreRadius,
            "Radius of the ring's core (the tube of the torus); smaller than radius. Tracers fill it; vortons fill a tube of radius sqrt(core_radius^2 - 0.8 sigma^2), sigma their core radius, so that spread over their own cores they carry a uniform core of this radius.")
            .unit("m")
            .atLeast(kShortest)
            .atMost(kWorld)
            .shapes({"ring"})
            .reset());
}

void addRegionSpecs(std::vector<ParamSpec>& t, const std::string& s, bool vortons) {
    using R = RegionDesc;
    addRegionShapeSpecs(t, s);
    if (vortons)
        t.push_back(
            param(
                s, "circulation", &R::circulation,
                "Circulation around the ring's core: vorticity is uniform in the core, circulation/(pi core_radius^2), circling the axis by the right-hand rule.")
                .unit("m^2/s")
                .atLeast(-1e6)
                .atMost(1e6)
                .shapes({"ring"})
                .reset());
    const std::string what = vortons ? "vortons" : "tracers";
    t.push_back(param(s, "count", &R::count,
                      "Number of " + what + " in the region (lattice layout: about this many); required.")
                    .above(0)
                    .atMost(kMaxCount)
                    .reset());
    t.push_back(
        param(
            s, "layout", &R::layout,
            "Placement: random (uniform, reproducible from seed) or lattice (regular cubic lattice filling the region).")
            .reset());
    t.push_back(param(s, "seed", &R::seed, "Seed of the random layout; the same seed gives the same particles.")
                    .atLeast(0)
                    .atMost(4294967295.0)
                    .reset());
    t.push_back(
        param(s, "density", &R::density,
              vortons ? "Density deviation rho' from ambient at the region's centre (positive: heavier than ambient)."
                      : "Initial density deviation the tracers show, until the first step samples the density grid.")
            .unit("kg/m^3")
            .atLeast(-1e6)
            .atMost(1e6)
            .reset());
    t.push_back(param(s, "density_gradient", &R::densityGradient,
                      "Linear change of the density deviation with position, d(rho')/dx (stratified layers).")
                    .unit("kg/m^4")
                    .atLeast(-1e6)
                    .atMost(1e6)
                    .reset());
    if (!vortons) return;
    t.push_back(param(s, "vorticity", &R::vorticity,
                      "Uniform initial vorticity of the region (a ring's comes from its circulation).")
                    .unit("1/s")
                    .atLeast(-1e6)
                    .atMost(1e6)
                    .shapes({"sphere", "box"})
                    .reset());
    t.push_back(
        param(
            s, "vorton_radius", &R::vortonRadius,
            "Vorton core radius sigma; 0 = automatic: fluid.core_overlap times the particle spacing (the cube root of the region's volume per vorton); else at least 0.0001.")
            .unit("m")
            .atLeast(0)
            .atMost(kWorld)
            .reset());
}

void addBodyShapeSpecs(std::vector<ParamSpec>& t) {
    using B = BodyDesc;
    const std::string b = "bodies[]";
    t.push_back(param(b, "name", &B::name,
                      "Name shown in the demo and used for the stats columns body_<name>_x/_y/_z; unique when given.")
                    .reset());
    t.push_back(param(b, "shape", &B::shape,
                      "Collision shape: sphere (radius), box (half_extents) or convex polytope (planes or vertices).",
                      ChoiceStringCodec{})
                    .choices({"sphere", "box", "polytope"})
                    .reset());
    t.push_back(param(b, "radius", &B::radius, "Sphere radius.")
                    .unit("m")
                    .atLeast(kShortest)
                    .atMost(kWorld)
                    .shapes({"sphere"})
                    .reset());
    t.push_back(param(b, "half_extents", &B::halfExtents, "Half the box's size along its local x, y and z axes.")
                    .unit("m")
                    .atLeast(kShortest)
                    .atMost(kWorld)
                    .shapes({"box"})
                    .reset());
    t.push_back(
        param(
            b, "planes", &B::planes,
            "Faces of a convex polytope as [nx, ny, nz, d] with n.x = d and n pointing out of the solid, in the body frame.",
            PlanesCodec{})
            .unit("m")
            .atLeast(-kWorld)
            .atMost(kWorld)
            .tuple(4)
            .items(kMaxPolytopePlanes)
            .shapes({"polytope"})
            .reset());
    t.push_back(param(b, "vertices", &B::vertices,
                      "Corners [x, y, z] of a convex polytope (it is their convex hull), in the body frame.",
                      PointsCodec{})
                    .unit("m")
                    .atLeast(-kWorld)
                    .atMost(kWorld)
                    .tuple(3)
                    .items(kMaxPolytopeVertices)
                    .shapes({"polytope"})
                    .reset());
}

void addBodySpecs(std::vector<ParamSpec>& t) {
    using B = BodyDesc;
    const std::string b = "bodies[]";
    addBodyShapeSpecs(t);
    t.push_back(
        param(b, "position", &B::position, "Initial position of the body's origin (kinematic: its rest position).")
            .unit("m")
            .atLeast(-kWorld)
            .atMost(kWorld)
            .reset());
    t.push_back(
        param(b, "orientation", &B::orientationEuler,
              "Initial orientation (kinematic: rest orientation) as rotations about the fixed x, then y, then z axes.")
            .unit("degrees")
            .atLeast(-3600)
            .atMost(3600)
            .reset());
    t.push_back(param(b, "velocity", &B::velocity,
                      "Initial velocity; a kinematic body keeps it as a constant drift added to its oscillation.")
                    .unit("m/s")
                    .atLeast(-1e4)
                    .atMost(1e4)
                    .reset());
    t.push_back(
        param(b, "density", &B::density, "Density of the body's material; above the fluid's it sinks, below it rises.")
            .unit("kg/m^3")
            .above(0)
            .atMost(1e6)
            .reset());
    t.push_back(
        param(
            b, "hole", &B::hole,
            "true: the shape is a container turned inside out, the fluid lives in its cavity (needs motion kinematic).")
            .reset());
    t.push_back(
        param(b, "motion", &B::motion,
              "dynamic: moved by gravity, buoyancy and the fluid; kinematic: follows its rest pose and oscillate.")
            .reset());
    t.push_back(section(b, "oscillate", ParamType::Object, "bodies[].oscillate",
                        "Sinusoidal motion of a kinematic body about its rest pose.")
                    .reset());
}

void addOscillationSpecs(std::vector<ParamSpec>& t) {
    using K = KinematicMotion;
    const std::string o = "bodies[].oscillate";
    t.push_back(param(o, "amplitude", &K::amplitude, "Peak displacement from the rest position.")
                    .unit("m")
                    .atLeast(-kWorld)
                    .atMost(kWorld)
                    .reset());
    t.push_back(param(o, "angular_amplitude", &K::angularAmplitude,
                      "Peak rotation about the x, y and z axes from the rest orientation.", DegreesCodec{})
                    .unit("degrees")
                    .atLeast(-360)
                    .atMost(360)
                    .reset());
    t.push_back(param(o, "period", &K::period, "Period of the oscillation; 0 = the body stays at its rest pose.")
                    .unit("s")
                    .atLeast(0)
                    .atMost(1e6)
                    .reset());
}

void addCameraSpecs(std::vector<ParamSpec>& t) {
    using C = CameraDesc;
    const std::string c = "view.camera";
    t.push_back(param(c, "target", &C::target, "Point the camera orbits and looks at.")
                    .unit("m")
                    .atLeast(-kWorld)
                    .atMost(kWorld));
    t.push_back(
        param(c, "distance", &C::distance, "Distance from the camera to its target.").unit("m").above(0).atMost(1e4));
    t.push_back(
        param(c, "yaw", &C::yaw, "Orbit angle about the vertical axis.").unit("degrees").atLeast(-3600).atMost(3600));
    t.push_back(
        param(c, "pitch", &C::pitch, "Elevation above the horizontal.").unit("degrees").atLeast(-89).atMost(89));
}

std::vector<ParamSpec> buildTable() {
    std::vector<ParamSpec> t;
    addDocumentSpecs(t);
    t.insert(t.end(), fluidParamSpecs().begin(), fluidParamSpecs().end());
    t.insert(t.end(), timeParamSpecs().begin(), timeParamSpecs().end());
    addRegionSpecs(t, "vortons[]", true);
    addRegionSpecs(t, "tracers[]", false);
    addBodySpecs(t);
    addOscillationSpecs(t);
    addCameraSpecs(t);
    return t;
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

const ParamSpec* findParamSpecAlong(const std::vector<std::string>& path) {
    std::string section;
    for (size_t i = 0; i < path.size(); ++i) {
        const ParamSpec* spec = findParamSpec(section, path[i]);
        if (!spec || i + 1 == path.size()) return spec;
        if (spec->type == ParamType::Vec3 || spec->tupleSize > 0) return spec;  // the rest picks a component
        if (spec->childSection.empty()) return nullptr;
        section = spec->childSection;
        if (spec->type == ParamType::Array && ++i + 1 == path.size()) return nullptr;  // a whole element
    }
    return nullptr;
}

json getFluidParam(const FluidParams& fluid, const std::string& key) {
    return readParam(fluidParamSpecs(), fluid, key);
}

std::string setFluidParam(FluidParams& fluid, const std::string& key, const json& value) {
    return writeParam(fluidParamSpecs(), fluid, key, value);
}

json getTimeParam(const TimeParams& time, const std::string& key) { return readParam(timeParamSpecs(), time, key); }

std::string setTimeParam(TimeParams& time, const std::string& key, const json& value) {
    return writeParam(timeParamSpecs(), time, key, value);
}

}  // namespace vfx
