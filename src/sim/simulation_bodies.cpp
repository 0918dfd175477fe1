// Simulation's body phase: particles kept out of solids, the solids' drag exchanged with the
// fluid around them (which first gets fluid where remeshing left none), buoyancy and motion.
#include "core/parallel.hpp"
#include "sim/body_coupling.hpp"
#include "sim/remesh_history.hpp"
#include "sim/simulation_workspace.hpp"
#include "sim/stretching.hpp"
#include "sim/wall_fields.hpp"

namespace vfx {

// --- 7. bodies --------------------------------------------------------------------------------

void Simulation::interactWithBodies(float dt) {
    work_->knownTracerBounds.reset();  // collisions move tracers
    collideParticlesWithBodies(bodies_, vortons_, tracers_, fluid_, dt);
    // The shell that takes a body's wake impulse: two grid spacings of vortons around it.
    const float reach = 2.0f * gridShape_.spacing.x;
    fillBodyShellsWithFluid(reach);
    // What the flows the bodies push aside did to the vortons' impulse this step returns to the
    // fluid around them (the drag law already holds the body's interaction with its near wake).
    std::vector<dvec3> returned(bodies_.size(), dvec3(0.0));
    const std::vector<PotentialFlow>& pushed = work_->pushedFlows;
    for (size_t k = 0; k < pushed.size(); ++k) returned[pushed[k].body] = -double(dt) * work_->pushedImpulseRates[k];
    exchangeDragWithFluid(bodies_, vortons_, velocityGrid_, fluid_, reach, dt, returned);
    applyBuoyancyAndGravity(bodies_, work_->density.densityGrid(), fluid_, &work_->density.coverage());
    integrateBodies(bodies_, substepTime_ + dt, dt, fluid_.contactFilm);
}

// Still fluid on the remeshing lattice in the empty cells of each dynamic solid's shell
// (sim/shell_carriers.hpp), with the history the two-step rules need.
void Simulation::fillBodyShellsWithFluid(float reach) {
    if (vortons_.size() == 0) return;  // a scene without vortons has no fluid to fill in
    ShellLattice lattice;
    lattice.spacing = remeshSpacing_ > 0.0f ? remeshSpacing_ : vortons_.meanSpacing();
    lattice.coreOverlap = fluid_.coreOverlap > 0.0f ? fluid_.coreOverlap : 1.5f;
    lattice.reach = reach;
    const auto inFluid = fluidRegionOf(bodies_);
    const size_t first = vortons_.size();
    for (const RigidBody& body : bodies_)
        if (body.motion == MotionKind::Dynamic && !body.isHole()) fillShellWithFluid(body, lattice, inFluid, vortons_);
    if (vortons_.size() > first) extendHistoryToNewVortons(first);
}

// The new vortons join the two-step rules where the others have a history: the velocity of the
// fluid they hold over the last sub-step, and a zero stretching rate (no vorticity) or the
// stretching matrix there.
void Simulation::extendHistoryToNewVortons(size_t first) {
    MotionHistory& history = work_->history;
    if (history.vortonVelocity.size() == first && history.dt > 0.0f && velocityGrid_.size() > 0)
        carryVelocityToNewVortons({velocityGrid_, work_->pushedFlows, fluidRegionOf(bodies_)}, vortons_, first,
                                  history);
    if (history.stretching.size() == first) history.stretching.resize(vortons_.size(), vec3(0.0f));
    if (history.stretchingMatrix.size() == first) {
        history.stretchingMatrix.resize(vortons_.size());
        for (size_t i = first; i < vortons_.size(); ++i) {
            const vec3 x = vortons_.position[i];
            const bool inGrid = jacobianGrid_.size() > 0 && jacobianGrid_.shape().encloses(x);
            const mat3 j =
                (inGrid ? jacobianGrid_.interpolate(x) : mat3(0.0f)) + potentialFlowGradient(work_->pushedFlows, x);
            history.stretchingMatrix[i] = stretchingMatrix(fluid_.stretchingScheme, j);
        }
    }
}

}  // namespace vfx
