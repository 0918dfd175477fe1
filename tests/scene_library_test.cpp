// The preset list and resource lookup (scene/scene_library.hpp) the demo opens scenes with: every
// preset loads with a description, and shaders and scenes are found from another directory.
#include <gtest/gtest.h>

#ifdef VFX_HAVE_DEMO_CORE

#include "scene/scene_library.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace vfx {
namespace {

TEST(SceneLibrary, EveryPresetLoadsWithADescription) {
    std::vector<PresetInfo> presets = listPresets(std::string(VFX_SOURCE_DIR) + "/scenes");
    ASSERT_FALSE(presets.empty());
    bool hasDefault = false;
    for (const PresetInfo& p : presets) {
        EXPECT_TRUE(p.error.empty()) << p.path << ": " << p.error;
        EXPECT_FALSE(p.description.empty()) << p.path << " has no description for the preset list";
        hasDefault = hasDefault || p.fileName == "dye_drop.json";
    }
    EXPECT_TRUE(hasDefault) << "scenes/dye_drop.json is the demo's default scene";
}

TEST(SceneLibrary, FindsResourcesFromAnotherWorkingDirectory) {
    std::vector<std::string> roots = resourceRoots("");
    EXPECT_FALSE(findResourceDir(roots, "shaders").empty());
    EXPECT_FALSE(findResourceDir(roots, "scenes").empty());
    std::string resolved = resolveScenePath({"/nonexistent-cwd", std::string(VFX_SOURCE_DIR)}, "scenes/dye_drop.json");
    EXPECT_TRUE(std::filesystem::exists(resolved)) << resolved;
}

}  // namespace
}  // namespace vfx

#endif
