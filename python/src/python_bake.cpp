#include "python_bake.hpp"

#include "export/vdb_bake.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>

namespace py = pybind11;

namespace vfx::python {
namespace {

struct BakeRequest {
    std::string folder;
    long frames = 0;
    long stepsPerFrame = 1;
    float voxelSize = 0.0f;
    std::string name;
};

// Everything checked before the first step, as the runner checks its --vdb flags (the folder is
// created and tried); ValueError names the argument.
VdbBakeSettings bakeSettings(const PythonSimulation& self, const BakeRequest& r) {
    if (r.frames < 1) throw py::value_error("frames: must be a whole number >= 1, got " + std::to_string(r.frames));
    if (r.stepsPerFrame < 1)
        throw py::value_error("steps_per_frame: must be a whole number >= 1, got " + std::to_string(r.stepsPerFrame));
    if (!std::isfinite(r.voxelSize) || r.voxelSize < 0.0f) {
        std::ostringstream text;
        text << r.voxelSize;
        throw py::value_error("voxel_size: must be a number >= 0 (metres; 0 = the simulation's grid), got " +
                              text.str());
    }
    VdbBakeSettings s;
    s.directory = r.folder;
    s.name = r.name;
    if (s.name.empty()) s.name = std::filesystem::path(self.scene().path).stem().string();
    if (s.name.empty()) s.name = "scene";
    s.voxelSize = r.voxelSize;
    try {
        checkVdbBake(s);
    } catch (const BakeError& e) {
        throw py::value_error(e.what());
    }
    return s;
}

std::string writeReleased(VdbBaker& baker, const Simulation& sim) {
    py::gil_scoped_release release;
    return baker.writeFrame(sim);
}

py::list bake(PythonSimulation& self, const std::string& folder, long frames, std::optional<double> dt,
              long stepsPerFrame, float voxelSize, const std::string& name, py::object progress) {
    const float frameDt = self.frameDt(dt);
    VdbBaker baker(bakeSettings(self, {folder, frames, stepsPerFrame, voxelSize, name}));
    PythonSimulation::BusyScope busy(self);
    py::list paths;
    for (long frame = 1; frame <= frames; ++frame) {
        for (long k = 0; k < stepsPerFrame; ++k) {
            self.stepReleased(frameDt);
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // Ctrl-C: earlier frames are whole
        }
        const std::string path = writeReleased(baker, self.sim());
        paths.append(path);
        if (!progress.is_none()) {
            PythonSimulation::CallbackScope reading(self);
            const py::object answer = progress(frame, frames, path);
            if (answer.is(py::bool_(false))) break;
        }
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
    return paths;
}

}  // namespace

void bindBake(py::class_<PythonSimulation>& simulation) {
    simulation.def("bake", &bake, py::arg("folder"), py::arg("frames"), py::kw_only(), py::arg("dt") = py::none(),
                   py::arg("steps_per_frame") = 1, py::arg("voxel_size") = 0.0f, py::arg("name") = "",
                   py::arg("progress") = py::none(),
                   R"(Steps the simulation and writes OpenVDB frames; returns the frame paths.

Frame k (from 1) is written after k * steps_per_frame steps of dt seconds (default: the scene's
time.dt), as the runner's --vdb does: folder/<name>_000k.vdb with float grids density (rho',
kg/m^3), vorticity (|omega|, 1/s) and tracers (tracers per voxel, the dye), the vec3 grid velocity
(m/s), and the tracers as OpenVDB points in folder/tracers/<name>_000k.vdb. Y is up. name defaults
to the scene file's stem ("dye_drop"), voxel_size (m) to the simulation's grid spacing.

progress(frame, frames, path) is called after each frame with the GIL held (the particle views
are valid there); returning False stops the bake after that frame. The GIL is released while
stepping and writing, so other Python threads run. Ctrl-C stops the bake between steps with
KeyboardInterrupt; every frame written before it is complete. Bad arguments raise ValueError
naming the argument, before any step is taken.)");
}

}  // namespace vfx::python
