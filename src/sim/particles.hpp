#pragma once
// Particle storage, struct-of-arrays so each phase streams only the fields it needs.
#include "core/math.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace vfx {

// Vortex particles. vorticity is the vorticity omega (not Gourlay's omega/2).
struct Vortons {
    std::vector<vec3> position;
    std::vector<vec3> velocity;  // velocity used by the last advection (cached for collisions)
    std::vector<vec3> vorticity;
    std::vector<float> radius;          // core (smoothing) radius sigma of the velocity kernel
    std::vector<float> volumes;         // share of the fluid's volume: carries mass and circulation
    std::vector<float> density;         // density deviation rho' from the ambient density
    std::vector<vec3> densityGradient;  // gradient used by the last baroclinic step
    std::vector<vec3> sphVelocity;      // velocity carried by SPH forces (sph/hybrid methods)
    std::vector<vec3> sphAcceleration;  // SPH pressure acceleration of the last step (sph/hybrid)
    std::vector<uint8_t> hitWall;       // 1 if the particle hit a wall in the last collision phase
    std::vector<vec3> hitNormal;        // wall normal (pointing into the fluid) of that hit
    // The part of `vorticity` that is a no-slip wall's sheet, put there by the last collision
    // phase (zero away from walls). Empty when unknown: on new vortons and after a remesh, which
    // mixes the sheet into the rest; the next collision phase then replaces the tangential part.
    std::vector<vec3> wallSheet;

    size_t size() const { return position.size(); }
    void resize(size_t n);
    void clear() { resize(0); }
    // Appends one vorton standing for `volume` of fluid with core radius sigma; returns its index.
    size_t add(const vec3& x, const vec3& omega, float sigma, float densityDeviation, float volume);
    // Appends a lone blob whose volume is its core sphere, 4/3 pi sigma^3.
    size_t add(const vec3& x, const vec3& omega, float sigma, float densityDeviation) {
        return add(x, omega, sigma, densityDeviation, sphereVolume(sigma));
    }
    float volume(size_t i) const { return volumes[i]; }
    // Side of the cube of fluid the vorton stands for: the local particle spacing h.
    float spacing(size_t i) const { return std::cbrt(volumes[i]); }
    // Mean particle spacing: the cube root of the mean volume, in a fixed order (0 if empty).
    float meanSpacing() const;
    // Radius of the sphere of the vorton's volume: how close it comes to a wall.
    float contactRadius(size_t i) const { return std::cbrt(volumes[i] * (3.0f / (4.0f * kPi))); }
};

// Passive tracers carried by the flow; density is sampled from the density grid for colour.
struct Tracers {
    std::vector<vec3> position;
    std::vector<vec3> velocity;
    std::vector<float> density;  // density deviation at the tracer (from the grid)

    size_t size() const { return position.size(); }
    void resize(size_t n);
    size_t add(const vec3& x);
};

}  // namespace vfx
