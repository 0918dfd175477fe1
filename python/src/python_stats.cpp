#include "python_stats.hpp"

#include <vortonfx/version.hpp>

#include <cctype>
#include <string>

namespace py = pybind11;

namespace vfx::python {
namespace {

// As the runner spells a CSV column: lower case, anything but letters and digits as '_'.
std::string columnName(const std::string& text) {
    std::string out;
    for (unsigned char c : text) out += std::isalnum(c) ? char(std::tolower(c)) : '_';
    return out;
}

void putVector(py::dict& row, const std::string& name, const dvec3& v) {
    row[py::str(name + "_x")] = v.x;
    row[py::str(name + "_y")] = v.y;
    row[py::str(name + "_z")] = v.z;
}

}  // namespace

py::dict statsRow(const Simulation& sim) {
    const Diagnostics d = sim.diagnostics();
    py::dict row;
    row["step"] = sim.stepCount();
    row["time"] = sim.time();
    row["ms_step"] = sim.lastStepMs();
    row["vortons"] = sim.vortons().size();
    row["tracers"] = sim.tracers().size();
    row["kinetic_energy"] = d.kineticEnergy;
    putVector(row, "circulation", d.circulation);
    putVector(row, "impulse", d.linearImpulse);
    putVector(row, "angular_impulse", d.angularImpulse);
    row["mass_particles"] = d.massParticles;
    row["mass_grid"] = d.massGrid;
    row["max_speed"] = d.maxSpeed;
    row["field_energy"] = d.fieldEnergy;
    row["substeps"] = sim.lastSubsteps();
    row["remeshes"] = sim.remeshCount();
    row["potential_flow_energy"] = d.potentialFlowEnergy;
    row["enstrophy"] = d.enstrophy;
    row["energy_viscous_loss"] = d.energyViscousLoss;
    row["energy_subgrid_loss"] = d.energySubgridLoss;
    row["energy_buoyancy_work"] = d.energyBuoyancyWork;
    row["wall_normal_speed"] = d.wallNormalSpeed;
    for (const MeasuredEnergyPhase& p : kMeasuredEnergyPhases)  // None when not measured
        row[py::str(std::string("energy_change_") + p.name)] =
            d.energyChangesMeasured ? py::object(py::float_(d.energyChanges.*p.change)) : py::object(py::none());
    for (const PhaseTimers::Phase& p : sim.timers().phases()) row[py::str("ms_" + columnName(p.name))] = p.lastMs;
    for (const RigidBody& b : sim.bodies())
        if (!b.name.empty()) putVector(row, "body_" + columnName(b.name), dvec3(b.position));
    row["vortonfx_version"] = VORTONFX_VERSION;
    return row;
}

py::dict phaseTimings(const Simulation& sim, bool average) {
    py::dict timings;
    for (const PhaseTimers::Phase& p : sim.timers().phases())
        timings[py::str(p.name)] = average ? p.averageMs : p.lastMs;
    return timings;
}

}  // namespace vfx::python
