// The Python module `vortonfx`: scenes, presets and parameters, stepping, NumPy views of the
// particles, the stats row and phase timings, and the OpenVDB bake. Errors in what the caller
// gave raise ValueError (SceneError for scenes) with the messages the runner prints.
#include "python_arrays.hpp"
#include "python_json.hpp"
#include "python_presets.hpp"
#include "python_simulation.hpp"

#include "export/vdb_bake.hpp"
#include "scene/schema.hpp"

#include <pybind11/stl.h>
#include <vortonfx/version.hpp>

#include <filesystem>

namespace py = pybind11;

namespace vfx::python {
namespace {

void registerErrors(py::module_& m) {
    py::register_exception<SceneError>(m, "SceneError", PyExc_ValueError).doc() =
        "A scene or parameter that does not validate; the message names the file (or \"scene\" for a dict) and the "
        "JSON path of the key at fault, e.g. \"scene: /fluid/viscosity: must be >= 0, got -1\".";
    py::register_exception<BakeError>(m, "BakeError", PyExc_OSError).doc() =
        "A frame of a bake that could not be written; the frames before it are complete.";
    // NonFiniteError carries the step and phase as attributes.
    static PyObject* nonFinite =
        py::exception<NonFiniteError>(m, "NonFiniteError", PyExc_ArithmeticError).release().ptr();
    py::setattr(nonFinite, "__doc__",
                py::str("The simulation produced NaN or infinity (attributes step and phase); try a smaller dt."));
    py::register_exception_translator([](std::exception_ptr thrown) {
        try {
            if (thrown) std::rethrow_exception(thrown);
        } catch (const NonFiniteError& e) {
            const py::object error = py::reinterpret_borrow<py::object>(nonFinite)(
                "the simulation produced a non-finite value at step " + std::to_string(e.step) + " in phase \"" +
                e.phase + "\" (try a smaller dt)");
            error.attr("step") = e.step;
            error.attr("phase") = e.phase;
            PyErr_SetObject(nonFinite, error.ptr());
        }
    });
}

py::list presets() {
    py::list list;
    for (const PresetInfo& p : presetList()) {
        py::dict d;
        d["name"] = std::filesystem::path(p.fileName).stem().string();
        d["title"] = p.name;
        d["description"] = p.description;
        d["path"] = p.path;
        if (!p.error.empty()) d["error"] = p.error;
        list.append(d);
    }
    return list;
}

py::list parameterSpecs() {
    py::list list;
    for (const char* section : {"fluid", "time"})
        for (const ParamSpec* s : paramSpecsInSection(section)) {
            py::dict d;
            d["name"] = std::string(section) + "." + s->key;
            d["unit"] = s->unit;
            d["description"] = s->description;
            d["default"] = pythonFromJson(s->defaultValue);
            d["range"] = rangeText(*s);
            if (!s->choices.empty()) d["choices"] = s->choices;
            d["live"] = !s->needsReset;
            list.append(d);
        }
    return list;
}

}  // namespace

}  // namespace vfx::python

PYBIND11_MODULE(vortonfx, m) {
    using namespace vfx::python;
    m.doc() = "vortonfx: a vortex-particle fluid simulation for game visual effects (C++ with NumPy views).";
    m.attr("__version__") = VORTONFX_VERSION;
    registerErrors(m);
    bindArrayViews(m);
    bindSimulation(m);
    m.def("presets", &presets,
          "The presets: a list of dicts with name (\"dye_drop\", what Simulation.preset takes), title, description "
          "and path.");
    m.def("preset_directory", &presetDirectory, "The scenes directory the presets come from (\"\" if none found).");
    m.def("parameters", &parameterSpecs,
          "Every fluid and time parameter: name (\"fluid.viscosity\"), unit, description, default, range, choices "
          "and live (False: applies at reset()).");
}
