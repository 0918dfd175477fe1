#pragma once
// The exponential of a 3x3 matrix A (Higham, "Functions of Matrices", 2008, ch. 10).
// exponentialTimes: exp(A) v without forming exp(A), the Taylor series of the action applied in
// pieces exp(A/m)^m with |A/m| <= 1/2 (Frobenius norm) so that each piece's eight terms leave a
// remainder below 0.5^9/9! ~ 5e-9 of |v|, under single precision, and no term cancels another by
// more than a factor e^0.5. matrixExponential: exp(A) itself, for a product of many steps.
#include "core/math.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

constexpr float kExponentialPieceNorm = 0.5f;
constexpr int kExponentialTerms = 8;
constexpr float kExponentialScaledNorm = 0.25f;  // matrixExponential: degree-4 remainder 0.25^5/5! ~ 8e-6
constexpr int kExponentialMaxSquarings = 40;

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

// exp(a) by scaling and squaring a degree-4 Taylor polynomial (Higham, ch. 10): a rotation
// generator gives a rotation whatever |a|.
inline mat3 matrixExponential(const mat3& a) {
    const float norm = frobeniusNorm(a);
    if (!(norm < 1e6f)) return mat3(1.0f) + a;  // not finite: let the caller's checks see it
    int squarings = 0;
    float scale = 1.0f;
    while (norm * scale > kExponentialScaledNorm && squarings < kExponentialMaxSquarings) {
        scale *= 0.5f;
        ++squarings;
    }
    const mat3 b = a * scale;
    const mat3 b2 = b * b;
    mat3 e = mat3(1.0f) + b + b2 * (1.0f / 2.0f) + (b2 * b) * (1.0f / 6.0f) + (b2 * b2) * (1.0f / 24.0f);
    for (int s = 0; s < squarings; ++s) e = e * e;
    return e;
}

}  // namespace vfx
