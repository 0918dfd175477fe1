#pragma once
// Baking a simulation to OpenVDB files for Houdini, Blender and engines that import sparse
// volumes. Frame K of scene S is two files, each in one world-space transform in metres with
// metadata naming the scene, step and time:
//   DIR/S_000K.vdb          the volumes, grids every OpenVDB reader knows:
//     density    float grid, density deviation rho' (kg/m^3), background 0, active where fluid is
//     velocity   vec3s grid, fluid velocity (m/s), flagged as a contravariant (velocity) vector
//     vorticity  float grid, |omega| (1/s)
//     tracers    float grid, tracers per voxel (the dye the tracers mark, to render as smoke)
//   DIR/tracers/S_000K.vdb  the tracers as OpenVDB points, grid `tracers`, attribute `density`
// Points live in a file of their own because readers without point support (Debian's pyopenvdb,
// volume importers) refuse a whole file that holds a point grid. This header needs no OpenVDB:
// an engine that only simulates never pulls the dependency in.
#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {

class Simulation;

// A bake that cannot start or a frame that cannot be written; the message names the file or
// setting at fault and reads on its own.
class BakeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Subdirectory of the bake directory that holds the point files.
inline constexpr const char* kPointsSubdirectory = "tracers";

// What a bake does with frames of an earlier bake of the same name in its directory, which
// would otherwise mix with its own (a shorter bake would leave the old ones after its last).
enum class StaleFrames {
    Refuse,  // the bake does not start
    Clear,   // they are deleted when the bake starts
};

struct VdbBakeSettings {
    std::string directory;       // created if missing
    std::string name = "scene";  // file prefix: <name>_0001.vdb, <name>_0002.vdb, ...
    long every = 1;              // simulation steps between frames, >= 1
    float voxelSize = 0.0f;      // metres; 0 = the simulation's own grid spacing
    StaleFrames staleFrames = StaleFrames::Refuse;
};

// Checks everything that can be known before a simulation starts: every >= 1, a positive
// finite voxel size (or 0), a usable file name, a directory that exists or can be created and
// accepts a new file, and (with StaleFrames::Refuse) holds no frames of an earlier bake. Throws
// BakeError; writes nothing that outlives the check.
void checkVdbBake(const VdbBakeSettings& settings);

// The frame files of `name` already in `directory` and its tracers/ subdirectory.
std::vector<std::string> existingFrames(const std::string& directory, const std::string& name);

// Writes numbered frames. A frame appears under its final name only once it is complete (it is
// written to a hidden temporary file that is renamed into place), so an interrupted or failed
// bake never leaves a half-written file that looks like a frame, and earlier frames are untouched;
// a frame whose volumes fail to write takes its points file with it.
class VdbBaker {
public:
    // Runs checkVdbBake; with StaleFrames::Clear deletes the earlier frames first.
    explicit VdbBaker(VdbBakeSettings settings);

    const VdbBakeSettings& settings() const { return settings_; }
    // True when the simulation's step count (steps since reset) is one to bake.
    bool due(long step) const { return step > 0 && step % settings_.every == 0; }
    // DIR/<name>_<frame, 4 digits>.vdb, frames numbered from 1.
    std::string framePath(int frame) const;
    // DIR/tracers/<name>_<frame, 4 digits>.vdb: the frame's tracers as OpenVDB points.
    std::string pointsPath(int frame) const;
    // Writes the simulation's current state as the next frame; returns the file's path.
    std::string writeFrame(const Simulation& sim);
    int framesWritten() const { return framesWritten_; }
    // Frame files of an earlier bake deleted when this one started (StaleFrames::Clear).
    int framesCleared() const { return framesCleared_; }

private:
    VdbBakeSettings settings_;
    int framesWritten_ = 0;
    int framesCleared_ = 0;
};

}  // namespace vfx
