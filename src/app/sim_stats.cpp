#include "app/sim_stats.hpp"

#include "core/text_format.hpp"

#include <vortonfx/version.hpp>

namespace vfx {
namespace {

// Ten significant digits: enough to reproduce a run's figures from its CSV.
std::string number(double v) { return formatNumber(v, 10); }

}  // namespace

StatsWriter::StatsWriter(const std::string& path) : file_(path) {}

void StatsWriter::row(const Simulation& sim) {
    if (!headerWritten_) writeHeader(sim);
    const Diagnostics d = sim.diagnostics();
    std::string line = std::to_string(sim.stepCount()) + "," + number(sim.time()) + "," + number(sim.lastStepMs()) +
                       "," + std::to_string(sim.vortons().size()) + "," + std::to_string(sim.tracers().size()) + "," +
                       number(d.kineticEnergy);
    for (const dvec3& v : {d.circulation, d.linearImpulse, d.angularImpulse})
        line += "," + number(v.x) + "," + number(v.y) + "," + number(v.z);
    line += "," + number(d.massParticles) + "," + number(d.massGrid) + "," + number(d.maxSpeed);
    line += "," + number(d.fieldEnergy) + "," + std::to_string(sim.lastSubsteps()) + "," +
            std::to_string(sim.remeshCount()) + "," + number(d.potentialFlowEnergy) + "," + number(d.enstrophy) + "," +
            number(d.energyViscousLoss) + "," + number(d.energySubgridLoss) + "," + number(d.energyBuoyancyWork) + "," +
            number(d.wallNormalSpeed);
    // Empty cells when the changes were not measured.
    for (const MeasuredEnergyPhase& p : kMeasuredEnergyPhases)
        line += "," + (d.energyChangesMeasured ? number(d.energyChanges.*p.change) : std::string());
    for (const std::string& phase : phases_) line += "," + number(sim.timers().lastMs(phase));
    for (const RigidBody& b : sim.bodies())
        if (!b.name.empty())
            line += "," + number(b.position.x) + "," + number(b.position.y) + "," + number(b.position.z);
    line += "," VORTONFX_VERSION;  // the file has no other place for metadata that CSV readers keep
    file_.stream() << line << '\n';
    file_.stream().flush();
    file_.check();
}

void StatsWriter::finish(const Simulation& sim) {
    if (!headerWritten_) writeHeader(sim);
    file_.finishWriting();
}

std::string StatsWriter::keepAsFailed(const Simulation& sim) {
    if (!headerWritten_) writeHeader(sim);
    const std::string path = file_.target() + ".failed";
    file_.commitAs(path);
    return path;
}

void StatsWriter::writeHeader(const Simulation& sim) {
    std::string header = "step,time,ms_step,vortons,tracers,kinetic_energy";
    for (const char* q : {"circulation", "impulse", "angular_impulse"})
        header += std::string(",") + q + "_x," + q + "_y," + q + "_z";
    header +=
        ",mass_particles,mass_grid,max_speed,field_energy,substeps,remeshes,potential_flow_energy"
        ",enstrophy,energy_viscous_loss,energy_subgrid_loss,energy_buoyancy_work,wall_normal_speed";
    for (const MeasuredEnergyPhase& p : kMeasuredEnergyPhases) header += std::string(",energy_change_") + p.name;
    for (const PhaseTimers::Phase& p : sim.timers().phases()) {
        phases_.push_back(p.name);
        header += ",ms_" + columnName(p.name);
    }
    for (const RigidBody& b : sim.bodies())
        if (!b.name.empty()) {
            const std::string c = "body_" + columnName(b.name);
            header += "," + c + "_x," + c + "_y," + c + "_z";
        }
    header += ",vortonfx_version";
    file_.stream() << header << '\n';
    headerWritten_ = true;
}

}  // namespace vfx
