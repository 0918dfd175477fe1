#pragma once
// Simulation.bake: steps the simulation and writes OpenVDB frames (export/vdb_bake.hpp).
#include "python_simulation.hpp"

namespace vfx::python {

void bindBake(pybind11::class_<PythonSimulation>& simulation);

}  // namespace vfx::python
