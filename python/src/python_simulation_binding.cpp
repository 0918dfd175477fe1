// The Python class vortonfx.Simulation and its docstrings.
#include "python_arrays.hpp"
#include "python_bake.hpp"
#include "python_json.hpp"
#include "python_presets.hpp"
#include "python_simulation.hpp"
#include "python_stats.hpp"

#include <memory>

namespace py = pybind11;

namespace vfx::python {
namespace {

constexpr const char* kClassDoc = R"(A vortonfx simulation built from a scene.

    sim = vortonfx.Simulation.preset("dye_drop")             # a preset by name
    sim = vortonfx.Simulation("my_scene.json", set={"fluid.viscosity": 0.01})
    sim = vortonfx.Simulation({"vortons": [{"shape": "sphere", "count": 1024}]})
    sim.step(1 / 30)                                          # one frame, sub-stepped as the flow needs
    xyz = sim.tracers.position                                # (n, 3) float32 view, no copy

Scenes are validated as the runner validates them: a bad key or value raises SceneError (a
ValueError) whose message names the file and the key's JSON path. Results are the same bits as
the runner's for the same scene, dt and steps, for any thread count.)";

std::unique_ptr<PythonSimulation> makeSimulation(py::handle scene, py::handle overrides, int threads) {
    return std::make_unique<PythonSimulation>(sceneFromPython(scene, overrides), threads);
}

std::unique_ptr<PythonSimulation> makePreset(const std::string& name, py::handle overrides, int threads) {
    const std::string path = presetPath(name);
    return makeSimulation(py::str(path), overrides, threads);
}

void bindConstruction(py::class_<PythonSimulation>& c) {
    c.def(py::init(&makeSimulation), py::arg("scene") = py::none(), py::kw_only(), py::arg("set") = py::none(),
          py::arg("threads") = 0,
          R"(scene: a scene file path, a scene as a dict (the JSON format of scenes/*.json) or None (empty).
set: {"dotted.name": value} overrides applied before validation, like the runner's --set.
threads: worker threads, 0 = all cores; results do not depend on it.)")
        .def_static("preset", &makePreset, py::arg("name"), py::kw_only(), py::arg("set") = py::none(),
                    py::arg("threads") = 0,
                    "A preset by name (\"dye_drop\", \"dye_drop.json\" or its title \"Dye drop\"); see "
                    "vortonfx.presets(). ValueError lists the presets when the name is unknown.")
        .def_property_readonly(
            "name", [](const PythonSimulation& s) { return s.scene().name; }, "The scene's name.")
        .def_property_readonly(
            "path", [](const PythonSimulation& s) { return s.scene().path; },
            "The scene file (\"scene\" for a dict, \"\" for an empty scene).")
        .def_property_readonly(
            "scene", [](const PythonSimulation& s) { return pythonFromJson(s.scene().document); },
            "The validated scene document with every set() applied, as a dict (a copy).");
}

void bindParameters(py::class_<PythonSimulation>& c) {
    c.def("set", &PythonSimulation::set, py::arg("name"), py::arg("value"),
          R"(Sets a scene value by its dotted name, exactly as the runner's --set does.

sim.set("fluid.viscosity", 0.01); sim.set("vortons.0.count", 8192); sim.set("bodies.1", {...}).
Fluid parameters that apply live (see vortonfx.parameters()) change the running simulation at
once; everything else (regions, bodies, fluid parameters marked not live) applies at reset().
A bad name or value raises SceneError (a ValueError) naming the key; nothing changes then.)")
        .def("get", &PythonSimulation::get, py::arg("name"),
             "A value by dotted name: fluid parameters as the simulation runs them, other names from the scene "
             "document. ValueError when the scene has no such value.")
        .def("parameters", &PythonSimulation::parameters,
             "Every fluid and time parameter by dotted name, as the simulation runs them (a dict).");
}

void bindStepping(py::class_<PythonSimulation>& c) {
    c.def("step", &PythonSimulation::step, py::arg("dt") = py::none(), py::arg("steps") = 1,
          R"(Advances `steps` frames of dt seconds each (default: the scene's time.dt).

Each frame is sub-stepped as fluid.cfl_limit and fluid.strain_limit ask. The GIL is released while
stepping, so other Python threads run (they cannot use this simulation meanwhile: RuntimeError).
Ctrl-C stops between frames with KeyboardInterrupt. Raises NonFiniteError (step, phase) if a phase
produced NaN or infinity. Views from vortons, tracers and bodies taken before are invalid after.)")
        .def("reset", &PythonSimulation::reset,
             "Rebuilds the scene (with every set() applied) at time 0; drops particles and bodies added by add_*.")
        .def_property(
            "threads", [](const PythonSimulation& s) { return s.sim().threads(); },
            [](PythonSimulation& s, int threads) {
                s.requireIdle();
                if (threads < 0)
                    throw py::value_error("threads: must be a whole number >= 0 (0 = all cores), got " +
                                          std::to_string(threads));
                s.sim().setThreads(threads);
            },
            "Worker threads (0 = all cores). Results are the same for any value.")
        .def_property_readonly(
            "time", [](const PythonSimulation& s) { return s.sim().time(); }, "Simulated time, s.")
        .def_property_readonly(
            "step_count", [](const PythonSimulation& s) { return s.sim().stepCount(); }, "Steps since reset().")
        .def_property_readonly(
            "substeps", [](const PythonSimulation& s) { return s.sim().lastSubsteps(); },
            "Sub-steps the last step took.")
        .def_property_readonly(
            "remeshes", [](const PythonSimulation& s) { return s.sim().remeshCount(); }, "Remeshes since reset().")
        .def_property(
            "measure_energy_changes", [](const PythonSimulation& s) { return s.sim().measuresEnergyChanges(); },
            [](PythonSimulation& s, bool on) {
                s.requireIdle();
                s.sim().setMeasureEnergyChanges(on);
            },
            "Measure the field energy after each phase that changes the vortons into stats()'s "
            "energy_change_<phase> (None while off): several velocity solves a sub-step. The flow is the same "
            "either way.");
}

void bindState(py::class_<PythonSimulation>& c) {
    c.def_property_readonly("vortons", &vortonsOf, "The vortons' arrays (Vortons: position, vorticity, ...).")
        .def_property_readonly("tracers", &tracersOf, "The tracers' arrays (Tracers: position, velocity, density).")
        .def_property_readonly("bodies", &bodiesOf, "The rigid bodies (Bodies: names, position, velocity, ...).")
        .def(
            "stats",
            [](const PythonSimulation& s) {
                s.requireReadable();
                return statsRow(s.sim());
            },
            "The runner's --stats row for the current state as a dict keyed by its CSV columns (step, time, "
            "ms_step, kinetic_energy, circulation_x, ..., ms_<phase>, body_<name>_x, ...). Computes the "
            "diagnostics, which costs about a velocity solve at the vortons.")
        .def_property_readonly(
            "timings",
            [](const PythonSimulation& s) {
                s.requireReadable();
                return phaseTimings(s.sim(), false);
            },
            "Milliseconds each phase took in the last step, by phase name, in the order phases run.")
        .def_property_readonly(
            "average_timings",
            [](const PythonSimulation& s) {
                s.requireReadable();
                return phaseTimings(s.sim(), true);
            },
            "Each phase's milliseconds per step, smoothed over steps (exponential moving average).")
        .def_property_readonly(
            "last_step_ms", [](const PythonSimulation& s) { return s.sim().lastStepMs(); },
            "Wall-clock milliseconds of the last step, as the runner's ms_step.")
        .def("__repr__", [](const PythonSimulation& s) {
            return "<vortonfx.Simulation '" + s.scene().name + "': " + std::to_string(s.sim().vortons().size()) +
                   " vortons, " + std::to_string(s.sim().tracers().size()) + " tracers, " +
                   std::to_string(s.sim().bodies().size()) + " bodies, t=" + std::to_string(s.sim().time()) + " s>";
        });
}

}  // namespace

void bindSimulation(py::module_& m) {
    py::class_<PythonSimulation> c(m, "Simulation", kClassDoc);
    bindConstruction(c);
    bindParameters(c);
    bindStepping(c);
    bindState(c);
    bindEditing(c);
    bindBake(c);
}

}  // namespace vfx::python
