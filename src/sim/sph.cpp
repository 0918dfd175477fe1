#include "sim/sph.hpp"

#include "core/parallel.hpp"
#include "sim/param_declarations.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace vfx {

// --- kernels ------------------------------------------------------------------------------

float sphKernel(float r, float h) {
    if (!(r < h)) return 0.0f;
    const float h2 = h * h;
    const float d = h2 - r * r;
    return 315.0f / (64.0f * kPi * h2 * h2 * h2 * h2 * h) * d * d * d;
}

vec3 sphKernelGradient(const vec3& rij, float h) {
    const float h2 = h * h;
    const float r2 = glm::dot(rij, rij);
    if (!(r2 < h2)) return vec3(0.0f);
    const float d = h2 - r2;
    return (-945.0f / (32.0f * kPi * h2 * h2 * h2 * h2 * h) * d * d) * rij;
}

vec3 sphPressureKernelGradient(const vec3& rij, float h) {
    const float r2 = glm::dot(rij, rij);
    if (!(r2 < h * h) || r2 <= 0.0f) return vec3(0.0f);
    const float r = std::sqrt(r2);
    const float d = h - r;
    const float h3 = h * h * h;
    return (-45.0f / (kPi * h3 * h3) * d * d / r) * rij;
}

float sphKernelShareOnFluidSide(float d, float h) {
    // For d >= 0: 1/2 + (315 / 256) (u - 4u^3/3 + 6u^5/5 - 4u^7/7 + u^9/9), u = d / h (the
    // integral of poly6 over the half-space); for d < 0 the complement.
    const float u = std::clamp(std::abs(d) / h, 0.0f, 1.0f);
    const float u2 = u * u;
    const float poly = u * (1.0f + u2 * (-4.0f / 3.0f + u2 * (6.0f / 5.0f + u2 * (-4.0f / 7.0f + u2 / 9.0f))));
    const float half = 315.0f / 256.0f * poly;
    return d >= 0.0f ? 0.5f + half : 0.5f - half;
}

float sphRestNumberDensity(float spacing, float h) {
    // Far more neighbours than a real fluid has: the lattice sum is the integral, 1 / s^3.
    if (h > 40.0f * spacing) return 1.0f / (spacing * spacing * spacing);
    const int reach = int(std::ceil(h / spacing));
    float sum = 0.0f;
    for (int z = -reach; z <= reach; ++z)
        for (int y = -reach; y <= reach; ++y)
            for (int x = -reach; x <= reach; ++x)
                sum += sphKernel(spacing * std::sqrt(float(x * x + y * y + z * z)), h);
    return sum;
}

float sphGradientReach(const FluidParams& fluid, const Vortons& vortons) {
    const float h = fluid.sphInfluenceRadius;
    if (fluid.method != FluidMethod::Vpm || fluid.densityGradient != GradientSource::Sph || vortons.size() == 0)
        return h;
    return std::max(h, kSphGradientSpacings * vortons.meanSpacing());
}

using namespace lanes;

// --- partition and number density ------------------------------------------------------------

void SphFluid::update(const Vortons& vortons, const FluidParams& fluid) {
    requireValidParams(fluid);
    // The density phase and the SPH phase of one step both update() at the same positions:
    // the second call costs one comparison pass instead of a partition and a neighbour pass.
    if (search_.matches(vortons.position, fluid.sphInfluenceRadius)) return;
    h_ = fluid.sphInfluenceRadius;
    search_.build(vortons.position, h_);
    computeNumberDensity();
}

