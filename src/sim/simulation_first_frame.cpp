// The first frame after a load, taken and undone so that the workspaces hold their memory
// (sim/simulation.hpp, prepareFirstFrame).
#include "sim/simulation.hpp"
#include "sim/fluid_method.hpp"
#include "sim/simulation_workspace.hpp"

#include <tuple>

namespace vfx {

void Simulation::prepareFirstFrame(float frameDt) {
    if (!(frameDt > 0.0f) || (vortons_.size() == 0 && tracers_.size() == 0)) return;
    // Everything a frame changes that a later frame or an accessor reads: the particles, bodies
    // and parameters, the histories, clocks and counts, and what the accessors show before any
    // step (no grids, no wall fields, no eddy viscosity).
    const auto state = [this] {
        return std::tie(vortons_, tracers_, bodies_, fluid_, appliedQuality_, work_->history, work_->lastSphPhase,
                        timers_, energyBudget_, lastStepMs_, lastBaroclinicRatesMs_, stepCount_, time_, substepTime_,
                        lastSubsteps_, substepCount_, remeshCount_, strainSinceRemesh_, latticeStrain_, latticeMaps_,
                        spreadSinceRemesh_, undiffused_, framesSinceDiffusion_, remeshSpacing_, remeshBaseCount_,
                        remeshSizedAtStep_, sizedSpacing_, remeshSizedAhead_, strainDemand_, strainDemandBefore_,
                        maxGridSpeed_, maxGridStrain_, maxGridStrainRate_, lastDynamicCoefficient_, gridShape_,
                        velocityGrid_, jacobianGrid_, partition_, walls_, work_->eddyViscosity,
                        work_->previousVelocityGrid, work_->knownTracerBounds);
    };
    const auto before = std::apply([](const auto&... v) { return std::make_tuple(v...); }, state());
    try {
        step(frameDt);
    } catch (...) {  // the first real frame meets it again and reports it
    }
    state() = before;  // copy-assignment: each vector keeps the memory the frame gave it
    work_->density.forgetGrids();
    // The remesh lattice's box grows as the flow spreads (the 2,176-vorton drop's from 9,000 nodes
    // to 22,000 in 10 s): room for four times the box the vortons span now.
    if (fluidMethodStep(fluid_.method).mayRemesh(fluid_))
        work_->remesher.reserveFor(vortons_, remeshSpacing_ > 0.0f ? remeshSpacing_ : vortons_.meanSpacing(), 4.0f);
}

}  // namespace vfx
