// Panel wiring: the UiModel the panels read and edit, and the UiRequests they leave for the
// app to carry out after drawing.
#include "app/demo/app.hpp"

#include "ui/panels.hpp"

#include <imgui.h>

namespace vfx {

namespace {

constexpr int kDiagnosticsEvery = 15;  // frames between refreshes of the diagnostics the panels show

}  // namespace

void DemoApp::drawPanels() {
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
            model_.statusMessage =
                "Recording to " + r.record.directory +
                (baker_ && baker_->framesCleared() > 0 ? "; deleted " + std::to_string(baker_->framesCleared()) +
                                                             " frame file(s) of an earlier bake there"
                                                       : std::string());
    }
    if (r.stopRecording) stopRecording("Stopped");
    if (r.frameScene) frameScene();
    if (r.resetView) camera_.resetToHome();
}

}  // namespace vfx
