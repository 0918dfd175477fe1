#pragma once
// Finding things on disk: the presets in scenes/, the shader directory, and resolving a scene
// path given on the command line. Works from the repo root, from the build directory, installed
// (PREFIX/bin/vortonfx finds PREFIX/share/vortonfx) and from anywhere else: nothing is found
// through a path compiled in.
#include <string>
#include <vector>

namespace vfx {

struct PresetInfo {
    std::string path;         // as it will be passed to loadScene
    std::string fileName;     // e.g. dye_drop.json
    std::string name;         // from the scene, or the file name if it does not load
    std::string description;  // from the scene
    std::string error;        // non-empty if the file does not load
};

// Directories searched, in order: the working directory, next to the executable, its
// share/vortonfx (the build tree's links to the sources), ../share/vortonfx (installed), and
// the executable's parent (a build directory inside the source tree).
std::vector<std::string> resourceRoots(const std::string& executablePath);
// First root that has the given sub-directory; "" if none.
std::string findResourceDir(const std::vector<std::string>& roots, const std::string& subdir);
// A scene path as typed: used as is if it exists, else looked up under each root.
std::string resolveScenePath(const std::vector<std::string>& roots, const std::string& path);
// Every *.json in dir, sorted by file name, with name and description (or the load error).
std::vector<PresetInfo> listPresets(const std::string& scenesDir);

}  // namespace vfx
