#pragma once
// Parallel helpers on oneTBB. Every helper here gives the same result for any thread count:
// work items write only their own outputs, and reductions combine fixed-size chunks in order.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace vfx {

// ThreadSanitizer cannot see the synchronisation inside Debian's uninstrumented libtbb, so it
// would report every hand-off of data from the caller to the workers (and back) as a race.
// These annotations state exactly what TBB guarantees: everything before parallel_for happens
// before each chunk, and each chunk happens before parallel_for returns. Chunks are NOT ordered
// with respect to each other, so a real race between two chunks is still reported.
struct ForkJoinAnnotation {
#if defined(__SANITIZE_THREAD__)
    char fork = 0, join = 0;
    void beforeFork() { __tsan_release(&fork); }
    void chunkBegin() { __tsan_acquire(&fork); }
    void chunkEnd() { __tsan_release(&join); }
    void afterJoin() { __tsan_acquire(&join); }
#else
    void beforeFork() {}
    void chunkBegin() {}
    void chunkEnd() {}
    void afterJoin() {}
#endif
};

// Calls body(i) for i in [begin, end). body must only write data owned by item i.
template <typename Body>
void parallelForEach(size_t begin, size_t end, Body&& body, size_t grain = 256) {
    if (end <= begin) return;
    if (end - begin <= grain) {  // one chunk: run it here, without a fork and join
        for (size_t i = begin; i != end; ++i) body(i);
        return;
    }
    ForkJoinAnnotation sync;
    sync.beforeFork();
    tbb::parallel_for(tbb::blocked_range<size_t>(begin, end, std::max<size_t>(grain, 1)),
                      [&](const tbb::blocked_range<size_t>& r) {
                          sync.chunkBegin();
                          for (size_t i = r.begin(); i != r.end(); ++i) body(i);
                          sync.chunkEnd();
                      });
    sync.afterJoin();
}

// Calls body(rangeBegin, rangeEnd) over sub-ranges of [begin, end).
template <typename Body>
void parallelForRange(size_t begin, size_t end, Body&& body, size_t grain = 256) {
    if (end <= begin) return;
    if (end - begin <= grain) {
        body(begin, end);
        return;
    }
    ForkJoinAnnotation sync;
    sync.beforeFork();
    tbb::parallel_for(tbb::blocked_range<size_t>(begin, end, std::max<size_t>(grain, 1)),
                      [&](const tbb::blocked_range<size_t>& r) {
                          sync.chunkBegin();
                          body(r.begin(), r.end());
                          sync.chunkEnd();
                      });
    sync.afterJoin();
}

// Deterministic reduction: chunks of fixed size are reduced in parallel, then the partial
// results are combined serially in chunk order, so the rounding never depends on threads.
template <typename T, typename ChunkBody, typename Combine>
T deterministicReduce(size_t count, T identity, ChunkBody&& chunk, Combine&& combine, size_t chunkSize = 2048) {
    if (count == 0) return identity;
    const size_t chunks = (count + chunkSize - 1) / chunkSize;
    // One slot object per chunk: std::vector<bool> packs bits, and two chunks writing neighbouring
    // bits of one word would race.
    struct Slot {
        T value;
    };
    std::vector<Slot> partial(chunks, Slot{identity});
    parallelForEach(
        0, chunks,
        [&](size_t c) {
            const size_t b = c * chunkSize;
            partial[c].value = chunk(b, std::min(count, b + chunkSize));
        },
        1);
    T total = identity;
    for (const Slot& p : partial) total = combine(total, p.value);
    return total;
}

}  // namespace vfx
