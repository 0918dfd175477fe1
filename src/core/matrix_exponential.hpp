#pragma once
// exp(A) v for a 3x3 matrix A without forming exp(A): the Taylor series of the action, applied in
// pieces exp(A/m)^m with |A/m| <= 1/2 (Frobenius norm) so that each piece's eight terms leave a
// remainder below 0.5^9/9! ~ 5e-9 of |v|, under single precision, and no term cancels another by
// more than a factor e^0.5 (Higham, "Functions of Matrices", 2008, ch. 10).
#include "core/math.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

constexpr float kExponentialPieceNorm = 0.5f;
constexpr int kExponentialTerms = 8;

inline float frobeniusNorm(const mat3& a) {
    float sum = 0.0f;
    for (int c = 0; c < 3; ++c) sum += glm::dot(a[c], a[c]);
    return std::sqrt(sum);
}

inline vec3 exponentialTimes(const mat3& a, vec3 v) {
    const float norm = frobeniusNorm(a);
    if (!(norm < 1e6f)) return a * v;  // not finite: let the caller's checks see it
    const int pieces = std::max(1, int(std::ceil(norm / kExponentialPieceNorm)));
    const mat3 piece = a * (1.0f / float(pieces));
    for (int p = 0; p < pieces; ++p) {
        vec3 term = v;
        vec3 sum = v;
        for (int k = 1; k <= kExponentialTerms; ++k) {
            term = (piece * term) * (1.0f / float(k));
            sum += term;
        }
        v = sum;
    }
    return v;
}

}  // namespace vfx
