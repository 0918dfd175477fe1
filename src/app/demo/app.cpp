#include "app/demo/app.hpp"

#include "render/gl.hpp"  // before GLFW
#include "render/renderer.hpp"
#include "scene/scene_geometry.hpp"
#include "ui/panels.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace vfx {

namespace {

using Clock = std::chrono::steady_clock;
double msBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

constexpr int kWarmupFrames = 5;  // left out of the end-of-run averages (shader and cache warm-up)
constexpr int kDiagnosticsEvery = 15;

void glfwErrorPrinter(int code, const char* text) { std::fprintf(stderr, "vortonfx: GLFW error %d: %s\n", code, text); }

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

std::string timestampedScreenshotName() {
    std::time_t now = std::time(nullptr);
    char name[64];
    std::strftime(name, sizeof name, "vortonfx_%Y%m%d_%H%M%S.png", std::localtime(&now));
    return name;
}

}  // namespace

DemoApp::DemoApp(DemoOptions options, std::string executablePath)
    : options_(std::move(options)), executablePath_(std::move(executablePath)) {
    playing_ = !options_.paused;
    vsync_ = appliedVsync_ = options_.vsync;
    showUi_ = !options_.hideUi;
}

DemoApp::~DemoApp() { shutdown(); }

int DemoApp::run() {
    roots_ = resourceRoots(executablePath_);
    scenesDir_ = findResourceDir(roots_, "scenes");
    shaderDir_ = options_.shaderDir.empty() ? findResourceDir(roots_, "shaders") : options_.shaderDir;
    if (!loadInitialScene()) return kExitBadInput;
    if (shaderDir_.empty()) {
        std::cerr << "vortonfx: cannot find the shaders/ directory (looked in the working directory, next to the "
                     "executable and in the source tree); pass --shaders DIR\n";
        return kExitShader;
    }
    if (!openWindow()) return kExitRuntime;
    renderer_ = std::make_unique<Renderer>();
    try {
        renderer_->init(shaderDir_);
    } catch (const ShaderError& e) {
        std::cerr << "vortonfx: shader error: " << e.what() << "\n";
        return kExitShader;
    }
    setupImGui();
    ui_ = std::make_unique<DemoUi>();
    presets_ = listPresets(scenesDir_);
    onSceneBuilt("Loaded " + scene_.path);  // built by loadInitialScene
    if (!options_.recordDir.empty()) {
        if (std::string error = recorder_.start(options_.recordDir); !error.empty()) {
            std::cerr << "vortonfx: --record: " << error << "\n";
            return kExitBadInput;
        }
    }
    if (!options_.vdbDir.empty()) {
        if (std::string error = startBake(options_.vdbDir, options_.vdbEvery, options_.vdbFrames); !error.empty()) {
            std::cerr << "vortonfx: " << error << "\n";
            return kExitBadInput;
        }
    }
    int lastFrame = options_.frames > 0 ? options_.frames : (options_.quit || !options_.screenshotPath.empty() ? 1 : 0);
    lastFrame_ = Clock::now();
    while (!glfwWindowShouldClose(window_) && !requests_.quit) {
        frame();
        if (lastFrame > 0 && frameIndex_ == lastFrame && options_.quit) break;
    }
    int measured = measuredFrames_;
    if (measured > 0) {
        std::printf(
            "vortonfx: %s: %ld frames, %.1f fps (frame %.1f ms: sim %.1f, upload %.2f, draw %.2f, present %.1f ms); "
            "%zu vortons, %zu tracers\n",
            scene_.path.c_str(), frameIndex_, 1000.0 * measured / std::max(totalFrameMs_, 1e-9),
            totalFrameMs_ / measured, totalSimMs_ / measured, totalUploadMs_ / measured, totalDrawMs_ / measured,
            totalPresentMs_ / measured, sim_.vortons().size(), sim_.tracers().size());
    }
    shutdown();
    return exitCode_;
}

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

