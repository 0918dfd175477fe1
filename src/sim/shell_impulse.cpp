// The shell impulse exchange: ring and swirl shapes sized by their own 3 x 3 sums, then the
// least correction that meets the nine sums (total vorticity, linear and angular impulse)
// exactly. Every sum runs over the shell in vorton index order, the same for any thread count.
#include "sim/shell_impulse.hpp"

#include "bodies/shapes.hpp"
#include "core/linear_solve.hpp"
#include "core/parallel.hpp"

#include <array>
#include <cmath>

namespace vfx {

namespace {

constexpr size_t kShellScanGrain = 2048;  // vortons per parallel task of the shell scan

// The shapes an exchange gives the fluid, each linear in a direction e (unit axes):
// - swirl: the curl of a swirling flow g(s) e x r about the body centre, g = sin^2(pi s) of the
//   depth s, so it vanishes at the surface and at the edge: divergence-free, zero total
//   vorticity and zero linear impulse in the continuum, no rotation inside the body; it carries
//   angular impulse (what a spinning body sheds);
// - ring: w e x (x - c), a closed vortex ring around the body carrying linear impulse (what a
//   body dragged through the fluid sheds).
dvec3 swirlVorticity(const dvec3& e, const ShellVorton& m, const dvec3& x, const dvec3& bodyCentre, double reach) {
    const double s = std::sin(kPiDouble * m.depth);
    const double swirl = s * s;                                                    // g
    const double slope = kPiDouble * std::sin(2.0 * kPiDouble * m.depth) / reach;  // dg/dd along the normal
    return 2.0 * swirl * e + slope * glm::cross(m.normal, glm::cross(e, x - bodyCentre));
}

dvec3 ringVorticity(const dvec3& e, const ShellVorton& m, const dvec3& x, const dvec3& ringCentre) {
    return m.weight() * glm::cross(e, x - ringCentre);
}

// What a vorton's strength s = omega V adds to the nine sums an exchange must set: the total
// vorticity sum s, the linear impulse 1/2 sum x x s and the angular impulse 1/3 sum x x (x x s).
// Each is a 3 x 3 matrix acting on s: I, K/2 and K^2/3 with K the cross-product matrix of x.
constexpr int kConstraints = 9;

std::array<dmat3, 3> constraintBlocks(const dvec3& x) {
    const dmat3 k(0.0, x.z, -x.y, -x.z, 0.0, x.x, x.y, -x.x, 0.0);  // column-major: k * s = x x s
    return {dmat3(1.0), 0.5 * k, (1.0 / 3.0) * (k * k)};
}

// The 3 x 3 matrix whose column k is sum(V f(e_k, vorton)), f mapping a direction to a 3-vector.
template <class F>
dmat3 shellSum(const Vortons& v, const Shell& shell, F&& f) {
    dmat3 sum(0.0);
    for (const ShellVorton& m : shell.members)
        for (int k = 0; k < 3; ++k) sum[k] += double(v.volume(m.index)) * f(dvec3(k == 0, k == 1, k == 2), m);
    return sum;
}

// The nine sums (total vorticity, linear and angular impulse about the origin) of strengths s_i.
std::array<double, kConstraints> constraintSums(const Vortons& v, const Shell& shell, const std::vector<dvec3>& s) {
    std::array<double, kConstraints> sums{};
    for (size_t j = 0; j < shell.members.size(); ++j) {
        const std::array<dmat3, 3> b = constraintBlocks(dvec3(v.position[shell.members[j].index]));
        for (int p = 0; p < 3; ++p) {
            const dvec3 part = b[p] * s[j];
            for (int r = 0; r < 3; ++r) sums[3 * p + r] += part[r];
        }
    }
    return sums;
}

// The least strengths s_i = omega_i V_i (least sum |s_i|^2 / (V_i w_i), w the shell weight) whose
// nine sums are `wanted`: s_i = V_i w_i B_i^T lambda with B_i the vorton's constraint rows and
// lambda from the 9 x 9 Gram system sum V w B B^T lambda = wanted, positive definite unless the
// shell is degenerate (a line of vortons), however walls cut it. The rows are about the origin;
// scaling the diagonal keeps the system well conditioned for shells a few metres from it (the
// condition number grows as (distance / shell size)^4). Returns lambda's three parts.
bool leastCorrection(const Vortons& v, const Shell& shell, const std::array<double, kConstraints>& wanted,
                     std::array<dvec3, 3>& lambda) {
    std::array<std::array<double, kConstraints>, kConstraints> gram{};
    for (const ShellVorton& m : shell.members) {
        const std::array<dmat3, 3> b = constraintBlocks(dvec3(v.position[m.index]));
        const double share = double(v.volume(m.index)) * m.weight();
        for (int p = 0; p < 3; ++p)
            for (int q = 0; q < 3; ++q) {
                const dmat3 block = b[p] * glm::transpose(b[q]);  // row r, column c at [c][r]
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) gram[3 * p + r][3 * q + c] += share * block[c][r];
            }
    }
    // The three blocks differ in scale by powers of |x|: solve the equilibrated system.
    std::array<double, kConstraints> scale{}, scaled{}, solution{};
    for (int k = 0; k < kConstraints; ++k) {
        if (!(gram[k][k] > 0.0)) return false;
        scale[k] = 1.0 / std::sqrt(gram[k][k]);
        scaled[k] = scale[k] * wanted[k];
    }
    for (int r = 0; r < kConstraints; ++r)
        for (int c = 0; c < kConstraints; ++c) gram[r][c] *= scale[r] * scale[c];
    if (!solveLinear<kConstraints>(gram, scaled, solution)) return false;
    for (int p = 0; p < 3; ++p)
        lambda[size_t(p)] = dvec3(solution[3 * p], solution[3 * p + 1], solution[3 * p + 2]) *
                            dvec3(scale[3 * p], scale[3 * p + 1], scale[3 * p + 2]);
    return true;
}

}  // namespace

