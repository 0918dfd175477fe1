#pragma once
// Per-phase wall-clock timers. The simulation opens a ScopedPhase around each phase of a step;
// the UI and the CLI read the milliseconds of the last step (and a smoothed average).
#include <chrono>
#include <string>
#include <vector>

namespace vfx {

class PhaseTimers {
public:
    struct Phase {
        std::string name;
        double lastMs = 0.0;     // duration in the most recent step (0 if it did not run)
        double averageMs = 0.0;  // exponential moving average over steps
    };

    // Registers the phase if new and returns its slot. Phase order is the order of first use.
    size_t slot(const std::string& name);
    void beginStep();  // zeroes lastMs of all phases
    void add(size_t slot, double ms);
    void endStep();  // updates averages
    const std::vector<Phase>& phases() const { return phases_; }
    double lastMs(const std::string& name) const;

private:
    std::vector<Phase> phases_;
};

class ScopedPhase {
public:
    ScopedPhase(PhaseTimers& timers, size_t slot)
        : timers_(timers), slot_(slot), start_(std::chrono::steady_clock::now()) {}
    ~ScopedPhase() {
        auto end = std::chrono::steady_clock::now();
        timers_.add(slot_, std::chrono::duration<double, std::milli>(end - start_).count());
    }
    ScopedPhase(const ScopedPhase&) = delete;
    ScopedPhase& operator=(const ScopedPhase&) = delete;

private:
    PhaseTimers& timers_;
    size_t slot_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace vfx
