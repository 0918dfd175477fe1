#pragma once
// fluid.quality: named levels for what a frame may cost. Each sets the sub-step limits, the
// remesh budget and trigger, the vortons' move and the velocity grid together; film is the
// default core, game and preview trade accuracy for fewer sub-steps and vortons (measured in
// docs/performance.md).
#include "sim/params.hpp"

#include <string>

namespace vfx {

// Writes the level's values into `fluid` (nothing for custom).
void applyQuality(Quality level, FluidParams& fluid);

// "preview: key value, ...; game: ...; film: ...;" for tooltips and the parameter reference.
std::string describeQualityLevels();

}  // namespace vfx
