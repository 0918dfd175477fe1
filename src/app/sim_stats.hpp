#pragma once
// vortonfx-sim --stats: one CSV row of diagnostics and timings per recorded step.
#include "sim/simulation.hpp"

#include <fstream>
#include <string>
#include <vector>

namespace vfx {

// Columns: step, time, step time, particle counts, the conserved quantities, masses, speeds,
// energies, sub-steps, remeshes, one ms_<phase> column per timed phase, x/y/z of each named body,
// and the program version. Numbers carry ten significant digits.
class StatsWriter {
public:
    // Throws std::runtime_error "--stats: cannot create ..." when the file cannot be created.
    explicit StatsWriter(const std::string& path);

    // The phase set is known after the first step; the header is written with the first row.
    void row(const Simulation& sim);
    // Writes the header if no row came, flushes and throws if writing failed.
    void finish(const Simulation& sim);

private:
    void writeHeader(const Simulation& sim);

    std::ofstream out_;
    bool headerWritten_ = false;
    std::vector<std::string> phases_;
};

}  // namespace vfx
