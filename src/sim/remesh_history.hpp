#pragma once
// The two-step rule of motion across a remesh. A remesh makes new vortons, which have no last
// velocity of their own; restarting them with the one-step rule (the midpoint in the frozen field)
// costs an O(dt^2) error at every remesh, and a flow that remeshes every few sub-steps then moves
// at first order: the author's drop at 1/30 s fell 6% (2,176 vortons) and 10% (17,256) short of
// its 1/480 s run. The flow itself is continuous across the remesh and the last sub-step's grid
// still holds it: a new vorton at x was at about x - dt u(x) a sub-step ago, moving at u there.
// Where that point lies in a wall (a vorton a wall just stopped), the grid's flow there is not
// the fluid's: the vorton takes the last flow at its own place instead.
// Stretching restarts with Euler: its last rate read the same way (M omega with the remeshed
// omega) cost a thin ring 0.2% of its energy over 3 s and did not change the drop.
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"
#include "sim/potential_flow.hpp"
#include "sim/time_integration.hpp"

#include <functional>
#include <vector>

namespace vfx {

// The last sub-step's flow, on its own grid, and where the fluid is (empty: everywhere).
struct LastSubstepFlow {
    const UniformGrid<vec3>& velocity;         // m/s
    const std::vector<PotentialFlow>& pushed;  // flows moving bodies pushed aside then
    std::function<bool(const vec3&)> inFluid;
};

// Gives every vorton the last velocity of the fluid it now carries, for history.dt (the last
// sub-step's length); the stretching rates are dropped.
void carryVelocityAcrossRemesh(const LastSubstepFlow& flow, const Vortons& vortons, MotionHistory& history);

// The same for the vortons from index `first` on, added to a set whose history is kept.
void carryVelocityToNewVortons(const LastSubstepFlow& flow, const Vortons& vortons, size_t first,
                               MotionHistory& history);

// After a remesh that turned `countBefore` vortons into `vortons`: their velocity carried across
// when the old ones moved with a last velocity (the two-step rule, or the exponential move, which
// reads the flow's change in time from it), else no history (one-step rules).
void carryHistoryAcrossRemesh(const FluidParams& fluid, size_t countBefore, const LastSubstepFlow& flow,
                              const Vortons& vortons, MotionHistory& history);

}  // namespace vfx