bool DemoApp::openWindow() {
    glfwSetErrorCallback(glfwErrorPrinter);
    if (!glfwInit()) {
        std::cerr << "vortonfx: cannot initialise GLFW (is there a display? try xvfb-run)\n";
        return false;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    std::string title = "vortonfx - " + (scene_.name.empty() ? scene_.path : scene_.name);
    window_ = glfwCreateWindow(options_.width, options_.height, title.c_str(), nullptr, nullptr);
    if (!window_) {
        std::cerr << "vortonfx: cannot open an OpenGL 3.3 core window\n";
        return false;
    }
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        std::cerr << "vortonfx: cannot load the OpenGL 3.3 core functions\n";
        return false;
    }
    glfwSwapInterval(vsync_ ? 1 : 0);
    float xs = 1.0f, ys = 1.0f;
    glfwGetWindowContentScale(window_, &xs, &ys);
    contentScale_ = std::max(1.0f, std::max(xs, ys));
    return true;
}

void DemoApp::setupImGui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // do not litter the working directory with imgui.ini
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.Colors[ImGuiCol_WindowBg].w = 0.90f;
    style.ScaleAllSizes(contentScale_);

    std::vector<std::string> fonts;
    if (std::string assets = findResourceDir(roots_, "assets/fonts"); !assets.empty())
        fonts.push_back(assets + "/ui.ttf");
    fonts.push_back("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
    bool loaded = false;
    for (const std::string& f : fonts) {
        std::error_code ec;
        if (!std::filesystem::exists(f, ec)) continue;
        loaded = io.Fonts->AddFontFromFileTTF(f.c_str(), std::round(15.0f * contentScale_)) != nullptr;
        if (loaded) break;
    }
    if (!loaded) {
        ImFontConfig config;
        config.SizePixels = std::round(13.0f * contentScale_);
        io.Fonts->AddFontDefault(&config);
    }
    // Ours first: ImGui's backend chains to callbacks installed before it.
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, keyCallback);
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

void DemoApp::shutdown() {
    if (!window_) return;
    renderer_.reset();  // GL objects go while the context is alive
    if (ImGui::GetCurrentContext()) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    glfwDestroyWindow(window_);
    glfwTerminate();
    window_ = nullptr;
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

void DemoApp::applyScene(Scene scene, const std::string& status) {
    try {
        buildSimulation(scene, sim_);
    } catch (const std::exception& e) {
        model_.errorMessage = e.what();
        buildSimulation(scene_, sim_);  // keep the scene that was running
        return;
    }
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
    } catch (const std::exception& e) {
        model_.errorMessage = e.what();
        model_.statusMessage = "Could not load " + path;
    }
}

void DemoApp::resetScene() {
    Scene scene = scene_;
    scene.fluid = editedFluid_;
    scene.time = time_;
    try {
        buildSimulation(scene, sim_);
    } catch (const std::exception& e) {
        model_.errorMessage = e.what();
        buildSimulation(scene_, sim_);
        return;
    }
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
        std::ofstream out(path);
        if (!out) throw std::runtime_error(path + ": cannot open for writing");
        out << doc.dump(2) << "\n";
        if (!out) throw std::runtime_error(path + ": write failed");
        model_.statusMessage = "Saved " + path;
        presets_ = listPresets(scenesDir_);
    } catch (const std::exception& e) {
        model_.errorMessage = e.what();
    }
}

