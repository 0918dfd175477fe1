#pragma once
// Eight floats in one SIMD vector (GCC/Clang vector extensions, no intrinsics) and the helpers
// the particle sums are written with: neighbour sums (core/neighbour_search.hpp) and the tree's
// blocked grid evaluation (sim/vorton_tree_grid.cpp). Operations are plain IEEE arithmetic lane by
// lane, so a value does not depend on which lane or thread computed it.
#include "core/math.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

// The hot loops written with these lanes are compiled twice when the build does not already
// target AVX2 (a library built once for any x86-64 and run elsewhere): an AVX2 + FMA copy
// (x86-64-v3) and a baseline one, the loader picking one by the CPU it runs on. Sanitizer builds
// keep one copy: their runtime is not ready when the loader picks.
//
// A kernel may fuse multiply-adds (the project otherwise builds with -ffp-contract=off): its
// body is one piece of code that runs over whole vectors, masked at the ends, with no scalar
// remainder loop compiled apart, so every item and every thread runs the same instructions and
// results stay bitwise the same for any thread count. Which copy runs depends on the CPU, never
// on the threads; the fused and the baseline copy round differently, so two CPUs (or a native
// and a portable build) may differ in the last bits. VFX_SIMD_KERNEL_UNFUSED marks a kernel
// whose arithmetic must equal, bit for bit, the same formula computed outside the kernels.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__AVX2__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define VFX_SIMD_KERNEL \
    __attribute__((target_clones("arch=x86-64-v3", "default"), flatten, optimize("fp-contract=fast")))
#define VFX_SIMD_KERNEL_UNFUSED __attribute__((target_clones("arch=x86-64-v3", "default"), flatten))
#elif defined(__GNUC__) && !defined(__clang__)
#define VFX_SIMD_KERNEL __attribute__((flatten, optimize("fp-contract=fast")))
#define VFX_SIMD_KERNEL_UNFUSED __attribute__((flatten))
#else
#define VFX_SIMD_KERNEL __attribute__((flatten))
#define VFX_SIMD_KERNEL_UNFUSED __attribute__((flatten))
#endif
// Everything a kernel calls (the helpers below, the lambdas it passes them) is inlined into each
// copy (flatten), so each copy runs its own code and no 8-float vector crosses a call between
// code built for different targets.
#define VFX_LANES_INLINE inline __attribute__((always_inline))

namespace vfx {

namespace lanes {

constexpr int kLanes = 8;
using Lanes = float __attribute__((vector_size(kLanes * sizeof(float))));

// Whether the block of kLanes items starting at `first` (cut at the end) holds a marked item.
inline bool blockHoldsMark(const std::vector<uint8_t>& marked, size_t first) {
    const size_t end = std::min(first + size_t(kLanes), marked.size());
    for (size_t i = first; i < end; ++i)
        if (marked[i]) return true;
    return false;
}

VFX_LANES_INLINE Lanes load(const float* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
// Four floats from a and four from b (lanes 0-3 and 4-7), joined in registers: a store of two
// halves and a load of the whole would stall on store forwarding.
VFX_LANES_INLINE Lanes loadHalves(const float* a, const float* b) {
    using Half = float __attribute__((vector_size(kLanes / 2 * sizeof(float))));
    Half low, high;
    std::memcpy(&low, a, sizeof low);
    std::memcpy(&high, b, sizeof high);
    return __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7);
}
VFX_LANES_INLINE Lanes splat(float x) { return Lanes{} + x; }
VFX_LANES_INLINE Lanes positive(Lanes v) { return v > 0.0f ? v : Lanes{}; }
VFX_LANES_INLINE Lanes sqrtLanes(Lanes v) {
    for (int l = 0; l < kLanes; ++l) v[l] = __builtin_sqrtf(v[l]);  // one vector sqrt (-fno-math-errno)
    return v;
}
VFX_LANES_INLINE float addLanes(Lanes v) {
    float total = v[0];
    for (int l = 1; l < kLanes; ++l) total += v[l];
    return total;
}
// Zeroes the lanes of v at or beyond `valid` (a range's last, partial vector).
VFX_LANES_INLINE Lanes firstLanes(Lanes v, size_t valid) {
    if (valid >= size_t(kLanes)) return v;
    const Lanes index = {0, 1, 2, 3, 4, 5, 6, 7};
    return index < float(valid) ? v : Lanes{};
}

struct Lanes3 {
    Lanes x, y, z;
};

// Candidate ranges of one point: [ranges[r][0], ranges[r][1]) in partition order.
constexpr int kMaxRanges = 9;
using Ranges = std::array<uint32_t[2], kMaxRanges>;

// sum over candidates m of term(m) (term returns kLanes values for candidates m .. m + kLanes - 1).
template <typename Term>
VFX_LANES_INLINE float sumScalar(const Ranges& ranges, int rangeCount, const Term& term) {
    Lanes acc{};
    for (int r = 0; r < rangeCount; ++r)
        for (size_t m = ranges[r][0], e = ranges[r][1]; m < e; m += kLanes) acc += firstLanes(term(m), e - m);
    return addLanes(acc);
}

template <typename Term>
VFX_LANES_INLINE vec3 sumVector(const Ranges& ranges, int rangeCount, const Term& term) {
    Lanes ax{}, ay{}, az{};
    for (int r = 0; r < rangeCount; ++r)
        for (size_t m = ranges[r][0], e = ranges[r][1]; m < e; m += kLanes) {
            const Lanes3 t = term(m);
            ax += firstLanes(t.x, e - m);
            ay += firstLanes(t.y, e - m);
            az += firstLanes(t.z, e - m);
        }
    return vec3(addLanes(ax), addLanes(ay), addLanes(az));
}

// Per-particle values in partition order, with kLanes zeros of padding for the vector loads.
inline std::vector<float> padded(size_t n) { return std::vector<float>(n + kLanes, 0.0f); }

}  // namespace lanes

}  // namespace vfx
