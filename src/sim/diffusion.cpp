#include "sim/diffusion.hpp"

#include "core/parallel.hpp"

#include <cmath>

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

float PseDiffusion::kernel(float q2) {
    return q2 < kCutoff * kCutoff ? kNormalisation * std::exp(-q2) : 0.0f;
}

void PseDiffusion::apply(Vortons& vortons, float viscosity, float dt) {
    const size_t n = vortons.size();
    if (n < 2 || viscosity <= 0.0f) return;
    double sigmaSum = 0.0;
    vec3 lo(vortons.position[0]), hi(lo);
    for (size_t i = 0; i < n; ++i) {
        sigmaSum += vortons.radius[i];
        lo = glm::min(lo, vortons.position[i]);
        hi = glm::max(hi, vortons.position[i]);
    }
    const float eps = widthScale_ * float(sigmaSum / double(n));
    lastWidth_ = eps;
    const float reach = kCutoff * eps;
    // Cells at least as wide as the kernel reach, so the 27-cell block holds every neighbour.
    GridShape shape;
    const vec3 extent = glm::max(hi - lo, vec3(reach));
    shape.spacing = vec3(reach);
    shape.points = ivec3(glm::ceil(extent / reach)) + ivec3(1);
    shape.points = glm::max(shape.points, ivec3(2));
    shape.minCorner = lo;
    partition_.build(shape, vortons.position);

    const float invEps2 = 1.0f / (eps * eps);
    const float invEps3 = invEps2 / eps;
    const float rate = viscosity * dt * invEps2 * invEps3;  // eta_eps = eps^-3 eta(r / eps)
    change_.resize(n);
    const std::vector<uint32_t>& cellOf = partition_.cellOfParticle();
    const ivec3 cells = partition_.cells();
    parallelForEach(0, n, [&](size_t i) {
        const vec3 xi = vortons.position[i];
        const vec3 wi = vortons.vorticity[i];
        const size_t cell = cellOf[i];
        const ivec3 c(int(cell % size_t(cells.x)), int((cell / size_t(cells.x)) % size_t(cells.y)),
                      int(cell / (size_t(cells.x) * size_t(cells.y))));
        vec3 sum(0.0f);
        partition_.forEachNeighbour(c, [&](uint32_t j) {
            const vec3 d = xi - vortons.position[j];
            const float q2 = glm::dot(d, d) * invEps2;
            if (q2 >= kCutoff * kCutoff || j == i) return;
            sum += (vortons.vorticity[j] - wi) * (kernel(q2) * vortons.volume(j));
        });
        change_[i] = sum * rate;
    }, 256);
    parallelForEach(0, n, [&](size_t i) { vortons.vorticity[i] += change_[i]; }, 4096);
}

}  // namespace vfx
