#pragma once
// The exponential move (sim/linear_flow_step.hpp) for eight vortons at a time in SIMD lanes: the
// same Taylor series of the action, each of a block's vortons in one lane, the block taking as
// many pieces as its widest step needs (at least as accurate as per vorton). Blocks are fixed by
// vorton index, so results do not depend on the thread count.
#include "core/math.hpp"

#include <cstdint>
#include <vector>

namespace vfx {

// What the exponential move reads per vorton, and what it writes.
struct ExponentialMoveInputs {
    const std::vector<vec3>& now;         // the flow's velocity at each vorton this sub-step, m/s
    const std::vector<mat3>& gradient;    // the velocity gradient there (column j = du/dx_j), 1/s
    const std::vector<uint8_t>& hitWall;  // the vortons a wall just moved (Vortons::hitWall; empty: none)
    bool twoStep = false;                 // the vortons have last velocities to read the flow's change from
    float previousDt = 0.0f;              // the last sub-step, s
    float dt = 0.0f;                      // this sub-step, s
    // The grid flow's change in time at each vorton's place over the last sub-step, m/s^2 (null:
    // none): it removes the drift bias of the change read from the vorton's last velocity.
    const std::vector<vec3>* eulerianChange = nullptr;
    // The vortons to move (null: all): a block of eight with none of them is skipped, its
    // velocities and last velocities left as they were.
    const std::vector<uint8_t>* only = nullptr;

    // Whether vorton i reads the flow's change from its last velocity: not if a wall moved it.
    bool readsChange(size_t i) const { return twoStep && !(hitWall.size() == now.size() && hitWall[i] != 0u); }
};

// Each vorton's mean velocity over the sub-step, (x(dt) - x0) / dt, into `velocity`; `previous`
// (last sub-step's velocities on entry) becomes `now`.
void exponentialMoveVelocities(const ExponentialMoveInputs& in, std::vector<vec3>& previous,
                               std::vector<vec3>& velocity);

}  // namespace vfx
