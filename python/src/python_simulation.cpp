#include "python_simulation.hpp"

#include "python_json.hpp"
#include "scene/schema.hpp"

#include <cmath>
#include <filesystem>
#include <sstream>

namespace py = pybind11;
using nlohmann::json;

namespace vfx::python {
namespace {

std::string sourceName(const Scene& scene) { return scene.path.empty() ? "scene" : scene.path; }

// "fluid.viscosity" -> ("fluid", "viscosity"); anything else -> ("", "").
std::pair<std::string, std::string> sectionAndKey(const std::string& dotted) {
    const size_t dot = dotted.find('.');
    if (dot == std::string::npos) return {};
    const std::string section = dotted.substr(0, dot), key = dotted.substr(dot + 1);
    if ((section != "fluid" && section != "time") || key.empty() || key.find('.') != std::string::npos) return {};
    return {section, key};
}

std::vector<std::string> overridesFromPython(py::handle overrides) {
    std::vector<std::string> assignments;
    if (overrides.is_none()) return assignments;
    if (!py::isinstance<py::dict>(overrides))
        throw py::type_error("set: expected a dict of dotted names and values, e.g. {\"fluid.viscosity\": 0.01}");
    for (const auto& item : overrides.cast<py::dict>()) {
        const std::string key = py::str(item.first);
        assignments.push_back(key + "=" + overrideText(item.second, key));
    }
    return assignments;
}

}  // namespace

Scene sceneFromPython(py::handle source, py::handle overrides) {
    const std::vector<std::string> assignments = overridesFromPython(overrides);
    if (source.is_none() || py::isinstance<py::dict>(source)) {
        json document = source.is_none() ? json::object() : jsonFromPython(source, "scene");
        for (const std::string& assignment : assignments) applyOverride(document, assignment);
        return parseScene(document, "scene");
    }
    if (py::isinstance<py::str>(source) || py::hasattr(source, "__fspath__"))
        return loadScene(py::str(py::module_::import("os").attr("fspath")(source)), assignments);
    throw py::type_error("scene: expected a file path, a dict or None, got " +
                         std::string(py::str(source.get_type().attr("__name__"))));
}

PythonSimulation::PythonSimulation(Scene scene, int threads) : scene_(std::move(scene)) {
    if (threads < 0)
        throw py::value_error("threads: must be a whole number >= 0 (0 = all cores), got " + std::to_string(threads));
    sim_.setThreads(threads);
    buildSimulation(scene_, sim_);
}

void PythonSimulation::requireIdle() const {
    if (!busy_) return;
    if (busyThread_ == std::this_thread::get_id())
        throw std::runtime_error("a bake's progress callback may read the simulation, not change it");
    throw std::runtime_error("the simulation is stepping in another thread; wait for step() or bake()");
}

void PythonSimulation::requireReadable() const {
    if (busy_ && !(callbackOpen_ && busyThread_ == std::this_thread::get_id())) requireIdle();
}

PythonSimulation::BusyScope::BusyScope(PythonSimulation& owner) : owner_(owner) {
    owner_.requireIdle();
    owner_.busy_ = true;
    owner_.busyThread_ = std::this_thread::get_id();
}

PythonSimulation::BusyScope::~BusyScope() { owner_.busy_ = false; }

// The key applies to the scene document exactly as --set would (same paths, same validation and
// messages); a fluid parameter that applies live also changes the running simulation at once.
void PythonSimulation::set(const std::string& key, py::handle value) {
    requireIdle();
    json document = scene_.document;
    applyOverride(document, key + "=" + overrideText(value, key));
    Scene updated = parseScene(document, sourceName(scene_));
    const auto [section, name] = sectionAndKey(key);
    if (section == "fluid") {
        const ParamSpec* spec = findParamSpec("fluid", name);
        if (spec && !spec->needsReset) {
            const std::string problem = setFluidParam(sim_.fluid(), name, getFluidParam(updated.fluid, name));
            if (!problem.empty()) throw SceneError(sourceName(scene_) + ": /fluid/" + name + ": " + problem);
            // A level writes its values now, so a value set after it in the same script stays.
            sim_.applyQualityIfChanged();
        }
    }
    scene_ = std::move(updated);
}

py::object PythonSimulation::get(const std::string& key) const {
    requireReadable();
    const auto [section, name] = sectionAndKey(key);
    if (section == "fluid" && findParamSpec("fluid", name)) return pythonFromJson(getFluidParam(sim_.fluid(), name));
    if (section == "time" && findParamSpec("time", name)) return pythonFromJson(getTimeParam(scene_.time, name));
    const json* node = &scene_.document;
    std::stringstream parts(key);
    std::string part, walked;
    while (std::getline(parts, part, '.')) {
        const bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
        if (node->is_object() && node->contains(part)) {
            node = &node->at(part);
        } else if (node->is_array() && index && std::stoul(part) < node->size()) {
            node = &node->at(std::stoul(part));
        } else {
            throw py::value_error(key + ": not in the scene" +
                                  (walked.empty() ? "" : " (" + walked + " has no \"" + part + "\")"));
        }
        walked += (walked.empty() ? "" : ".") + part;
    }
    return pythonFromJson(*node);
}

py::dict PythonSimulation::parameters() const {
    requireReadable();
    py::dict values;
    for (const ParamSpec* spec : paramSpecsInSection("fluid"))
        values[py::str("fluid." + spec->key)] = pythonFromJson(getFluidParam(sim_.fluid(), spec->key));
    for (const ParamSpec* spec : paramSpecsInSection("time"))
        values[py::str("time." + spec->key)] = pythonFromJson(getTimeParam(scene_.time, spec->key));
    return values;
}

void PythonSimulation::reset() {
    requireIdle();
    buildSimulation(scene_, sim_);
}

float PythonSimulation::frameDt(std::optional<double> dt) const {
    if (!dt) return scene_.time.dt;
    const double value = *dt;
    if (!std::isfinite(value) || !(value > 0.0) || value > 1e6) {
        std::ostringstream text;
        text << value;
        throw py::value_error("dt: must be a number > 0 (seconds), got " + text.str());
    }
    return float(value);
}

void PythonSimulation::stepReleased(float dt) {
    py::gil_scoped_release release;
    sim_.step(dt);
}

void PythonSimulation::step(std::optional<double> dt, long steps) {
    const float frame = frameDt(dt);
    if (steps < 0) throw py::value_error("steps: must be a whole number >= 0, got " + std::to_string(steps));
    BusyScope busy(*this);
    for (long i = 0; i < steps; ++i) {
        stepReleased(frame);
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
}

}  // namespace vfx::python
