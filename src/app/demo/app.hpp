#pragma once
// The interactive demo: a GLFW window, the frame loop, input handling and scene management.
// The frame loop owns no physics: it calls Simulation::step and draws what it reads.
// DemoApp's members are defined by concern: app.cpp (frame loop), app_window.cpp (window and
// ImGui), app_scene.cpp (loading, reset, saving), app_input.cpp (keys and mouse),
// app_panels.cpp (panel wiring), app_capture.cpp (screenshots, recording, bake).
#include "app/demo/interaction.hpp"
#include "app/demo/options.hpp"
#include "export/vdb_bake.hpp"
#include "render/camera.hpp"
#include "render/capture.hpp"
#include "render/render_settings.hpp"
#include "scene/scene.hpp"
#include "scene/scene_library.hpp"
#include "sim/simulation.hpp"
#include "ui/ui_model.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace vfx {

class Renderer;
class DemoUi;

// Exit codes of the demo.
enum DemoExit { kExitOk = 0, kExitRuntime = 1, kExitBadInput = 2, kExitShader = 3 };

class DemoApp {
public:
    DemoApp(DemoOptions options, std::string executablePath);
    ~DemoApp();
    // Loads the scene, opens the window and runs until closed (or --frames with --quit).
    int run();

private:
    bool loadInitialScene();
    bool openWindow();
    void setupImGui();
    void shutdown();
    // Recording: PNG frames and/or an OpenVDB bake. Start functions return "" or an error.
    std::string startRecording(const RecordRequest& request);
    std::string startBake(const std::string& directory, int every, int frameCount);
    void stopRecording(const std::string& reason);
    void bakeIfDue();
    RecordingStatus recordingStatus() const;
    void frame();
    void stepSimulation();
    void drawPanels();
    void captureFrame();
    void stopOnSimulationError(const std::string& message);
    void handleMouse();
    void handleKeys();
    void processRequests();
    void applyScene(Scene scene, const std::string& status);
    bool buildOrReport(const Scene& scene);
    void onSceneBuilt(const std::string& status);
    void tryLoadScene(const std::string& path);
    void resetScene();
    void saveScene(const std::string& path);
    void takeScreenshot(const std::string& path);
    void frameScene();
    void updateStats(double frameMs);
    void setupRenderDefaults();
    void applyShowOptions();
    Ray mouseRay() const;
    void renderFrame();

    DemoOptions options_;
    std::string executablePath_;
    std::vector<std::string> roots_;
    std::string scenesDir_, shaderDir_;
    std::string initialScenePath_;  // the --scene one, which the --set overrides apply to
    std::vector<PresetInfo> presets_;

    Simulation sim_;
    Scene scene_;  // working copy (body edits, parameters for Reset, Save as)
    FluidParams editedFluid_;
    TimeParams time_;

    GLFWwindow* window_ = nullptr;
    std::unique_ptr<Renderer> renderer_;
    std::unique_ptr<DemoUi> ui_;
    OrbitCamera camera_;
    RenderSettings render_;
    StirSettings stir_;
    TimingHistory history_;
    UiModel model_;
    UiRequests requests_;
    FrameRecorder recorder_;
    std::optional<VdbBaker> baker_;  // the Record control's OpenVDB bake, while it runs
    int bakeFrameTarget_ = 0;        // stop after this many baked frames; 0 = until stopped

    bool playing_ = true;
    bool stepOnce_ = false;
    int stepsPerFrame_ = 1;
    bool vsync_ = true;
    bool appliedVsync_ = true;
    bool showHelp_ = false;
    bool showUi_ = true;
    float contentScale_ = 1.0f;

    // Mouse state (framebuffer pixels).
    enum class Drag { None, Orbit, Pan, Body, Stir };
    Drag drag_ = Drag::None;
    double mouseX_ = 0, mouseY_ = 0, lastMouseX_ = 0, lastMouseY_ = 0;
    BodyDrag bodyDrag_;
    double escapeTime_ = -10.0;
    // Key presses queued by a GLFW callback: at a low frame rate a quick tap can start and end
    // within one frame, which ImGui 1.86's per-frame key state would miss.
    struct KeyPress {
        int key;
        int mods;
    };
    std::vector<KeyPress> keyQueue_;
    static void keyCallback(GLFWwindow* window, int key, int scancode, int action, int mods);

    long frameIndex_ = 0;
    double frameSeconds_ = 1.0 / 60.0;
    std::chrono::steady_clock::time_point lastFrame_;
    double fpsAccumTime_ = 0.0;
    int fpsAccumFrames_ = 0;
    // Totals for the summary printed at the end of a scripted run.
    double totalSimMs_ = 0, totalUploadMs_ = 0, totalDrawMs_ = 0, totalPresentMs_ = 0, totalFrameMs_ = 0;
    double simMsThisFrame_ = 0;
    int measuredFrames_ = 0;
    int exitCode_ = kExitOk;
};

}  // namespace vfx
