// Scenes in the demo: loading (the --scene one with its --set overrides, presets, reload),
// reset with the edited parameters, "Save as", and the view and drawing defaults each scene
// gets. A scene that fails to load or build leaves the running one in place, running on from
// where it was, and puts the message (the runner's words) in the error dialog
// (UiModel::errorMessage).
#include "app/demo/app.hpp"

#include "render/gl.hpp"  // before GLFW
#include "core/atomic_file.hpp"
#include "render/renderer.hpp"
#include "scene/scene_geometry.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <new>

namespace vfx {

namespace {

struct Bounds {
    glm::vec3 lo{1e30f}, hi{-1e30f};
    void add(const glm::vec3& p) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    void add(const glm::vec3& p, float r) {
        add(p - glm::vec3(r));
        add(p + glm::vec3(r));
    }
    bool valid() const { return lo.x <= hi.x; }
};

// Everything there is to see: particles and bodies (containers by their corners).
Bounds sceneBounds(const Simulation& sim) {
    Bounds b;
    for (const glm::vec3& p : sim.vortons().position) b.add(p);
    for (const glm::vec3& p : sim.tracers().position) b.add(p);
    for (const RigidBody& body : sim.bodies()) {
        if (body.shape.kind == ShapeKind::Sphere) b.add(body.position, body.shape.radius);
        for (const glm::vec3& v : body.shape.vertices) b.add(body.toWorld(v));
    }
    if (!b.valid()) b.add(glm::vec3(0.0f), 1.0f);
    return b;
}

struct TracerSpacing {
    float spacing = 0.0f;
    int count = 0;  // tracers in the region with that spacing; 0 when the scene has none
};

// The region whose tracers lie closest together: its mean spacing, the cube root of its
// volume per tracer, sets how large and faint a tracer dot is drawn.
TracerSpacing finestTracerSpacing(const Scene& scene) {
    TracerSpacing finest;
    for (const RegionDesc& r : scene.tracers) {
        const float volume = regionVolume(r);
        // The loader rejects regions without volume; skipping one keeps a dot from shrinking to nothing.
        if (r.count <= 0 || !(volume > 0.0f)) continue;
        const float spacing = std::cbrt(volume / float(r.count));
        if (finest.count == 0 || spacing < finest.spacing) finest = {spacing, r.count};
    }
    return finest;
}

std::string outOfMemoryMessage(const Scene& scene) {
    return (scene.path.empty() ? std::string("scene") : scene.path) +
           ": ran out of memory building the scene; the running scene goes on";
}

}  // namespace

bool DemoApp::loadInitialScene() {
    std::string path = options_.scenePath.empty()
                           ? (scenesDir_.empty() ? std::string("scenes/dye_drop.json") : scenesDir_ + "/dye_drop.json")
                           : resolveScenePath(roots_, options_.scenePath);
    try {
        Scene scene = loadScene(path, options_.overrides);
        sim_.setThreads(options_.threads);
        buildSimulation(scene, sim_);
        scene_ = std::move(scene);
        initialScenePath_ = scene_.path;
    } catch (const std::exception& e) {
        std::cerr << "vortonfx: " << e.what() << "\n";
        return false;
    }
    return true;
}

// Builds the simulation from a scene; on failure the message goes to the error dialog and the
// false return leaves the caller's scene running.
bool DemoApp::buildOrReport(const Scene& scene) {
    try {
        buildSimulation(scene, sim_);
        return true;
    } catch (const std::bad_alloc&) {
        model_.errorMessage = outOfMemoryMessage(scene);
    } catch (const std::exception& e) {
        model_.errorMessage = e.what();
    }
    return false;
}

// buildSimulation builds everything before it touches the simulation, so when it fails the
// running scene goes on where it was.
void DemoApp::applyScene(Scene scene, const std::string& status) {
    if (!buildOrReport(scene)) return;
    scene_ = std::move(scene);
    onSceneBuilt(status);
}

void DemoApp::onSceneBuilt(const std::string& status) {
    // A bake is one run of one scene: its frames would not follow on from a new one.
    if (baker_) stopRecording("Scene changed, bake stopped");
    editedFluid_ = scene_.fluid;
    time_ = scene_.time;
    renderer_->setBodies(sim_.bodies());
    camera_.setHome({scene_.camera.target, scene_.camera.distance, scene_.camera.yaw, scene_.camera.pitch});
    setupRenderDefaults();
    applyShowOptions();
    model_.initialDiagnostics = model_.diagnostics = sim_.diagnostics();
    model_.statusMessage = status;
    drag_ = Drag::None;
    if (window_)
        glfwSetWindowTitle(window_, ("vortonfx - " + (scene_.name.empty() ? scene_.path : scene_.name)).c_str());
}

void DemoApp::tryLoadScene(const std::string& path) {
    try {
        // --set overrides belong to the scene named on the command line (reloading it keeps them).
        bool initial = path == initialScenePath_;
        Scene scene = loadScene(path, initial ? options_.overrides : std::vector<std::string>{});
        applyScene(std::move(scene), "Loaded " + path);
    } catch (const std::bad_alloc&) {
        model_.errorMessage = path + ": ran out of memory loading the scene";
        model_.statusMessage = "Could not load " + path;
    } catch (const std::exception& e) {
        model_.errorMessage = e.what();
        model_.statusMessage = "Could not load " + path;
    }
}

void DemoApp::resetScene() {
    Scene scene = scene_;
    scene.fluid = editedFluid_;
    scene.time = time_;
    if (!buildOrReport(scene)) return;
    scene_.fluid = editedFluid_;
    scene_.time = time_;
    renderer_->setBodies(sim_.bodies());
    model_.initialDiagnostics = model_.diagnostics = sim_.diagnostics();
    model_.statusMessage = "Reset " + scene_.path;
    if (baker_) stopRecording("Reset, bake stopped");
    drag_ = Drag::None;
}

void DemoApp::saveScene(const std::string& path) {
    try {
        nlohmann::json doc = sceneDocumentWithParams(scene_, editedFluid_, time_);
        const CameraPose& pose = camera_.pose();  // the view the user found, for next time
        doc["view"]["camera"] = {{"target", {pose.target.x, pose.target.y, pose.target.z}},
                                 {"distance", pose.distance},
                                 {"yaw", pose.yawDegrees},
                                 {"pitch", pose.pitchDegrees}};
        // Written whole or not at all: a failed save leaves the file that was there.
        AtomicFile out(path);
        out.stream() << doc.dump(2) << "\n";
        out.commit();
        model_.statusMessage = "Saved " + path;
        presets_ = listPresets(scenesDir_);
    } catch (const std::exception& e) {
        model_.errorMessage = e.what();
    }
}

void DemoApp::setupRenderDefaults() {
    bool hasTracers = sim_.tracers().size() > 0;
    render_.drawTracers = hasTracers;
    render_.drawVortons = !hasTracers;
    Bounds b = sceneBounds(sim_);
    float size = glm::length(b.hi - b.lo);
    render_.sceneRadius = 0.5f * size;
    render_.vorticityRange = -1.0f;  // set from the data on the first upload
    render_.arrowLength = 0.06f * size;
    stir_.radius = 0.06f * size;
    // Tracer dots a little wider than the spacing between tracers, and faint enough that a
    // line of sight through a whole region adds up to a dense but see-through dye.
    const TracerSpacing finest = finestTracerSpacing(scene_);
    if (finest.count > 0) {
        render_.tracerWorldSize = 1.2f * finest.spacing;
        float dotsAlongSight = 1.13f * std::cbrt(float(finest.count));
        render_.tracerAlpha = std::clamp(3.0f / dotsAlongSight, 0.03f, 0.6f);
    }
}

void DemoApp::frameScene() {
    Bounds b = sceneBounds(sim_);
    camera_.frameBox(b.lo, b.hi);
}

void DemoApp::applyShowOptions() {
    for (const std::string& item : options_.show) {
        bool on = item[0] != '-';
        std::string name = on ? item : item.substr(1);
        if (name == "vortons")
            render_.drawVortons = on;
        else if (name == "tracers")
            render_.drawTracers = on;
        else if (name == "arrows")
            render_.drawArrows = on;
        else if (name == "grid-arrows") {
            render_.drawArrows = on;
            render_.arrowSite = ArrowSite::GridPoints;
        } else if (name == "grid")
            render_.drawGridBounds = on;
        else if (name == "bodies")
            render_.drawBodies = on;
        else if (name == "containers")
            render_.drawContainers = on;
        else if (name == "wall-flow")
            render_.drawWallFlow = on;
        else if (name == "vorticity")
            render_.vortonColor = on ? ColorMode::Vorticity : ColorMode::Density;
        else if (name == "sized")
            render_.sizeVortonsByValue = on;
        else if (name == "help")
            showHelp_ = on;
        else if (name == "ui")
            showUi_ = on;
    }
}

}  // namespace vfx
