#include "sim/direct_velocity.hpp"

#include "core/parallel.hpp"

namespace vfx {

void directVelocity(const Vortons& vortons, const std::vector<vec3>& points, std::vector<vec3>& out) {
    const size_t n = vortons.size();
    std::vector<vec3> alpha(n);
    for (size_t i = 0; i < n; ++i) alpha[i] = vortons.vorticity[i] * vortons.volume(i);
    out.assign(points.size(), vec3(0.0f));
    parallelForEach(
        0, points.size(),
        [&](size_t p) {
            vec3 u(0.0f);
            for (size_t i = 0; i < n; ++i)
                u += vortonVelocity(points[p], vortons.position[i], alpha[i], vortons.radius[i]);
            out[p] = u;
        },
        16);
}

}  // namespace vfx
