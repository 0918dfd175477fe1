#include "core/profiler.hpp"

namespace vfx {

size_t PhaseTimers::slot(const std::string& name) {
    for (size_t i = 0; i < phases_.size(); ++i)
        if (phases_[i].name == name) return i;
    phases_.push_back(Phase{name, 0.0, 0.0});
    return phases_.size() - 1;
}

void PhaseTimers::beginStep() {
    for (Phase& p : phases_) p.lastMs = 0.0;
}

void PhaseTimers::add(size_t slot, double ms) { phases_[slot].lastMs += ms; }

void PhaseTimers::endStep() {
    // Smooth over ~20 steps so the UI's numbers are readable while still tracking changes.
    for (Phase& p : phases_) p.averageMs += 0.05 * (p.lastMs - p.averageMs);
}

double PhaseTimers::lastMs(const std::string& name) const {
    for (const Phase& p : phases_)
        if (p.name == name) return p.lastMs;
    return 0.0;
}

}  // namespace vfx
