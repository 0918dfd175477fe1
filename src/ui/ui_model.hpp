#pragma once
// What the panels show and edit, and what they ask the frame loop to do. The panels change
// parameters in place; anything that rebuilds or replaces the simulation is a request the
// frame loop carries out after the UI pass.
#include "app/demo/scene_library.hpp"
#include "render/camera.hpp"
#include "render/render_settings.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace vfx {

// Rolling history of timings for the live plots.
class TimingHistory {
public:
    static constexpr size_t kLength = 240;
    void push(const std::string& series, float ms);
    const std::vector<float>& series(const std::string& name) const;
    std::vector<std::string> names() const { return order_; }

private:
    std::map<std::string, std::vector<float>> values_;
    std::vector<std::string> order_;
};

struct FrameStats {
    double fps = 0.0;
    double frameMs = 0.0;
    double simMs = 0.0;     // all sim.step() calls of the frame
    double uploadMs = 0.0;
    double drawMs = 0.0;    // CPU side of the draw calls
    double drawGpuMs = 0.0;
    double presentMs = 0.0; // buffer swap: waits for the GPU (or a software rasteriser) and vsync
    double uiMs = 0.0;
};

struct UiRequests {
    std::string loadScenePath;   // load this file (keeps the current scene if it fails)
    bool reload = false;         // re-read the current scene file from disk
    bool reset = false;          // rebuild from the current scene with the edited parameters
    bool stepOnce = false;
    std::string savePath;        // write the current setup as JSON
    bool screenshot = false;
    std::string startRecording;  // directory
    bool stopRecording = false;
    bool frameScene = false;
    bool resetView = false;
    bool quit = false;
};

struct StirSettings {
    float radius = 0.15f;    // m
    float strength = 1.0f;
};

struct UiModel {
    Simulation* sim = nullptr;
    Scene* scene = nullptr;                 // working copy: body edits and Reset use it
    FluidParams* editedFluid = nullptr;     // what the user set; needs-reset fields wait here
    TimeParams* time = nullptr;
    const std::vector<PresetInfo>* presets = nullptr;
    RenderSettings* render = nullptr;
    OrbitCamera* camera = nullptr;
    StirSettings* stir = nullptr;
    const TimingHistory* history = nullptr;
    FrameStats stats;
    bool* playing = nullptr;
    int* stepsPerFrame = nullptr;
    bool* vsync = nullptr;
    bool* showHelp = nullptr;
    bool recording = false;
    int recordedFrames = 0;
    std::string recordDir;
    std::string errorMessage;               // shown in a popup until dismissed
    std::string statusMessage;              // last action, shown at the bottom of the panel
    Diagnostics diagnostics;
    Diagnostics initialDiagnostics;
    float panelWidth = 0.0f;                // out: framebuffer pixels covered by the side panel
};

}  // namespace vfx
