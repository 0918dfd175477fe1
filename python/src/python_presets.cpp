#include "python_presets.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace vfx::python {
namespace {

std::string lowercase(std::string text) {
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// The directory of the shared object this function is in: the module's own file.
fs::path moduleDirectory() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&moduleDirectory), &info) == 0 || !info.dli_fname) return {};
    std::error_code ec;
    const fs::path file = fs::canonical(info.dli_fname, ec);
    return ec ? fs::path() : file.parent_path();
}

}  // namespace

std::vector<std::string> moduleResourceRoots() {
    std::vector<std::string> roots;
    const fs::path dir = moduleDirectory();
    if (!dir.empty()) {
        roots.push_back((dir / "share" / "vortonfx").string());  // build tree: links to the sources
        // Installed: PREFIX/<VFX_PYTHON_INSTALL_DIR> -> PREFIX/share/vortonfx.
        const fs::path installDir(VFX_PYTHON_INSTALL_DIR);
        if (installDir.is_relative()) {
            fs::path prefix = dir;
            for (auto part = installDir.begin(); part != installDir.end(); ++part) prefix = prefix.parent_path();
            roots.push_back((prefix / "share" / "vortonfx").string());
        }
    }
    for (std::string& root : resourceRoots("")) roots.push_back(std::move(root));
    return roots;
}

std::string presetDirectory() { return findResourceDir(moduleResourceRoots(), "scenes"); }

std::vector<PresetInfo> presetList() { return listPresets(presetDirectory()); }

std::string presetPath(const std::string& name) {
    const std::vector<PresetInfo> presets = presetList();
    const std::string wanted = lowercase(name);
    for (const PresetInfo& p : presets) {
        const std::string stem = fs::path(p.fileName).stem().string();
        if (wanted == lowercase(stem) || wanted == lowercase(p.fileName) || wanted == lowercase(p.name)) return p.path;
    }
    std::string known;
    for (const PresetInfo& p : presets) known += (known.empty() ? "" : ", ") + fs::path(p.fileName).stem().string();
    if (presets.empty())
        throw std::invalid_argument("preset \"" + name +
                                    "\": no scenes directory found (looked beside the module, in " +
                                    "PREFIX/share/vortonfx and the working directory)");
    throw std::invalid_argument("preset \"" + name + "\": unknown, expected one of " + known);
}

}  // namespace vfx::python
