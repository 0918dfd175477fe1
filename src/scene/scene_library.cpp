#include "scene/scene_library.hpp"

#include "scene/scene.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace vfx {

std::vector<std::string> resourceRoots(const std::string& executablePath) {
    std::vector<std::string> roots{"."};
    std::error_code ec;
    fs::path exe = fs::canonical("/proc/self/exe", ec);
    if (ec && !executablePath.empty()) exe = fs::absolute(executablePath, ec);
    if (!exe.empty()) {
        const fs::path dir = exe.parent_path();
        roots.push_back(dir.string());
        roots.push_back((dir / "share" / "vortonfx").string());                // build tree (links to the sources)
        roots.push_back((dir.parent_path() / "share" / "vortonfx").string());  // installed: PREFIX/bin, PREFIX/share
        roots.push_back(dir.parent_path().string());                           // a build directory inside the sources
    }
    return roots;
}

std::string findResourceDir(const std::vector<std::string>& roots, const std::string& subdir) {
    for (const std::string& root : roots) {
        std::error_code ec;
        fs::path candidate = fs::path(root) / subdir;
        if (fs::is_directory(candidate, ec)) return candidate.lexically_normal().string();
    }
    return "";
}

std::string resolveScenePath(const std::vector<std::string>& roots, const std::string& path) {
    std::error_code ec;
    if (fs::exists(path, ec) || fs::path(path).is_absolute()) return path;
    for (size_t i = 1; i < roots.size(); ++i) {
        fs::path candidate = fs::path(roots[i]) / path;
        if (fs::exists(candidate, ec)) return candidate.lexically_normal().string();
    }
    return path;  // let the loader report it missing, with the name the user typed
}

std::vector<PresetInfo> listPresets(const std::string& scenesDir) {
    std::vector<PresetInfo> presets;
    std::error_code ec;
    if (scenesDir.empty() || !fs::is_directory(scenesDir, ec)) return presets;
    for (const fs::directory_entry& entry : fs::directory_iterator(scenesDir, ec)) {
        if (entry.path().extension() != ".json") continue;
        PresetInfo info;
        info.path = entry.path().lexically_normal().string();
        info.fileName = entry.path().filename().string();
        info.name = entry.path().stem().string();
        try {
            Scene scene = loadScene(info.path);
            if (!scene.name.empty()) info.name = scene.name;
            info.description = scene.description;
        } catch (const std::exception& e) {
            info.error = e.what();
        }
        presets.push_back(std::move(info));
    }
    std::sort(presets.begin(), presets.end(),
              [](const PresetInfo& a, const PresetInfo& b) { return a.fileName < b.fileName; });
    return presets;
}

}  // namespace vfx
