#pragma once
// vortonfx-sim's progress bar on stderr: steps done, ms per step and the time left.
#include <chrono>
#include <string>

namespace vfx {

class Progress {
public:
    // Shown only when enabled, there are steps to run and stderr is a terminal.
    Progress(long total, bool enabled);

    // Redraws the bar at most every 100 ms, and always for the last step; `extra` follows the ETA.
    void update(long done, double msPerStep, const std::string& extra = "");

private:
    long total_;
    bool enabled_;
    std::chrono::steady_clock::time_point last_{};
};

}  // namespace vfx
