#pragma once
// What the panels show and edit, and what they ask the frame loop to do. The panels change
// parameters in place; anything that rebuilds or replaces the simulation is a request the
// frame loop carries out after the UI pass.
#include "render/camera.hpp"
#include "render/render_settings.hpp"
#include "scene/scene.hpp"
#include "scene/scene_library.hpp"
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
    double simMs = 0.0;  // all sim.step() calls of the frame
    double uploadMs = 0.0;
    double drawMs = 0.0;  // CPU side of the draw calls
    double drawGpuMs = 0.0;
    double presentMs = 0.0;  // buffer swap: waits for the GPU (or a software rasteriser) and vsync
    double uiMs = 0.0;
};

// What the Record control starts: PNG frames of the view and/or an OpenVDB bake of the fluid.
struct RecordRequest {
    std::string directory = "recording";
    bool pngFrames = true;   // DIR/frame_00001.png ... every drawn frame
    bool vdbFrames = false;  // DIR/<scene>_0001.vdb ... (and DIR/tracers/) every vdbEvery steps
    int vdbEvery = 1;        // simulation steps between baked frames, >= 1
    int vdbFrameCount = 0;   // baked frames after which recording stops; 0 = until stopped
};

// What is being recorded now, for the progress readout.
struct RecordingStatus {
    bool active = false;
    std::string directory;
    int pngFrames = -1;     // frames written; -1 = not recording PNG
    int vdbFrames = -1;     // frames baked; -1 = not baking
    int vdbFrameCount = 0;  // target, 0 = until stopped
};

struct UiRequests {
    std::string loadScenePath;  // load this file (keeps the current scene if it fails)
    bool reload = false;        // re-read the current scene file from disk
    bool reset = false;         // rebuild from the current scene with the edited parameters
    bool stepOnce = false;
    std::string savePath;  // write the current setup as JSON
    bool screenshot = false;
    bool startRecording = false;  // with `record`
    RecordRequest record;
    bool stopRecording = false;  // stop or cancel; frames already written stay complete
    bool frameScene = false;
    bool resetView = false;
    bool quit = false;
};

struct StirSettings {
    float radius = 0.15f;  // m
    float strength = 1.0f;
};

struct UiModel {
    Simulation* sim = nullptr;
    Scene* scene = nullptr;              // working copy: body edits and Reset use it
    FluidParams* editedFluid = nullptr;  // what the user set; needs-reset fields wait here
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
    RecordingStatus recording;
    std::string errorMessage;   // shown in a popup until dismissed
    std::string statusMessage;  // last action, shown at the bottom of the panel
    Diagnostics diagnostics;
    Diagnostics initialDiagnostics;
    float panelWidth = 0.0f;  // out: framebuffer pixels covered by the side panel
};

}  // namespace vfx
