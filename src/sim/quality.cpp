#include "sim/quality.hpp"

#include "core/enum_names.hpp"
#include "core/text_format.hpp"

#include <array>

namespace vfx {

namespace {

struct Level {
    Quality quality;
    float strainLimit;
    float cflLimit;
    int maxSubsteps;
    float maxSubstepDt;
    float vortonBudget;
    int maxVortons;
    float gridCellsPerVorton;
    int maxGridCells;
    bool diffusionPerFrame;
    int diffusionInterval;
    float remeshFringeShare;
    float remeshFringeMassShare;
    bool remeshSplit;
    bool remeshToHoldSubsteps;
    AdvectionIntegrator advectionIntegrator;
    RemeshTrigger remeshTrigger;
};

// film: the default core, its sub-steps no longer than 1/240 s, so that a frame's sub-step count
// and cost stay steady: 8 a 1/30 s frame, where by its limits alone the 17,256-vorton author's
// drop takes 7 to 9 in its first half second and 1 from 3 s on (its worst frame 5.6 times its
// median; at 1/120 s 2.5 times, at 1/180 s 2.0).
// game: one sub-step a 1/30 s frame through the author's drop, so no frame costs twice another:
// sub-steps of max|grad u| dt up to 1.5 and up to 6 grid spacings, at most 3 per frame, vortons
// never above 9,000 (a bound on a frame's cost whatever the scene; at 8,000 the 17,256-vorton drop
// fell 5% short at the older limits of 1 and 4), diffusion once every fourth frame over the time
// since the last (sub-cycled within the exchange's bound), passed on by a frame that remeshed (on
// the 2,176-vorton drop, 2 threads: a mean 0.92 ms a frame, 1.00 diffusing every other frame; the
// fall at 5 s +1.5% and +0.9% of the reference). Vortons are held at the first count by leaving out the faintest nodes of
// the lattice (up to 10% of the strength but 0.3% of the mass deviation) before coarsening it, and
// remeshed by the lattice trigger; vortex cores move by the exponential rule, the rest by
// three_step. A remesh that must coarsen the lattice is spread over two frames (sized, then laid;
// the first one sized at the end of the frame before it),
// and a frame whose strain would ask for a second sub-step starts with the remesh the lattice is
// half due for (the young 2,176-vorton drop reaches max|grad u| dt 1.8 before its first remesh,
// 1.35 after it). A thin ring (a/R 0.1, 8,000 vortons) then keeps 0.960 of its thin-ring speed
// (0.896 under three_step and the grid-strain trigger with a 0.3% fringe) and the author's drop
// falls within 4% of its converged reference at 2,176 and 17,256 vortons (docs/performance.md).
// preview: coarser still, half as many vortons, for blocking out a shot.
constexpr std::array<Level, 3> kLevels{{
    {Quality::Preview, 3.0f, 3.0f, 4, 0.0f, 0.5f, 4500, 0.5f, 8192, true, 2, 0.0f, 0.0f, true, true,
     AdvectionIntegrator::ThreeStep, RemeshTrigger::GridStrain},
    {Quality::Game, 1.5f, 6.0f, 3, 0.0f, 1.0f, 9000, 1.0f, 0, true, 4, 0.1f, 0.003f, true, true,
     AdvectionIntegrator::ExponentialInCores, RemeshTrigger::Lattice},
    {Quality::Film, 0.8f, 1.0f, 64, 1.0f / 240.0f, 2.5f, 0, 1.0f, 0, false, 1, 0.0f, 0.0f, false, false,
     AdvectionIntegrator::ThreeStep, RemeshTrigger::GridStrain},
}};

}  // namespace

void applyQuality(Quality level, FluidParams& fluid) {
    for (const Level& l : kLevels) {
        if (l.quality != level) continue;
        fluid.strainLimit = l.strainLimit;
        fluid.cflLimit = l.cflLimit;
        fluid.maxSubsteps = l.maxSubsteps;
        fluid.maxSubstepDt = l.maxSubstepDt;
        fluid.vortonBudget = l.vortonBudget;
        fluid.maxVortons = l.maxVortons;
        fluid.gridCellsPerVorton = l.gridCellsPerVorton;
        fluid.maxGridCells = l.maxGridCells;
        fluid.diffusionPerFrame = l.diffusionPerFrame;
        fluid.diffusionInterval = l.diffusionInterval;
        fluid.remeshFringeShare = l.remeshFringeShare;
        fluid.remeshFringeMassShare = l.remeshFringeMassShare;
        fluid.remeshSplit = l.remeshSplit;
        fluid.remeshToHoldSubsteps = l.remeshToHoldSubsteps;
        fluid.advectionIntegrator = l.advectionIntegrator;
        fluid.remeshTrigger = l.remeshTrigger;
    }
}

std::string describeQualityLevels() {
    std::string text;
    for (const Level& l : kLevels)
        text += (text.empty() ? "" : " ") + enumName(l.quality) + ": strain_limit " + formatNumber(l.strainLimit, 3) +
                ", cfl_limit " + formatNumber(l.cflLimit, 3) + ", max_substeps " + std::to_string(l.maxSubsteps) +
                ", max_substep_dt " + formatNumber(l.maxSubstepDt, 3) + ", vorton_budget " +
                formatNumber(l.vortonBudget, 3) + ", max_vortons " + std::to_string(l.maxVortons) +
                ", grid_cells_per_vorton " + formatNumber(l.gridCellsPerVorton, 3) + ", max_grid_cells " +
                std::to_string(l.maxGridCells) + ", diffusion_per_frame " + (l.diffusionPerFrame ? "true" : "false") +
                ", diffusion_interval " + std::to_string(l.diffusionInterval) + ", remesh_fringe_share " +
                formatNumber(l.remeshFringeShare, 3) + ", remesh_fringe_mass_share " +
                formatNumber(l.remeshFringeMassShare, 3) + ", remesh_split " + (l.remeshSplit ? "true" : "false") +
                ", remesh_to_hold_substeps " + (l.remeshToHoldSubsteps ? "true" : "false") + ", advection_integrator " +
                enumName(l.advectionIntegrator) + ", remesh_trigger " + enumName(l.remeshTrigger) + ";";
    return text;
}

}  // namespace vfx
