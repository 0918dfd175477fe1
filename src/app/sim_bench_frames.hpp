#pragma once
// vortonfx-sim --bench-frames: what a game pays per frame at each quality level. The author's dye
// drop (ball r 1, density +10, gravity 10, nu 0.01, 32,768 tracers) runs 300 frames of 1/30 s per
// level; each row gives the per-frame median, 99th percentile and worst ms, the vorton counts, and
// the fidelity figure: the tracers' fall and the field's impulse at 5 s against the converged
// reference (the film level at 1/480 s).
#include <cstdio>
#include <string>
#include <vector>

namespace vfx {

class AtomicFile;

struct FrameBenchOptions {
    int threads = 0;                              // 0 = all cores
    std::vector<long> vortonCounts{2176, 17256};  // the drops to run, vortons at the start
    AtomicFile* csv = nullptr;                    // per-frame ms of every run, for plotting; committed at the end
};

// Prints the table to `out`; returns 0, or 3 if a run produced a non-finite value.
int runFrameBenchmarks(const FrameBenchOptions& options, std::FILE* out);

}  // namespace vfx
