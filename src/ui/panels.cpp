#include "ui/panels.hpp"

#include "bodies/shapes.hpp"
#include "scene/schema.hpp"
#include "ui/param_widgets.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <thread>

namespace vfx {

namespace {

const ImVec4 kErrorColor{1.0f, 0.42f, 0.38f, 1.0f};
const ImVec4 kPendingColor{1.0f, 0.82f, 0.35f, 1.0f};

void copyString(char* buffer, size_t size, const std::string& text) { std::snprintf(buffer, size, "%s", text.c_str()); }

// In the working directory, not next to the preset, so saving never adds to scenes/ unasked.
std::string defaultSavePath(const Scene& scene) {
    std::string file = scene.path.substr(scene.path.find_last_of('/') + 1);
    std::string stem = file.empty() ? "scene" : file.substr(0, file.rfind('.'));
    return stem + "_saved.json";
}

}  // namespace

const char* const* shortcutTable(int* rows) {
    static const char* const table[] = {
        "Space",
        "play / pause",
        "S",
        "single step (pauses)",
        "R",
        "reset the scene (applies pending parameters)",
        "F12 or P",
        "screenshot (vortonfx_<time>.png)",
        "H or F1",
        "this help",
        "F",
        "frame the scene",
        "Home or C",
        "reset the view to the scene camera",
        "V / T / G / B",
        "toggle vortons / tracers / gradient arrows / grid bounds",
        "Tab",
        "hide or show the panels",
        "Left drag",
        "orbit the camera",
        "Right or middle drag, Shift+left",
        "pan",
        "Wheel",
        "zoom",
        "Left drag on a body",
        "grab and drag it through the fluid",
        "Alt+left drag",
        "grab a container (kinematic bodies too)",
        "Ctrl+left drag",
        "stir: push the fluid along the stroke",
        "Ctrl+Q or Esc twice",
        "quit",
    };
    *rows = int(sizeof(table) / sizeof(table[0]) / 2);
    return table;
}

void DemoUi::draw(UiModel& m, UiRequests& r) {
    if (savePathScene_ != m.scene->path) {  // a new scene suggests its own file name
        copyString(savePath_, sizeof savePath_, defaultSavePath(*m.scene));
        savePathScene_ = m.scene->path;
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    float scale = ImGui::GetFontSize() / 13.0f;
    ImGui::SetNextWindowPos(vp->WorkPos, ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(280 * scale, vp->WorkSize.y),
                                        ImVec2(vp->WorkSize.x * 0.6f, vp->WorkSize.y));
    ImGui::SetNextWindowSize(ImVec2(400 * scale, vp->WorkSize.y), ImGuiCond_FirstUseEver);
    ImGui::Begin("vortonfx", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
    m.panelWidth = ImGui::GetWindowWidth();
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 8.0f);

    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) sceneSection(m, r);
    if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) simulationSection(m, r);
    if (ImGui::CollapsingHeader("Fluid")) fluidSection(m);
    if (ImGui::CollapsingHeader("Bodies")) bodiesSection(m);
    if (ImGui::CollapsingHeader("Render")) renderSection(m);
    if (ImGui::CollapsingHeader("Interaction")) stirSection(m);
    if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) statsSection(m);

    ImGui::PopItemWidth();
    ImGui::Separator();
    if (!m.statusMessage.empty()) ImGui::TextWrapped("%s", m.statusMessage.c_str());
    ImGui::TextDisabled("H: help   Tab: hide panels");
    ImGui::End();
    colourLegend(m);
    drawOverlays(m);
}

