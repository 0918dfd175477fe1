#include "export/vdb_bake.hpp"

#include "sim/simulation.hpp"

#include <vortonfx/version.hpp>

#include <openvdb/io/Archive.h>
#include <openvdb/openvdb.h>
#include <openvdb/points/PointAttribute.h>
#include <openvdb/points/PointConversion.h>
#include <openvdb/points/PointDataGrid.h>
#include <openvdb/tools/PointIndexGrid.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <system_error>

namespace vfx {

namespace {

namespace fs = std::filesystem;

void initializeOpenVdb() {
    static std::once_flag once;
    std::call_once(once, [] { openvdb::initialize(); });
}

// --- the voxel lattice ------------------------------------------------------------------------

// Voxel (i, j, k) is centred at origin + (i, j, k) * voxel. With the simulation's own spacing
// and origin the deposit below reproduces the simulation's density grid point for point.
struct Lattice {
    vec3 origin{0.0f};
    vec3 voxel{1.0f};

    float voxelVolume() const { return voxel.x * voxel.y * voxel.z; }
    vec3 centre(const openvdb::Coord& c) const {
        return origin + vec3(float(c.x()), float(c.y()), float(c.z())) * voxel;
    }
};

Lattice latticeFor(const Simulation& sim, float voxelSize) {
    const GridShape& shape = sim.gridShape();
    Lattice lattice;
    lattice.origin = shape.minCorner;
    if (voxelSize > 0.0f) {
        lattice.voxel = vec3(voxelSize);
        return lattice;
    }
    // A flat axis (a 2-D scene) has no spacing of its own: give its voxels the finest real one.
    float finest = 0.0f;
    for (int axis = 0; axis < 3; ++axis)
        if (!shape.flatAxis(axis) && (finest == 0.0f || shape.spacing[axis] < finest)) finest = shape.spacing[axis];
    if (finest <= 0.0f) finest = 1.0f;
    for (int axis = 0; axis < 3; ++axis) lattice.voxel[axis] = shape.flatAxis(axis) ? finest : shape.spacing[axis];
    return lattice;
}

// Cloud-in-cell: calls visit(voxel, weight) for the up to 8 voxels around p; weights sum to one.
template <typename Visit>
void forEachCicVoxel(const Lattice& lattice, const vec3& p, Visit&& visit) {
    const vec3 t = (p - lattice.origin) / lattice.voxel;
    const vec3 base = glm::floor(t);
    const vec3 f = t - base;
    for (int corner = 0; corner < 8; ++corner) {
        const int dx = corner & 1, dy = (corner >> 1) & 1, dz = (corner >> 2) & 1;
        const float w = (dx ? f.x : 1.0f - f.x) * (dy ? f.y : 1.0f - f.y) * (dz ? f.z : 1.0f - f.z);
        if (w > 0.0f) visit(openvdb::Coord(int(base.x) + dx, int(base.y) + dy, int(base.z) + dz), w);
    }
}

openvdb::math::Transform::Ptr transformFor(const Lattice& lattice) {
    const openvdb::Vec3d scale(lattice.voxel.x, lattice.voxel.y, lattice.voxel.z);
    const openvdb::Vec3d translate(lattice.origin.x, lattice.origin.y, lattice.origin.z);
    return std::make_shared<openvdb::math::Transform>(
        std::make_shared<openvdb::math::ScaleTranslateMap>(scale, translate));
}

// --- fields ---------------------------------------------------------------------------------------

struct FluidGrids {
    openvdb::FloatGrid::Ptr density;
    openvdb::Vec3SGrid::Ptr velocity;
    openvdb::FloatGrid::Ptr vorticity;
};

// Cloud-in-cell deposit of each vorton's mass deviation rho'V and circulation omega V onto the 8
// voxels around it. The weights of a vorton sum to one, so sum(density) * voxel volume is the
// particles' sum rho'V exactly (up to float rounding), and the active voxels are where fluid is.
// Sequential over vortons in index order: the file is the same for any thread count.
void depositVortons(const Vortons& v, const Lattice& lattice, openvdb::FloatGrid& mass,
                    openvdb::Vec3SGrid& circulation) {
    auto massAccess = mass.getAccessor();
    auto circulationAccess = circulation.getAccessor();
    for (size_t i = 0; i < v.size(); ++i) {
        const float volume = v.volume(i);
        const float m = v.density[i] * volume;
        const openvdb::Vec3s c(v.vorticity[i].x * volume, v.vorticity[i].y * volume, v.vorticity[i].z * volume);
        forEachCicVoxel(lattice, v.position[i], [&](const openvdb::Coord& voxel, float w) {
            massAccess.modifyValue(voxel, [&](float& value) { value += w * m; });
            circulationAccess.modifyValue(voxel, [&](openvdb::Vec3s& value) { value += w * c; });
        });
    }
}

// The velocity the tracers follow: the simulation's velocity grid, or the solver itself before
// the first step has filled that grid.
void sampleVelocity(const Simulation& sim, const Lattice& lattice, openvdb::Vec3SGrid& velocity) {
    std::vector<openvdb::Vec3SGrid::ValueOnIter> voxels;
    std::vector<vec3> points;
    for (auto it = velocity.beginValueOn(); it; ++it) {
        voxels.push_back(it);
        points.push_back(lattice.centre(it.getCoord()));
    }
    std::vector<vec3> values(points.size());
    if (sim.velocityGrid().size() > 0) {
        for (size_t k = 0; k < points.size(); ++k) values[k] = sim.velocityGrid().interpolate(points[k]);
    } else {
        sim.velocityAtPoints(points, values);
    }
    for (size_t k = 0; k < voxels.size(); ++k)
        voxels[k].setValue(openvdb::Vec3s(values[k].x, values[k].y, values[k].z));
}

FluidGrids buildFluidGrids(const Simulation& sim, const Lattice& lattice,
                           const openvdb::math::Transform::Ptr& transform) {
    FluidGrids grids;
    grids.density = openvdb::FloatGrid::create(0.0f);
    auto circulation = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    depositVortons(sim.vortons(), lattice, *grids.density, *circulation);

    const float inverseVolume = 1.0f / lattice.voxelVolume();
    for (auto it = grids.density->beginValueOn(); it; ++it) it.setValue(*it * inverseVolume);

    grids.vorticity = openvdb::FloatGrid::create(0.0f);
    auto vorticityAccess = grids.vorticity->getAccessor();
    for (auto it = circulation->cbeginValueOn(); it; ++it)
        vorticityAccess.setValue(it.getCoord(), (*it).length() * inverseVolume);

    grids.velocity = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    grids.velocity->tree().topologyUnion(grids.density->tree());
    sampleVelocity(sim, lattice, *grids.velocity);

    grids.density->setName("density");
    grids.density->setGridClass(openvdb::GRID_FOG_VOLUME);
    grids.density->insertMeta("unit", openvdb::StringMetadata("kg/m^3 (density deviation from ambient)"));
    grids.velocity->setName("velocity");
    grids.velocity->setVectorType(openvdb::VEC_CONTRAVARIANT_RELATIVE);
    grids.velocity->insertMeta("unit", openvdb::StringMetadata("m/s"));
    grids.vorticity->setName("vorticity");
    grids.vorticity->setGridClass(openvdb::GRID_FOG_VOLUME);
    grids.vorticity->insertMeta("unit", openvdb::StringMetadata("1/s (vorticity magnitude)"));
    for (openvdb::GridBase* g :
         {static_cast<openvdb::GridBase*>(grids.density.get()), static_cast<openvdb::GridBase*>(grids.velocity.get()),
          static_cast<openvdb::GridBase*>(grids.vorticity.get())}) {
        g->setTransform(transform);
        g->setSaveFloatAsHalf(false);
    }
    return grids;
}

// Tracers as a volume: how many tracers each voxel holds, cloud-in-cell weighted, so the dye
// a tracer cloud marks renders as smoke. Kept in the frame file next to the fluid's grids
// (readers that know no point grids, such as Debian's pyopenvdb, read the whole file).
openvdb::FloatGrid::Ptr buildTracerVolume(const Tracers& tracers, const Lattice& lattice,
                                          const openvdb::math::Transform::Ptr& transform) {
    auto grid = openvdb::FloatGrid::create(0.0f);
    auto access = grid->getAccessor();
    for (const vec3& p : tracers.position)
        forEachCicVoxel(lattice, p, [&](const openvdb::Coord& voxel, float w) {
            access.modifyValue(voxel, [w](float& value) { value += w; });
        });
    grid->setName("tracers");
    grid->setGridClass(openvdb::GRID_FOG_VOLUME);
    grid->insertMeta("unit", openvdb::StringMetadata("tracers per voxel"));
    grid->setTransform(transform);
    grid->setSaveFloatAsHalf(false);
    return grid;
}

// Tracers as OpenVDB points, partitioned by the same voxels, with their density deviation.
openvdb::points::PointDataGrid::Ptr buildTracerPoints(const Tracers& tracers,
                                                      const openvdb::math::Transform::Ptr& transform) {
    std::vector<openvdb::Vec3f> positions(tracers.size());
    std::vector<float> density(tracers.size());
    for (size_t i = 0; i < tracers.size(); ++i) {
        const vec3& p = tracers.position[i];
        positions[i] = openvdb::Vec3f(p.x, p.y, p.z);
        density[i] = i < tracers.density.size() ? tracers.density[i] : 0.0f;
    }
    const openvdb::points::PointAttributeVector<openvdb::Vec3f> positionList(positions);
    auto index = openvdb::tools::createPointIndexGrid<openvdb::tools::PointIndexGrid>(positionList, *transform);
    auto points = openvdb::points::createPointDataGrid<openvdb::points::NullCodec, openvdb::points::PointDataGrid>(
        *index, positionList, *transform);
    openvdb::points::appendAttribute<float>(points->tree(), "density");
    const openvdb::points::PointAttributeVector<float> densityList(density);
    openvdb::points::populateAttribute(points->tree(), index->tree(), "density", densityList);
    points->setName("tracers");
    points->insertMeta("unit", openvdb::StringMetadata("m (positions); kg/m^3 (density deviation)"));
    return points;
}

void describeFrame(openvdb::MetaMap& meta, const std::string& scene, const Simulation& sim) {
    meta.insertMeta("vortonfx_scene", openvdb::StringMetadata(scene));
    meta.insertMeta("vortonfx_step", openvdb::Int64Metadata(sim.stepCount()));
    meta.insertMeta("vortonfx_time", openvdb::DoubleMetadata(sim.time()));
}

// --- writing ----------------------------------------------------------------------------------------

// io::File writes through a stream it never checks after the last byte, so a full disk would
// pass unnoticed. The archive's own writer on a stream we own lets the caller check it.
class CheckedArchive : public openvdb::io::Archive {
public:
    void writeTo(std::ostream& out, const openvdb::GridCPtrVec& grids, const openvdb::MetaMap& meta) const {
        Archive::write(out, grids, /*seekable=*/true, meta);
    }
};

void writeGridsAtomically(const fs::path& target, const openvdb::GridCPtrVec& grids, const openvdb::MetaMap& meta) {
    const fs::path partial = target.parent_path() / ("." + target.filename().string() + ".partial");
    auto fail = [&](const std::string& why) {
        std::error_code ignored;
        fs::remove(partial, ignored);
        throw BakeError("writing \"" + target.string() + "\" failed: " + why);
    };
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        if (!out) fail(std::strerror(errno));
        try {
            CheckedArchive().writeTo(out, grids, meta);
        } catch (const std::exception& e) {
            fail(e.what());
        }
        out.flush();
        if (!out) fail(std::string(std::strerror(errno)) + " (is the disk full?)");
        out.close();
        if (!out) fail(std::string(std::strerror(errno)) + " (is the disk full?)");
    }
    std::error_code ec;
    fs::rename(partial, target, ec);
    if (ec) fail(ec.message());
}

bool usableName(const std::string& name) {
    return !name.empty() && name.find('/') == std::string::npos && name != "." && name != "..";
}

// "<name>_<digits>.vdb": a frame of a bake called `name`.
bool isFrameOf(const std::string& file, const std::string& name) {
    const std::string prefix = name + "_", suffix = ".vdb";
    if (file.size() <= prefix.size() + suffix.size() || file.compare(0, prefix.size(), prefix) != 0 ||
        file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
        return false;
    for (size_t i = prefix.size(); i < file.size() - suffix.size(); ++i)
        if (file[i] < '0' || file[i] > '9') return false;
    return true;
}

std::string staleFramesMessage(const VdbBakeSettings& s, const std::vector<std::string>& frames) {
    return "--vdb: \"" + s.directory + "\" already holds " + std::to_string(frames.size()) +
           " frame file(s) of an earlier bake (" + fs::path(frames.front()).filename().string() +
           (frames.size() > 1 ? " ... " + fs::path(frames.back()).filename().string() : std::string()) +
           ") that would mix with this bake's; the bake was refused: remove them or choose another directory";
}

}  // namespace

std::vector<std::string> existingFrames(const std::string& directory, const std::string& name) {
    std::vector<std::string> frames;
    for (const fs::path& dir : {fs::path(directory), fs::path(directory) / kPointsSubdirectory}) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (isFrameOf(it->path().filename().string(), name)) frames.push_back(it->path().string());
    }
    std::sort(frames.begin(), frames.end());
    return frames;
}

