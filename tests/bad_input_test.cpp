// Bounds on what a scene may ask for: nesting, numbers beyond double or single precision, the
// memory a scene needs, body names that would share a stats column; polytopes of many planes or
// vertices built in O(n^2) with the corners the plane triples give; files written whole or not at
// all. tests/bad_input_check.py runs the same through vortonfx-sim.
#include "bodies/polytope.hpp"
#include "bodies/shapes.hpp"
#include "core/atomic_file.hpp"
#include "core/param_spec.hpp"
#include "core/text_format.hpp"
#include "scene/scene.hpp"
#include "scene/scene_budget.hpp"
#include "scene/scene_json.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vfx {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string messageOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "no error";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// --- reading ---------------------------------------------------------------------------------------

TEST(SceneBounds, NestingDeeperThanTheBoundIsRefusedWithItsPosition) {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    const std::string message = messageOf([&] { parseSceneJson(deep, "deep.json"); });
    EXPECT_TRUE(contains(message, "deep.json: line 1, column 65: arrays and objects nest deeper than 64")) << message;
    json document = json::object();
    const std::string viaSet = messageOf([&] { applyOverride(document, "fluid.gravity=" + deep); });
    EXPECT_TRUE(contains(viaSet, "--set fluid.gravity=[[[")) << viaSet;
    EXPECT_TRUE(contains(viaSet, "nest deeper than 64")) << viaSet;
    // Brackets inside strings do not count.
    EXPECT_NO_THROW(parseSceneJson("{\"name\": \"" + std::string(1000, '[') + "\"}", "strings.json"));
}

TEST(SceneBounds, AValueNestedArbitrarilyDeepIsDescribedInBoundedSpace) {
    // Built in memory (an embedding program's document), past any parser bound: the message
    // that describes it must not recurse through it.
    json deep = json::array();
    for (int i = 0; i < 200000; ++i) deep = json::array({std::move(deep)});
    EXPECT_LE(describeJsonValue(deep).size(), 80u);
    json document = {{"fluid", {{"gravity", std::move(deep)}}}};
    const std::string message = messageOf([&] { parseScene(document, "memory"); });
    EXPECT_TRUE(contains(message, "memory: /fluid/gravity: must be 3 finite numbers")) << message;
}

