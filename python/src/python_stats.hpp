#pragma once
// The runner's --stats row and the per-phase timings as Python dicts.
#include "sim/simulation.hpp"

#include <pybind11/pybind11.h>

namespace vfx::python {

// The columns of a `vortonfx-sim --stats` row for the current state, by the CSV's column names
// (circulation_x, ms_velocity, body_<name>_x, ...), in the CSV's order.
pybind11::dict statsRow(const Simulation& sim);
// Phase name -> milliseconds of the last step (or the smoothed average), in the order phases run.
pybind11::dict phaseTimings(const Simulation& sim, bool average);

}  // namespace vfx::python
