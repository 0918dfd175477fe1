#pragma once
// The phases of a simulation sub-step, in the order they run.
#include <cstddef>

namespace vfx {

// phaseName() spells them for the timers, the stats CSV's ms_<phase> columns and
// NonFiniteError; nothing else names a phase.
enum class Phase { Remesh, Grid, Velocity, Stretching, Walls, Density, Baroclinic, Diffusion, Sph, Advection, Bodies };
constexpr size_t kPhaseCount = size_t(Phase::Bodies) + 1;
const char* phaseName(Phase phase);

}  // namespace vfx
