#pragma once
// The closures of the dynamic spheres (sim/sphere_closure.hpp) fitted together. A closure near a
// wall meets its own image there, and near another sphere that sphere's closure: each sphere's
// fit depends on the others'. The joint fit is the fixed point q = F(b - C q), F each sphere's
// fit of normal speeds, b the speeds the rest of the flow leaves at its collocation points and
// C the closures' flow across spheres and images; (I + F C) q = F b is solved by GMRES. Fitting
// each sphere in turn to the others' last closures converges slowly where a sphere rests on a
// wall: its source and their images there cancel each other's normal flow.
#include "bodies/body.hpp"
#include "sim/potential_flow.hpp"

#include <vector>

namespace vfx {

// Sets the closure of each flow in `spheres` (indices into `flows`, each a sphere's), from the
// flow `around` them (vortex flow and wall sources) at their collocation `points`
// (closureCollocationPoints, sphere after sphere). The flows' dipoles and images are already in
// place.
void fitClosures(std::vector<PotentialFlow>& flows, const std::vector<size_t>& spheres, const std::vector<vec3>& points,
                 const std::vector<vec3>& around, const std::vector<RigidBody>& bodies);

}  // namespace vfx