TEST(SceneBounds, TextThatIsNotUtf8IsRefusedByByte) {
    EXPECT_EQ(firstInvalidUtf8("plain"), 5u);
    EXPECT_EQ(firstInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8C\x8A"), 14u);  // é, €, a wave: all fine
    EXPECT_EQ(firstInvalidUtf8("ab\xBE"), 2u);                                      // a continuation byte alone
    EXPECT_EQ(firstInvalidUtf8("\xC0\xAF"), 0u);                                    // overlong '/'
    EXPECT_EQ(firstInvalidUtf8("x\xED\xA0\x80"), 1u);                               // a UTF-16 surrogate
    EXPECT_EQ(firstInvalidUtf8("\xF4\x90\x80\x80"), 0u);                            // past U+10FFFF
    EXPECT_EQ(firstInvalidUtf8("\xE2\x82"), 0u);                                    // cut short
    // An override whose value or path is not UTF-8 is refused by byte before it reaches the
    // document, whose serializer would throw on it; the message shows the bytes as \xNN.
    json document = parseSceneJson("{}", "empty.json");
    const std::string value = messageOf([&] { applyOverride(document, "fluid=aA\xBE\xBE"); });
    EXPECT_TRUE(contains(value, "--set fluid=aA\\xBE\\xBE: byte 9 is not UTF-8")) << value;
    const std::string path = messageOf([&] { applyOverride(document, "flu\xBEid.viscosity=1"); });
    EXPECT_TRUE(contains(path, "byte 4 is not UTF-8")) << path;
    EXPECT_EQ(document, json::object());
    // A document built in memory with such a string is still described, not thrown on.
    EXPECT_TRUE(contains(describeJsonValue(json(std::string("a\xBE"))), "a")) << "described";
}

TEST(SceneBounds, NumbersBeyondDoublePrecisionNameLineColumnAndKey) {
    const std::string over = messageOf([] { parseSceneJson("{\"fluid\": {\"viscosity\": 1e309}}", "s.json"); });
    EXPECT_TRUE(contains(over, "s.json: line 1, column 30: /fluid/viscosity: must be >= 0 and <= 10, got 1e309"))
        << over;
    const std::string inVector =
        messageOf([] { parseSceneJson(R"({"vortons": [{"count": 8}, {"center": [0, -1e400, 0]}]})", "s.json"); });
    EXPECT_TRUE(contains(inVector, "/vortons/1/center/1: each component must be >= -10000 and <= 10000, got -1e400"))
        << inVector;
    const std::string under = messageOf([] { parseSceneJson(R"({"time": {"dt": 1e-400}})", "s.json"); });
    EXPECT_TRUE(contains(under, "s.json: /time/dt: must be > 0 and <= 1, got 1e-400, too small for double")) << under;
    EXPECT_NO_THROW(parseSceneJson(R"({"fluid": {"viscosity": 0.0e-400}})", "zero.json"));  // zero written oddly
}

TEST(SceneBounds, FloatOverflowAndUnderflowAreRangeErrors) {
    const json dt = {{"time", {{"dt", 1e-50}}}};
    EXPECT_TRUE(contains(messageOf([&] { parseScene(dt, "s"); }),
                         "s: /time/dt: must be > 0 and <= 1, got 1e-50, too small for single precision"));
    const json circulation = {{"vortons", {{{"shape", "ring"}, {"count", 8}, {"circulation", 1e-45}}}}};
    EXPECT_TRUE(contains(messageOf([&] { parseScene(circulation, "s"); }), "/vortons/0/circulation: must be"));
    const json centre = {{"vortons", {{{"count", 8}, {"center", {1e31, 0, 0}}}}}};
    EXPECT_TRUE(contains(messageOf([&] { parseScene(centre, "s"); }),
                         "/vortons/0/center: each component must be >= -10000 and <= 10000, got [1e+31, 0, 0]"));
}

TEST(SceneBounds, BodyNamesThatMakeTheSameStatsColumnAreRefused) {
    const json same = {{"bodies", {{{"name", "a b"}, {"radius", 0.1}}, {{"name", "a_b"}, {"position", {3, 0, 0}}}}}};
    const std::string message = messageOf([&] { parseScene(same, "s"); });
    EXPECT_TRUE(contains(message, "s: /bodies/1/name: must give a stats column of its own")) << message;
    EXPECT_TRUE(contains(message, "body_a_b_x")) << message;
    const json distinct = {
        {"bodies", {{{"name", "a b"}, {"radius", 0.1}}, {{"name", "a c"}, {"position", {3, 0, 0}}}}}};
    EXPECT_NO_THROW(parseScene(distinct, "s"));
}

// --- memory ------------------------------------------------------------------------------------------

TEST(SceneBounds, MemoryEstimateCountsParticlesAndTheGridOverAllRegions) {
    const Scene small = parseScene(json{{"vortons", {{{"count", 1000}}}}}, "s");
    const MemoryEstimate e = estimateSceneMemory(small);
    EXPECT_EQ(e.vortons, 1000.0);
    EXPECT_EQ(e.peakVortons, 2500.0);  // up to vorton_budget 2.5 times as many after remeshing
    EXPECT_LT(e.bytes, 50e6);
    // Two small regions far apart: the grid spans the gap, so it costs more than the particles.
    const json apart = {{"vortons",
                         {{{"count", 32}, {"radius", 0.01}, {"center", {-9000, 0, 0}}},
                          {{"count", 32}, {"radius", 0.01}, {"center", {9000, 0, 0}}}}}};
    const MemoryEstimate g = estimateSceneMemory(parseScene(apart, "s", MemoryBudget{}));
    EXPECT_GT(g.gridPoints, 1e5);
    // 64 regions of the most particles a region may have: refused by the estimate, with the figures.
    json many = json::array();
    for (int i = 0; i < 64; ++i) many.push_back({{"count", 16777216}, {"center", {3.0 * i, 0, 0}}, {"radius", 1}});
    const std::string message = messageOf([&] {
        parseScene(json{{"vortons", many}}, "s", MemoryBudget{1e9, "set by the test"});
    });
    EXPECT_TRUE(contains(message, "s: /vortons/0/count: this scene needs about")) << message;
    EXPECT_TRUE(contains(message, "the limit is 1 GB, set by the test")) << message;
}

TEST(SceneBounds, EveryPresetFitsTheDefaultBudget) {
    for (const auto& entry : fs::directory_iterator(std::string(VFX_SOURCE_DIR) + "/scenes"))
        if (entry.path().extension() == ".json") {
            const Scene scene = loadScene(entry.path().string());
            EXPECT_LT(estimateSceneMemory(scene).bytes, 200e6) << entry.path();
        }
}

// --- polytopes -----------------------------------------------------------------------------------------

std::vector<vec3> spherePoints(int n) {
    std::vector<vec3> points;
    for (int i = 0; i < n; ++i) {
        const float y = 1.0f - 2.0f * (float(i) + 0.5f) / float(n);
        const float r = std::sqrt(std::max(0.0f, 1.0f - y * y));
        const float t = float(i) * 2.3999632f;
        points.emplace_back(r * std::cos(t), y, r * std::sin(t));
    }
    return points;
}

TEST(PolytopeBuild, APrismOfManyFacesHasItsVolumeQuickly) {
    // A prism of 510 side faces at distance 1 (height 1, capped): its cross-section is the
    // circumscribed 510-gon, area 510 tan(pi / 510).
    const int sides = 510;
    std::vector<Plane> planes;
    for (int i = 0; i < sides; ++i) {
        const float a = 2.0f * float(M_PI) * float(i) / float(sides);
        planes.push_back({vec3(std::cos(a), 0.0f, std::sin(a)), 1.0f});
    }
    planes.push_back({vec3(0, 1, 0), 0.5f});
    planes.push_back({vec3(0, -1, 0), 0.5f});
    const auto start = std::chrono::steady_clock::now();
    const CollisionShape prism = makePolytopeFromPlanes(planes, false);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_NEAR(prism.volume(), sides * std::tan(M_PI / sides), 1e-4);
    EXPECT_EQ(prism.vertices.size(), size_t(2 * sides));
    EXPECT_LT(seconds, 1.0);
    std::vector<Plane> tooMany(kMaxPolytopePlanes + 1, Plane{vec3(1, 0, 0), 1.0f});
    EXPECT_TRUE(contains(messageOf([&] { makePolytopeFromPlanes(tooMany, false); }), "at most 512 planes"));
}

// Distance from p to the nearest of the points.
float nearest(const std::vector<vec3>& points, const vec3& p) {
    float best = 1e30f;
    for (const vec3& q : points) best = std::min(best, glm::length(p - q));
    return best;
}

TEST(PolytopeBuild, TheHullOfPointsOnASphereHasThemAsCorners) {
    // The hull of 256 points on the unit sphere: every point is a corner and every corner is one
    // of the points, up to the rounding of the face planes to float. The faces around a corner
    // have normals about 0.05 rad apart, so normals rounded by 2^-24 = 6e-8 meet within about
    // 6e-8 / 0.05^2 = 2.4e-5 of it (and a corner may split into a few that close together);
    // 1e-4 bounds that. The volume is just under the ball's, and the solid rebuilt from its own
    // planes has the same volume.
    const std::vector<vec3> points = spherePoints(256);
    const auto start = std::chrono::steady_clock::now();
    const CollisionShape hull = makePolytopeFromVertices(points, false);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const vec3& p : points) EXPECT_LT(nearest(hull.vertices, p), 1e-4f);
    for (const vec3& c : hull.vertices) EXPECT_LT(nearest(points, c), 1e-4f);
    EXPECT_GT(hull.volume(), 0.95f * sphereVolume(1.0f));
    EXPECT_LT(hull.volume(), sphereVolume(1.0f));
    const CollisionShape again = makePolytopeFromPlanes(hull.planes, false);
    EXPECT_NEAR(again.volume(), hull.volume(), 1e-5f);
    EXPECT_LT(seconds, 1.0);
}

