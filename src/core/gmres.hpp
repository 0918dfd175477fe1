#pragma once
// GMRES (Saad & Schultz 1986) for a small dense-free linear system A x = b given only the product
// A v: Arnoldi with modified Gram-Schmidt and Givens rotations, no restarts, from x = 0. Every sum
// runs in a fixed order, so the result never depends on the thread count of the caller's product.
#include <cmath>
#include <vector>

namespace vfx {

struct GmresResult {
    int iterations = 0;
    double relativeResidual = 0.0;  // |b - A x| / |b|
};

// apply(v, out) sets out = A v. Stops when |b - A x| <= tolerance |b| or after maxIterations.
template <typename Apply>
GmresResult solveGmres(Apply&& apply, const std::vector<double>& b, std::vector<double>& x, int maxIterations,
                       double tolerance) {
    const size_t n = b.size();
    const auto dot = [n](const std::vector<double>& u, const std::vector<double>& v) {
        double sum = 0.0;
        for (size_t i = 0; i < n; ++i) sum += u[i] * v[i];
        return sum;
    };
    x.assign(n, 0.0);
    const double norm = std::sqrt(dot(b, b));
    GmresResult result;
    if (!(norm > 0.0)) return result;
    const size_t m = size_t(maxIterations);
    std::vector<std::vector<double>> basis{b};
    for (double& value : basis[0]) value /= norm;
    std::vector<std::vector<double>> h(m + 1, std::vector<double>(m, 0.0));
    std::vector<double> cosines(m), sines(m), g(m + 1, 0.0);
    g[0] = norm;
    size_t k = 0;
    std::vector<double> w(n);
    for (; k < m; ++k) {
        apply(basis[k], w);
        for (size_t i = 0; i <= k; ++i) {
            h[i][k] = dot(w, basis[i]);
            for (size_t j = 0; j < n; ++j) w[j] -= h[i][k] * basis[i][j];
        }
        h[k + 1][k] = std::sqrt(dot(w, w));
        for (size_t i = 0; i < k; ++i) {  // the earlier rotations, on the new column
            const double upper = cosines[i] * h[i][k] + sines[i] * h[i + 1][k];
            h[i + 1][k] = -sines[i] * h[i][k] + cosines[i] * h[i + 1][k];
            h[i][k] = upper;
        }
        const double length = std::hypot(h[k][k], h[k + 1][k]);
        cosines[k] = h[k][k] / length;
        sines[k] = h[k + 1][k] / length;
        const double lower = h[k + 1][k];
        h[k][k] = length;
        h[k + 1][k] = 0.0;
        g[k + 1] = -sines[k] * g[k];
        g[k] *= cosines[k];
        result.relativeResidual = std::abs(g[k + 1]) / norm;
        if (result.relativeResidual <= tolerance || !(lower > 0.0)) {
            ++k;
            break;
        }
        basis.emplace_back(w);
        for (double& value : basis.back()) value /= lower;
    }
    result.iterations = int(k);
    std::vector<double> y(k);
    for (size_t i = k; i-- > 0;) {
        double sum = g[i];
        for (size_t j = i + 1; j < k; ++j) sum -= h[i][j] * y[j];
        y[i] = sum / h[i][i];
    }
    for (size_t i = 0; i < k; ++i)
        for (size_t j = 0; j < n; ++j) x[j] += y[i] * basis[i][j];
    return result;
}

}  // namespace vfx
