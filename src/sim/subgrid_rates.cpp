#include "sim/subgrid_rates.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

// Each model's constant squared over Smagorinsky's, from its authors' calibration on decaying
// isotropic turbulence: Vreman (2004) c = 2.5 C_s^2; Nicoud & Ducros (1999) C_w^2 = 10.6 C_s^2;
// Nicoud et al. (2011) C_sigma = 1.35 against C_s = 0.165.
constexpr float kVremanScale = 2.5f;
constexpr float kWaleScale = 10.6f;
constexpr float kSigmaScale = (1.35f / 0.165f) * (1.35f / 0.165f);

double frobenius2(const mat3& m) {
    double s = 0.0;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) s += double(m[j][i]) * double(m[j][i]);
    return s;
}

// Eigenvalues of a symmetric 3x3 matrix (double precision), largest first: the trigonometric
// solution of the characteristic cubic (Smith 1961).
void symmetricEigenvalues(const double a[3][3], double out[3]) {
    const double p1 = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double q = (a[0][0] + a[1][1] + a[2][2]) / 3.0;
    if (p1 <= 1e-30 * (q * q + 1e-300)) {
        out[0] = a[0][0], out[1] = a[1][1], out[2] = a[2][2];
        std::sort(out, out + 3, [](double x, double y) { return x > y; });
        return;
    }
    const double d0 = a[0][0] - q, d1 = a[1][1] - q, d2 = a[2][2] - q;
    const double p = std::sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * p1) / 6.0);
    const double b00 = d0 / p, b11 = d1 / p, b22 = d2 / p;
    const double b01 = a[0][1] / p, b02 = a[0][2] / p, b12 = a[1][2] / p;
    const double detB = b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) + b02 * (b01 * b12 - b11 * b02);
    const double r = std::clamp(detB / 2.0, -1.0, 1.0);
    const double phi = std::acos(r) / 3.0;
    const double twoPiOver3 = 2.0943951023931957;
    out[0] = q + 2.0 * p * std::cos(phi);
    out[2] = q + 2.0 * p * std::cos(phi + twoPiOver3);
    out[1] = 3.0 * q - out[0] - out[2];
}

}  // namespace

float smagorinskyRate(const mat3& g) {
    const mat3 s = 0.5f * (g + glm::transpose(g));
    return float(std::sqrt(2.0 * frobenius2(s)));
}

float vremanRate(const mat3& g) {
    // alpha_ij = du_j/dx_i = g[i][j]; beta = alpha^T alpha (unit filter width).
    double beta[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double s = 0.0;
            for (int m = 0; m < 3; ++m) s += double(g[m][i]) * double(g[m][j]);
            beta[i][j] = s;
        }
    const double b = beta[0][0] * beta[1][1] - beta[0][1] * beta[0][1] + beta[0][0] * beta[2][2] -
                     beta[0][2] * beta[0][2] + beta[1][1] * beta[2][2] - beta[1][2] * beta[1][2];
    const double aa = frobenius2(g);
    if (!(aa > 0.0) || !(b > 0.0)) return 0.0f;
    return kVremanScale * float(std::sqrt(b / aa));
}

float waleRate(const mat3& g) {
    const mat3 g2 = g * g;
    const mat3 s = 0.5f * (g + glm::transpose(g));
    mat3 sd = 0.5f * (g2 + glm::transpose(g2));
    const float trace = (g2[0][0] + g2[1][1] + g2[2][2]) / 3.0f;
    for (int i = 0; i < 3; ++i) sd[i][i] -= trace;
    const double sdsd = frobenius2(sd), ss = frobenius2(s);
    const double denominator = std::pow(ss, 2.5) + std::pow(sdsd, 1.25);
    if (!(denominator > 0.0)) return 0.0f;
    return kWaleScale * float(std::pow(sdsd, 1.5) / denominator);
}

vec3 singularValues(const mat3& g) {
    double a[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double s = 0.0;
            for (int m = 0; m < 3; ++m) s += double(g[i][m]) * double(g[j][m]);
            a[i][j] = s;  // (G^T G) in GLM's column indexing: columns i and j of g dotted
        }
    double l[3];
    symmetricEigenvalues(a, l);
    return vec3(float(std::sqrt(std::max(l[0], 0.0))), float(std::sqrt(std::max(l[1], 0.0))),
                float(std::sqrt(std::max(l[2], 0.0))));
}

float sigmaRate(const mat3& g) {
    const vec3 s = singularValues(g);
    if (!(s.x > 0.0f)) return 0.0f;
    const double d = double(s.z) * (double(s.x) - s.y) * (double(s.y) - s.z) / (double(s.x) * s.x);
    return kSigmaScale * float(std::max(d, 0.0));
}

}  // namespace vfx
