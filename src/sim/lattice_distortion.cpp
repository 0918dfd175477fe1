#include "sim/lattice_distortion.hpp"

#include "core/matrix_exponential.hpp"
#include "core/parallel.hpp"
#include "sim/particles.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vfx {

namespace {

constexpr int kMaxReductionSweeps = 32;
constexpr size_t kVortonsPerChunk = 512;
// A basis no edge of which is this long is left unreduced: reduction only shortens edges, so its
// longest edge bounds the reduced one from above, and remeshes are due at stretches of e and more.
constexpr float kLeastStretchReduced = 1.5f;

float squaredLength(const vec3& v) { return glm::dot(v, v); }

// Replaces b by b - k a (k the nearest integer to b.a / a.a) if that is shorter.
bool reduceAgainst(vec3& b, const vec3& a) {
    const float aa = squaredLength(a);
    if (!(aa > 0.0f)) return false;
    const float k = std::round(glm::dot(b, a) / aa);
    if (k == 0.0f) return false;
    const vec3 reduced = b - k * a;
    if (!(squaredLength(reduced) < squaredLength(b))) return false;
    b = reduced;
    return true;
}

// Replaces basis[k] by basis[k] plus or minus the sum or difference of the other two if shorter.
bool reduceAgainstPair(mat3& basis, int k) {
    const vec3 sum = basis[(k + 1) % 3] + basis[(k + 2) % 3];
    const vec3 difference = basis[(k + 1) % 3] - basis[(k + 2) % 3];
    bool changed = false;
    for (const vec3& v : {sum, -sum, difference, -difference}) {
        const vec3 reduced = basis[k] + v;
        if (squaredLength(reduced) < squaredLength(basis[k])) {
            basis[k] = reduced;
            changed = true;
        }
    }
    return changed;
}

float longestEdge(const mat3& basis) {
    return std::sqrt(std::max({squaredLength(basis[0]), squaredLength(basis[1]), squaredLength(basis[2])}));
}

struct Significance {
    float vorticity2 = 0.0f;  // |omega|^2 from which a vorton counts
    float density = 0.0f;     // |rho'| from which it counts (infinite without density)
    bool counts(const Vortons& v, size_t i) const {
        return squaredLength(v.vorticity[i]) >= vorticity2 || std::abs(v.density[i]) >= density;
    }
};

Significance significanceOf(const Vortons& v, float share) {
    const glm::vec2 largest = deterministicReduce<glm::vec2>(
        v.size(), glm::vec2(0.0f),
        [&](size_t s, size_t e) {
            glm::vec2 m(0.0f);
            for (size_t i = s; i < e; ++i)
                m = glm::max(m, glm::vec2(squaredLength(v.vorticity[i]), std::abs(v.density[i])));
            return m;
        },
        [](const glm::vec2& a, const glm::vec2& b) { return glm::max(a, b); });
    const float noDensity = std::numeric_limits<float>::infinity();
    return {share * share * largest.x, largest.y > 0.0f ? share * largest.y : noDensity};
}

}  // namespace

void reduceLatticeBasis(mat3& basis) {
    for (int sweep = 0; sweep < kMaxReductionSweeps; ++sweep) {
        bool changed = false;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                if (i != j) changed |= reduceAgainst(basis[j], basis[i]);
        for (int k = 0; k < 3; ++k) changed |= reduceAgainstPair(basis, k);
        if (!changed) return;
    }
}

float carryLatticeMaps(const std::vector<mat3>& velocityGradient, const Vortons& vortons, float dt, float share,
                       std::vector<mat3>& maps) {
    if (maps.size() > velocityGradient.size()) maps.clear();  // not the same vortons: start over
    maps.resize(velocityGradient.size(), mat3(1.0f));
    const Significance significance = significanceOf(vortons, share);
    const float longest = deterministicReduce<float>(
        maps.size(), 1.0f,
        [&](size_t s, size_t e) {
            float m = 1.0f;
            for (size_t i = s; i < e; ++i) {
                maps[i] = matrixExponential(velocityGradient[i] * dt) * maps[i];
                float edge = longestEdge(maps[i]);
                if (edge > kLeastStretchReduced) {
                    reduceLatticeBasis(maps[i]);
                    edge = longestEdge(maps[i]);
                }
                if (significance.counts(vortons, i)) m = std::max(m, edge);
            }
            return m;
        },
        [](float a, float b) { return std::max(a, b); }, kVortonsPerChunk);
    return std::log(longest);
}

}  // namespace vfx
