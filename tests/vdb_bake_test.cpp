// The OpenVDB bake read back with OpenVDB's own reader: grid names and types, one world-space
// transform at the simulation's voxel size, mass deviation carried exactly, tracers as points
// with their density, metadata; bad settings refused before anything is written; a failed write
// leaves no frame behind and earlier frames untouched.
#include "export/vdb_bake.hpp"
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>
#include <openvdb/points/PointCount.h>
#include <openvdb/points/PointDataGrid.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace vfx {
namespace {

namespace fs = std::filesystem;

class VdbBake : public ::testing::Test {
protected:
    void SetUp() override {
        openvdb::initialize();
        dir_ = fs::path(::testing::TempDir()) / ("vfx_vdb_test_" + std::to_string(::getpid()) + "_" +
                                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        // The dye drop with fewer particles: a heavy ball, tracers inside it, a real grid.
        buildSimulation(loadScene("scenes/dye_drop.json", {"vortons.0.count=1024", "tracers.0.count=4096"}), sim_);
        sim_.setThreads(2);
    }
    void TearDown() override { fs::remove_all(dir_); }

    VdbBakeSettings settings(float voxelSize = 0.0f) const {
        VdbBakeSettings s;
        s.directory = (dir_ / "bake").string();
        s.name = "drop";
        s.voxelSize = voxelSize;
        return s;
    }

    static openvdb::GridPtrVecPtr readAll(const std::string& path, openvdb::MetaMap::Ptr* fileMeta = nullptr) {
        openvdb::io::File file(path);
        file.open();
        openvdb::GridPtrVecPtr grids = file.getGrids();
        if (fileMeta) *fileMeta = file.getMetadata();
        file.close();
        return grids;
    }

    static openvdb::GridBase::Ptr named(const openvdb::GridPtrVec& grids, const std::string& name) {
        for (const auto& g : grids)
            if (g->getName() == name) return g;
        return nullptr;
    }

    static double sumOfValues(const openvdb::FloatGrid& g) {
        double sum = 0.0;
        for (auto it = g.cbeginValueOn(); it; ++it) sum += double(*it) * double(it.getVoxelCount());
        return sum;
    }

    fs::path dir_;
    Simulation sim_;
};

TEST_F(VdbBake, FrameReadsBackWithTheSimulationsGridAndMass) {
    VdbBaker baker(settings());
    for (int i = 0; i < 3; ++i) sim_.step(0.01f);
    const std::string path = baker.writeFrame(sim_);
    EXPECT_EQ(fs::path(path).filename(), "drop_0001.vdb");

    openvdb::MetaMap::Ptr fileMeta;
    const openvdb::GridPtrVecPtr grids = readAll(path, &fileMeta);
    ASSERT_EQ(grids->size(), 4u);
    auto density = openvdb::gridPtrCast<openvdb::FloatGrid>(named(*grids, "density"));
    auto velocity = openvdb::gridPtrCast<openvdb::Vec3SGrid>(named(*grids, "velocity"));
    auto vorticity = openvdb::gridPtrCast<openvdb::FloatGrid>(named(*grids, "vorticity"));
    auto tracerVolume = openvdb::gridPtrCast<openvdb::FloatGrid>(named(*grids, "tracers"));
    ASSERT_TRUE(density && velocity && vorticity && tracerVolume) << "grid missing or of the wrong type";
    EXPECT_EQ(velocity->getVectorType(), openvdb::VEC_CONTRAVARIANT_RELATIVE);

    // One transform: voxel size and origin of the simulation's own grid.
    const GridShape& shape = sim_.gridShape();
    for (const auto& g : *grids) {
        const openvdb::Vec3d voxel = g->voxelSize();
        EXPECT_FLOAT_EQ(float(voxel.x()), shape.spacing.x) << g->getName();
        EXPECT_FLOAT_EQ(float(voxel.z()), shape.spacing.z) << g->getName();
        const openvdb::Vec3d origin = g->indexToWorld(openvdb::Vec3d(0.0));
        EXPECT_NEAR(origin.x(), shape.minCorner.x, 1e-6) << g->getName();
        EXPECT_NEAR(origin.y(), shape.minCorner.y, 1e-6) << g->getName();
    }

    // Cloud-in-cell weights sum to one per particle: the volume carries sum rho'V up to float
    // rounding of a few dozen additions per voxel.
    const double voxelVolume = double(shape.spacing.x) * shape.spacing.y * shape.spacing.z;
    const double massParticles = sim_.diagnostics().massParticles;
    ASSERT_GT(massParticles, 0.0);
    EXPECT_NEAR(sumOfValues(*density) * voxelVolume, massParticles, 1e-5 * massParticles);
    EXPECT_NEAR(sumOfValues(*tracerVolume), double(sim_.tracers().size()), 1e-5 * double(sim_.tracers().size()));

    // Sparse: background zero, fluid voxels active, the three fluid grids on one topology.
    EXPECT_EQ(density->background(), 0.0f);
    EXPECT_GT(density->activeVoxelCount(), 0u);
    EXPECT_LT(density->activeVoxelCount(), shape.pointCount());
    EXPECT_EQ(velocity->activeVoxelCount(), density->activeVoxelCount());
    EXPECT_EQ(vorticity->activeVoxelCount(), density->activeVoxelCount());

    // On the simulation's own lattice the velocity voxels are its velocity grid's points.
    auto velocityAccess = velocity->getConstAccessor();
    size_t compared = 0;
    for (auto it = density->cbeginValueOn(); it && compared < 200; ++it, ++compared) {
        const openvdb::Coord c = it.getCoord();
        const vec3 expected = sim_.velocityGrid().at(c.x(), c.y(), c.z());
        const openvdb::Vec3s got = velocityAccess.getValue(c);
        EXPECT_NEAR(got.x(), expected.x, 1e-5f * (1.0f + glm::length(expected)));
        EXPECT_NEAR(got.y(), expected.y, 1e-5f * (1.0f + glm::length(expected)));
    }
    EXPECT_GT(compared, 0u);

    // Buoyancy has made vorticity within three steps: the vorticity volume is not empty.
    float maxVorticity = 0.0f;
    for (auto it = vorticity->cbeginValueOn(); it; ++it) maxVorticity = std::max(maxVorticity, *it);
    EXPECT_GT(maxVorticity, 0.0f);

    for (const auto& g : *grids) {
        EXPECT_EQ(g->metaValue<std::string>("vortonfx_scene"), "drop");
        EXPECT_EQ(g->metaValue<openvdb::Int64>("vortonfx_step"), sim_.stepCount());
        EXPECT_DOUBLE_EQ(g->metaValue<double>("vortonfx_time"), sim_.time());
    }
    EXPECT_EQ(fileMeta->metaValue<openvdb::Int64>("vortonfx_step"), 3);
}

TEST_F(VdbBake, TracersArePointsWithTheirDensity) {
    VdbBaker baker(settings());
    for (int i = 0; i < 2; ++i) sim_.step(0.01f);
    baker.writeFrame(sim_);
    const openvdb::GridPtrVecPtr grids = readAll(baker.pointsPath(1));
    ASSERT_EQ(grids->size(), 1u);
    auto points = openvdb::gridPtrCast<openvdb::points::PointDataGrid>(named(*grids, "tracers"));
    ASSERT_TRUE(points) << "no PointDataGrid named tracers";
    EXPECT_EQ(openvdb::points::pointCount(points->tree()), sim_.tracers().size());

    // Every point's world position and density, matched against the tracers as a multiset sum.
    double densitySum = 0.0, heightSum = 0.0;
    size_t seen = 0;
    for (auto leaf = points->tree().cbeginLeaf(); leaf; ++leaf) {
        openvdb::points::AttributeHandle<openvdb::Vec3f> position(leaf->constAttributeArray("P"));
        openvdb::points::AttributeHandle<float> density(leaf->constAttributeArray("density"));
        for (auto index = leaf->beginIndexOn(); index; ++index) {
            const openvdb::Vec3d voxel = index.getCoord().asVec3d() + position.get(*index);
            heightSum += points->indexToWorld(voxel).y();
            densitySum += density.get(*index);
            ++seen;
        }
    }
    EXPECT_EQ(seen, sim_.tracers().size());
    double expectedDensity = 0.0, expectedHeight = 0.0;
    for (size_t i = 0; i < sim_.tracers().size(); ++i) {
        expectedDensity += sim_.tracers().density[i];
        expectedHeight += sim_.tracers().position[i].y;
    }
    EXPECT_NEAR(densitySum, expectedDensity, 1e-6 * std::abs(expectedDensity) + 1e-9);
    // Positions are stored as offsets within voxels: float rounding at the voxel's scale.
    EXPECT_NEAR(heightSum / double(seen), expectedHeight / double(seen), 1e-5);
}

TEST_F(VdbBake, VoxelSizeOverrideKeepsTheMass) {
    VdbBaker baker(settings(0.05f));
    sim_.step(0.01f);
    const openvdb::GridPtrVecPtr grids = readAll(baker.writeFrame(sim_));
    auto density = openvdb::gridPtrCast<openvdb::FloatGrid>(named(*grids, "density"));
    ASSERT_TRUE(density);
    EXPECT_NEAR(density->voxelSize().x(), 0.05, 1e-7);
    const double massParticles = sim_.diagnostics().massParticles;
    EXPECT_NEAR(sumOfValues(*density) * 0.05 * 0.05 * 0.05, massParticles, 1e-5 * massParticles);
}

TEST_F(VdbBake, FramesAreNumberedFromOneEveryKSteps) {
    VdbBakeSettings s = settings();
    s.every = 2;
    VdbBaker baker(s);
    for (long step = 1; step <= 5; ++step) {
        sim_.step(0.01f);
        if (baker.due(sim_.stepCount())) baker.writeFrame(sim_);
    }
    EXPECT_EQ(baker.framesWritten(), 2);
    EXPECT_TRUE(fs::exists(dir_ / "bake" / "drop_0001.vdb"));
    EXPECT_TRUE(fs::exists(dir_ / "bake" / "drop_0002.vdb"));
    EXPECT_FALSE(fs::exists(dir_ / "bake" / "drop_0003.vdb"));
    EXPECT_EQ(readAll(baker.framePath(2))->front()->metaValue<openvdb::Int64>("vortonfx_step"), 4);
}

TEST_F(VdbBake, BadSettingsAreRefusedBeforeAnythingIsWritten) {
    auto expectRefused = [&](const VdbBakeSettings& s, const std::string& fragment) {
        try {
            VdbBaker baker(s);
            ADD_FAILURE() << "accepted; expected a message containing " << fragment;
        } catch (const BakeError& e) {
            EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
        }
    };
    VdbBakeSettings s = settings();
    s.every = 0;
    expectRefused(s, "--vdb-every");
    s = settings(-0.1f);
    expectRefused(s, "--vdb-voxel");
    EXPECT_FALSE(fs::exists(dir_ / "bake")) << "a refused bake created its directory";

    // A directory that cannot exist: its parent is a regular file (refused even for root).
    fs::create_directories(dir_);
    std::ofstream(dir_ / "plain_file") << "x";
    s = settings();
    s.directory = (dir_ / "plain_file" / "bake").string();
    expectRefused(s, "plain_file");
    s.directory = (dir_ / "plain_file").string();
    expectRefused(s, "not a directory");
}

TEST_F(VdbBake, FailedWriteLeavesNoFrameAndKeepsEarlierOnes) {
    VdbBaker baker(settings());
    sim_.step(0.01f);
    const std::string first = baker.writeFrame(sim_);
    std::ifstream firstIn(first, std::ios::binary);
    const std::string firstBytes((std::istreambuf_iterator<char>(firstIn)), std::istreambuf_iterator<char>());

    // A full disk, for real: the next frame's temporary file is a link to /dev/full, where every
    // write fails with ENOSPC.
    const fs::path partial = fs::path(baker.pointsPath(2)).parent_path() / ".drop_0002.vdb.partial";
    fs::create_symlink("/dev/full", partial);
    sim_.step(0.01f);
    try {
        baker.writeFrame(sim_);
        ADD_FAILURE() << "writing to a full disk succeeded";
    } catch (const BakeError& e) {
        EXPECT_NE(std::string(e.what()).find("drop_0002.vdb"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(baker.framePath(2)));
    EXPECT_FALSE(fs::exists(baker.pointsPath(2)));
    EXPECT_FALSE(fs::exists(fs::symlink_status(partial))) << "temporary file left behind";
    EXPECT_EQ(baker.framesWritten(), 1);
    std::ifstream again(first, std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), firstBytes);
}

}  // namespace
}  // namespace vfx