void DemoUi::colourLegend(const UiModel& m) {
    const RenderSettings& s = *m.render;
    bool densityShown = s.drawTracers || (s.drawVortons && s.vortonColor == ColorMode::Density);
    bool vorticityShown = s.drawVortons && s.vortonColor == ColorMode::Vorticity;
    if (!densityShown && !vorticityShown) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    float pad = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - pad, vp->WorkPos.y + vp->WorkSize.y - pad),
                            ImGuiCond_Always, ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.45f);
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                             ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings |
                             ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (!ImGui::Begin("##legend", nullptr, flags)) {
        ImGui::End();
        return;
    }
    // The same end colours as shaders/colormap.glsl.
    auto colour = [](float r, float g, float b) { return ImGui::GetColorU32(ImVec4(r, g, b, 1.0f)); };
    const ImU32 light = colour(1.00f, 0.32f, 0.18f), neutral = colour(0.86f, 0.88f, 0.92f),
                heavy = colour(0.16f, 0.45f, 1.0f);
    const ImVec2 size(ImGui::GetFontSize() * 12.0f, ImGui::GetFontSize() * 0.7f);
    auto bar = [&](std::initializer_list<ImU32> stops) {
        ImVec2 p = ImGui::GetCursorScreenPos();
        ImDrawList* draw = ImGui::GetWindowDrawList();
        std::vector<ImU32> c(stops);
        float step = size.x / float(c.size() - 1);
        for (size_t i = 0; i + 1 < c.size(); ++i)
            draw->AddRectFilledMultiColor(ImVec2(p.x + step * float(i), p.y),
                                          ImVec2(p.x + step * float(i + 1), p.y + size.y), c[i], c[i + 1], c[i + 1],
                                          c[i]);
        ImGui::Dummy(size);
    };
    if (densityShown) {
        ImGui::Text("density deviation  +-%.3g", s.densityRange);
        bar({light, neutral, heavy});
        ImGui::TextDisabled("light");
        ImGui::SameLine(size.x - ImGui::CalcTextSize("heavy").x + ImGui::GetStyle().WindowPadding.x);
        ImGui::TextDisabled("heavy");
    }
    if (vorticityShown) {
        ImGui::Text("|vorticity|  0 .. %.3g 1/s", std::max(s.vorticityRange, 0.0f));
        bar({colour(0.10f, 0.05f, 0.30f), colour(0.62f, 0.12f, 0.50f), colour(0.98f, 0.50f, 0.12f),
             colour(1.0f, 0.95f, 0.65f)});
    }
    ImGui::End();
}

void DemoUi::drawOverlays(UiModel& m) {
    errorPopup(m);
    if (*m.showHelp) helpOverlay(m);
}

void DemoUi::sceneSection(UiModel& m, UiRequests& r) {
    const std::vector<PresetInfo>& presets = *m.presets;
    std::string current = m.scene->name.empty() ? m.scene->path : m.scene->name;
    if (ImGui::BeginCombo("Preset", current.c_str())) {
        for (const PresetInfo& p : presets) {
            bool selected = p.path == m.scene->path;
            std::string label = p.error.empty() ? p.name + "  (" + p.fileName + ")" : p.fileName + "  (does not load)";
            if (!p.error.empty()) ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
            if (ImGui::Selectable(label.c_str(), selected)) r.loadScenePath = p.path;
            if (!p.error.empty()) ImGui::PopStyleColor();
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", (p.error.empty() ? p.description : p.error).c_str());
        }
        ImGui::EndCombo();
    }
    hoverTooltip("Scene presets found in scenes/*.json; hover an entry for its description.");
    if (!m.scene->description.empty()) ImGui::TextWrapped("%s", m.scene->description.c_str());
    ImGui::TextDisabled("%s", m.scene->path.c_str());

    if (ImGui::Button("Reload")) r.reload = true;
    hoverTooltip("Re-read the current scene file from disk (edits to it show up); on error the running scene stays.");
    ImGui::SameLine();
    if (ImGui::Button("Reset")) r.reset = true;
    hoverTooltip("Rebuild the scene from its description with the parameters edited here (R).");

    ImGui::InputText("##loadpath", loadPath_, sizeof loadPath_);
    hoverTooltip("Path of any scene JSON file to open.");
    ImGui::SameLine();
    if (ImGui::Button("Open") && loadPath_[0]) r.loadScenePath = loadPath_;
    hoverTooltip(
        "Open the scene file named on the left. A bad file shows its error and the current scene keeps running.");

    ImGui::InputText("##savepath", savePath_, sizeof savePath_);
    hoverTooltip("Where Save as writes the current setup.");
    ImGui::SameLine();
    if (ImGui::Button("Save as") && savePath_[0]) r.savePath = savePath_;
    hoverTooltip("Write the scene with the current fluid, time and body settings as JSON.");
}

