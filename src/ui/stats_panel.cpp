// The Stats section: frame time split, particle counts, per-phase timings as live plots and
// the conserved quantities with their drift since the scene started.
#include "ui/panels.hpp"
#include "ui/param_widgets.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace vfx {

void TimingHistory::push(const std::string& series, float ms) {
    auto [it, inserted] = values_.try_emplace(series);
    if (inserted) order_.push_back(series);
    std::vector<float>& v = it->second;
    if (v.size() >= kLength) v.erase(v.begin());
    v.push_back(ms);
}

const std::vector<float>& TimingHistory::series(const std::string& name) const {
    static const std::vector<float> empty;
    auto it = values_.find(name);
    return it == values_.end() ? empty : it->second;
}

namespace {

void plot(const char* id, const std::vector<float>& values, float height, const char* overlay) {
    if (values.empty()) return;
    float maxValue = *std::max_element(values.begin(), values.end());
    ImGui::PlotLines(id, values.data(), int(values.size()), 0, overlay, 0.0f, std::max(maxValue * 1.1f, 0.01f),
                     ImVec2(ImGui::GetContentRegionAvail().x, height));
}

// Relative drift |now - start| / max(|start|, scale), for quantities that should be conserved.
double drift(const dvec3& now, const dvec3& start, double scale) {
    return glm::length(now - start) / std::max(glm::length(start), scale);
}

// Where the field energy went since the reset (sim/energy_budget.hpp).
void energyBudgetLines(const Diagnostics& d, const Diagnostics& d0) {
    if (d.wallNormalSpeed > 0.0) {
        ImGui::Text("wall flow       %.3g m/s (%.2g%% of max speed)", d.wallNormalSpeed,
                    100.0 * d.wallNormalSpeed / std::max(d.maxSpeed, 1e-12));
        hoverTooltip(
            "The largest speed of the flow through a wall, |(u - u_wall) . n| over about 1,024 points on each "
            "body's surface: zero for walls the fluid cannot cross.");
    }
    ImGui::Text("enstrophy       %.4g m^3/s^2", d.enstrophy);
    hoverTooltip("Integral of |omega|^2 over the fluid: what viscosity and the subgrid model act on.");
    ImGui::Text("viscous loss    %.4g J", d.energyViscousLoss);
    hoverTooltip("Energy viscosity has taken since the reset: rho0 nu times the time integral of the enstrophy.");
    ImGui::Text("subgrid loss    %.4g J", d.energySubgridLoss);
    hoverTooltip(
        "Energy the subgrid model has taken since the reset: rho0 times the time integral of nu_t |omega|^2 V.");
    ImGui::Text("buoyancy work   %.4g J", d.energyBuoyancyWork);
    hoverTooltip("Work gravity has done on the density deviation since the reset: the time integral of rho' g . u V.");
    const double imbalance =
        d.fieldEnergy - d0.fieldEnergy + d.energyViscousLoss + d.energySubgridLoss - d.energyBuoyancyWork;
    ImGui::Text("budget residual %.4g J", imbalance);
    hoverTooltip(
        "Field energy change + viscous loss + subgrid loss - buoyancy work: near zero for a method that keeps energy "
        "as the equations do (unbounded flow; bodies and walls exchange energy too).");
}

// What each phase changed the field energy by, measured only while the box is ticked.
void energyChangeLines(Simulation& sim, const Diagnostics& d) {
    bool measure = sim.measuresEnergyChanges();
    if (ImGui::Checkbox("measure each phase's energy", &measure)) sim.setMeasureEnergyChanges(measure);
    hoverTooltip(
        "Solve the field energy after each phase that changes the vortons and add up each phase's change: where "
        "the budget's residual comes from. In the equations stretching and advection together keep the energy, "
        "baroclinic generation adds the buoyancy work, diffusion takes the viscous and subgrid losses, relaxation "
        "and remeshing take nothing. Costs several velocity solves a sub-step; the flow is the same either way.");
    if (!measure || !d.energyChangesMeasured) return;
    for (const MeasuredEnergyPhase& p : kMeasuredEnergyPhases) {
        ImGui::Text("  %-12s %+.4g J", p.name, d.energyChanges.*p.change);
        hoverTooltip(
            "The phase's change of the field energy, summed since the scene started while the box was ticked.");
    }
}

}  // namespace

