#pragma once
// vortonfx-sim's output paths, checked before anything is computed: a flag given an empty path,
// a directory where a file is expected, a file that may not be replaced, two outputs naming the
// same file, or an output naming the scene itself are bad input.
#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {

// An output path that cannot be used; the message starts with the flag.
class OutputPathError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OutputPath {
    std::string flag;  // "--dump"
    std::string path;
};

struct BakePath {
    std::string directory;  // "" = no bake
    std::string name;       // the frames' prefix
};

// Checks the file outputs against each other, the inputs and the bake's frame names. Throws
// OutputPathError. Creating the files (which proves the directories writable) is the caller's.
void checkOutputPaths(const std::vector<OutputPath>& files, const std::vector<std::string>& inputs,
                      const BakePath& bake);

}  // namespace vfx
