// The lattice remesh trigger (sim/lattice_distortion.hpp): a sheared lattice reduces back to a
// short basis and a stretched one does not; carried through analytic linear flows, rotation
// leaves no strain, uniform extension at rate e for t gives exactly e t, and simple shear only
// the offset of its last row; in a simulation a laminar ring, whose core shears and turns, is
// remeshed less often than under the grid's strain integral.
#include "core/matrix_exponential.hpp"
#include "scene/scene.hpp"
#include "sim/lattice_distortion.hpp"
#include "sim/particles.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

namespace vfx {
namespace {

float longestEdge(mat3 basis) {
    reduceLatticeBasis(basis);
    float longest = 0.0f;
    for (int c = 0; c < 3; ++c) longest = std::max(longest, glm::length(basis[c]));
    return longest;
}

mat3 simpleShear(float amount) {  // x += amount * y (glm is column-major: column y, row x)
    mat3 f(1.0f);
    f[1][0] = amount;
    return f;
}

// A shear by an integer is the same lattice (rows slid by whole spacings); by k + 1/2 the reduced
// basis is (1,0,0), (1/2,1,0), (0,0,1), longest sqrt(5/4). Extension is not reducible: its longest
// edge is the stretch. Any rotation, and any integer matrix of determinant 1, gives back Z^3.
TEST(LatticeDistortion, ShearReducesToAShortBasisAndExtensionDoesNot) {
    EXPECT_NEAR(longestEdge(simpleShear(20.0f)), 1.0f, 1e-5f);
    EXPECT_NEAR(longestEdge(simpleShear(20.5f)), std::sqrt(1.25f), 1e-5f);
    EXPECT_NEAR(longestEdge(glm::mat3(glm::vec3(3.0f, 0, 0), glm::vec3(0, 1.0f / 3.0f, 0), glm::vec3(0, 0, 1))), 3.0f,
                1e-5f);
    EXPECT_NEAR(longestEdge(glm::mat3_cast(glm::angleAxis(1.0f, glm::normalize(vec3(1, 2, 3))))), 1.0f, 1e-5f);
    const mat3 unimodular =
        mat3(vec3(1, 0, 0), vec3(2, 1, 0), vec3(0, 3, 1)) * mat3(vec3(1, 4, 1), vec3(0, 1, 1), vec3(0, 0, 1));
    EXPECT_NEAR(glm::determinant(unimodular), 1.0f, 1e-6f);
    EXPECT_NEAR(longestEdge(unimodular), 1.0f, 1e-5f);
}

TEST(LatticeDistortion, ExponentialTurnsARotationGeneratorIntoARotation) {
    const float angle = 2.5f;  // rad, about z
    mat3 generator(0.0f);
    generator[0][1] = angle;  // d(y)/dt = angle * x
    generator[1][0] = -angle;
    const mat3 e = matrixExponential(generator);
    EXPECT_NEAR(e[0][0], std::cos(angle), 1e-5f);
    EXPECT_NEAR(e[0][1], std::sin(angle), 1e-5f);
    EXPECT_NEAR(e[1][0], -std::sin(angle), 1e-5f);
    EXPECT_NEAR(e[2][2], 1.0f, 1e-6f);
}

Vortons vortonsWithVorticity(const std::vector<float>& strengths) {
    Vortons v;
    for (float s : strengths) v.add(vec3(0.0f), vec3(0.0f, 0.0f, s), 0.1f, 0.0f);
    return v;
}

// Carries one vorton through `steps` sub-steps of dt in a fixed velocity gradient.
float strainAfter(const mat3& gradient, int steps, float dt) {
    const Vortons v = vortonsWithVorticity({1.0f});
    std::vector<mat3> maps;
    float strain = 0.0f;
    for (int s = 0; s < steps; ++s) strain = carryLatticeMaps({gradient}, v, dt, 1e-3f, maps);
    return strain;
}

// Tolerances: the exponential's degree-4 remainder, 8e-6 of each scaled piece, over the steps.
TEST(LatticeDistortion, CarriedThroughLinearFlowsItCountsOnlyWhatSeparatesParticles) {
    // Rigid rotation at 10 rad/s for 5 s (8 turns), 100 sub-steps of 0.05 s.
    mat3 rotation(0.0f);
    rotation[1][0] = -10.0f;
    rotation[0][1] = 10.0f;
    EXPECT_NEAR(strainAfter(rotation, 100, 0.05f), 0.0f, 1e-3f);
    // Uniform extension: stretch e^(2 t) along x, 0.5 s in 10 sub-steps: ln(stretch) = 1.
    const mat3 extension(vec3(2.0f, 0, 0), vec3(0, -1.0f, 0), vec3(0, 0, -1.0f));
    EXPECT_NEAR(strainAfter(extension, 10, 0.05f), 1.0f, 1e-4f);
    // Simple shear at 41/s for 0.5 s (shear 20.5) in 25 sub-steps: ln(sqrt(5/4)) = 0.1116, where
    // the strain-rate integral max|S| t would be 20.5 / sqrt(2) = 14.5.
    EXPECT_NEAR(strainAfter(simpleShear(41.0f) - mat3(1.0f), 25, 0.02f), std::log(std::sqrt(1.25f)), 1e-3f);
}

TEST(LatticeDistortion, OnlyVortonsARemeshWouldKeepCountAndNewOnesStartUndistorted) {
    const mat3 extension(vec3(2.0f, 0, 0), vec3(0, -1.0f, 0), vec3(0, 0, -1.0f));
    Vortons v = vortonsWithVorticity({1.0f, 1e-4f});  // the second below a share of 1e-3
    std::vector<mat3> maps;
    float strain = 0.0f;
    for (int s = 0; s < 10; ++s) strain = carryLatticeMaps({mat3(0.0f), extension}, v, 0.05f, 1e-3f, maps);
    EXPECT_NEAR(strain, 0.0f, 1e-6f);
    v.vorticity[1] = vec3(0.0f, 0.0f, 1.0f);  // now it counts: stretched by e^1
    strain = carryLatticeMaps({mat3(0.0f), mat3(0.0f)}, v, 0.05f, 1e-3f, maps);
    EXPECT_NEAR(strain, 1.0f, 1e-4f);
    v.add(vec3(1.0f), vec3(0.0f, 0.0f, 1.0f), 0.1f, 0.0f);  // appended: starts from the identity
    strain = carryLatticeMaps({mat3(0.0f), mat3(0.0f), mat3(0.0f)}, v, 0.05f, 1e-3f, maps);
    ASSERT_EQ(maps.size(), 3u);
    EXPECT_NEAR(longestEdge(maps[2]), 1.0f, 1e-6f);
}

long remeshesOfTheRingPreset(const char* trigger, double& distance) {
    Simulation sim;
    buildSimulation(loadScene(std::string(VFX_SOURCE_DIR) + "/scenes/vortex_ring.json",
                              {"fluid.quality=game", std::string("fluid.remesh_trigger=") + trigger}),
                    sim);
    const auto centroid = [&] {
        double w = 0.0, y = 0.0;
        const Vortons& v = sim.vortons();
        for (size_t i = 0; i < v.size(); ++i) {
            const double m = glm::length(v.vorticity[i]) * v.volume(i);
            w += m;
            y += m * v.position[i].y;
        }
        return y / w;
    };
    const double start = centroid();
    for (int frame = 0; frame < 90; ++frame) sim.step(1.0f / 30.0f);
    distance = centroid() - start;
    return sim.remeshCount();
}

// The ring preset's core (a/R 0.25) turns about 2.5 times in 3 s and shears as it does; under the
// grid's strain integral that is a remesh every 0.23 s, each blurring the core a little. Its
// particles' lattice only opens where the core's turning is not a whole shear of its rows, which
// grows as the square root of the shear, so the lattice trigger remeshes at most half as often
// and the ring, less blurred, goes further.
TEST(LatticeDistortion, ALaminarRingIsRemeshedLessOftenAndKeepsMoreOfItsSpeed) {
    double byGrid = 0.0, byLattice = 0.0;
    const long gridRemeshes = remeshesOfTheRingPreset("grid_strain", byGrid);
    const long latticeRemeshes = remeshesOfTheRingPreset("lattice", byLattice);
    std::cout << "ring preset at game over 3 s: grid_strain " << gridRemeshes << " remeshes, " << byGrid
              << " m; lattice " << latticeRemeshes << " remeshes, " << byLattice << " m\n";
    EXPECT_GE(gridRemeshes, 10);
    EXPECT_LE(2 * latticeRemeshes, gridRemeshes + 1);
    EXPECT_GT(byLattice, byGrid);
}

}  // namespace
}  // namespace vfx