void SphFluid::computeNumberDensity() {
    const size_t n = search_.size();
    sortedNumberDensity_ = padded(n);
    numberDensity_.resize(n);
    const std::vector<uint32_t>& order = search_.order();
    const float h2 = h_ * h_;
    const float norm = sphKernel(0.0f, h_) / (h2 * h2 * h2);
    const float *X = search_.x(), *Y = search_.y(), *Z = search_.z();
    search_.forEachParticle([&](size_t k, const Ranges& ranges, int count) {
        const Lanes xk = splat(X[k]), yk = splat(Y[k]), zk = splat(Z[k]);
        const float sum = sumScalar(ranges, count, [&](size_t m) {
            const Lanes dx = xk - load(X + m), dy = yk - load(Y + m), dz = zk - load(Z + m);
            const Lanes q = positive(h2 - (dx * dx + dy * dy + dz * dz));
            return q * q * q;
        });
        sortedNumberDensity_[k] = norm * sum;
        numberDensity_[order[k]] = norm * sum;
    });
}

float SphFluid::restNumberDensity(const FluidParams& fluid) const {
    if (fluid.sphRestSpacing != cachedRestSpacing_ || fluid.sphInfluenceRadius != cachedRestH_) {
        cachedRestSpacing_ = fluid.sphRestSpacing;
        cachedRestH_ = fluid.sphInfluenceRadius;
        cachedRestDensity_ = sphRestNumberDensity(fluid.sphRestSpacing, fluid.sphInfluenceRadius);
    }
    return cachedRestDensity_;
}

// --- density gradient ----------------------------------------------------------------------

void SphFluid::densityGradient(const Vortons& vortons, const std::vector<float>& wallProximity,
                               const std::vector<float>& wallShare, const FluidParams& fluid,
                               std::vector<vec3>& out) const {
    (void)fluid;  // h is that of the last update(), which built the partition
    const size_t n = vortons.size();
    out.resize(n);
    const std::vector<uint32_t>& order = search_.order();
    const float h = h_, h2 = h * h;
    // Per particle in partition order: density deviation rho' = rho - rho0 (then rho_j - rho0
    // and rho_j - rho_i are differences of deviations, exactly zero for uniform density) and
    // rho' / n for the canonical form. A particle near a wall misses the kernel mass behind
    // the wall, which makes 1 / n too large and gives the particles between h and 2h from the
    // wall (canonical form) a spurious gradient; so near a wall n is scaled up by the kernel
    // share on the fluid side of the walls (wallShare, see computeWallKernelShare).
    std::vector<float> deviation = padded(n), canonicalWeight = padded(n);
    std::vector<uint8_t> nearWall(n);
    parallelForEachStable(
        0, n,
        [&](size_t k) {
            const uint32_t i = order[k];
            const float proximity = i < wallProximity.size() ? wallProximity[i] : 1e30f;
            const float share = i < wallShare.size() ? wallShare[i] : 1.0f;
            deviation[k] = vortons.density[i];
            nearWall[k] = proximity < h;
            canonicalWeight[k] = vortons.density[i] * share / sortedNumberDensity_[k];
        },
        4096);
    const float gradNorm = -945.0f / (32.0f * kPi * h2 * h2 * h2 * h2 * h);
    const float *X = search_.x(), *Y = search_.y(), *Z = search_.z();
    const float* D = deviation.data();
    const float* C = canonicalWeight.data();
    search_.forEachParticle([&](size_t k, const Ranges& ranges, int count) {
        const Lanes xk = splat(X[k]), yk = splat(Y[k]), zk = splat(Z[k]);
        vec3 g;
        if (nearWall[k]) {
            // Difference form: only density differences between neighbours count, so a
            // uniform fluid pressed against a wall (or at a free surface) has no gradient.
            const Lanes own = splat(D[k]);
            g = sumVector(ranges, count,
                          [&](size_t m) {
                              const Lanes dx = xk - load(X + m), dy = yk - load(Y + m), dz = zk - load(Z + m);
                              const Lanes q = positive(h2 - (dx * dx + dy * dy + dz * dz));
                              const Lanes s = (load(D + m) - own) * q * q;
                              return Lanes3{s * dx, s * dy, s * dz};
                          }) *
                (gradNorm / sortedNumberDensity_[k]);
        } else {
            // Canonical form: each neighbour's deviation weighted by its volume 1 / n_j; sees
            // the edge of a drop with no ambient particles around it.
            g = sumVector(ranges, count,
                          [&](size_t m) {
                              const Lanes dx = xk - load(X + m), dy = yk - load(Y + m), dz = zk - load(Z + m);
                              const Lanes q = positive(h2 - (dx * dx + dy * dy + dz * dz));
                              const Lanes s = load(C + m) * q * q;
                              return Lanes3{s * dx, s * dy, s * dz};
                          }) *
                gradNorm;
        }
        out[order[k]] = g;
    });
}

