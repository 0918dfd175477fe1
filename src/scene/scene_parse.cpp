// Scene loading: read the JSON, apply --set overrides, check every key against the schema,
// read the sections into a Scene (building each body as buildSimulation will, so shape errors
// surface here), then check the rules across the scene and the memory it needs. Every error is one SceneError
// "FILE: /json/pointer: what is wrong, got X".
#include "scene/scene.hpp"
#include "scene/scene_budget.hpp"
#include "scene/scene_document.hpp"
#include "scene/scene_geometry.hpp"
#include "scene/scene_json.hpp"
#include "scene/scene_override.hpp"
#include "scene/scene_validate.hpp"
#include "scene/schema.hpp"
#include "sim/quality.hpp"

#include <map>

namespace vfx {
namespace {

using json = nlohmann::json;

void readParams(const json& document, Scene& scene, const SceneReporter& r) {
    const json fluidSection = document.value("fluid", json::object());
    const SceneFields fluid(fluidSection, "fluid", "/fluid");
    for (auto it = fluid.object().begin(); it != fluid.object().end(); ++it) {
        const std::string problem = setFluidParam(scene.fluid, it.key(), it.value());
        if (!problem.empty()) r.fail(fluid.pointer(it.key()), problem);
    }
    // A quality level sets its parameters first; the ones the file gives beside it win.
    if (scene.fluid.quality != Quality::Custom) {
        applyQuality(scene.fluid.quality, scene.fluid);
        for (auto it = fluid.object().begin(); it != fluid.object().end(); ++it)
            if (it.key() != "quality") setFluidParam(scene.fluid, it.key(), it.value());
    }
    const json timeSection = document.value("time", json::object());
    const SceneFields time(timeSection, "time", "/time");
    for (auto it = time.object().begin(); it != time.object().end(); ++it) {
        const std::string problem = setTimeParam(scene.time, it.key(), it.value());
        if (!problem.empty()) r.fail(time.pointer(it.key()), problem);
    }
}

RegionDesc readRegion(const SceneFields& f, const SceneReporter& r) {
    RegionDesc region;
    rejectKeysOfOtherShapes(f, f.text("shape"), r);
    readBoundMembers(f, region);
    checkRegionRules(region, f, r);
    return region;
}

std::vector<RegionDesc> readRegions(const json& document, const std::string& key, const SceneReporter& r) {
    std::vector<RegionDesc> regions;
    const json& array = document.contains(key) ? document.at(key) : json::array();
    for (size_t i = 0; i < array.size(); ++i)
        regions.push_back(readRegion(SceneFields(array[i], key + "[]", childPointer("/" + key, i)), r));
    return regions;
}

BodyDesc readBody(const SceneFields& f, const SceneReporter& r) {
    BodyDesc desc;
    rejectKeysOfOtherShapes(f, f.text("shape"), r);
    readBoundMembers(f, desc);
    if (f.has("oscillate"))
        readBoundMembers(SceneFields(f.value("oscillate"), "bodies[].oscillate", f.pointer("oscillate")),
                         desc.kinematic);
    checkBodyRules(desc, f, r);
    return desc;
}

// Builds the body exactly as buildSimulation will, so shape errors surface while loading.
RigidBody buildBody(const BodyDesc& desc, const SceneReporter& r, const std::string& pointer) {
    try {
        return rigidBodyFromDesc(desc);
    } catch (const BodyBuildError& e) {
        r.fail(e.key.empty() ? pointer : childPointer(pointer, e.key), e.what());
    }
}

// Reads the bodies into the scene and returns them as built, for the rules across the scene.
std::vector<RigidBody> readBodies(const json& document, Scene& scene, const SceneReporter& r) {
    std::vector<RigidBody> bodies;
    std::map<std::string, BodyName> names;
    const json& bodyArray = document.contains("bodies") ? document.at("bodies") : json::array();
    for (size_t i = 0; i < bodyArray.size(); ++i) {
        const std::string pointer = childPointer("/bodies", i);
        const SceneFields f(bodyArray[i], "bodies[]", pointer);
        BodyDesc desc = readBody(f, r);
        checkUniqueBodyName(desc, names, f, r);
        bodies.push_back(buildBody(desc, r, pointer));
        scene.bodies.push_back(std::move(desc));
    }
    return bodies;
}

CameraDesc readCamera(const json& document) {
    const json view = document.value("view", json::object());
    const json cameraSection = view.value("camera", json::object());
    const SceneFields f(cameraSection, "view.camera", "/view/camera");
    CameraDesc camera;
    readBoundMembers(f, camera);
    return camera;
}

Scene parseWithOverrides(const json& document, const std::string& source, std::vector<OverrideRecord> overrides,
                         const MemoryBudget& budget) {
    const SceneReporter r(source, std::move(overrides));
    checkDocumentKeys(document, r);

    Scene scene;
    scene.path = source;
    readBoundMembers(SceneFields(document, "", ""), scene);
    readParams(document, scene, r);
    scene.vortons = readRegions(document, "vortons", r);
    scene.tracers = readRegions(document, "tracers", r);
    const std::vector<RigidBody> bodies = readBodies(document, scene, r);
    scene.camera = readCamera(document);

    checkSceneRules(scene, bodies, r);
    checkSceneMemory(scene, budget, r);
    scene.document = document;
    return scene;
}

}  // namespace

Scene loadScene(const std::string& path, const std::vector<std::string>& overrides, const MemoryBudget& budget) {
    json document = parseSceneJson(readSceneText(path), path);
    std::vector<OverrideRecord> records;
    for (const std::string& assignment : overrides)
        records.push_back({applyOverrideAt(document, assignment), assignment});
    return parseWithOverrides(document, path, std::move(records), budget);
}

Scene parseScene(const json& document, const std::string& sourceName, const MemoryBudget& budget) {
    return parseWithOverrides(document, sourceName, {}, budget);
}

}  // namespace vfx