// --- settings check --------------------------------------------------------------------------------

void checkVdbBake(const VdbBakeSettings& s) {
    if (s.every < 1)
        throw BakeError("--vdb-every: expected a whole number of steps >= 1, got " + std::to_string(s.every));
    if (!std::isfinite(s.voxelSize) || s.voxelSize < 0.0f)
        throw BakeError("--vdb-voxel: expected a voxel size in metres > 0, got " + std::to_string(s.voxelSize));
    if (!usableName(s.name)) throw BakeError("--vdb: \"" + s.name + "\" cannot name the frame files");
    if (s.directory.empty()) throw BakeError("--vdb: expected a directory for the frames, got an empty path");
    const fs::path dir(s.directory);
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw BakeError("--vdb: \"" + s.directory + "\" exists and is not a directory");
    fs::create_directories(dir / kPointsSubdirectory, ec);
    if (ec)
        throw BakeError("--vdb: cannot create the directory \"" + (dir / kPointsSubdirectory).string() +
                        "\": " + ec.message());
    // Permission bits do not tell the whole story (read-only mounts, quotas, root): try it.
    const fs::path probe = dir / (".vortonfx-write-test-" + std::to_string(::getpid()));
    {
        std::ofstream out(probe, std::ios::binary);
        out << "vortonfx";
        out.close();
        if (!out) {
            const std::string why = std::strerror(errno);
            fs::remove(probe, ec);
            throw BakeError("--vdb: cannot write in \"" + s.directory + "\": " + why);
        }
    }
    fs::remove(probe, ec);
    if (s.staleFrames == StaleFrames::Refuse) {
        const std::vector<std::string> frames = existingFrames(s.directory, s.name);
        if (!frames.empty()) throw BakeError(staleFramesMessage(s, frames));
    }
}

