// Changing a running simulation from Python: particles and bodies added between steps, and
// kinematic bodies moved. None of these enter the scene document: reset() rebuilds the scene
// without them (a body meant to stay is set into the scene: sim.set("bodies.N", {...})).
#include "python_arrays.hpp"
#include "python_json.hpp"

#include "bodies/body_motion.hpp"
#include "scene/scene_geometry.hpp"
#include "sim/sphere_closure.hpp"

#include <pybind11/numpy.h>

#include <cmath>
#include <sstream>

namespace py = pybind11;
using nlohmann::json;

namespace vfx::python {
namespace {

using Floats = py::array_t<float, py::array::c_style | py::array::forcecast>;

std::string shapeText(const py::object& array) { return py::str(array.attr("shape")); }

// `value` as a contiguous float32 array of n rows of `width` values (width 0: a column of n),
// broadcast from a single row or scalar.
Floats rows(py::handle value, size_t n, size_t width, const std::string& name) {
    const py::module_ np = py::module_::import("numpy");
    const py::object array = np.attr("asarray")(value, "float32");
    const py::tuple shape = width ? py::make_tuple(n, width) : py::make_tuple(n);
    try {
        return Floats(np.attr("ascontiguousarray")(np.attr("broadcast_to")(array, shape)));
    } catch (const py::error_already_set&) {
        throw py::value_error(name + ": expected shape " + std::string(py::str(static_cast<py::handle>(shape))) +
                              " or one value for all, got " + shapeText(array));
    }
}

// Positions as (n, 3): a single point (3,) counts as one row.
Floats positions(py::handle value) {
    const py::module_ np = py::module_::import("numpy");
    py::object array = np.attr("asarray")(value, "float32");
    if (array.attr("ndim").cast<int>() == 1 && array.attr("shape").cast<py::tuple>()[0].cast<long>() == 3)
        array = array.attr("reshape")(1, 3);
    if (array.attr("ndim").cast<int>() != 2 || array.attr("shape").cast<py::tuple>()[1].cast<long>() != 3)
        throw py::value_error("position: expected shape (n, 3), got " + shapeText(array));
    return Floats(array);
}

void requireFinite(const Floats& values, const std::string& name) {
    const float* data = values.data();
    for (py::ssize_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(data[i])) {
            std::ostringstream text;
            text << data[i];
            throw py::value_error(name + ": must be finite, got " + text.str());
        }
}

void requirePositive(const Floats& values, const std::string& name) {
    requireFinite(values, name);
    const float* data = values.data();
    for (py::ssize_t i = 0; i < values.size(); ++i)
        if (!(data[i] > 0.0f)) {
            std::ostringstream text;
            text << data[i];
            throw py::value_error(name + ": must be > 0, got " + text.str());
        }
}

py::object indexRange(size_t first, size_t end) { return py::module_::import("builtins").attr("range")(first, end); }

py::object addVortons(PythonSimulation& self, py::handle position, py::handle vorticity, py::handle radius,
                      py::handle density, py::handle volume) {
    self.requireIdle();
    const Floats x = positions(position);
    const size_t n = size_t(x.shape(0));
    const Floats omega = rows(vorticity, n, 3, "vorticity"), sigma = rows(radius, n, 0, "radius"),
                 rho = rows(density, n, 0, "density");
    requireFinite(x, "position"), requireFinite(omega, "vorticity"), requirePositive(sigma, "radius");
    requireFinite(rho, "density");
    Floats share;
    if (!volume.is_none()) requirePositive(share = rows(volume, n, 0, "volume"), "volume");
    Vortons& vortons = self.sim().vortons();
    const size_t first = vortons.size();
    for (size_t i = 0; i < n; ++i) {
        const vec3 p(x.at(i, 0), x.at(i, 1), x.at(i, 2)), w(omega.at(i, 0), omega.at(i, 1), omega.at(i, 2));
        if (volume.is_none())
            vortons.add(p, w, sigma.at(i), rho.at(i));
        else
            vortons.add(p, w, sigma.at(i), rho.at(i), share.at(i));
    }
    return indexRange(first, vortons.size());
}

py::object addTracers(PythonSimulation& self, py::handle position) {
    self.requireIdle();
    const Floats x = positions(position);
    requireFinite(x, "position");
    Tracers& tracers = self.sim().editTracers();
    const size_t first = tracers.size();
    for (py::ssize_t i = 0; i < x.shape(0); ++i) tracers.add(vec3(x.at(i, 0), x.at(i, 1), x.at(i, 2)));
    return indexRange(first, tracers.size());
}

// Poses a kinematic body so that at `time` it stands at `position` and `orientation`: its rest
// pose absorbs the drift and oscillation it has made by then (bodies/body_motion setKinematicPose).
// The pose comes by value: callers pass the body's own rest pose, which is overwritten here.
void placeKinematic(RigidBody& body, const vec3 position, const quat orientation, double time) {
    body.restPosition = vec3(0.0f);
    body.restOrientation = quat(1.0f, 0.0f, 0.0f, 0.0f);
    setKinematicPose(body, time);  // the motion alone: offset and swing at this time
    body.restPosition = position - body.position;
    body.restOrientation = glm::normalize(orientation * glm::conjugate(body.orientation));
    setKinematicPose(body, time);
}

size_t addBody(PythonSimulation& self, py::handle description) {
    self.requireIdle();
    json document = self.scene().document;
    if (!document.contains("bodies")) document["bodies"] = json::array();
    document["bodies"].push_back(jsonFromPython(description, "body"));
    const Scene scene = parseScene(document, self.scene().path.empty() ? "scene" : self.scene().path);
    RigidBody body = rigidBodyFromDesc(scene.bodies.back());
    const double now = self.sim().time();
    if (body.motion == MotionKind::Kinematic) placeKinematic(body, body.restPosition, body.restOrientation, now);
    body.clock = now;
    if (body.shape.kind == ShapeKind::Sphere) prepareSphereClosures();
    self.sim().bodies().push_back(std::move(body));
    return self.sim().bodies().size() - 1;
}

RigidBody& findBody(PythonSimulation& self, py::handle which) {
    std::vector<RigidBody>& bodies = self.sim().bodies();
    if (py::isinstance<py::str>(which)) {
        const std::string name = which.cast<std::string>();
        for (RigidBody& b : bodies)
            if (b.name == name) return b;
        throw py::value_error("body: no body named \"" + name + "\"");
    }
    const long i = which.cast<long>();
    if (i < 0 || size_t(i) >= bodies.size())
        throw py::value_error("body: index " + std::to_string(i) + " out of range (" + std::to_string(bodies.size()) +
                              " bodies)");
    return bodies[size_t(i)];
}

vec3 vectorArgument(py::handle value, const std::string& name) {
    const Floats v = rows(value, 1, 3, name);
    requireFinite(v, name);
    return vec3(v.at(0, 0), v.at(0, 1), v.at(0, 2));
}

void moveBody(PythonSimulation& self, py::handle which, py::handle position, py::handle orientation,
              py::handle velocity) {
    self.requireIdle();
    RigidBody& body = findBody(self, which);
    if (body.motion != MotionKind::Kinematic)
        throw py::value_error("body \"" + body.name +
                              "\": only kinematic bodies are moved by hand (motion is dynamic)");
    const vec3 target = position.is_none() ? body.position : vectorArgument(position, "position");
    quat turn = body.orientation;
    if (!orientation.is_none()) {
        const Floats q = rows(orientation, 1, 4, "orientation");
        requireFinite(q, "orientation");
        turn = quat(q.at(0, 0), q.at(0, 1), q.at(0, 2), q.at(0, 3));
        if (!(glm::length(turn) > 1e-6f))
            throw py::value_error("orientation: must be a non-zero quaternion (w, x, y, z)");
        turn = glm::normalize(turn);
    }
    if (!velocity.is_none()) body.kinematic.velocity = vectorArgument(velocity, "velocity");
    placeKinematic(body, target, turn, self.sim().time());
}

}  // namespace

void bindEditing(py::class_<PythonSimulation>& simulation) {
    simulation
        .def("add_vortons", &addVortons, py::arg("position"), py::arg("vorticity") = py::make_tuple(0.0f, 0.0f, 0.0f),
             py::kw_only(), py::arg("radius"), py::arg("density") = 0.0f, py::arg("volume") = py::none(),
             R"(Adds vortons; returns the range of their indices.

position: (n, 3) or (3,) metres. vorticity: (n, 3) or one (3,) for all, 1/s. radius: core
radius sigma in metres, one value or (n,). density: density deviation rho' (kg/m^3). volume: the
fluid volume each stands for (m^3); default the core sphere 4/3 pi sigma^3. Raises ValueError
naming the argument when a value is not finite or not positive where it must be.)")
        .def("add_tracers", &addTracers, py::arg("position"),
             "Adds passive tracers at (n, 3) or (3,) positions in metres; returns the range of their indices.")
        .def("add_body", &addBody, py::arg("description"),
             R"(Adds a rigid body now and returns its index.

description: one entry of a scene's "bodies" list, e.g. {"shape": "sphere", "radius": 0.2,
"position": [0, 1, 0], "density": 2}; validated as the scene file would be (ValueError naming the
key). A kinematic body stands at its position now and moves on from here. Not part of the
scene: reset() drops it (sim.set("bodies.N", {...}) puts a body into the scene).)")
        .def("move_body", &moveBody, py::arg("body"), py::arg("position") = py::none(),
             py::arg("orientation") = py::none(), py::arg("velocity") = py::none(),
             R"(Moves a kinematic body (by index or name) to a new pose now.

position: (3,) metres; orientation: unit quaternion (w, x, y, z); velocity: the drift velocity it
keeps from now on (m/s). Its oscillation, if any, carries on about the new pose. The fluid feels
the body's velocity, not the jump: move in small steps, or give a velocity, to push the fluid.)");
}

}  // namespace vfx::python