TEST(PolytopeBuild, PointsAlongTheHullsEdgesAddNoFaces) {
    // A box's corners plus three points along each of its 12 edges and one inside each face:
    // points on the hull that are not corners.
    std::vector<vec3> points;
    for (int i = 0; i < 8; ++i) points.emplace_back(i & 1 ? 1 : -1, i & 2 ? 2 : -2, i & 4 ? 3 : -3);
    for (int i = 0; i < 8; ++i)
        for (int axis = 0; axis < 3; ++axis) {
            if (points[size_t(i)][axis] > 0) continue;  // each edge once, from its lower end
            for (float t : {0.25f, 0.5f, 0.75f}) {
                vec3 p = points[size_t(i)];
                p[axis] += 2.0f * t * std::abs(p[axis]);
                points.push_back(p);
            }
        }
    for (int axis = 0; axis < 3; ++axis)
        for (float sign : {-1.0f, 1.0f}) {
            vec3 p(0.1f, 0.2f, 0.3f);
            p[axis] = sign * std::abs(points[0][axis]);
            points.push_back(p);
        }
    const CollisionShape box = makePolytopeFromVertices(points, false);
    EXPECT_EQ(box.planes.size(), 6u);
    EXPECT_EQ(box.vertices.size(), 8u);
    EXPECT_NEAR(box.volume(), 2.0f * 4.0f * 6.0f, 1e-4f);
}