// --- the baker ----------------------------------------------------------------------------------------

VdbBaker::VdbBaker(VdbBakeSettings settings) : settings_(std::move(settings)) {
    checkVdbBake(settings_);
    if (settings_.staleFrames == StaleFrames::Clear)
        for (const std::string& frame : existingFrames(settings_.directory, settings_.name)) {
            std::error_code ec;
            if (!fs::remove(frame, ec) || ec)
                throw BakeError("--vdb: cannot delete \"" + frame + "\" of an earlier bake: " + ec.message());
            ++framesCleared_;
        }
    initializeOpenVdb();
}

namespace {
std::string frameFileName(const std::string& name, int frame) {
    char number[16];
    std::snprintf(number, sizeof number, "%04d", frame);
    return name + "_" + number + ".vdb";
}
}  // namespace

std::string VdbBaker::framePath(int frame) const {
    return (fs::path(settings_.directory) / frameFileName(settings_.name, frame)).string();
}

std::string VdbBaker::pointsPath(int frame) const {
    return (fs::path(settings_.directory) / kPointsSubdirectory / frameFileName(settings_.name, frame)).string();
}

std::string VdbBaker::writeFrame(const Simulation& sim) {
    const Lattice lattice = latticeFor(sim, settings_.voxelSize);
    const openvdb::math::Transform::Ptr transform = transformFor(lattice);
    const FluidGrids fluid = buildFluidGrids(sim, lattice, transform);
    const openvdb::GridPtrVec volumes{fluid.density, fluid.velocity, fluid.vorticity,
                                      buildTracerVolume(sim.tracers(), lattice, transform)};
    const openvdb::GridPtrVec points{buildTracerPoints(sim.tracers(), transform)};
    openvdb::MetaMap fileMeta;
    fileMeta.insertMeta("creator", openvdb::StringMetadata("vortonfx " VORTONFX_VERSION));
    for (const openvdb::GridBase::Ptr& g : volumes) describeFrame(*g, settings_.name, sim);
    for (const openvdb::GridBase::Ptr& g : points) describeFrame(*g, settings_.name, sim);
    describeFrame(fileMeta, settings_.name, sim);

    // Points first: a frame file that exists always has its points beside it.
    const int frame = framesWritten_ + 1;
    writeGridsAtomically(pointsPath(frame), openvdb::GridCPtrVec(points.begin(), points.end()), fileMeta);
    try {
        writeGridsAtomically(framePath(frame), openvdb::GridCPtrVec(volumes.begin(), volumes.end()), fileMeta);
    } catch (const BakeError&) {
        std::error_code ignored;
        fs::remove(pointsPath(frame), ignored);  // no points file without its frame
        throw;
    }
    framesWritten_ = frame;
    return framePath(frame);
}

}  // namespace vfx
