// The frame loop: poll input, step the simulation, draw the panels, act on their requests,
// render, capture, present; plus the timings shown in the stats panel and the end-of-run summary.
#include "app/demo/app.hpp"

#include "render/gl.hpp"  // before GLFW
#include "render/renderer.hpp"
#include "ui/panels.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace vfx {

namespace {

using Clock = std::chrono::steady_clock;
double msBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

constexpr int kWarmupFrames = 5;  // left out of the end-of-run averages (shader and cache warm-up)

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
    drawPanels();
    model_.stats.uiMs = msBetween(uiStart, Clock::now());

    processRequests();
    renderFrame();
    ++frameIndex_;

    captureFrame();

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

void DemoApp::stopOnSimulationError(const std::string& message) {
    playing_ = false;
    model_.errorMessage = message + "\nPaused. Reset (R) to start again, perhaps with a smaller dt.";
    std::cerr << "vortonfx: " << message << "\n";
    if (options_.quit) exitCode_ = kExitRuntime;  // a scripted run must not pass on a broken simulation
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