void DemoUi::statsSection(const UiModel& m) {
    const FrameStats& f = m.stats;
    ImGui::Text("%.1f fps   frame %.1f ms", f.fps, f.frameMs);
    hoverTooltip("Frames drawn per second (averaged over the last half second) and the time of one frame.");
    ImGui::Text("sim %.1f  upload %.2f  draw %.2f  present %.1f  ui %.2f ms", f.simMs, f.uploadMs, f.drawMs,
                f.presentMs, f.uiMs);
    hoverTooltip(
        "Where a frame goes: simulation steps, copying particles to the GPU, issuing the draw calls, presenting "
        "the frame (waiting for the GPU to finish drawing, and for vsync when on) and building the panels.");
    ImGui::TextDisabled("GPU time of the scene passes: %.2f ms", f.drawGpuMs);
    hoverTooltip("From an OpenGL timer query, read back a few frames later so it never stalls the pipeline.");
    float total = float(std::max(f.frameMs, 1e-3));
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImVec4(0.3f, 0.6f, 1.0f, 1.0f));
    ImGui::ProgressBar(float(f.simMs) / total, ImVec2(-1, 0), "simulation share of the frame");
    ImGui::PopStyleColor();

    const TimingHistory& h = *m.history;
    float rowHeight = ImGui::GetFontSize() * 2.2f;
    plot("##frame", h.series("frame"), rowHeight, "frame ms");
    ImGui::Text("vortons %zu   tracers %zu   bodies %zu", m.sim->vortons().size(), m.sim->tracers().size(),
                m.sim->bodies().size());
    ImGui::Text("sub-steps per frame %d   remeshes %ld", m.sim->lastSubsteps(), m.sim->remeshCount());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Sub-steps the last frame took to keep within fluid.cfl_limit and fluid.strain_limit\n"
            "(at most fluid.max_substeps), and remeshes onto the lattice since the scene started.");

    const std::vector<PhaseTimers::Phase>& phases = m.sim->timers().phases();
    if (ImGui::TreeNodeEx("Simulation phases", ImGuiTreeNodeFlags_DefaultOpen)) {
        hoverTooltip("Milliseconds of each phase of the last step, and the average; the plot is the recent history.");
        if (ImGui::BeginTable("phases", 3, ImGuiTableFlags_SizingStretchProp)) {
            for (const PhaseTimers::Phase& p : phases) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::TextUnformatted(p.name.c_str());
                ImGui::TableSetColumnIndex(1);
                ImGui::Text("%6.2f ms", p.averageMs);
                ImGui::TableSetColumnIndex(2);
                ImGui::PushID(p.name.c_str());
                plot("##phase", h.series("phase:" + p.name), ImGui::GetFontSize(), nullptr);
                ImGui::PopID();
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
    if (ImGui::TreeNodeEx("Conserved quantities")) {
        const Diagnostics& d = m.diagnostics;
        const Diagnostics& d0 = m.initialDiagnostics;
        ImGui::Text("kinetic energy  %.4g J", d.kineticEnergy);
        ImGui::Text("field energy    %.4g J", d.fieldEnergy);
        hoverTooltip("Kinetic energy of the flow the vorticity induces (the vortons' field).");
        ImGui::Text("pushed aside    %.4g J", d.potentialFlowEnergy);
        hoverTooltip("Kinetic energy of the flow moving bodies push aside (their potential flow, 1/2 m_added W^2).");
        energyBudgetLines(d, d0);
        energyChangeLines(*m.sim, d);
        ImGui::Text("circulation     (%.3g, %.3g, %.3g)", d.circulation.x, d.circulation.y, d.circulation.z);
        ImGui::Text("  drift %.2e", drift(d.circulation, d0.circulation, 1e-9));
        hoverTooltip("Total circulation sum(omega V): conserved by inviscid flow without buoyancy or bodies.");
        ImGui::Text("linear impulse  (%.3g, %.3g, %.3g)", d.linearImpulse.x, d.linearImpulse.y, d.linearImpulse.z);
        ImGui::Text("  drift %.2e", drift(d.linearImpulse, d0.linearImpulse, 1e-9));
        hoverTooltip("0.5 sum x cross omega V: conserved without external forces (buoyancy changes it).");
        ImGui::Text("mass particles %.4g  grid %.4g", d.massParticles, d.massGrid);
        hoverTooltip("Density-deviation mass carried by the vortons and the same mass on the grid; they should match.");
        ImGui::Text("max speed       %.3g m/s", d.maxSpeed);
        ImGui::TreePop();
    }
}

}  // namespace vfx
