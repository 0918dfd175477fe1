#pragma once
// The demo's Dear ImGui panels: a side bar with Scene, Simulation, Fluid, Bodies, Render and
// Stats sections, the help overlay and the error popup. Every control has a tooltip.
#include "ui/ui_model.hpp"

#include <string>

namespace vfx {

class DemoUi {
public:
    // Builds this frame's UI (between ImGui::NewFrame and ImGui::Render).
    void draw(UiModel& model, UiRequests& requests);
    // Only the overlays (help, errors), for --hide-ui runs.
    void drawOverlays(UiModel& model);

private:
    void sceneSection(UiModel& m, UiRequests& r);
    void simulationSection(UiModel& m, UiRequests& r);
    void recordControls(const UiModel& m, UiRequests& r);
    void fluidSection(UiModel& m);
    void bodiesSection(UiModel& m);
    void renderSection(UiModel& m);
    void stirSection(UiModel& m);
    void statsSection(const UiModel& m);
    void colourLegend(const UiModel& m);
    void errorPopup(UiModel& m);
    void helpOverlay(UiModel& m);

    char savePath_[512] = "";
    char loadPath_[512] = "";
    char recordPath_[512] = "recording";
    RecordRequest record_;       // the Record control's settings between frames
    std::string fieldError_;     // last rejected parameter value
    std::string bodyError_;      // last rejected body edit
    std::string savePathScene_;  // scene the suggested save path was made for
};

// Shortcut list shown by the help overlay (and printed by --help).
const char* const* shortcutTable(int* rows);

}  // namespace vfx
