// The neighbour search (core/neighbour_search.hpp): its forward ranges meet every pair within the
// radius exactly once, and a search built without candidates refuses the per-particle sums.
#include "core/neighbour_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

namespace vfx {
namespace {

// The symmetric PSE sum visits each pair from one side only: over every particle's forward
// ranges, each pair closer than the radius must appear exactly once (a missing pair would drop
// its exchange, a repeated one double it). A cloud with dense and sparse parts and particles on
// cell faces exercises rows of every length.
TEST(NeighbourSearch, ForwardRangesMeetEveryPairWithinTheRadiusExactlyOnce) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<vec3> positions;
    for (int i = 0; i < 3000; ++i) positions.push_back(vec3(unit(rng), unit(rng), unit(rng)));
    for (int i = 0; i < 500; ++i) positions.push_back(vec3(0.3f) + 0.05f * vec3(unit(rng), unit(rng), unit(rng)));
    const float radius = 0.08f;
    for (int i = 0; i < 200; ++i) positions.push_back(vec3(float(i % 10) * radius, 0.5f, float(i / 10) * 0.04f));
    NeighbourSearch search;
    search.build(positions, radius, NeighbourSearch::Candidates::None);
    const size_t n = search.size();
    std::set<std::pair<size_t, size_t>> met;
    size_t visits = 0;
    lanes::Ranges ranges;
    for (size_t k = 0; k < n; ++k) {
        const int count = search.forwardRanges(k, ranges);
        for (int r = 0; r < count; ++r)
            for (uint32_t m = ranges[size_t(r)][0]; m < ranges[size_t(r)][1]; ++m) {
                const vec3 d(search.x()[k] - search.x()[m], search.y()[k] - search.y()[m],
                             search.z()[k] - search.z()[m]);
                if (glm::dot(d, d) >= radius * radius) continue;
                ++visits;
                met.insert({std::min<size_t>(k, m), std::max<size_t>(k, m)});
            }
    }
    size_t pairs = 0;
    for (size_t k = 0; k < n; ++k)
        for (size_t m = k + 1; m < n; ++m) {
            const vec3 d(search.x()[k] - search.x()[m], search.y()[k] - search.y()[m], search.z()[k] - search.z()[m]);
            pairs += glm::dot(d, d) < radius * radius ? 1 : 0;
        }
    ASSERT_GT(pairs, 10000u);
    EXPECT_EQ(met.size(), pairs) << "pairs missed";
    EXPECT_EQ(visits, pairs) << "pairs visited twice";
}

// A search built without stored candidates cannot serve the per-particle sums that read them.
TEST(NeighbourSearch, BuildWithoutCandidatesRefusesPerParticleSums) {
    const std::vector<vec3> positions = {vec3(0.0f), vec3(0.1f, 0.0f, 0.0f), vec3(0.0f, 0.2f, 0.0f)};
    NeighbourSearch search;
    search.build(positions, 0.5f, NeighbourSearch::Candidates::None);
    EXPECT_FALSE(search.matches(positions, 0.5f));
    EXPECT_THROW(search.forEachParticle([](size_t, const lanes::Ranges&, int) {}), std::logic_error);
    search.build(positions, 0.5f);
    EXPECT_TRUE(search.matches(positions, 0.5f));
    int visited = 0;
    search.forEachParticle([&](size_t, const lanes::Ranges&, int) { ++visited; });
    EXPECT_EQ(visited, 3);
}

}  // namespace
}  // namespace vfx
