#pragma once
// The flows moving solids push aside (sim/potential_flow.hpp) at many points, eight points at a
// time in SIMD lanes: the pass over the tracers, which meet these flows at every step a solid
// moves.
#include "sim/potential_flow.hpp"

#include <vector>

namespace vfx {

// velocity[i] += the sum of the flows' velocities at points[i], images included: the same flow
// as potentialFlowVelocity (the dipole within its reach, uniform inside the sphere, and the
// closure's sources), summed in another order, so it agrees with it to round-off.
void addPotentialFlowVelocities(const std::vector<PotentialFlow>& flows, const std::vector<vec3>& points,
                                std::vector<vec3>& velocity);
// gradient[i] += the flows' velocity gradient at points[i] (column j = du/dx_j), images
// included, as potentialFlowGradient gives it.
void addPotentialFlowGradients(const std::vector<PotentialFlow>& flows, const std::vector<vec3>& points,
                               std::vector<mat3>& gradient);

}  // namespace vfx