void DemoUi::simulationSection(UiModel& m, UiRequests& r) {
    if (ImGui::Button(*m.playing ? "Pause" : "Play")) *m.playing = !*m.playing;
    hoverTooltip("Run or stop the simulation (Space).");
    ImGui::SameLine();
    if (ImGui::Button("Step")) r.stepOnce = true;
    hoverTooltip("Advance one step and pause (S).");
    ImGui::SameLine();
    if (ImGui::Button("Reset##sim")) r.reset = true;
    hoverTooltip("Rebuild the scene, applying parameters marked (reset) (R).");
    ImGui::SameLine();
    ImGui::Text("t = %.2f s  step %ld", m.sim->time(), m.sim->stepCount());

    for (const ParamSpec* spec : paramSpecsInSection("time")) {
        if (spec->key == "steps") continue;  // only the headless runner uses a step budget
        nlohmann::json value = getTimeParam(*m.time, spec->key);
        if (paramWidget(*spec, value)) fieldError_ = setTimeParam(*m.time, spec->key, value);
    }
    ImGui::SliderInt("Steps per frame", m.stepsPerFrame, 1, 8);
    hoverTooltip(
        "Simulation steps taken each drawn frame: more makes the flow faster than real time on a fast machine.");
    int threads = m.sim->threads();
    int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
    if (ImGui::SliderInt("Threads", &threads, 0, hardware, threads == 0 ? "all" : "%d")) m.sim->setThreads(threads);
    hoverTooltip("TBB worker threads for the simulation (0 = all). Results are identical for any count.");
    if (ImGui::Checkbox("Vsync", m.vsync)) {}
    hoverTooltip("Wait for the display's refresh: smooth and cool. Off shows the real frame rate.");
    ImGui::SameLine();
    if (ImGui::Button("Screenshot")) r.screenshot = true;
    hoverTooltip("Save this frame as a PNG (F12 or P).");
    recordControls(m, r);
}

