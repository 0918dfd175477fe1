#include "sim/diffusion.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vfx {

namespace {

// Normalisation C for eta(z) = C exp(-|z|^2) on |z| < R such that the integral of
// eta(z) z_x^2 over the ball equals 2 (then the PSE sum tends to the Laplacian).
double truncatedGaussianNormalisation(double cutoff) {
    // integral over the ball of exp(-r^2) x^2 = (4 pi / 3) integral_0^R r^4 exp(-r^2) dr
    const int steps = 4000;
    double sum = 0.0;
    for (int k = 0; k < steps; ++k) {
        const double r = (k + 0.5) * cutoff / steps;
        sum += r * r * r * r * std::exp(-r * r);
    }
    sum *= cutoff / steps;
    const double secondMoment = 4.0 * M_PI / 3.0 * sum;
    return 2.0 / secondMoment;
}

const float kNormalisation = float(truncatedGaussianNormalisation(PseDiffusion::kCutoff));

}  // namespace

float PseDiffusion::kernel(float q2) { return q2 < kCutoff * kCutoff ? kNormalisation * std::exp(-q2) : 0.0f; }

namespace {

using namespace lanes;

// exp(-q2) for 0 <= q2 <= 4 in SIMD lanes, branch-free: exp(-q2) = exp(-q2 / 16)^16 with a
// degree-6 Taylor polynomial on [-1/4, 0] (truncation 1.2e-8), then four squarings. Relative
// error ~3e-7 against std::exp, and the same operations for every lane and thread.
VFX_LANES_INLINE Lanes gaussianLanes(Lanes q2) {
    const Lanes u = q2 * (-1.0f / 16.0f);
    Lanes e =
        1.0f +
        u * (1.0f + u * (0.5f + u * (1.0f / 6.0f + u * (1.0f / 24.0f + u * (1.0f / 120.0f + u * (1.0f / 720.0f))))));
    e = e * e;
    e = e * e;
    e = e * e;
    return e * e;
}

// What the exchange reads: per-vorton values in the neighbour search's order.
struct ExchangeInputs {
    const float *x, *y, *z;     // positions
    const float *wx, *wy, *wz;  // vorticity
    const float* volume;
    const float* halfEddy;  // half of each vorton's eddy viscosity
    float viscosity, invEps2, cutoff2;
};

// What the exchange writes: each vorton's sum of V_j (omega_j - omega_i) g_ij, in the same order.
struct ExchangeSums {
    float *x, *y, *z;
};

// One vorton's pairs with its forward candidates (each pair within reach met once, from its
// first vorton). A pair's factor g = nu_ij eta(|x_i - x_j| / eps), nu_ij = nu + (nu_t,i +
// nu_t,j) / 2, is symmetric: with t = g (omega_j - omega_i), vorton i gains t V_j and vorton j
// loses t V_i, so the two changes carry opposite circulation and each pair costs one kernel
// evaluation. Candidates sit in kLanes-wide vectors; a range's last, partial vector writes its
// valid lanes one by one (the lanes past it belong to rows another thread may be writing).
VFX_SIMD_KERNEL void exchangeForward(const ExchangeInputs& in, const ExchangeSums& out, size_t k, const Ranges& ranges,
                                     int count) {
    const Lanes xk = splat(in.x[k]), yk = splat(in.y[k]), zk = splat(in.z[k]);
    const Lanes wxk = splat(in.wx[k]), wyk = splat(in.wy[k]), wzk = splat(in.wz[k]);
    const Lanes nuk = splat(in.viscosity + in.halfEddy[k]);
    const Lanes vk = splat(in.volume[k]);
    Lanes sx{}, sy{}, sz{};
    for (int r = 0; r < count; ++r)
        for (size_t m = ranges[r][0], e = ranges[r][1]; m < e; m += kLanes) {
            const Lanes dx = xk - load(in.x + m), dy = yk - load(in.y + m), dz = zk - load(in.z + m);
            const Lanes q2 = (dx * dx + dy * dy + dz * dz) * in.invEps2;
            const Lanes pairViscosity = nuk + load(in.halfEddy + m);
            const Lanes inRange = firstLanes(Lanes{} + 1.0f, e - m);
            const Lanes g = q2 < in.cutoff2 ? kNormalisation * gaussianLanes(q2) * pairViscosity * inRange : Lanes{};
            const Lanes tx = (load(in.wx + m) - wxk) * g, ty = (load(in.wy + m) - wyk) * g,
                        tz = (load(in.wz + m) - wzk) * g;
            const Lanes vm = load(in.volume + m);
            sx += tx * vm;
            sy += ty * vm;
            sz += tz * vm;
            const Lanes lx = tx * vk, ly = ty * vk, lz = tz * vk;
            if (e - m >= size_t(kLanes)) {
                auto subtract = [&](float* sum, Lanes loss) {
                    const Lanes updated = load(sum + m) - loss;
                    std::memcpy(sum + m, &updated, sizeof updated);
                };
                subtract(out.x, lx);
                subtract(out.y, ly);
                subtract(out.z, lz);
            } else {
                for (size_t l = 0; l < e - m; ++l) {
                    out.x[m + l] -= lx[l];
                    out.y[m + l] -= ly[l];
                    out.z[m + l] -= lz[l];
                }
            }
        }
    out.x[k] += addLanes(sx);
    out.y[k] += addLanes(sy);
    out.z[k] += addLanes(sz);
}

}  // namespace

