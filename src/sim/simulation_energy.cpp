// The field energy each phase changes, measured on request (Simulation::setMeasureEnergyChanges,
// sim/energy_budget.hpp): a velocity solve at the vortons after each phase that changes them.
#include "sim/simulation.hpp"

namespace vfx {

void Simulation::setMeasureEnergyChanges(bool on) {
    measureEnergyChanges_ = on;
    energyMarkCurrent_ = false;
}

void Simulation::measureEnergyChange(double MeasuredEnergyChanges::*into) {
    if (!measureEnergyChanges_) return;
    const double now = fieldEnergyNow();
    if (energyMarkCurrent_ && into) energyBudget_.measured.*into += now - energyMark_;
    energyMark_ = now;
    energyMarkCurrent_ = true;
}

void Simulation::markEnergyIfStale() {
    if (measureEnergyChanges_ && !energyMarkCurrent_) measureEnergyChange(nullptr);
}

}  // namespace vfx
