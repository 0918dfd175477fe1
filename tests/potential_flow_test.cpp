// The potential flow a moving body pushes aside (sim/potential_flow.hpp): no flow through a
// sphere's surface, and the kinetic energy of its added mass.
#include "sim/potential_flow.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace vfx {
namespace {

// The potential flow a moving sphere pushes aside: no flow through its surface, and the kinetic
// energy 1/2 rho0 integral |u|^2 over the outside equal to 1/2 m_a W^2 with m_a = 1/2 rho0 V.
TEST(FluidBodyInteraction, PotentialFlowOfAMovingBallHasNoFlowThroughItAndItsAddedMassEnergy) {
    PotentialFlow f;
    f.centre = vec3(0.3f, -0.2f, 0.1f);
    f.radius = 0.4f;
    f.relativeVelocity = vec3(1.0f, 2.0f, -0.5f);
    const double volume = 4.0 / 3.0 * M_PI * std::pow(0.4, 3.0);
    f.addedMass = float(0.5 * volume);  // rho0 = 1
    const std::vector<PotentialFlow> flows{f};
    std::mt19937 rng(7);
    std::normal_distribution<float> normal;
    for (int k = 0; k < 200; ++k) {
        const vec3 n = glm::normalize(vec3(normal(rng), normal(rng), normal(rng)));
        const vec3 u = potentialFlowVelocity(flows, f.centre + n * (f.radius * 1.0001f));
        // At 1.0001 radii the dipole's normal speed is (1.0001)^-3 of W's: 3e-4 of |W| = 2.3 m/s.
        EXPECT_NEAR(glm::dot(u, n), glm::dot(f.relativeVelocity, n), 2e-3f);
    }
    // Energy: midpoint rule in spherical shells about W's axis, out to 40 radii (1 - 40^-3 of it).
    const vec3 w = f.relativeVelocity, axis = glm::normalize(w);
    const vec3 side = glm::normalize(glm::cross(axis, vec3(0.0f, 0.0f, 1.0f)));
    double energy = 0.0;
    const int shells = 2000, angles = 200;
    for (int i = 0; i < shells; ++i) {
        const double t0 = double(i) / shells, t1 = double(i + 1) / shells;  // r = R * 40^t
        const double r0 = 0.4 * std::pow(40.0, t0), r1 = 0.4 * std::pow(40.0, t1), r = 0.5 * (r0 + r1);
        for (int j = 0; j < angles; ++j) {
            const double theta = (j + 0.5) * M_PI / angles;
            const vec3 x = f.centre + float(r) * (float(std::cos(theta)) * axis + float(std::sin(theta)) * side);
            const vec3 u = potentialFlowVelocity(flows, x);
            energy += 0.5 * double(glm::dot(u, u)) * 2.0 * M_PI * r * r * std::sin(theta) * (M_PI / angles) * (r1 - r0);
        }
    }
    // Left out beyond 12 radii; 1% for the midpoint rule on 2000 x 200 cells.
    EXPECT_NEAR(energy, f.energy() * (1.0 - std::pow(12.0, -3.0)), 0.01 * f.energy());
    EXPECT_NEAR(f.energy(), 0.25 * volume * double(glm::dot(w, w)), 1e-6);
}

}  // namespace
}  // namespace vfx
