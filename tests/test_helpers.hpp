#pragma once
// Shared helpers for the physics tests and benchmarks: seed vortex rings, balls and lattices of
// vortons straight into a Simulation (no scene loader), plus small measurement utilities.
//
// Volume convention: N vortons seeded uniformly into a region of volume Vol each stand for
// V = Vol / N (so the totals, circulation sum(omega V) and mass sum(rho' V), match the continuum)
// and get the default core radius sigma = core_overlap * V^(1/3), as the scene builder does.
#include "core/math.hpp"
#include "sim/particles.hpp"
#include "sim/simulation.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace vfx::test {

// Velocity gradient of solid rotation at omega rad/s about z, u = omega z x x (column j holds
// du/dx_j): curl u = (0, 0, 2 omega).
inline mat3 rotationGradient(float omega) {
    mat3 g(0.0f);
    g[0][1] = omega;
    g[1][0] = -omega;
    return g;
}

// Default core radius for particles `spacing` apart.
inline float coreRadiusForSpacing(float spacing) { return FluidParams{}.coreOverlap * spacing; }

// Appends a vorton standing for `share` of a region, with the default core overlap.
inline void addShare(Vortons& v, const vec3& x, const vec3& omega, float density, double share) {
    v.add(x, omega, coreRadiusForSpacing(float(std::cbrt(share))), density, float(share));
}

// Centre of the vorticity magnitude, sum |omega| V x / sum |omega| V: where a vortex structure
// is, whatever particles carry it (remeshing changes the particles, not the structure).
inline dvec3 vorticityCentroid(const Vortons& v) {
    dvec3 sum(0.0);
    double weight = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const double w = double(glm::length(v.vorticity[i])) * double(v.volume(i));
        sum += w * dvec3(v.position[i]);
        weight += w;
    }
    return weight > 0.0 ? sum / weight : sum;
}

// Unit azimuthal direction about the +y axis through `centre`: e_phi = y_hat x e_rho, i.e. the
// right-hand-rule circulation direction about +y. Zero on the axis.
inline vec3 azimuthAboutY(const vec3& p, const vec3& centre) {
    const float dx = p.x - centre.x, dz = p.z - centre.z;
    const float rho = std::sqrt(dx * dx + dz * dz);
    if (rho <= 0.0f) return vec3(0.0f);
    return vec3(dz / rho, 0.0f, -dx / rho);
}

struct RingSpec {
    vec3 centre{0.0f};
    float radius = 1.0f;       // R, major radius
    float coreRadius = 0.25f;  // a, uniform-vorticity core
    float circulation = 1.0f;  // Gamma > 0: right-hand rule about +y (the ring then moves along +y)
    size_t count = 4096;
    unsigned seed = 9;
};

inline double torusVolume(const RingSpec& s) {
    return 2.0 * M_PI * M_PI * double(s.radius) * double(s.coreRadius) * double(s.coreRadius);
}

// Calls add(p) for `count` points uniformly at random in the solid torus of major radius R and
// tube radius a about the +y axis through the origin (rejection from the bounding box).
template <class Add>
void forRandomPointsInTorus(float R, float a, size_t count, unsigned seed, Add&& add) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const float outer = R + a;
    size_t added = 0;
    while (added < count) {
        const vec3 p(unit(rng) * outer, unit(rng) * a, unit(rng) * outer);
        const float rho = std::sqrt(p.x * p.x + p.z * p.z);
        if ((rho - R) * (rho - R) + p.y * p.y > a * a || rho < 1e-6f) continue;
        add(p);
        ++added;
    }
}

// Vortex ring about the +y axis: vortons uniformly at random in the solid torus, vorticity
// Gamma / (pi a^2) along e_phi (so the circulation around the core is Gamma).
inline void addVortexRing(Vortons& v, const RingSpec& s) {
    const double share = torusVolume(s) / double(s.count);
    const float omega = s.circulation / (kPi * s.coreRadius * s.coreRadius);
    forRandomPointsInTorus(s.radius, s.coreRadius, s.count, s.seed, [&](const vec3& p) {
        addShare(v, s.centre + p, omega * azimuthAboutY(p, vec3(0.0f)), 0.0f, share);
    });
}

struct BallSpec {
    vec3 centre{0.0f};
    float radius = 0.5f;
    size_t count = 4096;
    float density = 0.5f;  // density deviation rho' of every vorton
    vec3 vorticity{0.0f};
    unsigned seed = 1;
};

// Ball of vortons uniformly at random, all with the same density deviation and vorticity.
inline void addBall(Vortons& v, const BallSpec& s) {
    std::mt19937 rng(s.seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const double share = double(sphereVolume(s.radius)) / double(s.count);
    size_t added = 0;
    while (added < s.count) {
        const vec3 p(unit(rng), unit(rng), unit(rng));
        if (glm::dot(p, p) > 1.0f) continue;
        addShare(v, s.centre + s.radius * p, s.vorticity, s.density, share);
        ++added;
    }
}

// Tracers uniformly at random in a ball.
inline void addTracerBall(Tracers& t, vec3 centre, float radius, size_t count, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    size_t added = 0;
    while (added < count) {
        const vec3 p(unit(rng), unit(rng), unit(rng));
        if (glm::dot(p, p) > 1.0f) continue;
        t.add(centre + radius * p);
        ++added;
    }
}

// Cubic lattice of n^3 vortons with spacing h starting at `origin`, each of volume h^3.
// Density deviation and vorticity are functions of position.
inline void addLattice(Vortons& v, ivec3 n, vec3 origin, float h, const std::function<float(const vec3&)>& density,
                       const std::function<vec3(const vec3&)>& vorticity) {
    for (int z = 0; z < n.z; ++z)
        for (int y = 0; y < n.y; ++y)
            for (int x = 0; x < n.x; ++x) {
                const vec3 p = origin + h * vec3(float(x), float(y), float(z));
                addShare(v, p, vorticity ? vorticity(p) : vec3(0.0f), density ? density(p) : 0.0f, double(h) * h * h);
            }
}

// Inviscid, gravity-free, pure vortex dynamics.
inline void makeInviscid(Simulation& sim) {
    sim.fluid().gravity = vec3(0.0f);
    sim.fluid().viscosity = 0.0f;
    sim.fluid().diffusion = false;
    sim.fluid().baroclinic = false;
}

// Centre of the mass deviation, sum |rho'| V x / sum |rho'| V: where the dyed fluid is, whatever
// particles carry it (remeshing adds ambient vortons with rho' ~ 0 around it).
inline dvec3 massCentroid(const Vortons& v) {
    dvec3 sum(0.0);
    double weight = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const double w = std::abs(double(v.density[i])) * double(v.volume(i));
        sum += w * dvec3(v.position[i]);
        weight += w;
    }
    return weight > 0.0 ? sum / weight : sum;
}

inline dvec3 meanPosition(const std::vector<vec3>& p) {
    dvec3 sum(0.0);
    for (const vec3& x : p) sum += dvec3(x);
    return p.empty() ? sum : sum / double(p.size());
}

inline double relativeRms(const std::vector<vec3>& approx, const std::vector<vec3>& exact) {
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < exact.size(); ++i) {
        const dvec3 d = dvec3(approx[i]) - dvec3(exact[i]);
        num += glm::dot(d, d);
        den += glm::dot(dvec3(exact[i]), dvec3(exact[i]));
    }
    return std::sqrt(num / den);
}

template <typename T>
bool bitwiseEqual(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace vfx::test
