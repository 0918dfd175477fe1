// Morton keys sorted in parallel: a counting pass into buckets by the top bits, then a radix sort
// per bucket (no merge), the same result for any thread count.
#include "sim/morton_order.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <array>

namespace vfx {

namespace {

// Spreads the low 10 bits of v so there are two zero bits between each (Morton interleave).
uint32_t spreadBits(uint32_t v) {
    v &= 0x3ffu;
    v = (v | (v << 16)) & 0x030000ffu;
    v = (v | (v << 8)) & 0x0300f00fu;
    v = (v | (v << 4)) & 0x030c30c3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

// Sorts keys [begin, end) of one bucket by their Morton code bits below the bucket's: a stable
// least-significant-digit radix sort, 8 bits a pass. The keys arrive in ascending index (as made,
// or through the stable bucketing pass), and stable passes keep that order among equal codes, so
// the result is the order of the whole (code, index) key.
void radixSortBucket(uint64_t* keys, uint64_t* scratch, size_t count, int codeBits) {
    if (count < 2) return;
    if (count <= 32) {
        std::sort(keys, keys + count);
        return;
    }
    uint64_t* from = keys;
    uint64_t* to = scratch;
    for (int shift = 0; shift < codeBits; shift += 8) {
        std::array<uint32_t, 257> start{};
        for (size_t k = 0; k < count; ++k) ++start[size_t((from[k] >> (32 + shift)) & 0xffu) + 1];
        for (size_t d = 0; d < 256; ++d) start[d + 1] += start[d];
        for (size_t k = 0; k < count; ++k) to[start[size_t((from[k] >> (32 + shift)) & 0xffu)]++] = from[k];
        std::swap(from, to);
    }
    if (from != keys) std::copy(from, from + count, keys);
}

// Sorts (Morton code << 32 | index) keys: a counting pass splits them by the code's top bits
// into buckets, which are then radix-sorted in parallel, with no merge. The keys are unique, so
// the result is the same for any thread count.
void sortKeysInParallel(std::vector<uint64_t>& keys) {
    const size_t n = keys.size();
    if (n < 4096) {  // one bucket, sorted on this thread
        std::vector<uint64_t> scratch(n);
        radixSortBucket(keys.data(), scratch.data(), n, 3 * kMortonDepth);
        return;
    }
    constexpr int kBucketBits = 6;  // 64 buckets: the top two octree levels
    constexpr int kShift = 32 + 3 * kMortonDepth - kBucketBits;
    constexpr size_t kBuckets = size_t(1) << kBucketBits;
    std::array<size_t, kBuckets + 1> start{};
    for (uint64_t key : keys) ++start[size_t(key >> kShift) + 1];
    for (size_t b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
    std::vector<uint64_t> bucketed(n);
    std::array<size_t, kBuckets> next{};
    std::copy(start.begin(), start.end() - 1, next.begin());
    for (uint64_t key : keys) bucketed[next[size_t(key >> kShift)]++] = key;
    // keys is free now: each bucket uses its own stretch of it as scratch.
    parallelForEach(
        0, kBuckets,
        [&](size_t b) {
            radixSortBucket(bucketed.data() + start[b], keys.data() + start[b], start[b + 1] - start[b],
                            3 * kMortonDepth - kBucketBits);
        },
        1);
    keys.swap(bucketed);
}

}  // namespace

std::vector<uint64_t> sortedMortonKeys(const std::vector<vec3>& positions) {
    const size_t n = positions.size();
    vec3 lo(positions[0]), hi(positions[0]);
    for (const vec3& p : positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const float side = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, 1e-6f}) * 1.0001f;
    const float scale = 1024.0f / side;
    std::vector<uint64_t> keys(n);
    parallelForEach(
        0, n,
        [&](size_t i) {
            const vec3 q = (positions[i] - lo) * scale;
            const uint32_t x = uint32_t(std::clamp(q.x, 0.0f, 1023.0f));
            const uint32_t y = uint32_t(std::clamp(q.y, 0.0f, 1023.0f));
            const uint32_t z = uint32_t(std::clamp(q.z, 0.0f, 1023.0f));
            const uint32_t code = spreadBits(x) | (spreadBits(y) << 1) | (spreadBits(z) << 2);
            keys[i] = (uint64_t(code) << 32) | uint64_t(i);
        },
        4096);
    sortKeysInParallel(keys);
    return keys;
}

}  // namespace vfx
