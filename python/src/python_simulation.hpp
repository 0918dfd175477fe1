#pragma once
// What a Python `vortonfx.Simulation` holds: the validated scene (so reset() and set() work on
// the same document the runner would load) and the simulation built from it.
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // std::optional arguments; every file sees the same casters

#include <optional>
#include <string>
#include <thread>

namespace vfx::python {

class PythonSimulation {
public:
    PythonSimulation(Scene scene, int threads);

    // Raises RuntimeError while step() or bake() runs (the GIL is released there, so without it
    // a second thread could read or change the state mid-step). requireReadable lets a bake's
    // progress callback, on the baking thread between frames, read the state.
    void requireIdle() const;
    void requireReadable() const;
    // Marks the simulation busy for its lifetime; taken with the GIL held.
    class BusyScope {
    public:
        explicit BusyScope(PythonSimulation& owner);
        ~BusyScope();
        BusyScope(const BusyScope&) = delete;
        BusyScope& operator=(const BusyScope&) = delete;

    private:
        PythonSimulation& owner_;
    };
    // Opens reading to the busy thread for its lifetime (a bake's progress callback).
    class CallbackScope {
    public:
        explicit CallbackScope(PythonSimulation& owner) : owner_(owner) { owner_.callbackOpen_ = true; }
        ~CallbackScope() { owner_.callbackOpen_ = false; }
        CallbackScope(const CallbackScope&) = delete;
        CallbackScope& operator=(const CallbackScope&) = delete;

    private:
        PythonSimulation& owner_;
    };

    const Scene& scene() const { return scene_; }
    Simulation& sim() { return sim_; }
    const Simulation& sim() const { return sim_; }

    void set(const std::string& key, pybind11::handle value);
    pybind11::object get(const std::string& key) const;
    pybind11::dict parameters() const;
    void reset();
    // dt in seconds (the scene's time.dt when empty), checked as the runner checks --dt.
    float frameDt(std::optional<double> dt) const;
    // Steps `steps` times with the GIL released; Ctrl-C between steps raises KeyboardInterrupt.
    void step(std::optional<double> dt, long steps);
    // One step with the GIL released (the caller holds it and has marked the simulation busy).
    void stepReleased(float dt);

private:
    Scene scene_;
    Simulation sim_;
    bool busy_ = false;
    bool callbackOpen_ = false;
    std::thread::id busyThread_;
};

// The scene of a file or preset path with "key=value" overrides (the runner's --set), of a dict,
// or empty (None). Raises SceneError (a ValueError) with the runner's message.
Scene sceneFromPython(pybind11::handle source, pybind11::handle overrides);

// The Simulation class (python_simulation_binding.cpp).
void bindSimulation(pybind11::module_& module);

}  // namespace vfx::python
