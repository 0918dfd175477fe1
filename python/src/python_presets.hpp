#pragma once
// The presets (scenes/*.json) as the module finds them: next to the module in a build tree
// (build/share/vortonfx), beside an installed module (PREFIX/lib/python3/dist-packages ->
// PREFIX/share/vortonfx), then where the programs look (scene/scene_library.hpp).
#include "scene/scene_library.hpp"

#include <string>
#include <vector>

namespace vfx::python {

std::vector<std::string> moduleResourceRoots();
// The scenes directory the presets come from; "" if none is found.
std::string presetDirectory();
std::vector<PresetInfo> presetList();
// A preset by file stem ("dye_drop"), file name ("dye_drop.json") or scene name ("Dye drop",
// any case). Throws std::invalid_argument listing the presets when none matches.
std::string presetPath(const std::string& name);

}  // namespace vfx::python