TEST(PolytopeBuild, ABoxsCornersComeInTheOrderOfTheirPlaneTriples) {
    // Faces +x, -x, +y, -y, +z, -z: the first triple (+x, +y, +z) gives the first corner, and so on.
    const CollisionShape box = makeBoxShape(vec3(1.0f, 2.0f, 3.0f), false);
    const std::vector<vec3> expected{{1, 2, 3},  {1, 2, -3},  {1, -2, 3},  {1, -2, -3},
                                     {-1, 2, 3}, {-1, 2, -3}, {-1, -2, 3}, {-1, -2, -3}};
    EXPECT_EQ(box.vertices, expected);
}

// --- files ---------------------------------------------------------------------------------------------

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> hiddenFiles(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().filename().string()[0] == '.') names.push_back(entry.path().filename().string());
    return names;
}

TEST(AtomicFileWrite, TheTargetChangesOnlyOnCommit) {
    static std::atomic<int> counter{0};
    const fs::path dir =
        fs::path(::testing::TempDir()) / ("vfx_atomic_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir);
    const std::string target = (dir / "out.csv").string();
    std::ofstream(target) << "earlier\n";
    {
        AtomicFile file(target);
        file.stream() << "abandoned\n";
        EXPECT_EQ(readFile(target), "earlier\n");
    }  // never committed: the temporary goes, the target stays
    EXPECT_EQ(readFile(target), "earlier\n");
    EXPECT_TRUE(hiddenFiles(dir).empty());
    {
        AtomicFile file(target);
        file.stream() << "new\n";
        file.commit();
    }
    EXPECT_EQ(readFile(target), "new\n");
    EXPECT_TRUE(hiddenFiles(dir).empty());
    EXPECT_THROW(AtomicFile((dir / "missing" / "x.csv").string()), FileWriteError);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace vfx
