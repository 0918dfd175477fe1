#pragma once
// The solvers and scratch Simulation's phases keep between steps (private to the library's
// simulation_*.cpp files).
#include "sim/baroclinic.hpp"
#include "sim/body_coupling.hpp"
#include "sim/box_vortex_in_cell.hpp"
#include "sim/density_field.hpp"
#include "sim/diffusion.hpp"
#include "sim/dynamic_coefficient.hpp"
#include "sim/fluid_method.hpp"
#include "sim/particle_advection.hpp"
#include "sim/remesh.hpp"
#include "sim/simulation.hpp"
#include "sim/sph.hpp"
#include "sim/time_integration.hpp"
#include "sim/velocity_solver.hpp"
#include "sim/wall_sources.hpp"

#include <optional>

namespace vfx {

struct Simulation::Workspace {
    VortonTree tree;
    BoxVortexInCell boxSolver;  // fluid.velocity_solver box
    Vortons vortonsInBoxFrame;  // the vortons turned into a tilted box container's frame
    SphFluid sph;
    PseDiffusion pse;
    DynamicCoefficient dynamic;
    UniformGrid<float> dynamicCoefficientGrid;  // C^2 per grid point (dynamic_local)
    Remesher remesher;
    DensityField density;
    BaroclinicTransfer baroclinic;
    GridFlowAdvection advection;
    std::vector<float> eddyViscosity;  // subgrid viscosity of each vorton
    std::vector<vec3> gridPoints;
    // The velocity gradient at each vorton, looked up by stretching; diffusion's eddy viscosity
    // reuses it while the vortons have not moved (the same sub-step).
    std::vector<mat3> jacobianAtVortons;
    bool jacobianAtVortonsCurrent = false;
    std::vector<PotentialFlow> pushedFlows;  // this sub-step's flows moving bodies push aside
    std::vector<dvec3> pushedImpulseRates;   // and the rate each changes the vortons' impulse
    MotionHistory history;
    // The last sub-step's velocity grid, kept for the exponential move (its read of the flow's
    // change in time).
    UniformGrid<vec3> previousVelocityGrid;
    SphPhaseRecord lastSphPhase;
    // The tracers' bounds and finiteness as the last advection pass left them; none once anything
    // else may have moved them (the bodies phase, an edit through Simulation::editTracers()).
    std::optional<MovedTracerBounds> knownTracerBounds;
    WallSources wallSources;
    std::vector<vec3> flowAtWalls;  // the flow without the wall sources at their collocation points
};

}  // namespace vfx