Shell gatherShell(const RigidBody& body, const Vortons& v, float reach, std::vector<float>& depths) {
    depths.resize(v.size());
    parallelForEach(
        0, v.size(),
        [&](size_t i) {
            const vec3& x = v.position[i];
            const float d = mayTouchBody(body, x, reach) ? contactDistance(body, x) : reach;
            depths[i] = d >= 0.0f && d < reach ? d / reach : -1.0f;
        },
        kShellScanGrain);
    Shell shell;
    for (size_t i = 0; i < v.size(); ++i) {
        if (depths[i] < 0.0f) continue;
        ShellVorton m;
        m.index = i;
        m.depth = double(depths[i]);
        vec3 normal;
        contactDistance(body, v.position[i], &normal);
        m.normal = dvec3(normal);
        shell.members.push_back(m);
        shell.volume += v.volume(i);
    }
    return shell;
}

bool injectImpulses(Vortons& v, const Shell& shell, const dvec3& bodyCentre, double reach, const dvec3& impulse,
                    const dvec3& angularImpulse) {
    double weight = 0.0;
    dvec3 first{0.0};
    for (const ShellVorton& m : shell.members) {
        weight += m.weight() * v.volume(m.index);
        first += m.weight() * v.volume(m.index) * dvec3(v.position[m.index]);
    }
    if (!(weight > 0.0)) return false;
    const dvec3 ringCentre = first / weight;  // the ring's vorticity sums to zero about it
    auto position = [&](const ShellVorton& m) { return dvec3(v.position[m.index]); };
    const dmat3 ringImpulse = shellSum(v, shell, [&](const dvec3& e, const ShellVorton& m) {
        return 0.5 * glm::cross(position(m) - ringCentre, ringVorticity(e, m, position(m), ringCentre));
    });
    const dmat3 swirlAngular = shellSum(v, shell, [&](const dvec3& e, const ShellVorton& m) {
        const dvec3 r = position(m) - bodyCentre;
        return (1.0 / 3.0) * glm::cross(r, glm::cross(r, swirlVorticity(e, m, position(m), bodyCentre, reach)));
    });
    // A shape whose sums are singular (its vortons on a line) is left to the correction.
    const auto amountOf = [](const dmat3& sums, const dvec3& wanted) {
        const double d = glm::determinant(sums);
        const double size = glm::length(sums[0]) * glm::length(sums[1]) * glm::length(sums[2]);
        return std::abs(d) > 1e-9 * size ? glm::inverse(sums) * wanted : dvec3(0.0);
    };
    const dvec3 ring = amountOf(ringImpulse, impulse);
    const dvec3 swirl = amountOf(swirlAngular, angularImpulse - glm::cross(bodyCentre, impulse));
    std::vector<dvec3> strength(shell.members.size());
    for (size_t j = 0; j < shell.members.size(); ++j) {
        const ShellVorton& m = shell.members[j];
        const dvec3 x = position(m);
        strength[j] = double(v.volume(m.index)) *
                      (ringVorticity(ring, m, x, ringCentre) + swirlVorticity(swirl, m, x, bodyCentre, reach));
    }
    std::array<double, kConstraints> missing = constraintSums(v, shell, strength);
    const std::array<double, kConstraints> wanted{
        0.0, 0.0, 0.0, impulse.x, impulse.y, impulse.z, angularImpulse.x, angularImpulse.y, angularImpulse.z};
    for (int k = 0; k < kConstraints; ++k) missing[k] = wanted[k] - missing[k];
    std::array<dvec3, 3> lambda;
    if (!leastCorrection(v, shell, missing, lambda)) return false;
    parallelForEach(
        0, shell.members.size(),
        [&](size_t j) {
            const ShellVorton& m = shell.members[j];
            const std::array<dmat3, 3> b = constraintBlocks(position(m));
            const dvec3 correction = m.weight() * (glm::transpose(b[0]) * lambda[0] + glm::transpose(b[1]) * lambda[1] +
                                                   glm::transpose(b[2]) * lambda[2]);
            v.vorticity[m.index] += vec3(strength[j] / double(v.volume(m.index)) + correction);
        },
        256);
    return true;
}

}  // namespace vfx
