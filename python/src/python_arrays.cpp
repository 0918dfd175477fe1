#include "python_arrays.hpp"

#include "python_simulation.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <type_traits>

namespace py = pybind11;

namespace vfx::python {
namespace {

// GLM_FORCE_XYZW_ONLY (set by the library) makes vec3 three packed floats: an array of them is
// an (n, 3) float32 array with row stride 12 bytes.
static_assert(sizeof(vec3) == 3 * sizeof(float), "vec3 must be three packed floats");
static_assert(alignof(vec3) == alignof(float), "vec3 must align as a float");
static_assert(std::is_standard_layout_v<vec3>, "vec3 must be a plain struct of x, y, z");

py::array readOnly(py::array array) {
    array.attr("setflags")(py::arg("write") = false);
    return array;
}

// (n, 3) float32 view of `count` vec3 spaced `stride` bytes apart from `first`, owned by `owner`.
py::array vectorView(const vec3* first, size_t count, size_t stride, py::handle owner) {
    if (count == 0) return readOnly(py::array_t<float>(std::vector<py::ssize_t>{0, 3}));
    return readOnly(py::array_t<float>({py::ssize_t(count), py::ssize_t(3)},
                                       {py::ssize_t(stride), py::ssize_t(sizeof(float))}, &first->x, owner));
}

py::array vectorView(const std::vector<vec3>& values, py::handle owner) {
    return vectorView(values.data(), values.size(), sizeof(vec3), owner);
}

py::array scalarView(const std::vector<float>& values, py::handle owner) {
    if (values.empty()) return readOnly(py::array_t<float>(0));
    return readOnly(
        py::array_t<float>({py::ssize_t(values.size())}, {py::ssize_t(sizeof(float))}, values.data(), owner));
}

// One field of every body: bodies are an array of structs, so the view strides over whole bodies.
template <typename Member>
py::array bodyVectorView(const std::vector<RigidBody>& bodies, Member member, py::handle owner) {
    if (bodies.empty()) return vectorView(nullptr, 0, 0, owner);
    return vectorView(&(bodies.front().*member), bodies.size(), sizeof(RigidBody), owner);
}

// The Python-side handle of a simulation's particles: the Simulation object it reads.
struct ParticlesView {
    py::object owner;
    const Simulation& sim() const {
        const PythonSimulation& s = owner.cast<const PythonSimulation&>();
        s.requireReadable();
        return s.sim();
    }
};
struct VortonsView : ParticlesView {};
struct TracersView : ParticlesView {};
struct BodiesView : ParticlesView {};

constexpr const char* kViewNote =
    " A read-only view of the simulation's own memory (no copy), valid until the next step(), bake(), reset() or "
    "add_*() call: copy it (np.array(view)) to keep it.";

std::string doc(const std::string& what) { return what + kViewNote; }

void bindVortons(py::module_& m) {
    py::class_<VortonsView>(m, "Vortons", "The vortons (vortex particles) as NumPy arrays, one row per vorton.")
        .def("__len__", [](const VortonsView& v) { return v.sim().vortons().size(); })
        .def_property_readonly(
            "position", [](const VortonsView& v) { return vectorView(v.sim().vortons().position, v.owner); },
            doc("(n, 3) float32 positions, m.").c_str())
        .def_property_readonly(
            "velocity", [](const VortonsView& v) { return vectorView(v.sim().vortons().velocity, v.owner); },
            doc("(n, 3) float32 velocities of the last advection, m/s.").c_str())
        .def_property_readonly(
            "vorticity", [](const VortonsView& v) { return vectorView(v.sim().vortons().vorticity, v.owner); },
            doc("(n, 3) float32 vorticity omega, 1/s.").c_str())
        .def_property_readonly(
            "density", [](const VortonsView& v) { return scalarView(v.sim().vortons().density, v.owner); },
            doc("(n,) float32 density deviation rho' from the ambient density, kg/m^3.").c_str())
        .def_property_readonly(
            "radius", [](const VortonsView& v) { return scalarView(v.sim().vortons().radius, v.owner); },
            doc("(n,) float32 core radius sigma, m.").c_str())
        .def_property_readonly(
            "volume", [](const VortonsView& v) { return scalarView(v.sim().vortons().volumes, v.owner); },
            doc("(n,) float32 share of the fluid's volume each vorton stands for, m^3.").c_str())
        .def_property_readonly(
            "density_gradient",
            [](const VortonsView& v) { return vectorView(v.sim().vortons().densityGradient, v.owner); },
            doc("(n, 3) float32 density gradient the last baroclinic step used, kg/m^4.").c_str());
}

void bindTracers(py::module_& m) {
    py::class_<TracersView>(m, "Tracers", "The passive tracers (the dye) as NumPy arrays, one row per tracer.")
        .def("__len__", [](const TracersView& t) { return t.sim().tracers().size(); })
        .def_property_readonly(
            "position", [](const TracersView& t) { return vectorView(t.sim().tracers().position, t.owner); },
            doc("(n, 3) float32 positions, m.").c_str())
        .def_property_readonly(
            "velocity", [](const TracersView& t) { return vectorView(t.sim().tracers().velocity, t.owner); },
            doc("(n, 3) float32 velocities, m/s.").c_str())
        .def_property_readonly(
            "density", [](const TracersView& t) { return scalarView(t.sim().tracers().density, t.owner); },
            doc("(n,) float32 density deviation sampled at each tracer, kg/m^3.").c_str());
}

py::dict bodyDict(const RigidBody& b) {
    py::dict d;
    d["name"] = b.name;
    d["motion"] = b.motion == MotionKind::Kinematic ? "kinematic" : "dynamic";
    d["position"] = py::make_tuple(b.position.x, b.position.y, b.position.z);
    d["orientation"] = py::make_tuple(b.orientation.w, b.orientation.x, b.orientation.y, b.orientation.z);
    d["velocity"] = py::make_tuple(b.velocity.x, b.velocity.y, b.velocity.z);
    d["angular_velocity"] = py::make_tuple(b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z);
    d["mass"] = b.mass;
    d["hole"] = b.isHole();
    return d;
}

void bindBodies(py::module_& m) {
    py::class_<BodiesView>(m, "Bodies",
                           "The rigid bodies. Arrays have one row per body, in the scene's order; bodies[i] or "
                           "bodies['name'] gives one body as a dict (a copy).")
        .def("__len__", [](const BodiesView& b) { return b.sim().bodies().size(); })
        .def("__getitem__",
             [](const BodiesView& b, py::object key) {
                 const std::vector<RigidBody>& bodies = b.sim().bodies();
                 if (py::isinstance<py::str>(key)) {
                     for (const RigidBody& body : bodies)
                         if (body.name == key.cast<std::string>()) return bodyDict(body);
                     throw py::key_error("no body named \"" + key.cast<std::string>() + "\"");
                 }
                 long i = key.cast<long>();
                 if (i < 0) i += long(bodies.size());
                 if (i < 0 || size_t(i) >= bodies.size()) throw py::index_error("body index out of range");
                 return bodyDict(bodies[size_t(i)]);
             })
        .def_property_readonly(
            "names",
            [](const BodiesView& b) {
                std::vector<std::string> names;
                for (const RigidBody& body : b.sim().bodies()) names.push_back(body.name);
                return names;
            },
            "The bodies' names (\"\" where the scene gives none).")
        .def_property_readonly(
            "position",
            [](const BodiesView& b) { return bodyVectorView(b.sim().bodies(), &RigidBody::position, b.owner); },
            doc("(n, 3) float32 centres, m (strided: rows are whole bodies apart).").c_str())
        .def_property_readonly(
            "velocity",
            [](const BodiesView& b) { return bodyVectorView(b.sim().bodies(), &RigidBody::velocity, b.owner); },
            doc("(n, 3) float32 velocities, m/s (strided).").c_str())
        .def_property_readonly(
            "angular_velocity",
            [](const BodiesView& b) { return bodyVectorView(b.sim().bodies(), &RigidBody::angularVelocity, b.owner); },
            doc("(n, 3) float32 angular velocities, rad/s (strided).").c_str())
        .def_property_readonly(
            "orientation",
            [](const BodiesView& b) {
                const std::vector<RigidBody>& bodies = b.sim().bodies();
                py::array_t<float> out(std::vector<py::ssize_t>{py::ssize_t(bodies.size()), 4});
                auto o = out.mutable_unchecked<2>();
                for (size_t i = 0; i < bodies.size(); ++i) {
                    const quat& q = bodies[i].orientation;
                    o(py::ssize_t(i), 0) = q.w, o(py::ssize_t(i), 1) = q.x, o(py::ssize_t(i), 2) = q.y,
                                      o(py::ssize_t(i), 3) = q.z;
                }
                return out;
            },
            "(n, 4) float32 unit quaternions (w, x, y, z), the order the runner's dump uses: a copy.");
}

}  // namespace

void bindArrayViews(py::module_& m) {
    bindVortons(m);
    bindTracers(m);
    bindBodies(m);
}

py::object vortonsOf(py::object simulation) { return py::cast(VortonsView{{simulation}}); }
py::object tracersOf(py::object simulation) { return py::cast(TracersView{{simulation}}); }
py::object bodiesOf(py::object simulation) { return py::cast(BodiesView{{simulation}}); }

}  // namespace vfx::python
