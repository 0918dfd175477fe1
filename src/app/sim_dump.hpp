#pragma once
// vortonfx-sim --dump: the final state as struct-of-arrays JSON (vortons, tracers, bodies).
#include "core/atomic_file.hpp"
#include "sim/simulation.hpp"

namespace vfx {

// Writes the dump into `file` (created before the run) and finishes writing it; the caller
// commits it. Floats in their shortest form that reads back exactly. Throws FileWriteError.
void writeDump(AtomicFile& file, const Simulation& sim);

}  // namespace vfx