void PseDiffusion::apply(Vortons& vortons, float viscosity, float dt, const std::vector<float>& eddyViscosity) {
    const size_t n = vortons.size();
    const bool eddy = eddyViscosity.size() == n;
    if (n < 2 || (viscosity <= 0.0f && !eddy)) return;
    // The cube roots in parallel (they are most of the cost), summed in index order.
    spacing_.resize(n);
    parallelForEach(
        0, n, [&](size_t i) { spacing_[i] = vortons.spacing(i); }, 1024);
    double spacingSum = 0.0;
    for (float h : spacing_) spacingSum += h;
    const float eps = widthScale_ * float(spacingSum / double(n));
    lastWidth_ = eps;
    search_.build(vortons.position, kCutoff * eps, NeighbourSearch::Candidates::None);

    // One explicit exchange damps every mode without turning its sign while the largest pair
    // viscosity times dt / eps^2 stays below 1/4: the exchange's most negative eigenvalue is the
    // kernel's integral, 4, times -nu / eps^2 (its Fourier transform is positive). A longer step (a
    // whole frame's, or under a strong eddy viscosity) is taken as equal cycles within that bound.
    float largestEddy = 0.0f;
    if (eddy)
        for (float e : eddyViscosity) largestEddy = std::max(largestEddy, e);
    const float largestRate = (viscosity + largestEddy) * dt / (eps * eps);
    // At most kMaxCycles: a flow that needs more is blowing up (it is then caught as non-finite).
    const float wanted = std::ceil(largestRate / kStableRate);
    const int cycles = wanted > 1.0f ? int(std::min(wanted, float(kMaxCycles))) : 1;
    // Volume and eddy viscosity in partition order, the same for every cycle.
    const std::vector<float> volume = search_.sorted([&](size_t i) { return vortons.volume(i); });
    const std::vector<float> halfEddy = search_.sorted([&](size_t i) { return eddy ? 0.5f * eddyViscosity[i] : 0.0f; });
    for (int c = 0; c < cycles; ++c) exchangeOnce(vortons, viscosity, dt / float(cycles), eps, volume, halfEddy);
}

void PseDiffusion::exchangeOnce(Vortons& vortons, float viscosity, float dt, float eps,
                                const std::vector<float>& volume, const std::vector<float>& halfEddy) {
    const size_t n = vortons.size();
    // Vorticity in partition order, for the SIMD neighbour sums.
    const std::vector<float> wx = search_.sorted([&](size_t i) { return vortons.vorticity[i].x; });
    const std::vector<float> wy = search_.sorted([&](size_t i) { return vortons.vorticity[i].y; });
    const std::vector<float> wz = search_.sorted([&](size_t i) { return vortons.vorticity[i].z; });
    const float invEps2 = 1.0f / (eps * eps);
    const float invEps3 = invEps2 / eps;
    const float rate = dt * invEps2 * invEps3;  // eta_eps = eps^-3 eta(r / eps)
    const float cutoff2 = kCutoff * kCutoff;
    sumX_ = lanes::padded(n);
    sumY_ = lanes::padded(n);
    sumZ_ = lanes::padded(n);
    const ExchangeInputs inputs{search_.x(),   search_.y(),     search_.z(), wx.data(), wy.data(), wz.data(),
                                volume.data(), halfEddy.data(), viscosity,   invEps2,   cutoff2};
    const ExchangeSums sums{sumX_.data(), sumY_.data(), sumZ_.data()};
    search_.forEachRowColoured([&](size_t begin, size_t end) {
        Ranges ranges;
        for (size_t k = begin; k < end; ++k) {
            const int count = search_.forwardRanges(k, ranges);
            exchangeForward(inputs, sums, k, ranges, count);
        }
    });
    const std::vector<uint32_t>& order = search_.order();
    parallelForEach(
        0, n, [&](size_t k) { vortons.vorticity[order[k]] += vec3(sumX_[k], sumY_[k], sumZ_[k]) * rate; }, 4096);
}

}  // namespace vfx
