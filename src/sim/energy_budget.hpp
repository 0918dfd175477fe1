#pragma once
// The flow's energy budget. For an unbounded Boussinesq flow with E = rho0 int u . (x x omega) dV,
//     dE/dt = - rho0 nu int |omega|^2 dV - (subgrid loss) + int rho' g . u dV,
// so E(t) - E(0) + viscous loss + subgrid loss - buoyancy work stays near zero when the method
// keeps energy as the equations do; what each phase changes can be measured beside it. Each term
// is added every sub-step: the viscous loss from the resolved (grid) flow's enstrophy (its curl to
// fourth order), the subgrid loss per vorton from its eddy viscosity and the resolved enstrophy
// density there (exact for a uniform nu_t, an estimate otherwise), the buoyancy work from each
// vorton's own velocity.
#include "core/uniform_grid.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

struct MeasuredEnergyChanges {
    double stretching = 0.0, relaxation = 0.0, baroclinic = 0.0, diffusion = 0.0, advection = 0.0, bodies = 0.0,
           remesh = 0.0;
    double total() const;  // the sum over the phases
};

// The phases in the order they act, by the name the stats give them (energy_change_<name>).
struct MeasuredEnergyPhase {
    const char* name;
    double MeasuredEnergyChanges::*change;
};
inline constexpr MeasuredEnergyPhase kMeasuredEnergyPhases[] = {
    {"remesh", &MeasuredEnergyChanges::remesh},         {"stretching", &MeasuredEnergyChanges::stretching},
    {"relaxation", &MeasuredEnergyChanges::relaxation}, {"baroclinic", &MeasuredEnergyChanges::baroclinic},
    {"diffusion", &MeasuredEnergyChanges::diffusion},   {"advection", &MeasuredEnergyChanges::advection},
    {"bodies", &MeasuredEnergyChanges::bodies}};

inline double MeasuredEnergyChanges::total() const {
    double sum = 0.0;
    for (const MeasuredEnergyPhase& p : kMeasuredEnergyPhases) sum += this->*p.change;
    return sum;
}

struct EnergyBudget {
    double viscousLoss = 0.0;   // rho0 nu int int |omega|^2 dV dt, J
    double subgridLoss = 0.0;   // rho0 int int nu_t |omega|^2 dV dt, J (the eddy viscosity's share)
    double buoyancyWork = 0.0;  // int int rho' g . u dV dt, J
    // What each phase changed the field energy by, solved before and after it (sums since the
    // reset, J). Measured only under Simulation::setMeasureEnergyChanges: a velocity solve at the
    // vortons after each phase that moves or changes them, so several a sub-step. They add up to
    // E(t) - E(0) and say where the budget's residual comes from: in the equations stretching and
    // advection together keep the energy, baroclinic generation adds the buoyancy work, diffusion
    // takes the viscous and subgrid losses, and relaxation and remeshing take nothing.
    MeasuredEnergyChanges measured;

    // Adds one diffusion sub-step's losses: nu times the resolved flow's enstrophy on the velocity
    // grid, and each vorton's eddy viscosity (empty for none) times the resolved enstrophy density
    // |curl u|^2 at it (from its velocity gradient, column j du/dx_j) and its volume.
    void addDiffusion(const Vortons& vortons, const std::vector<mat3>& gradientAtVortons,
                      const UniformGrid<vec3>& velocityGrid, float viscosity, const std::vector<float>& eddyViscosity,
                      float ambientDensity, float dt);
    // Adds the work gravity did on the density deviation over one sub-step, with the velocity
    // each vorton moved at.
    void addBuoyancy(const Vortons& vortons, const vec3& gravity, float dt);
};

// Enstrophy of the resolved flow, int |curl u|^2 dV over the velocity grid (m^3/s^2): the
// physical viscous loss is nu times this. The sum of |omega|^2 V over particles also counts the
// particles' scatter about the smooth field; PSE diffuses that scatter too (it takes about 0.92
// of rho0 nu times that sum from the field energy, docs/method.md), and the budget leaves that
// numerical part in its residual. The curl takes fourth-order centred differences,
// (8 (u(+h) - u(-h)) - (u(+2h) - u(-2h))) / 12h, where two points lie on each side (second order
// nearer the faces): a vortex core two grid spacings across loses a fraction (kh)^2/3 of its
// enstrophy to second-order differences and (kh)^4/15 to fourth-order ones (on a thin ring's
// core, 18% and 6% below the field's own enstrophy).
double resolvedEnstrophy(const UniformGrid<vec3>& velocity);

// curl u from grad u (column j holds du/dx_j).
inline vec3 curlOf(const mat3& g) { return vec3(g[1][2] - g[2][1], g[2][0] - g[0][2], g[0][1] - g[1][0]); }

}  // namespace vfx
