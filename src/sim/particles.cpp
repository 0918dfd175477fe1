#include "sim/particles.hpp"

#include <cmath>

namespace vfx {

void Vortons::resize(size_t n) {
    position.resize(n);
    velocity.resize(n, vec3(0.0f));
    vorticity.resize(n, vec3(0.0f));
    radius.resize(n, 0.1f);
    volumes.resize(n, sphereVolume(0.1f));
    density.resize(n, 0.0f);
    densityGradient.resize(n, vec3(0.0f));
    sphVelocity.resize(n, vec3(0.0f));
    sphAcceleration.resize(n, vec3(0.0f));
    hitWall.resize(n, 0);
    hitNormal.resize(n, vec3(0.0f));
    if (!wallSheet.empty()) wallSheet.resize(n, vec3(0.0f));  // appended vortons carry no sheet
}

size_t Vortons::add(const vec3& x, const vec3& omega, float sigma, float densityDeviation, float volume) {
    const size_t i = size();
    resize(i + 1);
    position[i] = x;
    vorticity[i] = omega;
    radius[i] = sigma;
    volumes[i] = volume;
    density[i] = densityDeviation;
    return i;
}

float Vortons::meanSpacing() const {
    if (volumes.empty()) return 0.0f;
    double sum = 0.0;
    for (float v : volumes) sum += double(v);
    return float(std::cbrt(sum / double(volumes.size())));
}

void Tracers::resize(size_t n) {
    position.resize(n);
    velocity.resize(n, vec3(0.0f));
    density.resize(n, 0.0f);
}

size_t Tracers::add(const vec3& x) {
    const size_t i = size();
    resize(i + 1);
    position[i] = x;
    return i;
}

}  // namespace vfx
