#include "app/sim_outputs.hpp"

#include <unistd.h>

#include <filesystem>

namespace vfx {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const std::string& flag, const std::string& what) {
    throw OutputPathError(flag + ": " + what);
}

// The same file: by identity when both exist (links included), else by resolved path.
bool sameFile(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
    return fs::weakly_canonical(fs::absolute(a), ec) == fs::weakly_canonical(fs::absolute(b), ec);
}

void checkOne(const OutputPath& out) {
    if (out.path.empty()) refuse(out.flag, "expected a file name, got an empty path");
    const fs::path p(out.path);
    std::error_code ec;
    const fs::file_status status = fs::status(p, ec);
    if (fs::is_directory(status)) refuse(out.flag, "\"" + out.path + "\" is a directory, expected a file name");
    if (fs::exists(status) && !fs::is_regular_file(status))
        refuse(out.flag, "\"" + out.path + "\" is not a regular file (a device, pipe or socket)");
    if (fs::exists(status) && ::access(out.path.c_str(), W_OK) != 0)
        refuse(out.flag, "\"" + out.path + "\" is not writable");
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) refuse(out.flag, "directory \"" + dir.string() + "\" does not exist");
}

// A file output inside the bake directory named like one of its frames.
bool clashesWithFrames(const fs::path& file, const BakePath& bake) {
    if (bake.directory.empty() || file.extension() != ".vdb") return false;
    const std::string stem = file.stem().string();
    if (stem.rfind(bake.name + "_", 0) != 0) return false;
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    const fs::path bakeDir(bake.directory);
    return sameFile(dir, bakeDir) || sameFile(dir, bakeDir / "tracers");
}

}  // namespace

void checkOutputPaths(const std::vector<OutputPath>& files, const std::vector<std::string>& inputs,
                      const BakePath& bake) {
    for (size_t i = 0; i < files.size(); ++i) {
        const OutputPath& out = files[i];
        checkOne(out);
        for (const std::string& input : inputs)
            if (sameFile(out.path, input))
                refuse(out.flag, "\"" + out.path + "\" is the scene file itself; writing it would destroy the scene");
        for (size_t j = 0; j < i; ++j)
            if (sameFile(out.path, files[j].path))
                refuse(files[j].flag + " and " + out.flag,
                       "both name \"" + out.path + "\", expected two different files");
        if (clashesWithFrames(out.path, bake))
            refuse(out.flag,
                   "\"" + out.path + "\" is named like a frame of the --vdb bake in \"" + bake.directory + "\"");
        if (!bake.directory.empty() && sameFile(out.path, bake.directory))
            refuse(out.flag, "\"" + out.path + "\" is the --vdb directory");
    }
    if (!bake.directory.empty())
        for (const std::string& input : inputs)
            if (sameFile(bake.directory, input)) refuse("--vdb", "\"" + bake.directory + "\" is the scene file itself");
}

}  // namespace vfx