void DemoApp::takeScreenshot(const std::string& path) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    std::string error = saveFramebufferPng(path, w, h);
    if (error.empty()) {
        model_.statusMessage = "Screenshot " + path;
    } else {
        model_.errorMessage = error;
        std::cerr << "vortonfx: " << error << "\n";
        exitCode_ = kExitRuntime;
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

Ray DemoApp::mouseRay() const { return camera_.rayThroughPixel(float(mouseX_), float(mouseY_)); }

void DemoApp::frame() {
    auto frameStart = Clock::now();
    frameSeconds_ = std::clamp(msBetween(lastFrame_, frameStart) * 1e-3, 1e-4, 0.25);
    lastFrame_ = frameStart;
    glfwPollEvents();
    if (vsync_ != appliedVsync_) {
        glfwSwapInterval(vsync_ ? 1 : 0);
        appliedVsync_ = vsync_;
    }

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    handleKeys();
    handleMouse();

    auto simStart = Clock::now();
    stepSimulation();
    simMsThisFrame_ = msBetween(simStart, Clock::now());

    auto uiStart = Clock::now();
    model_.sim = &sim_;
    model_.scene = &scene_;
    model_.editedFluid = &editedFluid_;
    model_.time = &time_;
    model_.presets = &presets_;
    model_.render = &render_;
    model_.camera = &camera_;
    model_.stir = &stir_;
    model_.history = &history_;
    model_.playing = &playing_;
    model_.stepsPerFrame = &stepsPerFrame_;
    model_.vsync = &vsync_;
    model_.showHelp = &showHelp_;
    model_.recording = recordingStatus();
    if (frameIndex_ % kDiagnosticsEvery == 0) model_.diagnostics = sim_.diagnostics();
    if (showUi_)
        ui_->draw(model_, requests_);
    else {
        model_.panelWidth = 0.0f;
        ui_->drawOverlays(model_);
    }
    ImGui::Render();
    model_.stats.uiMs = msBetween(uiStart, Clock::now());

    processRequests();
    renderFrame();
    ++frameIndex_;

    if (recorder_.active()) {
        if (std::string error = recorder_.capture(camera_.viewportWidth(), camera_.viewportHeight()); !error.empty()) {
            model_.errorMessage = error;
            std::cerr << "vortonfx: " << error << "\n";
        }
    }
    if (requests_.screenshot) {
        takeScreenshot(timestampedScreenshotName());
        requests_.screenshot = false;
    }
    int lastFrame = options_.frames > 0 ? options_.frames : 1;
    if (!options_.screenshotPath.empty() && frameIndex_ == lastFrame) takeScreenshot(options_.screenshotPath);

    auto presentStart = Clock::now();
    glfwSwapBuffers(window_);
    model_.stats.presentMs = msBetween(presentStart, Clock::now());
    updateStats(msBetween(frameStart, Clock::now()));
}

void DemoApp::stepSimulation() {
    // Body held by the mouse: steer it before the step so the fluid feels its motion.
    if (drag_ == Drag::Body && bodyDrag_.body >= 0 && size_t(bodyDrag_.body) < sim_.bodies().size()) {
        RigidBody& b = sim_.bodies()[size_t(bodyDrag_.body)];
        glm::vec3 target = dragPlanePoint(bodyDrag_, mouseRay(), camera_.forward());
        float maxSpeed = 8.0f * render_.sceneRadius;  // crossing the scene in a quarter second
        if (b.motion == MotionKind::Dynamic && (playing_ || stepOnce_)) {
            // Catch up with the mouse within about three steps of simulated time, however slowly
            // frames come, so the body stays under the cursor and the fluid feels its speed.
            float response = std::max(0.02f, 3.0f * time_.dt * float(stepsPerFrame_));
            b.velocity = dragVelocity(b, target, bodyDrag_, response, maxSpeed);
            b.angularVelocity *= 0.9f;
        } else {
            glm::vec3 delta = target - bodyDrag_.grabOffset - b.position;
            b.restPosition += delta;
            b.position += delta;
        }
    }
    if (!playing_ && !stepOnce_) return;
    int steps = stepOnce_ ? 1 : stepsPerFrame_;
    stepOnce_ = false;
    try {
        for (int i = 0; i < steps; ++i) {
            sim_.step(time_.dt);
            bakeIfDue();
        }
    } catch (const NonFiniteError& e) {
        stopOnSimulationError(e.what());
    } catch (const std::exception& e) {
        stopOnSimulationError(std::string("simulation step failed: ") + e.what());
    }
    for (const PhaseTimers::Phase& p : sim_.timers().phases()) history_.push("phase:" + p.name, float(p.lastMs));
}

void DemoApp::keyCallback(GLFWwindow* window, int key, int, int action, int mods) {
    if (action != GLFW_PRESS) return;
    auto* app = static_cast<DemoApp*>(glfwGetWindowUserPointer(window));
    if (app) app->keyQueue_.push_back({key, mods});
}

void DemoApp::handleKeys() {
    std::vector<KeyPress> presses;
    presses.swap(keyQueue_);
    if (ImGui::GetIO().WantTextInput) return;  // typing in a text field
    for (const KeyPress& press : presses) {
        const int key = press.key;
        if (press.mods & GLFW_MOD_CONTROL) {
            if (key == GLFW_KEY_Q) requests_.quit = true;
            continue;  // leave the other Ctrl+key combinations to ImGui (copy, paste ...)
        }
        switch (key) {
            case GLFW_KEY_SPACE:
                playing_ = !playing_;
                break;
            case GLFW_KEY_S:
                playing_ = false;
                stepOnce_ = true;
                break;
            case GLFW_KEY_R:
                requests_.reset = true;
                break;
            case GLFW_KEY_F12:
            case GLFW_KEY_P:
                requests_.screenshot = true;
                break;
            case GLFW_KEY_H:
            case GLFW_KEY_F1:
                showHelp_ = !showHelp_;
                break;
            case GLFW_KEY_F:
                requests_.frameScene = true;
                break;
            case GLFW_KEY_HOME:
            case GLFW_KEY_C:
                requests_.resetView = true;
                break;
            case GLFW_KEY_V:
                render_.drawVortons = !render_.drawVortons;
                break;
            case GLFW_KEY_T:
                render_.drawTracers = !render_.drawTracers;
                break;
            case GLFW_KEY_G:
                render_.drawArrows = !render_.drawArrows;
                break;
            case GLFW_KEY_B:
                render_.drawGridBounds = !render_.drawGridBounds;
                break;
            case GLFW_KEY_TAB:
                showUi_ = !showUi_;
                break;
            case GLFW_KEY_ESCAPE: {
                double now = glfwGetTime();
                if (showHelp_)
                    showHelp_ = false;
                else if (now - escapeTime_ < 1.0)
                    requests_.quit = true;
                else
                    model_.statusMessage = "Press Esc again to quit.";
                escapeTime_ = now;
                break;
            }
            default:
                break;
        }
    }
}

// --- recording ------------------------------------------------------------------------------

std::string DemoApp::startRecording(const RecordRequest& request) {
    if (request.pngFrames) {
        if (std::string error = recorder_.start(request.directory); !error.empty()) return error;
    }
    if (request.vdbFrames) {
        if (std::string error = startBake(request.directory, request.vdbEvery, request.vdbFrameCount); !error.empty()) {
            recorder_.stop();
            return error;
        }
    }
    return "";
}

std::string DemoApp::startBake(const std::string& directory, int every, int frameCount) {
    VdbBakeSettings settings;
    settings.directory = directory;
    settings.name = std::filesystem::path(scene_.path).stem().string();
    if (settings.name.empty()) settings.name = "scene";
    settings.every = every;
    try {
        baker_.emplace(settings);
    } catch (const BakeError& e) {
        return std::string("OpenVDB bake: ") + e.what();
    }
    bakeFrameTarget_ = frameCount;
    return "";
}

void DemoApp::stopRecording(const std::string& reason) {
    std::string what;
    if (recorder_.active()) what += std::to_string(recorder_.framesWritten()) + " PNG frames";
    if (baker_)
        what += std::string(what.empty() ? "" : " and ") + std::to_string(baker_->framesWritten()) + " VDB frames";
    const std::string directory = baker_ ? baker_->settings().directory : recorder_.directory();
    if (!what.empty()) model_.statusMessage = reason + ": " + what + " in " + directory;
    recorder_.stop();
    baker_.reset();
    bakeFrameTarget_ = 0;
}

// Called after every simulation step: a bake follows simulation steps, not drawn frames.
void DemoApp::bakeIfDue() {
    if (!baker_ || !baker_->due(sim_.stepCount())) return;
    try {
        baker_->writeFrame(sim_);
    } catch (const BakeError& e) {
        model_.errorMessage = std::string("OpenVDB bake stopped: ") + e.what();
        std::cerr << "vortonfx: " << model_.errorMessage << "\n";
        stopRecording("Bake failed");
        return;
    }
    if (bakeFrameTarget_ > 0 && baker_->framesWritten() >= bakeFrameTarget_) stopRecording("Bake finished");
}

RecordingStatus DemoApp::recordingStatus() const {
    RecordingStatus s;
    s.active = recorder_.active() || baker_.has_value();
    if (recorder_.active()) {
        s.pngFrames = recorder_.framesWritten();
        s.directory = recorder_.directory();
    }
    if (baker_) {
        s.vdbFrames = baker_->framesWritten();
        s.vdbFrameCount = bakeFrameTarget_;
        s.directory = baker_->settings().directory;
    }
    return s;
}

void DemoApp::stopOnSimulationError(const std::string& message) {
    playing_ = false;
    model_.errorMessage = message + "\nPaused. Reset (R) to start again, perhaps with a smaller dt.";
    std::cerr << "vortonfx: " << message << "\n";
    if (options_.quit) exitCode_ = kExitRuntime;  // a scripted run must not pass on a broken simulation
}

void DemoApp::handleMouse() {
    ImGuiIO& io = ImGui::GetIO();
    int winW = 1, winH = 1, fbW = 1, fbH = 1;
    glfwGetWindowSize(window_, &winW, &winH);
    glfwGetFramebufferSize(window_, &fbW, &fbH);
    float ratio = float(fbW) / float(std::max(winW, 1));
    double cx = 0, cy = 0;
    glfwGetCursorPos(window_, &cx, &cy);
    lastMouseX_ = mouseX_;
    lastMouseY_ = mouseY_;
    mouseX_ = cx * ratio;
    mouseY_ = cy * ratio;
    float dx = float(mouseX_ - lastMouseX_), dy = float(mouseY_ - lastMouseY_);

    if (drag_ != Drag::None) {
        bool held = io.MouseDown[0] || io.MouseDown[1] || io.MouseDown[2];
        if (!held) {
            drag_ = Drag::None;
            bodyDrag_ = {};
        }
    }
    if (drag_ == Drag::None && !io.WantCaptureMouse) {
        if (io.MouseClicked[0]) {
            if (io.KeyCtrl)
                drag_ = Drag::Stir;
            else if (io.KeyShift)
                drag_ = Drag::Pan;
            else if (BodyHit hit = pickBody(mouseRay(), sim_.bodies(), io.KeyAlt); hit.body >= 0) {
                drag_ = Drag::Body;
                bodyDrag_ = beginBodyDrag(hit, mouseRay(), camera_.forward(), sim_.bodies()[size_t(hit.body)]);
            } else {
                drag_ = Drag::Orbit;
            }
        } else if (io.MouseClicked[1] || io.MouseClicked[2]) {
            drag_ = Drag::Pan;
        }
        if (io.MouseWheel != 0.0f) camera_.zoom(io.MouseWheel);
    }
    switch (drag_) {
        case Drag::Orbit:
            camera_.orbit(dx / ratio, dy / ratio);
            break;
        case Drag::Pan:
            camera_.pan(dx, dy);
            break;
        case Drag::Stir:
            if (dx != 0.0f || dy != 0.0f) {
                glm::vec3 f = camera_.forward();
                glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
                glm::vec3 up = glm::cross(right, f);
                float scale = camera_.worldPerPixel(camera_.pose().distance);
                StirStroke stroke;
                stroke.ray = mouseRay();
                stroke.velocity = (right * dx - up * dy) * scale / float(frameSeconds_);
                stroke.radius = stir_.radius;
                stroke.strength = stir_.strength;
                stirVortons(sim_.vortons(), stroke);
            }
            break;
        default:
            break;
    }
    // Highlight what a click would grab.
    if (drag_ == Drag::Body)
        render_.highlightBody = bodyDrag_.body;
    else if (!io.WantCaptureMouse)
        render_.highlightBody = pickBody(mouseRay(), sim_.bodies(), io.KeyAlt).body;
    else
        render_.highlightBody = -1;
}

void DemoApp::processRequests() {
    UiRequests r = requests_;
    bool quit = requests_.quit;
    requests_ = UiRequests{};
    requests_.quit = quit;
    requests_.screenshot = r.screenshot;  // taken after drawing
    if (!r.loadScenePath.empty()) tryLoadScene(r.loadScenePath);
    if (r.reload) {
        presets_ = listPresets(scenesDir_);
        tryLoadScene(scene_.path);
    }
    if (r.reset) resetScene();
    if (r.stepOnce) {
        playing_ = false;
        stepOnce_ = true;
    }
    if (!r.savePath.empty()) saveScene(r.savePath);
    if (r.startRecording) {
        std::string error = startRecording(r.record);
        if (!error.empty())
            model_.errorMessage = error;
        else
            model_.statusMessage = "Recording to " + r.record.directory;
    }
    if (r.stopRecording) stopRecording("Stopped");
    if (r.frameScene) frameScene();
    if (r.resetView) camera_.resetToHome();
}

void DemoApp::renderFrame() {
    int fbW = 1, fbH = 1, winW = 1, winH = 1;
    glfwGetFramebufferSize(window_, &fbW, &fbH);
    glfwGetWindowSize(window_, &winW, &winH);
    float ratio = float(fbW) / float(std::max(winW, 1));
    // Keep the scene centred in the part of the window the side panel leaves free.
    camera_.setViewport(fbW, fbH, 0.5f * model_.panelWidth * ratio);
    render_.pixelScale = std::max(ratio, contentScale_);
    if (fbW > 0 && fbH > 0) {
        // Under density_gradient = sph the step leaves the grid gradient out; the arrows need it.
        if (render_.drawArrows && render_.arrowSite == ArrowSite::GridPoints) sim_.computeDensityGradientGrid();
        renderer_->upload(sim_, render_);
        renderer_->draw(camera_, sim_, render_);
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void DemoApp::updateStats(double frameMs) {
    const RenderTimings& rt = renderer_->timings();
    FrameStats& s = model_.stats;
    s.frameMs = frameMs;
    s.simMs = simMsThisFrame_;
    s.uploadMs = rt.uploadMs;
    s.drawMs = rt.drawCpuMs;
    s.drawGpuMs = rt.drawGpuMs;
    history_.push("frame", float(frameMs));
    fpsAccumTime_ += frameMs;
    ++fpsAccumFrames_;
    if (fpsAccumTime_ >= 500.0) {
        s.fps = 1000.0 * fpsAccumFrames_ / fpsAccumTime_;
        fpsAccumTime_ = 0.0;
        fpsAccumFrames_ = 0;
    }
    if (s.fps == 0.0) s.fps = 1000.0 / std::max(frameMs, 1e-3);
    if (frameIndex_ > kWarmupFrames) {
        ++measuredFrames_;
        totalFrameMs_ += frameMs;
        totalSimMs_ += simMsThisFrame_;
        totalUploadMs_ += rt.uploadMs;
        totalDrawMs_ += rt.drawCpuMs;
        totalPresentMs_ += s.presentMs;
    }
}

}  // namespace vfx
