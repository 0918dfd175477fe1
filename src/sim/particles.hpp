#pragma once
// Particle storage, struct-of-arrays so each phase streams only the fields it needs.
#include "core/math.hpp"

#include <cstdint>
#include <vector>

namespace vfx {

// Vortex particles. vorticity is the vorticity omega (not Gourlay's omega/2).
struct Vortons {
    std::vector<vec3> position;
    std::vector<vec3> velocity;         // velocity used by the last advection (cached for collisions)
    std::vector<vec3> vorticity;
    std::vector<float> radius;          // core radius sigma; volume = 4/3 pi sigma^3
    std::vector<float> density;         // density deviation rho' from the ambient density
    std::vector<vec3> densityGradient;  // gradient used by the last baroclinic step
    std::vector<vec3> sphVelocity;      // velocity carried by SPH forces (sph/hybrid methods)
    std::vector<vec3> sphAcceleration;  // SPH pressure acceleration of the last step (sph/hybrid)
    std::vector<uint8_t> hitWall;       // 1 if the particle hit a wall in the last collision phase
    std::vector<vec3> hitNormal;        // wall normal (pointing into the fluid) of that hit

    size_t size() const { return position.size(); }
    void resize(size_t n);
    void clear() { resize(0); }
    // Appends one vorton; returns its index.
    size_t add(const vec3& x, const vec3& omega, float sigma, float densityDeviation);
    float volume(size_t i) const { return sphereVolume(radius[i]); }
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
