// One vorton's velocity (sim/direct_velocity.hpp) against its closed form, inside and outside the
// core: the kernel itself, direct summation, the tree and Simulation::velocityAtPoints with
// either solver.
#include "sim/direct_velocity.hpp"
#include "sim/simulation.hpp"
#include "sim/velocity_solver.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace vfx {
namespace {

// Closed form of one vorton of vorticity w, core sigma, volume V = 4/3 pi sigma^3 at xi:
//   outside the core (|r| >= sigma): u = (w V) x r / (4 pi |r|^3),
//       so |u| = |w| V sin(angle(w, r)) / (4 pi |r|^2), direction w x r;
//   inside the core (|r| < sigma):   u = (w V) x r / (4 pi sigma^3) = (w x r) / 3,
//       a solid-body rotation at angular velocity w / 3.
// Written here independently of vortonVelocity (magnitude from the sine, direction from the
// normalised cross product) so that a wrong sign or factor in the library shows up.
vec3 singleVortonClosedForm(const vec3& x, const vec3& xi, const vec3& w, float sigma) {
    const vec3 r = x - xi;
    const float dist = glm::length(r);
    if (dist < sigma) return glm::cross(w, r) / 3.0f;
    const float volume = 4.0f / 3.0f * kPi * sigma * sigma * sigma;
    const vec3 axis = glm::cross(w, r);
    const float axisLength = glm::length(axis);
    if (axisLength == 0.0f) return vec3(0.0f);
    const float sine = axisLength / (glm::length(w) * dist);
    const float speed = glm::length(w) * volume * sine / (4.0f * kPi * dist * dist);
    return speed * axis / axisLength;
}

struct SingleVortonCase {
    vec3 xi{0.3f, -0.2f, 0.1f};
    vec3 w{0.5f, -1.0f, 2.0f};
    float sigma = 0.1f;
    std::vector<vec3> points;
};

SingleVortonCase makeSingleVortonCase() {
    SingleVortonCase c;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    // Points inside the core, right at its edge, and out to 30 core radii in all directions.
    const float distances[] = {0.02f, 0.05f, 0.09f, 0.1001f, 0.15f, 0.4f, 1.0f, 3.0f};
    for (float d : distances)
        for (int k = 0; k < 6; ++k) {
            vec3 dir(unit(rng), unit(rng), unit(rng));
            dir = glm::normalize(dir);
            c.points.push_back(c.xi + d * dir);
        }
    c.points.push_back(c.xi + 0.5f * glm::normalize(c.w));  // along the axis: u = 0
    return c;
}

// Relative tolerance 1e-5 of the local speed (float arithmetic), absolute 1e-9 for u = 0.
void expectMatchesClosedForm(const std::vector<vec3>& got, const SingleVortonCase& c, const char* what) {
    ASSERT_EQ(got.size(), c.points.size());
    for (size_t k = 0; k < c.points.size(); ++k) {
        const vec3 want = singleVortonClosedForm(c.points[k], c.xi, c.w, c.sigma);
        const float tol = 1e-5f * glm::length(want) + 1e-9f;
        EXPECT_NEAR(got[k].x, want.x, tol) << what << " point " << k;
        EXPECT_NEAR(got[k].y, want.y, tol) << what << " point " << k;
        EXPECT_NEAR(got[k].z, want.z, tol) << what << " point " << k;
    }
}

TEST(SingleVorton, KernelMatchesClosedForm) {
    const SingleVortonCase c = makeSingleVortonCase();
    const float volume = sphereVolume(c.sigma);
    std::vector<vec3> got;
    for (const vec3& x : c.points) got.push_back(vortonVelocity(x, c.xi, c.w * volume, c.sigma));
    expectMatchesClosedForm(got, c, "vortonVelocity");
}

TEST(SingleVorton, DirectAndTreeSolversMatchClosedForm) {
    const SingleVortonCase c = makeSingleVortonCase();
    Vortons v;
    v.add(c.xi, c.w, c.sigma, 0.0f);
    std::vector<vec3> direct, tree;
    directVelocity(v, c.points, direct);
    expectMatchesClosedForm(direct, c, "directVelocity");
    VortonTree t;
    t.build(v);
    t.velocity(c.points, tree, 0.45f);
    expectMatchesClosedForm(tree, c, "VortonTree");
}

TEST(SingleVorton, SimulationVelocityAtPointsBothSolvers) {
    const SingleVortonCase c = makeSingleVortonCase();
    for (VelocitySolver solver : {VelocitySolver::Tree, VelocitySolver::Direct}) {
        Simulation sim;
        sim.fluid().velocitySolver = solver;
        sim.vortons().add(c.xi, c.w, c.sigma, 0.0f);
        std::vector<vec3> got;
        sim.velocityAtPoints(c.points, got);
        expectMatchesClosedForm(got, c, solver == VelocitySolver::Tree ? "sim tree" : "sim direct");
    }
}

}  // namespace
}  // namespace vfx
