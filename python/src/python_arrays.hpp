#pragma once
// NumPy views of the particles and bodies. A view shares the simulation's memory (no copy),
// is read-only, and keeps the Python Simulation alive; it is valid until the next call that
// changes the simulation (step, bake, reset, add_*), which may move the storage.
#include "python_simulation.hpp"

#include <pybind11/pybind11.h>

namespace vfx::python {

// The Vortons, Tracers and Bodies classes.
void bindArrayViews(pybind11::module_& module);
// The views of one Python Simulation object (what Simulation.vortons etc. return).
pybind11::object vortonsOf(pybind11::object simulation);
pybind11::object tracersOf(pybind11::object simulation);
pybind11::object bodiesOf(pybind11::object simulation);

// add_vortons, add_tracers, add_body, move_body (python_editing.cpp).
void bindEditing(pybind11::class_<PythonSimulation>& simulation);

}  // namespace vfx::python
