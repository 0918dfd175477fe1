#pragma once
// Scene description: JSON loading, validation, --set overrides and building a Simulation
// from it. The stages: scene_json.cpp (file to JSON), scene_override.cpp (--set),
// scene_validate.cpp (keys and rules), scene_parse.cpp (JSON to Scene: loadScene, parseScene),
// scene_build.cpp (Scene to Simulation), scene_save.cpp (Scene back to JSON).
#include "bodies/body.hpp"
#include "core/text_format.hpp"
#include "sim/params.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {

class Simulation;

// Bad input. what() is the whole user-facing message: "file: /json/path: what is wrong", on one
// line (control characters in keys or values are written as escapes).
class SceneError : public std::runtime_error {
public:
    explicit SceneError(const std::string& message) : std::runtime_error(oneLine(message)) {}
};

enum class RegionShape { Sphere, Box, Ring };
enum class RegionLayout { Random, Lattice };
template <>
struct EnumNames<RegionShape> {
    static const std::vector<std::string>& names();
};  // sphere, box, ring
template <>
struct EnumNames<RegionLayout> {
    static const std::vector<std::string>& names();
};  // random, lattice

// The structs below hold what a scene file says; each member's default is its parameter's
// default, and its key, range and description are declared in scene/schema.cpp.

struct RegionDesc {
    RegionShape shape = RegionShape::Sphere;
    vec3 centre{0.0f};
    float radius = 0.5f;  // sphere radius, ring major radius
    vec3 boxMin{-0.5f}, boxMax{0.5f};
    vec3 axis{0.0f, 1.0f, 0.0f};  // ring axis
    float coreRadius = 0.1f;      // ring core radius
    float circulation = 1.0f;     // ring circulation, m^2/s
    int count = 0;
    RegionLayout layout = RegionLayout::Random;
    unsigned seed = 1;
    float density = 0.0f;        // density deviation at the region centre
    vec3 densityGradient{0.0f};  // d(deviation)/dx, linear
    vec3 vorticity{0.0f};        // uniform initial vorticity (vortons)
    float vortonRadius = 0.0f;   // 0 = automatic from spacing
};

struct BodyDesc {
    std::string name;
    std::string shape = "sphere";  // sphere | box | polytope
    float radius = 0.5f;
    vec3 halfExtents{0.5f};
    std::vector<Plane> planes;
    std::vector<vec3> vertices;
    vec3 position{0.0f};
    vec3 orientationEuler{0.0f};  // degrees about x, y, z
    vec3 velocity{0.0f};
    float density = 1.0f;
    bool hole = false;
    MotionKind motion = MotionKind::Dynamic;
    KinematicMotion kinematic;
};

struct CameraDesc {
    vec3 target{0.0f};
    float distance = 5.0f;
    float yaw = 30.0f;    // degrees
    float pitch = 20.0f;  // degrees
};

struct Scene {
    std::string path;  // file it came from ("" if built in memory)
    std::string name;
    std::string description;
    FluidParams fluid;
    TimeParams time;
    std::vector<RegionDesc> vortons;
    std::vector<RegionDesc> tracers;
    std::vector<BodyDesc> bodies;
    CameraDesc camera;
    nlohmann::json document;  // the validated JSON (after overrides)
};

// The most memory a scene may need (scene_budget.cpp estimates it from the description).
struct MemoryBudget {
    double bytes = 0.0;  // 0 = no limit
    std::string source;  // what set it, for messages: "half of this machine's memory"
};
// Half the machine's physical memory, or half the address-space limit (ulimit -v) when lower;
// `hint` is appended to the source (e.g. "; --max-memory sets another").
MemoryBudget defaultMemoryBudget(const std::string& hint = "");

// Reads, applies "dotted.path=value" overrides, validates (the memory the scene needs included).
// Throws SceneError.
Scene loadScene(const std::string& path, const std::vector<std::string>& overrides = {},
                const MemoryBudget& budget = defaultMemoryBudget());
// Validates an in-memory document; sourceName prefixes error messages.
Scene parseScene(const nlohmann::json& document, const std::string& sourceName,
                 const MemoryBudget& budget = defaultMemoryBudget());
// Applies one "dotted.path=value" override to a document. Throws SceneError naming the flag.
void applyOverride(nlohmann::json& document, const std::string& assignment);
// Replaces the simulation's particles and bodies with the scene's and sets its parameters, then
// remeshes a scene above its level and prepares the first frame (Simulation::fitVortonsToLevel,
// prepareFirstFrame), so no frame pays for either.
void buildSimulation(const Scene& scene, Simulation& sim);
// Scene document with the simulation's current fluid parameters written back (for "save as").
nlohmann::json sceneDocumentWithParams(const Scene& scene, const FluidParams& fluid, const TimeParams& time);

}  // namespace vfx
