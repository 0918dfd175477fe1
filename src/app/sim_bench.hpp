#pragma once
// vortonfx-sim --bench: the speed table a user compares on their own machine (ms per step and per
// frame, thread speed-up, growth with vortons and tracers, the tree solver's error).
#include <cstdio>

namespace vfx {

// Runs every case and prints the table to `out`; `threads` is the many-thread count (0 = all
// cores). Returns 0, or 3 if a case produced a non-finite value.
int runBenchmarks(int threads, std::FILE* out);

}  // namespace vfx
