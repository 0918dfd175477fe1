#include "core/dense_lu.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace vfx {

bool DenseLu::factorise(std::vector<double> matrix, int n) {
    n_ = n;
    lu_ = std::move(matrix);
    pivot_.resize(size_t(n));
    double largest = 0.0;
    for (double value : lu_) largest = std::max(largest, std::abs(value));
    const auto at = [&](int row, int col) -> double& { return lu_[size_t(row) * size_t(n) + size_t(col)]; };
    for (int col = 0; col < n; ++col) {
        int pivot = col;
        for (int row = col + 1; row < n; ++row)
            if (std::abs(at(row, col)) > std::abs(at(pivot, col))) pivot = row;
        pivot_[size_t(col)] = pivot;
        if (!(std::abs(at(pivot, col)) > 1e-14 * largest)) return false;
        if (pivot != col)
            for (int k = 0; k < n; ++k) std::swap(at(pivot, k), at(col, k));
        const double inverse = 1.0 / at(col, col);
        for (int row = col + 1; row < n; ++row) {
            double& factor = at(row, col);
            factor *= inverse;
            if (factor == 0.0) continue;
            const double* top = &lu_[size_t(col) * size_t(n)];
            double* rest = &lu_[size_t(row) * size_t(n)];
            for (int k = col + 1; k < n; ++k) rest[k] -= factor * top[k];
        }
    }
    return true;
}

void DenseLu::solve(std::vector<double>& b) const {
    const int n = n_;
    for (int col = 0; col < n; ++col) std::swap(b[size_t(col)], b[size_t(pivot_[size_t(col)])]);
    for (int row = 0; row < n; ++row) {
        const double* r = &lu_[size_t(row) * size_t(n)];
        double sum = b[size_t(row)];
        for (int k = 0; k < row; ++k) sum -= r[k] * b[size_t(k)];
        b[size_t(row)] = sum;
    }
    for (int row = n - 1; row >= 0; --row) {
        const double* r = &lu_[size_t(row) * size_t(n)];
        double sum = b[size_t(row)];
        for (int k = row + 1; k < n; ++k) sum -= r[k] * b[size_t(k)];
        b[size_t(row)] = sum / r[row];
    }
}

void DenseLu::solveMany(double* b, size_t count) const {
    const int n = n_;
    const auto row = [&](int r) { return b + size_t(r) * count; };
    for (int col = 0; col < n; ++col)
        if (pivot_[size_t(col)] != col) std::swap_ranges(row(col), row(col) + count, row(pivot_[size_t(col)]));
    for (int r = 0; r < n; ++r) {
        const double* factors = &lu_[size_t(r) * size_t(n)];
        double* __restrict target = row(r);
        for (int k = 0; k < r; ++k) {
            const double f = factors[k];
            const double* __restrict source = row(k);
            for (size_t c = 0; c < count; ++c) target[c] -= f * source[c];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        const double* factors = &lu_[size_t(r) * size_t(n)];
        double* __restrict target = row(r);
        for (int k = r + 1; k < n; ++k) {
            const double f = factors[k];
            const double* __restrict source = row(k);
            for (size_t c = 0; c < count; ++c) target[c] -= f * source[c];
        }
        const double diagonal = factors[r];
        for (size_t c = 0; c < count; ++c) target[c] /= diagonal;
    }
}

}  // namespace vfx
