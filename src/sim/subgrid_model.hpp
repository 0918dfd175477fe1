#pragma once
// Subgrid models: the eddy viscosity nu_t (m^2/s) each vorton takes for the motion below the
// scales the vortons and the grid resolve. A model fills nu_t per vorton from the resolved flow
// at the vortons; PSE diffusion (sim/diffusion.hpp) consumes it, each pair exchanging at the
// mean of its two values. Another model takes the same inputs and fills the same output.
#include "core/math.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"

#include <vector>

namespace vfx {

// What a subgrid model sees of the resolved flow, one entry per vorton.
struct ResolvedFlowAtVortons {
    const std::vector<mat3>& velocityGradient;  // column j holds du/dx_j, 1/s
    const std::vector<float>& coreRadius;       // sigma, m
    float gridSpacing;                          // h_grid of the velocity grid, m
};

// The width Delta of the filter through which the vortons see the flow, as Smagorinsky's model
// means it: the box width with the filter's second moment (Delta^2 = 12 x variance per axis).
// Two filters act in series and their variances add: the vorton core (variance sigma^2 / 5)
// and the grid's trilinear interpolation (variance h_grid^2 / 6). m.
float resolvedFilterWidth(float coreRadius, float gridSpacing);

// The mean of the vortons' core radii (the same bits for any thread count), m; 0 without vortons.
float meanCoreRadius(const std::vector<float>& coreRadius);

// Smagorinsky's model: nu_t = (C_s Delta)^2 |S| with |S| = sqrt(2 S:S), S the strain rate of
// the resolved velocity gradient. eddyViscosity is resized to one value per vorton.
void smagorinskyEddyViscosity(const ResolvedFlowAtVortons& flow, float coefficient, std::vector<float>& eddyViscosity);

// Smagorinsky's model with a coefficient that varies in space: C^2 from the grid of squared
// coefficients (sim/dynamic_coefficient.hpp, computeLocal) at each vorton. Returns the largest C a
// vorton took.
float localSmagorinskyEddyViscosity(const ResolvedFlowAtVortons& flow, const UniformGrid<float>& coefficientSquared,
                                    const std::vector<vec3>& positions, std::vector<float>& eddyViscosity);

// The algebraic model fluid.subgrid_model names: nu_t = (C_s Delta)^2 D with D the model's rate
// (sim/subgrid_rates.hpp); empty for none or a zero coefficient. The dynamic models take their
// coefficient from the flow (Simulation::dynamicEddyViscosity) and are refused here.
void subgridEddyViscosity(SubgridModel model, const ResolvedFlowAtVortons& flow, float coefficient,
                          std::vector<float>& eddyViscosity);

}  // namespace vfx
