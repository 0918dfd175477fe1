#pragma once
// Run-time parameters of the simulation. Every switch the articles implement with #if is a
// field here so the demo can flip it live and a test can compare both sides in one process.
// A member's default is its parameter's default; its key, range, unit and description are
// declared once, in sim/params.cpp (a test fails if a member has no row there).
#include "core/enum_names.hpp"
#include "core/math.hpp"

namespace vfx {

enum class FluidMethod { Vpm, Sph, Hybrid };
enum class GradientSource { Grid, Sph };
enum class Poisoning { None, Hits, Walls };
enum class PoisonVariant { Serial, Atomic, Partitioned };
enum class VelocitySolver { Tree, Direct };
enum class StretchingScheme { Classic, Transpose, Mixed };

template <>
struct EnumNames<FluidMethod> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<GradientSource> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<Poisoning> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<PoisonVariant> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<VelocitySolver> {
    static const std::vector<std::string>& names();
};
template <>
struct EnumNames<StretchingScheme> {
    static const std::vector<std::string>& names();
};

struct FluidParams {
    float ambientDensity = 1.0f;      // rho0, kg/m^3
    vec3 gravity{0.0f, -9.8f, 0.0f};  // m/s^2
    float viscosity = 0.001f;         // kinematic viscosity nu, m^2/s
    FluidMethod method = FluidMethod::Vpm;
    GradientSource densityGradient = GradientSource::Grid;
    Poisoning poisoning = Poisoning::None;
    PoisonVariant poisonVariant = PoisonVariant::Partitioned;
    VelocitySolver velocitySolver = VelocitySolver::Tree;
    float treeOpeningAngle = 0.7f;    // Barnes-Hut theta: cluster size / distance accepted
    float gridCellsPerVorton = 1.0f;  // velocity grid resolution: cells per vorton (Gourlay: 1)
    bool stretching = true;           // vortex stretching and tilting term
    StretchingScheme stretchingScheme = StretchingScheme::Transpose;
    float coreOverlap =
        1.5f;               // core radius sigma / particle spacing h (Beale-Majda overlap); 0 = keep each vorton's own
    float cflLimit = 1.0f;  // largest |u| dt / h a sub-step may take
    float strainLimit = 0.3f;    // largest max|grad u| dt a sub-step may take
    int maxSubsteps = 64;        // cap on sub-steps per step(frame_dt) call
    bool adamsBashforth = true;  // second-order two-step time integration of motion and stretching (false: one-step)
    float remeshStrain =
        1.0f;  // accumulated strain (integral of max|S| dt) that triggers a remesh (0 = never; vpm only)
    float vortonBudget =
        2.5f;  // most vortons remeshing may make, as a multiple of the count at the first remesh (0 = no limit)
    float remeshThreshold = 1e-3f;     // lattice nodes below this share of the largest strength are dropped
    bool diffusion = true;             // PSE viscous diffusion
    float subgridCoefficient = 0.17f;  // Smagorinsky C_s of the subgrid eddy viscosity (0 = none)
    bool baroclinicSharing =
        true;  // baroclinic source at the exact impulse rate (grid: shared; SPH: pairwise curl) vs sampled at vortons
    bool baroclinic = true;         // baroclinic (buoyancy) generation
    float poisonTestRadius = 0.0f;  // walls poisoning reach beyond the wall; 0 = two grid spacings
    bool coverageDensity = true;    // buoyancy gradient from coverage-normalised density (see Simulation)
    // SPH
    float sphInfluenceRadius = 0.15f;  // kernel support h, m
    float sphRestSpacing = 0.06f;      // spacing SPH pressure keeps particles at, m
    float sphStiffness = 2.0f;         // equation-of-state stiffness, m^2/s^2
    float sphCohesion = 1.0f;          // share of the pull toward rest density where sparser, 0..1
};

struct TimeParams {
    float dt = 0.01f;  // s per step
    int steps = 600;   // steps a headless run takes by default
};

}  // namespace vfx
