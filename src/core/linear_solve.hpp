#pragma once
// Small dense linear systems (the 9 x 9 Gram system of a body's shell impulse): Gaussian
// elimination with partial pivoting, in double.
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace vfx {

// Solves a x = b (n x n, row-major) by Gaussian elimination with partial pivoting; false when
// the matrix is singular to working precision.
template <int N>
bool solveLinear(std::array<std::array<double, N>, N> a, std::array<double, N> b, std::array<double, N>& x) {
    double largest = 0.0;
    for (const auto& row : a)
        for (double value : row) largest = std::max(largest, std::abs(value));
    for (int col = 0; col < N; ++col) {
        int pivot = col;
        for (int row = col + 1; row < N; ++row)
            if (std::abs(a[row][col]) > std::abs(a[pivot][col])) pivot = row;
        if (!(std::abs(a[pivot][col]) > 1e-12 * largest)) return false;
        std::swap(a[pivot], a[col]);
        std::swap(b[pivot], b[col]);
        for (int row = col + 1; row < N; ++row) {
            const double factor = a[row][col] / a[col][col];
            for (int k = col; k < N; ++k) a[row][k] -= factor * a[col][k];
            b[row] -= factor * b[col];
        }
    }
    for (int row = N - 1; row >= 0; --row) {
        double sum = b[row];
        for (int k = row + 1; k < N; ++k) sum -= a[row][k] * x[k];
        x[row] = sum / a[row][row];
    }
    return true;
}

}  // namespace vfx
