#pragma once
// LU factorisation of a dense square matrix with partial pivoting, in double, for systems solved
// many times with the same matrix (a body's wall-source system: factorised once, solved every
// sub-step).
#include <cstddef>
#include <vector>

namespace vfx {

class DenseLu {
public:
    // Factorises the n x n row-major matrix; false when it is singular to working precision.
    bool factorise(std::vector<double> matrix, int n);
    // Solves A x = b in place (b becomes x).
    void solve(std::vector<double>& b) const;
    // Solves for `count` right-hand sides at once, in place: b is n x count, row-major (b[row *
    // count + c] is row `row` of right-hand side c). Each column goes through the same operations
    // as solve() gives it, and the columns side by side keep the vector units busy.
    void solveMany(double* b, size_t count) const;
    int size() const { return n_; }

private:
    std::vector<double> lu_;
    std::vector<int> pivot_;
    int n_ = 0;
};

}  // namespace vfx
