#pragma once
// vortonfx-sim --stats: one CSV row of diagnostics and timings per recorded step.
#include "core/atomic_file.hpp"
#include "sim/simulation.hpp"

#include <string>
#include <vector>

namespace vfx {

// Columns: step, time, step time, particle counts, the conserved quantities, masses, speeds,
// energies, sub-steps, remeshes, one ms_<phase> column per timed phase, x/y/z of each named body,
// and the program version. Numbers carry ten significant digits.
// The file appears under its name only when the run finishes (core/atomic_file.hpp): a run that
// fails leaves an earlier file of that name as it was.
class StatsWriter {
public:
    // Creates the file's temporary now. Throws FileWriteError when it cannot be created.
    explicit StatsWriter(const std::string& path);

    // The phase set is known after the first step; the header is written with the first row.
    // Throws FileWriteError when writing fails (a full disk).
    void row(const Simulation& sim);
    // Writes the header if no row came and finishes writing (AtomicFile::finishWriting); commit()
    // then puts the file under its name. Both throw FileWriteError.
    void finish(const Simulation& sim);
    void commit() { file_.commit(); }
    // Keeps the rows written so far as PATH.failed instead, the file at PATH untouched; returns
    // that name.
    std::string keepAsFailed(const Simulation& sim);

private:
    void writeHeader(const Simulation& sim);

    AtomicFile file_;
    bool headerWritten_ = false;
    std::vector<std::string> phases_;
};

}  // namespace vfx