// --- exact baroclinic generation -------------------------------------------------------------
//
// With grad W_ij = phi_ij r_ij (r_ij = x_i - x_j) and B_i = sum_j V_j phi_ij (r_ij r_ij^T - r_ij^2 I),
// each vorton gains the strength
//   d(alpha_i) = 2 dt V_i sum_j V_j phi_ij r_ij x (G_i + G_j),   G_i = B_i^-1 F_i,  F = rho' g / rho0.
// Pair terms are antisymmetric, so sum d(alpha) = 0. The impulse change 1/2 sum x_i x d(alpha_i),
// antisymmetrised over pairs, is dt/2 sum_ij V_i V_j phi (r r^T - r^2 I)(G_i + G_j)
// = dt sum_i V_i B_i G_i = dt sum_i V_i F_i: exactly dt g sum(rho' V) / rho0. Inside the fluid B_i ~ 2I (a full neighbourhood),
// and the sum is the SPH curl of F; at the edge of a drop with no particles beyond, B_i ~ I and
// the edge vortons take the share of the interface the missing particles would have had.
void SphFluid::addBaroclinicVorticity(Vortons& vortons, const std::vector<float>& wallProximity,
                                      const std::vector<vec3>& gradient, const vec3& gravity, float ambientDensity,
                                      float dt) const {
    const size_t n = vortons.size();
    const std::vector<uint32_t>& order = search_.order();
    const float h = h_, h2 = h * h;
    const float gradNorm = -945.0f / (32.0f * kPi * h2 * h2 * h2 * h2 * h);
    const float *X = search_.x(), *Y = search_.y(), *Z = search_.z();
    std::vector<float> volume(n);
    parallelForEachStable(
        0, n, [&](size_t k) { volume[k] = vortons.volume(order[k]); }, 4096);
    // phi_km for a candidate m of particle k (0 beyond the support and for k itself).
    auto forEachNeighbour = [&](size_t k, const Ranges& ranges, int count, auto&& visit) {
        for (int r = 0; r < count; ++r)
            for (uint32_t m = ranges[r][0]; m < ranges[r][1]; ++m) {
                const vec3 d(X[k] - X[m], Y[k] - Y[m], Z[k] - Z[m]);
                const float q = h2 - glm::dot(d, d);
                if (q <= 0.0f || m == k) continue;
                visit(m, d, gradNorm * q * q);
            }
    };
    std::vector<vec3> weighted(n);  // G = B^-1 F in partition order
    const vec3 force = gravity / ambientDensity;
    search_.forEachParticle([&](size_t k, const Ranges& ranges, int count) {
        mat3 b(0.0f);
        forEachNeighbour(k, ranges, count, [&](uint32_t m, const vec3& d, float phi) {
            b += (volume[m] * phi) * (glm::outerProduct(d, d) - mat3(glm::dot(d, d)));
        });
        const float trace = b[0][0] + b[1][1] + b[2][2];
        // An isolated vorton (no neighbour, B = 0) has no interface to share.
        weighted[k] =
            trace > 1e-6f ? glm::inverse(b + mat3(1e-4f * trace)) * (vortons.density[order[k]] * force) : vec3(0.0f);
    });
    search_.forEachParticle([&](size_t k, const Ranges& ranges, int count) {
        const uint32_t i = order[k];
        const float proximity = i < wallProximity.size() ? wallProximity[i] : 1e30f;
        if (proximity < h) {
            vortons.vorticity[i] += dt / ambientDensity * glm::cross(gradient[i], gravity);
            return;
        }
        vec3 sum(0.0f);
        forEachNeighbour(k, ranges, count, [&](uint32_t m, const vec3& d, float phi) {
            sum += (volume[m] * phi) * glm::cross(d, weighted[k] + weighted[m]);
        });
        vortons.vorticity[i] += 2.0f * dt * sum;
    });
}

