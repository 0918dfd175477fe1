#pragma once
// Viscous diffusion of vorticity by particle strength exchange (PSE).
//   d(omega_i)/dt = nu / eps^2 * sum_j V_j (omega_j - omega_i) eta_eps(|x_i - x_j|)
// with a Gaussian kernel eta truncated at 2 eps and renormalised so its second moment is exact
// (the condition that makes the sum approximate the Laplacian). Each pair within reach is met
// once, from its first vorton (NeighbourSearch::forwardRanges, SIMD over candidates), and its
// one kernel evaluation changes both vortons by opposite circulation, so total circulation
// sum(omega V) is conserved to round-off. Rows of the partition run in six passes of rows that
// never write the same vortons (NeighbourSearch::forEachRowColoured): race-free, and every
// vorton receives its terms in an order fixed by the partition, identical for any thread count.
#include "core/neighbour_search.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

class PseDiffusion {
public:
    // Kernel width eps = widthScale * mean particle spacing V^(1/3). The default 1 is the
    // narrowest the particle sum still integrates well: with eps = 0.62 spacings it is too coarse
    // a quadrature of the kernel integral and diffuses ~30% too slowly (measured by
    // tests/diffusion_test.cpp, Pse.GaussianBlobSecondMomentGrowsAtSixNu).
    explicit PseDiffusion(float widthScale = 1.0f) : widthScale_(widthScale) {}
    // eddyViscosity: optional extra viscosity of each vorton, m^2/s (empty = none). A pair
    // exchanges at the mean of its two viscosities, so the exchange stays antisymmetric.
    void apply(Vortons& vortons, float viscosity, float dt, const std::vector<float>& eddyViscosity = {});
    float lastWidth() const { return lastWidth_; }

    // eta(q) for q = r / eps, normalised over the truncated support (q < kCutoff).
    static float kernel(float q2);
    static constexpr float kCutoff = 2.0f;
    // Largest (nu + nu_t) dt / eps^2 of one exchange: past it explicit PSE turns modes' signs.
    static constexpr float kStableRate = 0.25f;
    static constexpr int kMaxCycles = 1024;

private:
    // One explicit exchange over dt; volume and halfEddy (half of each vorton's eddy viscosity)
    // in the search's partition order.
    void exchangeOnce(Vortons& vortons, float viscosity, float dt, float eps, const std::vector<float>& volume,
                      const std::vector<float>& halfEddy);
    float widthScale_;
    float lastWidth_ = 0.0f;
    NeighbourSearch search_;
    std::vector<float> sumX_, sumY_, sumZ_;  // each vorton's exchange sum, in partition order
    std::vector<float> spacing_;             // each vorton's spacing h = V^(1/3), in index order
};

}  // namespace vfx
