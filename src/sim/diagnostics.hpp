#pragma once
// The conserved quantities and totals Simulation::diagnostics() measures (sim/diagnostics.cpp).
#include "core/math.hpp"
#include "sim/energy_budget.hpp"

namespace vfx {

// Conserved quantities and totals (double precision, deterministic order).
struct Diagnostics {
    double kineticEnergy = 0.0;  // 0.5 * sum |u|^2 (rho0 + rho') V over vortons
    // Kinetic energy of the whole unbounded flow the vorticity induces, rho0 * sum u . (x x omega) V
    // (the vorticity form of 1/2 integral |u|^2 over all space, fluid at rest far away), with u
    // solved at the vortons now and x from their strength-weighted centre: unlike the sum over
    // vortons it does not depend on where particles happen to sit, nor on how the last step
    // blended velocities, nor on where the flow is.
    double fieldEnergy = 0.0;
    dvec3 circulation{0.0};      // sum omega V
    dvec3 linearImpulse{0.0};    // 0.5 * sum x x omega V
    dvec3 angularImpulse{0.0};   // 1/3 * sum x x (x x omega V)
    double massParticles = 0.0;  // sum rho' V over vortons
    double massGrid = 0.0;       // sum of the density-deviation grid times cell volume
    double maxSpeed = 0.0;       // over vortons
    // The irrotational flow moving solids push aside (sim/body_coupling PotentialFlow), which the
    // vorticity does not carry: its kinetic energy sum 1/2 m_a W^2 and momentum sum m_a W.
    double potentialFlowEnergy = 0.0;
    dvec3 potentialFlowMomentum{0.0};
    // Enstrophy of the resolved flow (int |curl u|^2 dV on the grid), and the energy budget since the last reset (sim/energy_budget.hpp):
    // field energy change + viscous loss + subgrid loss - buoyancy work stays near zero.
    double enstrophy = 0.0;
    double energyViscousLoss = 0.0;
    double energySubgridLoss = 0.0;
    double energyBuoyancyWork = 0.0;
    // Each phase's change of the field energy since the reset, when measured (sim/energy_budget.hpp).
    bool energyChangesMeasured = false;
    MeasuredEnergyChanges energyChanges;
    // The largest speed of the flow through any body's wall, |(u - u_wall) . n| over points on
    // every surface (sim/wall_flow.hpp), m/s; 0 without bodies.
    double wallNormalSpeed = 0.0;
};

}  // namespace vfx