// --- pressure and viscosity ----------------------------------------------------------------

namespace {

// p / rho = c^2 (n - n0) / n0 (weakly compressible, sound speed c = sqrt(stiffness)). Where
// the fluid is sparser than at rest the pull toward rest density is scaled by the cohesion
// (0..1). The drop's vortons are the only SPH particles, so the ambient fluid around them is
// empty space to SPH and the pull acts like surface tension: it is what makes vortons "cling
// together" under sph and hybrid (Gourlay part 16); without it a drop's number density stays
// below rest, a pressure that only pushes never acts, and hybrid moves like vpm.
inline float specificPressure(float n, float n0, float stiffness, float cohesion) {
    const float p = stiffness * (n - n0) / n0;
    return p > 0.0f ? p : cohesion * p;
}

// Pairs closer than the rest spacing s0 repel with |a| = kCoreRepulsion c^2 / s0 (1 - r/s0)^2.
// A pull toward rest *density* alone lets neighbours pair up (the tensile instability: two
// particles on top of each other barely change the smoothed density), which halved the nearest-
// neighbour distance on the drop; this short-range core keeps the spacing (median nearest
// neighbour 0.0095 m -> 0.032 m at s0 = 0.038 m). It vanishes on a lattice at rest spacing.
constexpr float kCoreRepulsion = 10.0f;

}  // namespace

float sphFastestFrequency(const FluidParams& fluid) {
    const float c = std::sqrt(fluid.sphStiffness), s0 = fluid.sphRestSpacing;
    return std::max(std::sqrt(2.0f * kCoreRepulsion) * c / s0, kPi * c / s0);
}

std::vector<float> SphFluid::sortedEffectiveNumberDensity(const std::vector<float>& wallShare) const {
    // A particle within h of a wall misses the kernel mass behind it; counting that mass as
    // fluid (n / share on the fluid side) keeps fluid filling a container from reading as sparse
    // there, so cohesion does not peel it off the walls and the ambient drag does not act on it.
    const std::vector<uint32_t>& order = search_.order();
    std::vector<float> effective(search_.size());
    parallelForEachStable(
        0, search_.size(),
        [&](size_t k) {
            const uint32_t i = order[k];
            effective[k] = sortedNumberDensity_[k] / (i < wallShare.size() ? wallShare[i] : 1.0f);
        },
        4096);
    return effective;
}

std::vector<float> SphFluid::sortedPressureOverN(const FluidParams& fluid, const std::vector<float>& effectiveN) const {
    requireValidParams(fluid);
    const float n0 = restNumberDensity(fluid);
    std::vector<float> pressureOverN = padded(search_.size());  // (p / rho) / n in partition order
    parallelForEachStable(
        0, search_.size(),
        [&](size_t k) {
            const float nk = effectiveN[k];
            pressureOverN[k] = specificPressure(nk, n0, fluid.sphStiffness, fluid.sphCohesion) / nk;
        },
        4096);
    return pressureOverN;
}

void SphFluid::pressureAcceleration(const Vortons& vortons, const FluidParams& fluid,
                                    const std::vector<float>& wallShare, std::vector<vec3>& out) const {
    accelerationTerms(vortons, fluid, sortedEffectiveNumberDensity(wallShare), 0.0f, out, nullptr);
}

