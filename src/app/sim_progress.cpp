#include "app/sim_progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace vfx {

Progress::Progress(long total, bool enabled)
    : total_(total), enabled_(enabled && total > 0 && isatty(fileno(stderr))) {}

void Progress::update(long done, double msPerStep, const std::string& extra) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const int width = 30;
    const int filled = int(double(width) * double(done) / double(total_));
    std::fprintf(stderr, "\r[%s%s] %ld/%ld steps  %.2f ms/step  ETA %.1f s%s   ",
                 std::string(size_t(filled), '#').c_str(), std::string(size_t(width - filled), '.').c_str(), done,
                 total_, msPerStep, double(total_ - done) * msPerStep / 1000.0, extra.c_str());
    if (done == total_) std::fputc('\n', stderr);
    std::fflush(stderr);
}

}  // namespace vfx