void DemoUi::recordControls(const UiModel& m, UiRequests& r) {
    const RecordingStatus& status = m.recording;
    if (status.active) {
        if (ImGui::Button("Stop recording")) r.stopRecording = true;
        hoverTooltip("Stop (or cancel a bake). Every frame already written is complete; none is left half-written.");
        ImGui::SameLine();
        std::string text = "REC";
        if (status.pngFrames >= 0) text += " " + std::to_string(status.pngFrames) + " PNG";
        if (status.vdbFrames >= 0) text += " " + std::to_string(status.vdbFrames) + " VDB";
        ImGui::TextColored(kErrorColor, "%s -> %s", text.c_str(), status.directory.c_str());
        if (status.vdbFrames >= 0 && status.vdbFrameCount > 0) {
            const std::string label =
                std::to_string(status.vdbFrames) + " / " + std::to_string(status.vdbFrameCount) + " VDB frames";
            ImGui::ProgressBar(float(status.vdbFrames) / float(status.vdbFrameCount), ImVec2(-1.0f, 0.0f),
                               label.c_str());
        }
        return;
    }
    const bool somethingToRecord = record_.pngFrames || record_.vdbFrames;
    if (!somethingToRecord) ImGui::BeginDisabled();
    if (ImGui::Button("Record")) {
        r.startRecording = true;
        r.record = record_;
        r.record.directory = recordPath_;
    }
    if (!somethingToRecord) ImGui::EndDisabled();
    hoverTooltip("Start writing into the directory on the right: PNG frames of the view and/or an OpenVDB bake.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputText("##recdir", recordPath_, sizeof recordPath_);
    hoverTooltip("Directory for the recording (created if missing).");
    ImGui::Checkbox("PNG frames", &record_.pngFrames);
    hoverTooltip("Every drawn frame as DIR/frame_00001.png ... (for a video).");
    ImGui::SameLine();
    ImGui::Checkbox("OpenVDB bake", &record_.vdbFrames);
    hoverTooltip(
        "Bake the fluid as DIR/<scene>_0001.vdb ...: density, velocity, vorticity and tracer volumes,\n"
        "and the tracers as OpenVDB points in DIR/tracers/. Opens in Houdini and Blender.");
    if (!record_.vdbFrames) return;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::DragInt("steps per VDB frame", &record_.vdbEvery, 0.2f, 1, 1000, "%d", ImGuiSliderFlags_AlwaysClamp);
    hoverTooltip("Simulation steps between baked frames (1 = every step).");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::DragInt("VDB frames", &record_.vdbFrameCount, 1.0f, 0, 100000,
                   record_.vdbFrameCount ? "%d" : "until stopped", ImGuiSliderFlags_AlwaysClamp);
    hoverTooltip("Stop after baking this many frames (0 = until stopped). Progress shows while baking.");
}

void DemoUi::fluidSection(UiModel& m) {
    ImGui::TextDisabled("Hover a control for what it does. (reset) = applies on Reset.");
    for (const ParamSpec* spec : paramSpecsInSection("fluid")) {
        nlohmann::json edited = getFluidParam(*m.editedFluid, spec->key);
        bool pending = spec->needsReset && edited != getFluidParam(m.sim->fluid(), spec->key);
        if (pending) ImGui::PushStyleColor(ImGuiCol_Text, kPendingColor);
        bool changed = paramWidget(*spec, edited);
        if (spec->needsReset) {
            ImGui::SameLine();
            ImGui::TextDisabled(pending ? "(reset!)" : "(reset)");
            hoverTooltip(pending ? "Changed: press Reset (R) to rebuild the scene with it."
                                 : "This parameter applies when the scene is reset.");
        }
        if (pending) ImGui::PopStyleColor();
        if (!changed) continue;
        fieldError_ = setFluidParam(*m.editedFluid, spec->key, edited);
        if (fieldError_.empty() && !spec->needsReset) fieldError_ = setFluidParam(m.sim->fluid(), spec->key, edited);
        if (!fieldError_.empty()) fieldError_ = "fluid." + spec->key + ": " + fieldError_;
    }
    if (!fieldError_.empty()) ImGui::TextColored(kErrorColor, "%s", fieldError_.c_str());
}

void DemoUi::bodiesSection(UiModel& m) {
    std::vector<RigidBody>& bodies = m.sim->bodies();
    if (bodies.empty())
        ImGui::TextDisabled("This scene has no bodies.");
    else {
        ImGui::Checkbox("Show wall flow", &m.render->drawWallFlow);
        hoverTooltip(
            "Points on every wall as short ticks coloured by the flow through the wall there, |(u - u_wall) . n|, "
            "relative to the fastest flow: green 0.1% or less, yellow 1%, red 10% or more. The Stats panel shows "
            "the largest (wall flow).");
    }
    for (size_t i = 0; i < bodies.size(); ++i) {
        RigidBody& b = bodies[i];
        std::string label =
            (b.name.empty() ? "body " + std::to_string(i) : b.name) + (b.isHole() ? "  (container)" : "");
        ImGui::PushID(int(i));
        if (ImGui::TreeNodeEx(label.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
            float density = b.density;
            bool changed = ImGui::DragFloat("Density", &density, std::max(b.density * 0.01f, 1e-3f), 1e-3f, 1e5f,
                                            "%.3f kg/m^3", ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
            hoverTooltip("Density of the body material. Denser than the fluid sinks, lighter rises (Archimedes).");
            int motion = int(b.motion);
            const std::vector<std::string>& motionNames = EnumNames<MotionKind>::names();
            const char* motions[] = {motionNames[0].c_str(), motionNames[1].c_str()};
            // A container holds the fluid: it is kinematic, never dynamic.
            ImGui::BeginDisabled(b.isHole());
            changed = ImGui::Combo("Motion", &motion, motions, 2) || changed;
            ImGui::EndDisabled();
            hoverTooltip(b.isHole()
                             ? "A container holds the fluid and follows its prescribed path: always kinematic."
                             : "dynamic: moved by gravity, buoyancy and the fluid. kinematic: follows its prescribed "
                               "path; made kinematic while running, it holds where it is.");
            if (changed) {
                bodyError_ = changeBodyMaterial(b, density, MotionKind(motion));
                if (bodyError_.empty() && i < m.scene->bodies.size()) {
                    m.scene->bodies[i].density = b.density;
                    m.scene->bodies[i].motion = b.motion;
                    nlohmann::json& doc = m.scene->document["bodies"][i];
                    doc["density"] = b.density;
                    doc["motion"] = enumName(b.motion);
                }
            }
            ImGui::Text("pos (%.2f, %.2f, %.2f)  |v| %.2f m/s", b.position.x, b.position.y, b.position.z,
                        glm::length(b.velocity));
            ImGui::Text("mass %.3g kg  displaced %.3g kg", b.mass, b.lastDisplacedMass);
            hoverTooltip("Mass of the body, and the fluid mass it displaced at the last buoyancy evaluation.");
            if (ImGui::SmallButton("Stop")) {
                b.velocity = glm::vec3(0.0f);
                b.angularVelocity = glm::vec3(0.0f);
            }
            hoverTooltip("Zero the body's linear and angular velocity.");
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    if (!bodyError_.empty()) ImGui::TextColored(kErrorColor, "%s", bodyError_.c_str());
}

void DemoUi::renderSection(UiModel& m) {
    RenderSettings& s = *m.render;
    ImGui::Checkbox("Vortons", &s.drawVortons);
    hoverTooltip("Vortex particles as lit spheres sized by their core radius (V).");
    ImGui::SameLine();
    ImGui::Checkbox("Tracers", &s.drawTracers);
    hoverTooltip("Passive dye particles carried by the flow (T).");
    ImGui::SameLine();
    ImGui::Checkbox("Bodies", &s.drawBodies);
    hoverTooltip("Solid rigid bodies.");
    ImGui::Checkbox("Containers", &s.drawContainers);
    hoverTooltip("Containers drawn as glass so their contents stay visible.");
    ImGui::SameLine();
    ImGui::Checkbox("Gradient", &s.drawArrows);
    hoverTooltip("Density-gradient arrows (cyan): the baroclinic term turns them and gravity into vorticity (G).");
    ImGui::SameLine();
    ImGui::Checkbox("Grid", &s.drawGridBounds);
    hoverTooltip("Bounds of the velocity grid (B).");

    ImGui::SliderFloat("Vorton size", &s.vortonScale, 0.05f, 2.0f, "%.2f x sigma");
    ImGui::Checkbox("Size by colour value", &s.sizeVortonsByValue);
    hoverTooltip(
        "Shrink vortons with their |vorticity| or |density deviation| (whichever colours them), so the calm fluid "
        "filling a tank does not hide a wake.");
    hoverTooltip("Sphere radius as a multiple of each vorton's core radius sigma.");
    int colorMode = int(s.vortonColor);
    const char* colorModes[] = {"density deviation", "vorticity magnitude"};
    if (ImGui::Combo("Vorton colour", &colorMode, colorModes, 2)) s.vortonColor = ColorMode(colorMode);
    hoverTooltip(
        "density: heavy fluid blue, light red, neutral pale. vorticity: dark violet (still) to yellow (spinning).");
    ImGui::Checkbox("Perspective dots", &s.perspectiveTracers);
    hoverTooltip("Tracer dots sized in world units (nearer dots are bigger), or a fixed number of pixels.");
    if (s.perspectiveTracers) {
        ImGui::DragFloat("Tracer size", &s.tracerWorldSize, s.tracerWorldSize * 0.01f + 1e-5f, 1e-4f, 10.0f, "%.4f m",
                         ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
        hoverTooltip("Diameter of each tracer dot in world units. Dots under a pixel fade rather than vanish.");
    } else {
        ImGui::SliderFloat("Tracer size", &s.tracerPointSize, 1.0f, 8.0f, "%.1f px");
        hoverTooltip("Size of each tracer dot on screen.");
    }
    ImGui::SliderFloat("Tracer opacity", &s.tracerAlpha, 0.02f, 1.0f, "%.2f");
    hoverTooltip("Opacity of one tracer dot; lower for dense clouds of tracers.");
    int blend = int(s.tracerBlend);
    const char* blends[] = {"alpha", "additive"};
    if (ImGui::Combo("Tracer blend", &blend, blends, 2)) s.tracerBlend = TracerBlend(blend);
    hoverTooltip("alpha: dye-like. additive: glowing, dense regions saturate to white.");
    ImGui::Checkbox("Soft dots", &s.softTracers);
    hoverTooltip("Round dots with soft edges instead of square pixels.");

    int site = int(s.arrowSite);
    const char* sites[] = {"at vortons", "at grid points"};
    if (ImGui::Combo("Arrows", &site, sites, 2)) s.arrowSite = ArrowSite(site);
    hoverTooltip("Where to draw the density-gradient arrows: the gradient each vorton used, or the grid's.");
    ImGui::DragFloat("Arrow length", &s.arrowLength, 0.002f, 0.005f, 5.0f, "%.3f m", ImGuiSliderFlags_AlwaysClamp);
    hoverTooltip("Length of the arrow with the largest gradient; others scale with their magnitude.");
    ImGui::SliderInt("Arrow stride", &s.arrowStride, 1, 16);
    hoverTooltip("Draw every n-th arrow, to thin them out.");

    ImGui::Checkbox("Auto colour range", &s.autoRange);
    hoverTooltip("Follow the data: density range = largest |deviation|, vorticity range from the largest |omega|.");
    if (!s.autoRange) {
        ImGui::DragFloat("Density range", &s.densityRange, 0.01f, 1e-4f, 1e4f, "%.3g", ImGuiSliderFlags_Logarithmic);
        hoverTooltip("Density deviation drawn fully blue (heavy) or red (light).");
        ImGui::DragFloat("Vorticity range", &s.vorticityRange, 0.1f, 1e-3f, 1e5f, "%.3g", ImGuiSliderFlags_Logarithmic);
        hoverTooltip("|vorticity| (1/s) drawn at the top of the colour ramp.");
    }
    ImGui::SliderFloat("Glass opacity", &s.containerOpacity, 0.0f, 0.5f, "%.2f");
    hoverTooltip("Base opacity of container walls (edges and grazing angles are brighter).");
    ImGui::ColorEdit3("Sky", &s.backgroundTop.x, ImGuiColorEditFlags_NoInputs);
    hoverTooltip("Background colour at the top.");
    ImGui::SameLine();
    ImGui::ColorEdit3("Ground", &s.backgroundBottom.x, ImGuiColorEditFlags_NoInputs);
    hoverTooltip("Background colour at the bottom.");
}

void DemoUi::stirSection(UiModel& m) {
    ImGui::TextWrapped("Left-drag a body to move it. Ctrl+left-drag stirs the fluid.");
    ImGui::DragFloat("Stir radius", &m.stir->radius, 0.005f, 0.01f, 10.0f, "%.3f m", ImGuiSliderFlags_AlwaysClamp);
    hoverTooltip("Width of the stirring stroke around the mouse ray.");
    ImGui::DragFloat("Stir strength", &m.stir->strength, 0.01f, 0.0f, 20.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    hoverTooltip("How strongly a stroke pushes the fluid (adds vorticity, never net circulation).");
}

void DemoUi::errorPopup(UiModel& m) {
    if (!m.errorMessage.empty() && !ImGui::IsPopupOpen("Error")) ImGui::OpenPopup("Error");
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
        ImGui::TextColored(kErrorColor, "%s", m.errorMessage.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TextDisabled("The previous scene keeps running.");
        if (ImGui::Button("OK") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
            m.errorMessage.clear();
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

void DemoUi::helpOverlay(UiModel& m) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
                            ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.88f);
    if (ImGui::Begin("Keys and mouse", m.showHelp,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        int rows = 0;
        const char* const* table = shortcutTable(&rows);
        if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
            for (int i = 0; i < rows; ++i) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::TextColored(ImVec4(0.55f, 0.85f, 1.0f, 1.0f), "%s", table[2 * i]);
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(table[2 * i + 1]);
            }
            ImGui::EndTable();
        }
        ImGui::TextDisabled("H or F1 closes this.");
    }
    ImGui::End();
}

}  // namespace vfx