float SphFluid::viscosity(const FluidParams& fluid, float dt) const {
    const float h = fluid.sphInfluenceRadius;
    const float nu = kSphViscosityAlpha * std::sqrt(std::max(fluid.sphStiffness, 0.0f)) * h;
    // Explicit viscosity is stable while nu * L0 * dt stays below ~1, with L0 = 15 / h^2 the
    // sum of the viscosity Laplacian over a full neighbourhood: cap nu for small h or large dt.
    return dt > 0.0f ? std::min(nu, 0.5f * h * h / (15.0f * dt)) : nu;
}

void SphFluid::acceleration(const Vortons& vortons, const FluidParams& fluid, const std::vector<float>& wallShare,
                            float dt, std::vector<vec3>& out) {
    const size_t n = vortons.size();
    dragRate_.resize(n);
    const std::vector<float> effectiveN = sortedEffectiveNumberDensity(wallShare);
    accelerationTerms(vortons, fluid, effectiveN, viscosity(fluid, dt), out, &vortons.sphVelocity);
    // Ambient drag: the kernel mass a particle misses (1 - n / n0) is ambient fluid at rest
    // that SPH does not simulate; the viscosity couples the particle to it as it does to its
    // neighbours, with the full-neighbourhood Laplacian sum L0 = 15 / h^2. This is what slows
    // a drop falling through still fluid under pure SPH (vortex methods get it from the flow).
    const float n0 = restNumberDensity(fluid);
    const float ambientRate = viscosity(fluid, dt) * 15.0f / (h_ * h_);
    const std::vector<uint32_t>& order = search_.order();
    parallelForEachStable(
        0, n, [&](size_t k) { dragRate_[order[k]] = ambientRate * std::max(0.0f, 1.0f - effectiveN[k] / n0); }, 4096);
}

void SphFluid::accelerationTerms(const Vortons& vortons, const FluidParams& fluid, const std::vector<float>& effectiveN,
                                 float nu, std::vector<vec3>& out, const std::vector<vec3>* velocities) const {
    const size_t n = vortons.size();
    out.resize(n);
    const std::vector<uint32_t>& order = search_.order();
    const std::vector<float> pressureOverN = sortedPressureOverN(fluid, effectiveN);
    // Velocity by component and 1 / n in partition order (zero velocity without viscosity).
    std::vector<float> vx = padded(n), vy = padded(n), vz = padded(n), volume = padded(n);
    parallelForEachStable(
        0, n,
        [&](size_t k) {
            if (velocities) {
                const vec3 v = (*velocities)[order[k]];
                vx[k] = v.x;
                vy[k] = v.y;
                vz[k] = v.z;
            }
            volume[k] = 1.0f / sortedNumberDensity_[k];
        },
        4096);
    const float h = h_, h2 = h * h, h3 = h2 * h;
    const float spikyNorm = -45.0f / (kPi * h3 * h3);          // spiky gradient: norm (h - r)^2 / r * rij
    const float laplacianNorm = nu * 45.0f / (kPi * h3 * h3);  // nu * viscosity Laplacian: norm (h - r)
    const Lanes tiny = splat(1e-6f * h);
    const float s0 = std::min(fluid.sphRestSpacing, h);
    const float coreNorm = kCoreRepulsion * fluid.sphStiffness / (s0 * s0 * s0);  // (s0 - r)^2 / r * rij
    const float *X = search_.x(), *Y = search_.y(), *Z = search_.z(), *P = pressureOverN.data();
    const float *VX = vx.data(), *VY = vy.data(), *VZ = vz.data(), *V = volume.data();
    search_.forEachParticle([&](size_t k, const Ranges& ranges, int count) {
        const Lanes xk = splat(X[k]), yk = splat(Y[k]), zk = splat(Z[k]), pk = splat(P[k]);
        const Lanes vxk = splat(VX[k]), vyk = splat(VY[k]), vzk = splat(VZ[k]);
        // Symmetric pressure a_i = -sum_j (P_i / n_i + P_j / n_j) gradW_ij (equal and opposite
        // pair forces: momentum is conserved), the core repulsion of pairs closer than s0, plus
        // viscosity toward each neighbour's velocity weighted by its volume 1 / n_j. The particle
        // itself adds zero to all three.
        out[order[k]] = sumVector(ranges, count, [&](size_t m) {
            const Lanes dx = xk - load(X + m), dy = yk - load(Y + m), dz = zk - load(Z + m);
            const Lanes r2 = dx * dx + dy * dy + dz * dz;
            const Lanes dist = sqrtLanes(r2);
            const Lanes gap = positive(h - dist);
            const Lanes core = positive(s0 - dist);
            const Lanes push =
                (coreNorm * core * core - (pk + load(P + m)) * spikyNorm * gap * gap) / (dist > tiny ? dist : tiny);
            const Lanes drag = laplacianNorm * gap * load(V + m);
            return Lanes3{push * dx + drag * (load(VX + m) - vxk), push * dy + drag * (load(VY + m) - vyk),
                          push * dz + drag * (load(VZ + m) - vzk)};
        });
    });
}

