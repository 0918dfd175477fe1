#pragma once
// vortonfx-sim --dump: the final state as struct-of-arrays JSON (vortons, tracers, bodies).
#include "sim/simulation.hpp"

#include <string>

namespace vfx {

// Writes the dump; floats in their shortest form that reads back exactly. Throws
// std::runtime_error "--dump: ..." when the file cannot be created or written.
void writeDump(const std::string& path, const Simulation& sim);

}  // namespace vfx
