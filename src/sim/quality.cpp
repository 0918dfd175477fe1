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
    float vortonBudget;
    float gridCellsPerVorton;
    bool diffusionPerFrame;
};

// film: the default core. game: sub-steps up to 1 grid spacing and max|grad u| dt 2 (1.1 sub-steps
// per 1/30 s frame on the author's 2,176-vorton drop, 1.5 on the 17,256), vortons held near the
// first count, diffusion once per frame. preview: coarser still, for blocking out a shot.
constexpr std::array<Level, 3> kLevels{{
    {Quality::Preview, 3.0f, 3.0f, 4, 0.5f, 0.5f, true},
    {Quality::Game, 2.0f, 1.0f, 8, 1.0f, 1.0f, true},
    {Quality::Film, 0.6f, 1.0f, 64, 2.5f, 1.0f, false},
}};

}  // namespace

void applyQuality(Quality level, FluidParams& fluid) {
    for (const Level& l : kLevels) {
        if (l.quality != level) continue;
        fluid.strainLimit = l.strainLimit;
        fluid.cflLimit = l.cflLimit;
        fluid.maxSubsteps = l.maxSubsteps;
        fluid.vortonBudget = l.vortonBudget;
        fluid.gridCellsPerVorton = l.gridCellsPerVorton;
        fluid.diffusionPerFrame = l.diffusionPerFrame;
    }
}

std::string describeQualityLevels() {
    std::string text;
    for (const Level& l : kLevels)
        text += (text.empty() ? "" : " ") + enumName(l.quality) + ": strain_limit " + formatNumber(l.strainLimit, 3) +
                ", cfl_limit " + formatNumber(l.cflLimit, 3) + ", max_substeps " + std::to_string(l.maxSubsteps) +
                ", vorton_budget " + formatNumber(l.vortonBudget, 3) + ", grid_cells_per_vorton " +
                formatNumber(l.gridCellsPerVorton, 3) + ", diffusion_per_frame " +
                (l.diffusionPerFrame ? "true" : "false") + ";";
    return text;
}

}  // namespace vfx
