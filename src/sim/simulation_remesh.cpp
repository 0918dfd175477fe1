// When the vortons are remeshed onto the lattice, and the remesh itself (sim/remesh.hpp).
#include "sim/simulation.hpp"

#include "sim/body_coupling.hpp"
#include "sim/fluid_method.hpp"
#include "sim/lattice_distortion.hpp"
#include "sim/remesh.hpp"
#include "sim/remesh_history.hpp"
#include "sim/simulation_workspace.hpp"

#include <algorithm>

namespace vfx {

bool Simulation::remeshDue() const {
    if (vortons_.size() == 0) return false;
    const FluidMethodStep& method = fluidMethodStep(fluid_.method);
    const bool vpm = method.method() == FluidMethod::Vpm;
    // A remesh that sized a coarser lattice lays the vortons at the next frame, not later in this
    // one, unless the count has gone past the cap since (and not once remeshing is switched off).
    if (remeshSizedAtStep_ >= 0 && vpm && method.mayRemesh(fluid_))
        return remeshSizedAtStep_ != stepCount_ || aboveVortonCap();
    return remeshTriggered();
}

// Whether the strain, the cap or the diffusion since the last remesh calls for one now.
bool Simulation::remeshTriggered() const {
    if (vortons_.size() == 0) return false;
    const FluidMethodStep& method = fluidMethodStep(fluid_.method);
    const bool vpm = method.method() == FluidMethod::Vpm;
    return method.remeshDue(strainForRemesh(), fluid_) || (aboveVortonCap() && vpm) ||
           (vpm && diffusionRemeshDue(spreadSinceRemesh_, strainForRemesh(), fluid_.remeshStrain));
}

// Under remesh_to_hold_substeps, whether this frame should start with a remesh: the strain its
// first sub-step meets, extrapolated from the last two frames', would ask for more sub-steps than
// the last frame's strain did, and the lattice has gone at least half of remesh_strain (a remesh
// it was nearly due for anyway, taken early because it evens out a distorted lattice's spikes of
// grid strain).
bool Simulation::remeshWouldHoldSubsteps() const {
    const FluidMethodStep& method = fluidMethodStep(fluid_.method);
    if (!fluid_.remeshToHoldSubsteps || vortons_.size() == 0 || method.method() != FluidMethod::Vpm ||
        !method.mayRemesh(fluid_))
        return false;
    const float next = 2.0f * strainDemand_ - strainDemandBefore_;
    const bool moreSubsteps = std::ceil(next) > std::max(std::ceil(strainDemand_), 1.0f);
    return moreSubsteps && strainForRemesh() >= 0.5f * fluid_.remeshStrain;
}

float Simulation::strainForRemesh() const {
    return fluid_.remeshTrigger == RemeshTrigger::Lattice ? latticeStrain_ : strainSinceRemesh_;
}

void Simulation::fitVortonsToLevel() {
    applyQualityIfChanged();
    if (vortons_.size() == 0 || fluidMethodStep(fluid_.method).method() != FluidMethod::Vpm) return;
    const bool firstRemesh = !(remeshSpacing_ > 0.0f);
    const bool budgetCuts = firstRemesh && fluid_.vortonBudget > 0.0f && fluid_.vortonBudget < 1.0f;
    if (!(aboveVortonCap() || budgetCuts)) return;
    energyMarkCurrent_ = false;  // the vortons may have been edited since the last measurement
    arena_->execute([&] { remeshMeasured(false); });
}

// Under diffusion_per_frame, whether this frame (at its last sub-step) diffuses: every
// diffusion_interval-th frame. With an interval of 2 or more, a frame that remeshed passes its
// turn to the next, up to twice the interval, so the two costliest phases do not meet in one frame.
bool Simulation::diffusionDue(bool remeshedThisFrame) const {
    const int interval = fluid_.diffusionInterval;
    if (framesSinceDiffusion_ < interval) return false;
    return interval == 1 || !remeshedThisFrame || framesSinceDiffusion_ >= 2 * interval;
}

bool Simulation::aboveVortonCap() const { return fluid_.maxVortons > 0 && vortons_.size() > size_t(fluid_.maxVortons); }

// What a remesh onto a lattice of `spacing` keeps to: the vorton budget (a share of baseCount,
// the count before the first remesh) and cap, the core overlap and the cuts.
RemeshSettings Simulation::remeshSettings(float spacing, size_t baseCount) const {
    RemeshSettings settings;
    settings.spacing = spacing;
    settings.maxCount =
        fluid_.vortonBudget > 0.0f ? std::max<size_t>(size_t(double(fluid_.vortonBudget) * double(baseCount)), 1) : 0;
    settings.hardCap = size_t(std::max(fluid_.maxVortons, 0));
    if (settings.hardCap > 0)
        settings.maxCount = settings.maxCount > 0 ? std::min(settings.maxCount, settings.hardCap) : settings.hardCap;
    settings.coreOverlap = fluid_.coreOverlap > 0.0f ? fluid_.coreOverlap : 1.5f;
    settings.threshold = fluid_.remeshThreshold;
    settings.fringeShare = fluid_.remeshFringeShare;
    settings.fringeMassShare = fluid_.remeshFringeMassShare;
    return settings;
}

void Simulation::remesh(bool mayDefer) {
    if (!(remeshSpacing_ > 0.0f)) {
        // The lattice is set at the first remesh (the mean particle spacing), so later remeshes
        // land on the same lattice until the budget makes it coarser.
        remeshSpacing_ = vortons_.meanSpacing();
        remeshBaseCount_ = vortons_.size();
    }
    RemeshSettings settings =
        remeshSettings(remeshSizedAtStep_ >= 0 ? sizedSpacing_ : remeshSpacing_, remeshBaseCount_);
    // Sized at the last frame: lay the vortons now, coarsening further if they still need it. No
    // remesh is put off before one has been made (the one a scene may get as it loads counts): a
    // young flow's first lattice is what evens out its peaks of strain (the author's drop at the
    // game level would take two sub-steps in the frame it waited).
    settings.deferCoarsening =
        mayDefer && fluid_.remeshSplit && remeshSizedAtStep_ < 0 && remeshCount_ > 0 && !aboveVortonCap();
    remeshSizedAtStep_ = -1;
    // With bodies, the lattice leaves out what lies inside solids or outside containers, and a
    // node a container cuts holds its cell's fluid.
    const Remesher::FluidRegion fluidRegion = bodies_.empty() ? Remesher::FluidRegion{} : fluidRegionOf(bodies_);
    const Remesher::FluidShare fluidShare = bodies_.empty() ? Remesher::FluidShare{} : containerShareOf(bodies_);
    const size_t before = vortons_.size();
    const bool laid = work_->remesher.apply(vortons_, settings, fluidRegion, fluidShare);
    if (work_->remesher.lastDeferred()) {
        sizedSpacing_ = work_->remesher.lastSpacing();
        remeshSizedAtStep_ = stepCount_;
        return;  // the distortion since the last remesh stays counted until the vortons are laid
    }
    strainSinceRemesh_ = 0.0f;
    latticeStrain_ = 0.0f;
    latticeMaps_.clear();
    spreadSinceRemesh_ = 0.0f;
    if (!laid) return;
    carryHistoryAcrossRemesh(fluid_, before, {velocityGrid_, work_->pushedFlows, fluidRegion}, vortons_,
                             work_->history);
    remeshSpacing_ = work_->remesher.lastSpacing();
    ++remeshCount_;
}

// Under remesh_split, the first remesh may not wait a frame (above), so when the next frame is
// to begin with it, this one ends by depositing the vortons where that remesh will find them:
// if the lattice must be coarsened, the next frame lays them on the coarser one, as a split
// remesh does, but on time and bit for bit as the whole remesh would. Without this the young
// 2,176-vorton drop's first remesh deposits twice in one frame, 1.1 ms against 0.5-0.8 for each
// half of the split ones (2 threads).
bool Simulation::firstRemeshDueNextFrame() const {
    return fluid_.remeshSplit && remeshCount_ == 0 && remeshSizedAtStep_ < 0 && !aboveVortonCap() &&
           fluidMethodStep(fluid_.method).method() == FluidMethod::Vpm &&
           (remeshWouldHoldSubsteps() || remeshTriggered());
}

void Simulation::sizeFirstRemeshAhead() {
    const bool laidBefore = remeshSpacing_ > 0.0f;  // a remesh that laid nothing still set the lattice
    RemeshSettings settings = remeshSettings(laidBefore ? remeshSpacing_ : vortons_.meanSpacing(),
                                             laidBefore ? remeshBaseCount_ : vortons_.size());
    settings.sizeOnly = true;
    const Remesher::FluidRegion fluidRegion = bodies_.empty() ? Remesher::FluidRegion{} : fluidRegionOf(bodies_);
    work_->remesher.apply(vortons_, settings, fluidRegion);
    if (!work_->remesher.lastDeferred()) return;  // it fits: the next frame remeshes as it would have
    sizedSpacing_ = work_->remesher.lastSpacing();
    remeshSizedAtStep_ = stepCount_;
    remeshSizedAhead_ = true;
}

// A frame's start decides from the parameters then: if they no longer begin it with the remesh
// the last frame sized ahead, that sizing is dropped.
void Simulation::keepRemeshSizedAheadIfDue() {
    if (!remeshSizedAhead_) return;
    remeshSizedAhead_ = false;
    if (!(remeshWouldHoldSubsteps() || remeshTriggered())) remeshSizedAtStep_ = -1;
}

}  // namespace vfx
