#pragma once
// Two pieces of work run side by side on oneTBB, each free to run its own parallel loops. They
// must not write anything the other reads; then the result is the same for any thread count.
#include "core/parallel.hpp"

namespace vfx {

// Runs first() and second() concurrently and returns when both are done: a parallel loop of two
// items, one chunk each, so it carries parallelForEach's fork-join annotations for
// ThreadSanitizer (core/parallel.hpp), and a real race between the two is still reported.
template <typename First, typename Second>
void parallelInvoke(First&& first, Second&& second) {
    parallelForEach(
        0, 2,
        [&](size_t piece) {
            if (piece == 0)
                first();
            else
                second();
        },
        1);
}

}  // namespace vfx
