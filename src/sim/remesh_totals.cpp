#include "sim/remesh_totals.hpp"

#include "core/linear_solve.hpp"
#include "core/parallel.hpp"

#include <array>
#include <cmath>
#include <vector>

namespace vfx {

// Every sum below is a deterministicReduce (fixed chunks combined in order), so the corrections
// come out the same for any thread count.

VortonTotals vortonTotals(const Vortons& v) {
    return deterministicReduce<VortonTotals>(
        v.size(), VortonTotals{},
        [&](size_t b, size_t e) {
            VortonTotals t;
            for (size_t i = b; i < e; ++i) {
                const dvec3 strength = dvec3(v.vorticity[i]) * double(v.volume(i));
                t.vorticity += strength;
                t.impulse += 0.5 * glm::cross(dvec3(v.position[i]), strength);
                t.mass += double(v.density[i]) * double(v.volume(i));
            }
            return t;
        },
        [](const VortonTotals& a, const VortonTotals& c) {
            return VortonTotals{a.vorticity + c.vorticity, a.impulse + c.impulse, a.mass + c.mass};
        });
}

namespace {

// Each vorton's weight w_i = |omega_i| V_i, their sum and weighted centre.
struct Weights {
    std::vector<double> each;
    double sum = 0.0;
    dvec3 centre{0.0};
};

struct WeightedSum {
    double sum = 0.0;
    dvec3 moment{0.0};
};

Weights weightsOf(const Vortons& v) {
    Weights w;
    w.each.resize(v.size());
    const WeightedSum total = deterministicReduce<WeightedSum>(
        v.size(), WeightedSum{},
        [&](size_t b, size_t e) {
            WeightedSum s;
            for (size_t i = b; i < e; ++i) {
                w.each[i] = double(glm::length(v.vorticity[i])) * double(v.volume(i));
                s.sum += w.each[i];
                s.moment += w.each[i] * dvec3(v.position[i]);
            }
            return s;
        },
        [](const WeightedSum& a, const WeightedSum& c) {
            return WeightedSum{a.sum + c.sum, a.moment + c.moment};
        });
    w.sum = total.sum;
    if (w.sum > 0.0) w.centre = total.moment / w.sum;
    return w;
}

using Matrix3 = std::array<std::array<double, 3>, 3>;

// 1/4 sum w_i (|r|^2 I - r r^T), r = x_i - c.
Matrix3 impulseInertia(const Vortons& v, const Weights& w) {
    return deterministicReduce<Matrix3>(
        v.size(), Matrix3{},
        [&](size_t b, size_t e) {
            Matrix3 m{};
            for (size_t i = b; i < e; ++i) {
                const dvec3 r = dvec3(v.position[i]) - w.centre;
                for (int row = 0; row < 3; ++row)
                    for (int col = 0; col < 3; ++col)
                        m[row][col] += 0.25 * w.each[i] * ((row == col ? glm::dot(r, r) : 0.0) - r[row] * r[col]);
            }
            return m;
        },
        [](Matrix3 a, const Matrix3& c) {
            for (int row = 0; row < 3; ++row)
                for (int col = 0; col < 3; ++col) a[row][col] += c[row][col];
            return a;
        });
}

// Solves for lambda and mu (positions taken about the weights' centre c, where the impulse
// condition reads 1/2 sum (x_i - c) x d alpha_i = b - 1/2 c x a):
//   sum w_i lambda                   = a
//   1/4 sum w_i (|r|^2 I - r r^T) mu = b - 1/2 c x a   (the lambda terms vanish about the centre)
bool solveMultipliers(const Vortons& v, const Weights& w, const dvec3& a, const dvec3& b, dvec3& lambda, dvec3& mu) {
    Matrix3 inertia = impulseInertia(v, w);
    lambda = a / w.sum;
    const dvec3 shifted = b - 0.5 * glm::cross(w.centre, a);
    std::array<double, 3> rhs{shifted.x, shifted.y, shifted.z}, solution{};
    if (!solveLinear<3>(inertia, rhs, solution)) return false;
    mu = dvec3(solution[0], solution[1], solution[2]);
    return true;
}

bool restoreVorticityAndImpulse(Vortons& v, const dvec3& missingVorticity, const dvec3& missingImpulse) {
    const Weights w = weightsOf(v);
    dvec3 lambda, mu;
    if (!(w.sum > 0.0) || !solveMultipliers(v, w, missingVorticity, missingImpulse, lambda, mu)) return false;
    parallelForEach(
        0, v.size(),
        [&](size_t i) {
            const dvec3 change = w.each[i] * (lambda + 0.5 * glm::cross(mu, dvec3(v.position[i]) - w.centre));
            v.vorticity[i] = vec3(dvec3(v.vorticity[i]) + change / double(v.volume(i)));
        },
        4096);
    return true;
}

void addMass(Vortons& v, double missing) {
    const double sum = deterministicReduce<double>(
        v.size(), 0.0,
        [&](size_t b, size_t e) {
            double s = 0.0;
            for (size_t i = b; i < e; ++i) s += std::abs(double(v.density[i])) * double(v.volume(i));
            return s;
        },
        [](double a, double c) { return a + c; });
    if (!(sum > 0.0)) return;
    // Each vorton's mass changes by missing |rho'_i| V_i / sum, of either sign.
    parallelForEach(
        0, v.size(),
        [&](size_t i) {
            const double density = double(v.density[i]);
            v.density[i] = float(density + missing / sum * std::abs(density));
        },
        4096);
}

}  // namespace

bool restoreTotals(Vortons& v, const VortonTotals& wanted) {
    const VortonTotals now = vortonTotals(v);
    addMass(v, wanted.mass - now.mass);
    return restoreVorticityAndImpulse(v, wanted.vorticity - now.vorticity, wanted.impulse - now.impulse);
}

}  // namespace vfx
