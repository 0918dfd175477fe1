#include "sim/remesh_totals.hpp"

#include "core/linear_solve.hpp"

#include <array>
#include <cmath>
#include <vector>

namespace vfx {

VortonTotals vortonTotals(const Vortons& v) {
    VortonTotals t;
    for (size_t i = 0; i < v.size(); ++i) {
        const dvec3 strength = dvec3(v.vorticity[i]) * double(v.volume(i));
        t.vorticity += strength;
        t.impulse += 0.5 * glm::cross(dvec3(v.position[i]), strength);
        t.mass += double(v.density[i]) * double(v.volume(i));
    }
    return t;
}

namespace {

// Each vorton's weight w_i = |omega_i| V_i, their sum and weighted centre.
struct Weights {
    std::vector<double> each;
    double sum = 0.0;
    dvec3 centre{0.0};
};

Weights weightsOf(const Vortons& v) {
    Weights w;
    w.each.resize(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        w.each[i] = double(glm::length(v.vorticity[i])) * double(v.volume(i));
        w.sum += w.each[i];
        w.centre += w.each[i] * dvec3(v.position[i]);
    }
    if (w.sum > 0.0) w.centre /= w.sum;
    return w;
}

// Solves for lambda and mu (positions taken about the weights' centre c, where the impulse
// condition reads 1/2 sum (x_i - c) x d alpha_i = b - 1/2 c x a):
//   sum w_i lambda                   = a
//   1/4 sum w_i (|r|^2 I - r r^T) mu = b - 1/2 c x a   (the lambda terms vanish about the centre)
bool solveMultipliers(const Vortons& v, const Weights& w, const dvec3& a, const dvec3& b, dvec3& lambda, dvec3& mu) {
    std::array<std::array<double, 3>, 3> inertia{};
    for (size_t i = 0; i < v.size(); ++i) {
        const dvec3 r = dvec3(v.position[i]) - w.centre;
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 3; ++col)
                inertia[row][col] += 0.25 * w.each[i] * ((row == col ? glm::dot(r, r) : 0.0) - r[row] * r[col]);
    }
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
    for (size_t i = 0; i < v.size(); ++i) {
        const dvec3 change = w.each[i] * (lambda + 0.5 * glm::cross(mu, dvec3(v.position[i]) - w.centre));
        v.vorticity[i] = vec3(dvec3(v.vorticity[i]) + change / double(v.volume(i)));
    }
    return true;
}

void addMass(Vortons& v, double missing) {
    double sum = 0.0;
    for (size_t i = 0; i < v.size(); ++i) sum += std::abs(double(v.density[i])) * double(v.volume(i));
    if (!(sum > 0.0)) return;
    // Each vorton's mass changes by missing |rho'_i| V_i / sum, of either sign.
    for (size_t i = 0; i < v.size(); ++i) {
        const double density = double(v.density[i]);
        v.density[i] = float(density + missing / sum * std::abs(density));
    }
}

}  // namespace

bool restoreTotals(Vortons& v, const VortonTotals& wanted) {
    const VortonTotals now = vortonTotals(v);
    addMass(v, wanted.mass - now.mass);
    return restoreVorticityAndImpulse(v, wanted.vorticity - now.vorticity, wanted.impulse - now.impulse);
}

}  // namespace vfx