// --- vorticity and interpolation to a grid -----------------------------------------------------

void SphFluid::vorticity(const Vortons& vortons, std::vector<vec3>& out) const {
    const size_t n = vortons.size();
    out.resize(n);
    const std::vector<uint32_t>& order = search_.order();
    std::vector<float> wx = padded(n), wy = padded(n), wz = padded(n);  // v_j / n_j by component, partition order
    parallelForEachStable(
        0, n,
        [&](size_t k) {
            const vec3 w = vortons.sphVelocity[order[k]] / sortedNumberDensity_[k];
            wx[k] = w.x;
            wy[k] = w.y;
            wz[k] = w.z;
        },
        4096);
    const float h = h_, h2 = h * h;
    const float gradNorm = -945.0f / (32.0f * kPi * h2 * h2 * h2 * h2 * h);
    const float *X = search_.x(), *Y = search_.y(), *Z = search_.z();
    const float *WX = wx.data(), *WY = wy.data(), *WZ = wz.data();
    search_.forEachParticle([&](size_t k, const Ranges& ranges, int count) {
        const Lanes xk = splat(X[k]), yk = splat(Y[k]), zk = splat(Z[k]);
        // sum_j gradW_ij x (v_j / n_j), gradW_ij = gradNorm q^2 (x_i - x_j).
        out[order[k]] =
            gradNorm * sumVector(ranges, count, [&](size_t m) {
                const Lanes dx = xk - load(X + m), dy = yk - load(Y + m), dz = zk - load(Z + m);
                const Lanes q = positive(h2 - (dx * dx + dy * dy + dz * dz));
                const Lanes s = q * q;
                const Lanes wxm = load(WX + m), wym = load(WY + m), wzm = load(WZ + m);
                return Lanes3{s * (dy * wzm - dz * wym), s * (dz * wxm - dx * wzm), s * (dx * wym - dy * wxm)};
            });
    });
}

