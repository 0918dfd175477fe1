// Tests of the demo's window-free parts: command line, camera, body meshes, picking and
// stirring, the preset list, the shader sources and the parameter table its panels are
// generated from. The full window is tested end to end by scripts/check_demo_screens.py
// (ctest demo_screenshots, under Xvfb).
#include <gtest/gtest.h>

#ifdef VFX_HAVE_DEMO_CORE

#include "app/demo/interaction.hpp"
#include "app/demo/options.hpp"
#include "bodies/shapes.hpp"
#include "render/camera.hpp"
#include "render/mesh_builder.hpp"
#include "scene/scene_library.hpp"
#include "scene/schema.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace vfx {
namespace {

std::string sourceDir() { return VFX_SOURCE_DIR; }

TEST(DemoOptions, ParsesAScriptedRun) {
    DemoOptions o = parseDemoOptions({"--scene", "scenes/x.json", "--frames", "60", "--screenshot", "out.png", "--quit",
                                      "--set", "tracers.0.count=1000", "--set=fluid.viscosity=0", "--threads", "2",
                                      "--width", "800", "--height", "600", "--paused", "--show", "vortons,-tracers"});
    EXPECT_EQ(o.scenePath, "scenes/x.json");
    EXPECT_EQ(o.frames, 60);
    EXPECT_EQ(o.screenshotPath, "out.png");
    EXPECT_TRUE(o.quit);
    EXPECT_TRUE(o.paused);
    EXPECT_EQ(o.threads, 2);
    EXPECT_EQ(o.width, 800);
    EXPECT_EQ(o.height, 600);
    EXPECT_EQ(o.overrides, (std::vector<std::string>{"tracers.0.count=1000", "fluid.viscosity=0"}));
    const DemoOptions bake = parseDemoOptions({"--vdb", "bake", "--vdb-every", "3", "--vdb-frames", "40"});
    EXPECT_EQ(bake.vdbDir, "bake");
    EXPECT_EQ(bake.vdbEvery, 3);
    EXPECT_EQ(bake.vdbFrames, 40);
    EXPECT_EQ(o.show, (std::vector<std::string>{"vortons", "-tracers"}));
}

// The message parseDemoOptions throws for args, or "no error".
std::string optionsErrorOf(const std::vector<std::string>& args) {
    try {
        parseDemoOptions(args);
    } catch (const OptionsError& e) {
        return e.what();
    }
    return "no error";
}

bool contains(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

TEST(DemoOptions, BadFlagsNameTheFlag) {
    EXPECT_PRED2(contains, optionsErrorOf({"--frames", "ten"}), "--frames");
    EXPECT_EQ(optionsErrorOf({"--frames"}), "--frames: expected a value after it");
    EXPECT_EQ(optionsErrorOf({"--paused", "--scene="}), "--scene: expected a value after it");
    EXPECT_PRED2(contains, optionsErrorOf({"--quit=maybe"}), "maybe");
    EXPECT_PRED2(contains, optionsErrorOf({"--vdb-frames", "3"}), "--vdb-frames requires --vdb");
    EXPECT_PRED2(contains, optionsErrorOf({"--vdb-every", "2"}), "--vdb-every requires --vdb");
    EXPECT_PRED2(contains, optionsErrorOf({"--quit"}), "--frames");
    // A path flag given an empty path is refused, not taken as "none".
    for (const char* flag : {"--scene", "--screenshot", "--record", "--vdb", "--shaders"})
        EXPECT_PRED2(contains, optionsErrorOf({flag, ""}), std::string(flag) + ": expected a path, got an empty one");
}

TEST(DemoOptions, EveryNumberFlagStatesItsRangeAndTheBadValue) {
    struct Range {
        const char* flag;
        int lo, hi;
    };
    for (const Range& r :
         {Range{"--frames", 1, 100000000}, Range{"--vdb-every", 1, 100000000}, Range{"--vdb-frames", 1, 100000000},
          Range{"--width", 64, 16384}, Range{"--height", 64, 16384}, Range{"--threads", 0, 1024}}) {
        const std::string range = "from " + std::to_string(r.lo) + " to " + std::to_string(r.hi);
        for (const std::string& bad : {std::to_string(r.lo - 1), std::to_string(r.hi + 1), std::string("ten"),
                                       std::string("1.5"), std::string("0x10"), std::string("")}) {
            SCOPED_TRACE(std::string(r.flag) + " " + bad);
            const std::string message = optionsErrorOf({"--vdb", "bake", r.flag, bad});
            EXPECT_PRED2(contains, message, std::string(r.flag) + ": expected a whole number " + range);
            EXPECT_PRED2(contains, message, "got \"" + bad + "\"");
        }
        SCOPED_TRACE(r.flag);
        EXPECT_EQ(optionsErrorOf({"--vdb", "bake", r.flag, std::to_string(r.lo)}), "no error");
        EXPECT_EQ(optionsErrorOf({"--vdb", "bake", r.flag, std::to_string(r.hi)}), "no error");
    }
}

TEST(DemoOptions, NumbersAreDecimal) {
    // A leading zero does not make a number octal.
    EXPECT_EQ(parseDemoOptions({"--frames", "010"}).frames, 10);
    EXPECT_EQ(parseDemoOptions({"--width=0800"}).width, 800);
}

TEST(DemoOptions, UnknownArgumentsAreNamed) {
    EXPECT_PRED2(contains, optionsErrorOf({"--bogus"}), "--bogus");
    EXPECT_PRED2(contains, optionsErrorOf({"--frames", "3", "stray.json"}), "stray.json");
    EXPECT_PRED2(contains, optionsErrorOf({"--vdb-every=2", "--vdb", "d", "-x"}), "-x");
}

TEST(DemoOptions, ShowTakesAListOfKnownItems) {
    const DemoOptions o = parseDemoOptions({"--show", "vortons,-tracers,,arrows", "--show=-ui", "--show", "-grid"});
    EXPECT_EQ(o.show, (std::vector<std::string>{"vortons", "-tracers", "arrows", "-ui", "-grid"}));
    for (const std::string& name : showItemNames()) {
        EXPECT_EQ(optionsErrorOf({"--show", name}), "no error");
        EXPECT_EQ(optionsErrorOf({"--show", "-" + name}), "no error");
    }
    const std::string message = optionsErrorOf({"--show", "vortons,sparkles"});
    EXPECT_PRED2(contains, message, "--show: unknown item \"sparkles\"");
    EXPECT_PRED2(contains, message, "grid-arrows");  // the names it knows
    EXPECT_PRED2(contains, optionsErrorOf({"--show", "-sparkles"}), "\"-sparkles\"");
}

TEST(DemoOptions, SetIsRepeatableAndKeepsItsOrder) {
    const DemoOptions o = parseDemoOptions({"--set", "a.b=1", "--set=c=x=y", "--frames", "2", "--set", "a.b=3"});
    EXPECT_EQ(o.overrides, (std::vector<std::string>{"a.b=1", "c=x=y", "a.b=3"}));
    EXPECT_TRUE(parseDemoOptions({}).overrides.empty());
}

TEST(DemoOptions, HelpAndVersionWinOverOtherFlags) {
    EXPECT_TRUE(parseDemoOptions({"--help"}).showHelp);
    EXPECT_TRUE(parseDemoOptions({"-h"}).showHelp);
    EXPECT_TRUE(parseDemoOptions({"--quit", "--help"}).showHelp);  // --quit alone would be an error
    EXPECT_TRUE(parseDemoOptions({"--version"}).showVersion);
    EXPECT_FALSE(parseDemoOptions({}).showHelp);
    const std::string usage = demoUsage();
    for (const char* flag : {"-h,--help", "--scene", "--set", "--frames", "--screenshot", "--record", "--vdb",
                             "--vdb-every", "--vdb-frames", "--quit", "--paused", "--hide-ui", "--no-vsync", "--width",
                             "--height", "--threads", "--shaders", "--show", "--version"})
        EXPECT_PRED2(contains, usage, flag);
}

TEST(DemoOptions, SwitchesAndDefaults) {
    const DemoOptions defaults = parseDemoOptions({});
    EXPECT_TRUE(defaults.vsync);
    EXPECT_FALSE(defaults.hideUi);
    EXPECT_EQ(defaults.width, 1280);
    EXPECT_EQ(defaults.height, 800);
    EXPECT_EQ(defaults.vdbEvery, 1);
    EXPECT_EQ(defaults.frames, 0);
    const DemoOptions o = parseDemoOptions({"--no-vsync", "--hide-ui", "--screenshot", "s.png", "--quit"});
    EXPECT_FALSE(o.vsync);
    EXPECT_TRUE(o.hideUi);
    EXPECT_TRUE(o.quit);  // a screenshot alone is reason enough to quit after the first frame
    EXPECT_EQ(parseDemoOptions({"--width", "640", "--width", "800"}).width, 800);  // the last one counts
}

TEST(OrbitCamera, CentreRayLooksAtTheTarget) {
    OrbitCamera cam;
    cam.setHome({glm::vec3(1, 2, 3), 5.0f, 30.0f, 20.0f});
    cam.setViewport(1000, 500);
    Ray ray = cam.rayThroughPixel(500.0f, 250.0f);
    EXPECT_NEAR(glm::length(cam.eye() - glm::vec3(1, 2, 3)), 5.0f, 1e-4f);
    EXPECT_NEAR(glm::dot(ray.direction, cam.forward()), 1.0f, 1e-4f);
}

TEST(OrbitCamera, LensShiftMovesTheTargetRight) {
    OrbitCamera cam;
    cam.setHome({glm::vec3(0), 4.0f, 0.0f, 0.0f});
    cam.setViewport(1000, 500, 100.0f);
    glm::vec4 clip = cam.projection() * cam.view() * glm::vec4(0, 0, 0, 1);
    float px = (clip.x / clip.w * 0.5f + 0.5f) * 1000.0f;
    EXPECT_NEAR(px, 600.0f, 0.5f);
    Ray ray = cam.rayThroughPixel(600.0f, 250.0f);
    EXPECT_NEAR(glm::dot(ray.direction, cam.forward()), 1.0f, 1e-4f);
}

TEST(OrbitCamera, FramingFitsTheBoxAndPitchStaysOffThePoles) {
    OrbitCamera cam;
    cam.setViewport(1280, 800);
    glm::vec3 lo(-1, 0, -2), hi(3, 1, 2);
    cam.frameBox(lo, hi);
    glm::mat4 vp = cam.projection() * cam.view();
    for (int c = 0; c < 8; ++c) {
        glm::vec3 p((c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z);
        glm::vec4 clip = vp * glm::vec4(p, 1);
        EXPECT_LE(std::abs(clip.x / clip.w), 1.0f);
        EXPECT_LE(std::abs(clip.y / clip.w), 1.0f);
    }
    cam.orbit(0.0f, 1e6f);
    EXPECT_LT(cam.pose().pitchDegrees, 90.0f);
    float before = cam.pose().distance;
    cam.zoom(1.0f);
    EXPECT_LT(cam.pose().distance, before);
}

TEST(MeshBuilder, BoxHasTwelveOutwardTriangles) {
    CollisionShape box = makeBoxShape(glm::vec3(1.0f, 2.0f, 0.5f), false);
    TriangleMesh mesh = makeShapeMesh(box);
    ASSERT_EQ(mesh.vertices.size(), 36u);
    EXPECT_EQ(mesh.edgeLines.size(), 48u);  // 6 faces x 4 edges, 2 points each
    for (size_t t = 0; t < mesh.vertices.size(); t += 3) {
        glm::vec3 a = mesh.vertices[t].position, b = mesh.vertices[t + 1].position, c = mesh.vertices[t + 2].position;
        glm::vec3 n = mesh.vertices[t].normal;
        EXPECT_GT(glm::dot(n, (a + b + c) / 3.0f), 0.0f);        // normal points out
        EXPECT_GT(glm::dot(glm::cross(b - a, c - a), n), 0.0f);  // counter-clockwise from outside
    }
}

TEST(MeshBuilder, SphereIsClosedAndScaled) {
    CollisionShape sphere = makeSphereShape(0.3f, true);
    TriangleMesh mesh = makeShapeMesh(sphere);
    ASSERT_FALSE(mesh.vertices.empty());
    for (const MeshVertex& v : mesh.vertices) EXPECT_NEAR(glm::length(v.position), 0.3f, 1e-5f);
    for (size_t t = 0; t < mesh.vertices.size(); t += 3) {
        glm::vec3 a = mesh.vertices[t].position, b = mesh.vertices[t + 1].position, c = mesh.vertices[t + 2].position;
        EXPECT_GT(glm::dot(glm::cross(b - a, c - a), a + b + c), 0.0f);
    }
}

RigidBody bodyWith(CollisionShape shape, glm::vec3 position) {
    RigidBody b;
    b.shape = std::move(shape);
    b.position = b.restPosition = position;
    return b;
}

TEST(Interaction, PicksTheNearestSolidAndSkipsContainers) {
    std::vector<RigidBody> bodies;
    bodies.push_back(bodyWith(makeBoxShape(glm::vec3(3.0f), true), glm::vec3(0)));          // tank around everything
    bodies.push_back(bodyWith(makeSphereShape(0.5f, false), glm::vec3(0, 0, -1)));          // far ball
    bodies.push_back(bodyWith(makeBoxShape(glm::vec3(0.25f), false), glm::vec3(0, 0, 1)));  // near box
    Ray ray{glm::vec3(0, 0, 5), glm::vec3(0, 0, -1)};
    BodyHit hit = pickBody(ray, bodies, false);
    EXPECT_EQ(hit.body, 2);
    EXPECT_NEAR(hit.distance, 3.75f, 1e-4f);
    EXPECT_EQ(pickBody(ray, bodies, true).body, 0);
    EXPECT_EQ(pickBody(Ray{glm::vec3(2, 2, 5), glm::vec3(0, 0, -1)}, bodies, false).body, -1);
}

TEST(Interaction, DraggingMovesTheBodyTowardsTheMouse) {
    RigidBody ball = bodyWith(makeSphereShape(0.5f, false), glm::vec3(0));
    Ray ray{glm::vec3(0, 0, 5), glm::vec3(0, 0, -1)};
    BodyHit hit{0, 4.5f};
    BodyDrag drag = beginBodyDrag(hit, ray, glm::vec3(0, 0, -1), ball);
    EXPECT_NEAR(drag.depth, 4.5f, 1e-5f);
    Ray moved{glm::vec3(0, 0, 5), glm::normalize(glm::vec3(0.1f, 0, -1))};
    glm::vec3 target = dragPlanePoint(drag, moved, glm::vec3(0, 0, -1));
    EXPECT_NEAR(target.z, 0.5f, 1e-4f);
    glm::vec3 v = dragVelocity(ball, target, drag, 0.1f, 100.0f);
    EXPECT_GT(v.x, 0.0f);
    EXPECT_NEAR(glm::length(dragVelocity(ball, target + glm::vec3(100, 0, 0), drag, 0.1f, 2.0f)), 2.0f, 1e-4f);
}

TEST(Interaction, StirringPushesAlongTheStrokeWithoutNetCirculation) {
    Vortons v;
    for (int x = -10; x <= 10; ++x)
        for (int y = -10; y <= 10; ++y)
            for (int z = -3; z <= 3; ++z) v.add(glm::vec3(x, y, z) * 0.05f, glm::vec3(0), 0.05f, 0.0f);
    v.add(glm::vec3(50, 0, 0), glm::vec3(0), 0.05f, 0.0f);  // far away: untouched
    StirStroke stroke;
    stroke.ray = {glm::vec3(0, 0, 5), glm::vec3(0, 0, -1)};
    stroke.velocity = glm::vec3(1, 0, 0);
    stroke.radius = 0.15f;
    size_t touched = stirVortons(v, stroke);
    EXPECT_GT(touched, 100u);
    glm::dvec3 total(0.0);
    double magnitude = 0.0;
    for (const glm::vec3& w : v.vorticity) {
        total += glm::dvec3(w);
        magnitude += glm::length(w);
    }
    EXPECT_GT(magnitude, 0.0);
    EXPECT_LT(glm::length(total), 1e-4 * magnitude);
    EXPECT_EQ(v.vorticity.back(), glm::vec3(0));
    // A jet along +x centred on the ray: u_x falls off upwards, so above it omega_z = -du_x/dy > 0.
    size_t above = v.size() - 1;
    for (size_t i = 0; i < v.size(); ++i)
        if (glm::length(v.position[i] - glm::vec3(0, 0.1f, 0)) < 1e-4f) above = i;
    ASSERT_LT(above, v.size() - 1);
    EXPECT_GT(v.vorticity[above].z, 0.0f);
}

TEST(SceneLibrary, EveryPresetLoadsWithADescription) {
    std::vector<PresetInfo> presets = listPresets(sourceDir() + "/scenes");
    ASSERT_FALSE(presets.empty());
    bool hasDefault = false;
    for (const PresetInfo& p : presets) {
        EXPECT_TRUE(p.error.empty()) << p.path << ": " << p.error;
        EXPECT_FALSE(p.description.empty()) << p.path << " has no description for the preset list";
        hasDefault = hasDefault || p.fileName == "dye_drop.json";
    }
    EXPECT_TRUE(hasDefault) << "scenes/dye_drop.json is the demo's default scene";
}

TEST(SceneLibrary, FindsResourcesFromAnotherWorkingDirectory) {
    std::vector<std::string> roots = resourceRoots("");
    EXPECT_FALSE(findResourceDir(roots, "shaders").empty());
    EXPECT_FALSE(findResourceDir(roots, "scenes").empty());
    std::string resolved = resolveScenePath({"/nonexistent-cwd", sourceDir()}, "scenes/dye_drop.json");
    EXPECT_TRUE(std::filesystem::exists(resolved)) << resolved;
}

TEST(Shaders, EveryProgramIsGlsl330CoreWithItsIncludes) {
    namespace fs = std::filesystem;
    fs::path dir = fs::path(sourceDir()) / "shaders";
    std::set<std::string> programs;
    for (const auto& entry : fs::directory_iterator(dir)) {
        std::string ext = entry.path().extension().string();
        if (ext != ".vert" && ext != ".frag") continue;
        programs.insert(entry.path().stem().string());
        std::ifstream in(entry.path());
        std::string first;
        std::getline(in, first);
        EXPECT_EQ(first, "#version 330 core") << entry.path();
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("#include", 0) != 0) continue;
            std::string file = line.substr(line.find('"') + 1);
            file = file.substr(0, file.find('"'));
            EXPECT_TRUE(fs::exists(dir / file)) << entry.path() << " includes missing " << file;
        }
    }
    for (const char* name : {"background", "vorton", "tracer", "line", "body"}) {
        EXPECT_TRUE(fs::exists(dir / (std::string(name) + ".vert"))) << name;
        EXPECT_TRUE(fs::exists(dir / (std::string(name) + ".frag"))) << name;
    }
}

TEST(FluidPanel, EveryFluidParameterHasAWidgetAndATooltip) {
    FluidParams fluid;
    auto specs = paramSpecsInSection("fluid");
    ASSERT_FALSE(specs.empty());
    std::set<std::string> keys;
    for (const ParamSpec* s : specs) keys.insert(s->key);
    for (const char* needed : {"ambient_density", "gravity", "viscosity", "method", "density_gradient", "poisoning",
                               "stretching", "diffusion", "baroclinic"})
        EXPECT_TRUE(keys.count(needed)) << "the Fluid panel needs fluid." << needed;
    for (const ParamSpec* s : specs) {
        EXPECT_FALSE(s->description.empty()) << s->key << " has no tooltip";
        nlohmann::json value = getFluidParam(fluid, s->key);
        switch (s->type) {
            case ParamType::Float:
                EXPECT_TRUE(value.is_number()) << s->key;
                break;
            case ParamType::Int:
                EXPECT_TRUE(value.is_number_integer()) << s->key;
                break;
            case ParamType::Bool:
                EXPECT_TRUE(value.is_boolean()) << s->key;
                break;
            case ParamType::Vec3:
                EXPECT_TRUE(value.is_array() && value.size() == 3) << s->key;
                break;
            case ParamType::Enum:
                EXPECT_FALSE(s->choices.empty()) << s->key;
                EXPECT_TRUE(value.is_string()) << s->key;
                break;
            default:
                ADD_FAILURE() << "fluid." << s->key << " has a type the panel cannot edit";
        }
        // Writing back what was read is accepted (the panel does this on every edit).
        EXPECT_EQ(setFluidParam(fluid, s->key, value), "") << s->key;
    }
}

}  // namespace
}  // namespace vfx

#else

TEST(Demo, NotBuilt) { GTEST_SKIP() << "configured with VFX_BUILD_DEMO=OFF"; }

#endif
