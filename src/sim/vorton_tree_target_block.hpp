#pragma once
// Eight target points of the vorton tree's evaluation in SIMD lanes, one point per lane
// (structure of arrays): shared by the evaluation at scattered points and on grids.
#include "core/simd_lanes.hpp"
#include "sim/velocity_solver.hpp"

namespace vfx {

// The points of a block in lanes (positions in, velocities out).
struct VortonTree::TargetBlock {
    lanes::Lanes x{}, y{}, z{};
    lanes::Lanes ux{}, uy{}, uz{};
};

}  // namespace vfx