void SphFluid::interpolateToGrid(const Vortons& vortons, const GridShape& shape) {
    gridVelocity_.reset(shape);
    gridWeight_.reset(shape, 0.0f);
    const size_t n = vortons.size();
    if (n == 0) return;
    const std::vector<uint32_t>& order = search_.order();
    std::vector<float> vx = padded(n), vy = padded(n), vz = padded(n), volume = padded(n);  // partition order
    parallelForEachStable(
        0, n,
        [&](size_t k) {
            const vec3 v = vortons.sphVelocity[order[k]];
            vx[k] = v.x;
            vy[k] = v.y;
            vz[k] = v.z;
            volume[k] = 1.0f / sortedNumberDensity_[k];
        },
        4096);
    const GridShape& cells = search_.partition().shape();
    const float h = h_, h2 = h * h;
    const float norm = sphKernel(0.0f, h) / (h2 * h2 * h2);
    const vec3 lo = cells.minCorner - vec3(h), hi = cells.maxCorner() + vec3(h);
    const float *X = search_.x(), *Y = search_.y(), *Z = search_.z();
    const float *VX = vx.data(), *VY = vy.data(), *VZ = vz.data(), *V = volume.data();
    const ivec3 p = shape.points;
    parallelForEachStable(
        0, size_t(p.y) * size_t(p.z),
        [&](size_t row) {
            const int y = int(row % size_t(p.y)), z = int(row / size_t(p.y));
            Ranges ranges;
            for (int x = 0; x < p.x; ++x) {
                const vec3 point = shape.pointPosition(x, y, z);
                if (glm::any(glm::lessThan(point, lo)) || glm::any(glm::greaterThan(point, hi))) continue;
                const int count = search_.candidateRanges(point, ranges);
                const Lanes px = splat(point.x), py = splat(point.y), pz = splat(point.z);
                auto weightOf = [&](size_t m) {
                    const Lanes dx = px - load(X + m), dy = py - load(Y + m), dz = pz - load(Z + m);
                    const Lanes q = positive(h2 - (dx * dx + dy * dy + dz * dz));
                    return norm * q * q * q * load(V + m);
                };
                gridVelocity_.at(x, y, z) = sumVector(ranges, count, [&](size_t m) {
                    const Lanes w = weightOf(m);
                    return Lanes3{w * load(VX + m), w * load(VY + m), w * load(VZ + m)};
                });
                gridWeight_.at(x, y, z) = sumScalar(ranges, count, weightOf);
            }
        },
        1);
}

// --- time integration, tracers -------------------------------------------------------------------

void SphFluid::integrate(Vortons& vortons, const vec3& reducedGravity, float dt) const {
    if (dragRate_.size() != vortons.size()) throw std::logic_error("SphFluid::integrate before acceleration");
    const bool collided = vortons.hitWall.size() == vortons.size();
    parallelForEachStable(
        0, vortons.size(),
        [&](size_t i) {
            vec3& a = vortons.sphAcceleration[i];
            a += vortons.density[i] * reducedGravity;
            // Ambient drag implicitly (stable for any rate): v' = v + dt (a - rate v').
            vec3 v = (vortons.sphVelocity[i] + dt * a) / (1.0f + dt * dragRate_[i]);
            // A vorton that hit a wall in the last collision phase sits on it: do not let SPH
            // velocity carry it back into the wall (the collision only reset its total velocity).
            if (collided && vortons.hitWall[i]) {
                const vec3 n = vortons.hitNormal[i];  // into the fluid
                v -= std::min(glm::dot(v, n), 0.0f) * n;
            }
            vortons.sphVelocity[i] = v;
        },
        2048);
}

void SphFluid::advectTracers(Tracers& tracers, const UniformGrid<vec3>& vortexVelocity, bool correctsVortexFlow,
                             float dt) const {
    const UniformGrid<vec3>& us = gridVelocity_;
    const UniformGrid<float>& weight = gridWeight_;
    // Normalised SPH velocity (Shepard: divided by the interpolation weight) so tracers near the
    // drop's surface, where the weight falls below 1, keep up with the particles instead of
    // being left behind as a trail; blended out with the weight beyond the surface.
    auto velocityAt = [&](const vec3& p) {
        const vec3 vortex = vortexVelocity.interpolate(p);
        const float w = weight.interpolate(p);
        const float inside = std::clamp(w * 2.0f, 0.0f, 1.0f);  // full from half weight inward
        const vec3 sphVelocity = w > 1e-6f ? us.interpolate(p) / w : vec3(0.0f);
        return (correctsVortexFlow ? vortex : (1.0f - inside) * vortex) + inside * sphVelocity;
    };
    parallelForEachStable(
        0, tracers.size(),
        [&](size_t i) {
            const vec3 x = tracers.position[i];
            const vec3 v = velocityAt(x + 0.5f * dt * velocityAt(x));
            tracers.velocity[i] = v;
            tracers.position[i] = x + dt * v;
        },
        4096);
}

}  // namespace vfx
