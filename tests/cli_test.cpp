// vortonfx-sim as a user runs it: bad flags and bad scenes exit 2 with a message naming the flag
// or the JSON path and write nothing; a good run writes the dump and stats it promises.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <vortonfx/version.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct RunResult {
    int exitCode = -1;
    std::string output;  // stdout and stderr
};

class SimCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::path(::testing::TempDir()) / ("vfx_cli_test_" + std::to_string(::getpid()) + "_" +
                                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        dump_ = (dir_ / "dump.json").string();
        stats_ = (dir_ / "stats.csv").string();
        scene_ = writeFile("tiny.json", R"({"name": "tiny", "description": "test",
            "fluid": {"gravity": [0, -9.8, 0]}, "time": {"dt": 0.01, "steps": 3},
            "vortons": [{"shape": "sphere", "radius": 0.3, "count": 64, "density": 0.5, "seed": 3}],
            "tracers": [{"shape": "sphere", "radius": 0.3, "count": 32}],
            "bodies": [{"name": "ball", "radius": 0.1, "position": [2, 0, 0], "density": 2}]})");
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string writeFile(const std::string& name, const std::string& text) {
        const std::string path = (dir_ / name).string();
        std::ofstream(path) << text;
        return path;
    }

    RunResult run(const std::string& args) {
        const std::string log = (dir_ / "log.txt").string();
        const std::string command = std::string("'") + VFX_SIM_EXE + "' " + args + " >'" + log + "' 2>&1";
        const int status = std::system(command.c_str());
        RunResult r;
        r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        std::ifstream in(log);
        std::ostringstream text;
        text << in.rdbuf();
        r.output = text.str();
        return r;
    }

    // Runs with --dump and --stats and expects exit 2, a message containing `fragment`, no files.
    void expectBadInput(const std::string& args, const std::string& fragment) {
        SCOPED_TRACE(args);
        const RunResult r = run(args + " --dump '" + dump_ + "' --stats '" + stats_ + "' --quiet");
        EXPECT_EQ(r.exitCode, 2) << r.output;
        EXPECT_NE(r.output.find(fragment), std::string::npos) << r.output;
        EXPECT_FALSE(fs::exists(dump_)) << "dump written on bad input";
        EXPECT_FALSE(fs::exists(stats_)) << "stats written on bad input";
    }

    fs::path dir_;
    std::string dump_, stats_, scene_;
};

TEST_F(SimCli, BadFlagValuesExit2AndWriteNothing) {
    expectBadInput(scene_ + " --steps -3", "--steps");
    expectBadInput(scene_ + " --steps 2.5", "--steps");
    expectBadInput(scene_ + " --steps many", "--steps");
    expectBadInput(scene_ + " --dt 0", "--dt");
    expectBadInput(scene_ + " --dt -0.01", "--dt");
    expectBadInput(scene_ + " --dt nan", "--dt");
    expectBadInput(scene_ + " --threads 0", "--threads");
    expectBadInput(scene_ + " --threads -2", "--threads");
    expectBadInput(scene_ + " --every 0", "--every");
    expectBadInput("--bench --energy-changes", "--bench: runs fixed scenes");
    const RunResult noStats = run(scene_ + " --energy-changes --dump '" + dump_ + "' --quiet");
    EXPECT_EQ(noStats.exitCode, 2) << noStats.output;
    EXPECT_NE(noStats.output.find("--energy-changes: needs --stats FILE.csv"), std::string::npos) << noStats.output;
    EXPECT_FALSE(fs::exists(dump_));
    expectBadInput(scene_ + " --no-such-flag", "--no-such-flag");
    expectBadInput(scene_ + " --set novalue", "--set novalue");
    expectBadInput(scene_ + " --set fluid.viscosity=nan", "/fluid/viscosity");
    expectBadInput(scene_ + " --set fluid.viscosityy=1", "--set fluid.viscosityy=1");
    expectBadInput("", "scene file is required");
}

TEST_F(SimCli, BadScenesExit2AndWriteNothing) {
    expectBadInput("/nonexistent/scene.json", "/nonexistent/scene.json");
    const std::string negative = writeFile("negative.json", R"({"vortons": [{"radius": -1, "count": 10}]})");
    expectBadInput(negative, negative + ": /vortons/0/radius: must be >= 0.0001");
    const std::string malformed = writeFile("malformed.json", "{\"fluid\": {\"viscosity\": }}");
    expectBadInput(malformed, "malformed JSON");
    const std::string unknown = writeFile("unknown.json", R"({"bodies": [{"shape": "teapot"}]})");
    expectBadInput(unknown, "/bodies/0/shape");
}

TEST_F(SimCli, UnwritableOutputIsBadInput) {
    const RunResult r = run(scene_ + " --quiet --dump '" + (dir_ / "missing" / "dump.json").string() + "'");
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find("--dump"), std::string::npos) << r.output;
}

TEST_F(SimCli, BadBakeSettingsExit2BeforeTheRun) {
    const std::string bake = (dir_ / "bake").string();
    expectBadInput(scene_ + " --vdb '" + bake + "' --vdb-every 0", "--vdb-every");
    expectBadInput(scene_ + " --vdb '" + bake + "' --vdb-every two", "--vdb-every");
    expectBadInput(scene_ + " --vdb '" + bake + "' --vdb-voxel -0.1", "--vdb-voxel");
    expectBadInput(scene_ + " --vdb-every 2", "needs --vdb");
    EXPECT_FALSE(fs::exists(bake)) << "bake directory created on bad input";
    const std::string plainFile = writeFile("plain.txt", "not a directory");
    expectBadInput(scene_ + " --vdb '" + plainFile + "/bake'", "plain.txt");
    expectBadInput(scene_ + " --vdb '" + plainFile + "'", "not a directory");
}

TEST_F(SimCli, BakeWritesOneFrameEveryKSteps) {
    const std::string bake = (dir_ / "bake").string();
    const RunResult r = run(scene_ + " --steps 5 --vdb '" + bake + "' --vdb-every 2 --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_TRUE(fs::exists(dir_ / "bake" / "tiny_0001.vdb"));
    EXPECT_TRUE(fs::exists(dir_ / "bake" / "tiny_0002.vdb"));
    EXPECT_TRUE(fs::exists(dir_ / "bake" / "tracers" / "tiny_0002.vdb"));
    EXPECT_FALSE(fs::exists(dir_ / "bake" / "tiny_0003.vdb"));
}

TEST_F(SimCli, RunWritesDumpAndStats) {
    const RunResult r =
        run(scene_ + " --steps 4 --every 2 --threads 1 --dump '" + dump_ + "' --stats '" + stats_ + "' --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream dumpFile(dump_);
    const nlohmann::json d = nlohmann::json::parse(dumpFile);
    EXPECT_EQ(d["step"], 4);
    EXPECT_EQ(d["vortonfx_version"], VORTONFX_VERSION);
    // The scene's 64 vortons and the still fluid the ball's shell was filled with.
    const size_t vortons = d["vortons"]["position"].size();
    EXPECT_GE(vortons, 64u);
    for (const char* key : {"position", "velocity", "vorticity", "density", "radius", "density_gradient"})
        EXPECT_EQ(d["vortons"][key].size(), vortons) << key;
    EXPECT_EQ(d["tracers"]["position"].size(), 32u);
    EXPECT_EQ(d["tracers"]["density"].size(), 32u);
    ASSERT_EQ(d["bodies"].size(), 1u);
    EXPECT_EQ(d["bodies"][0]["name"], "ball");
    EXPECT_EQ(d["bodies"][0]["orientation"].size(), 4u);

    std::ifstream statsFile(stats_);
    std::string header, line;
    std::getline(statsFile, header);
    size_t rows = 0;
    while (std::getline(statsFile, line)) ++rows;
    EXPECT_EQ(rows, 2u);
    for (
        const char* column :
        {"step,time,ms_step,vortons,tracers,kinetic_energy,circulation_x,circulation_y,circulation_z,"
         "impulse_x,impulse_y,impulse_z,angular_impulse_x",
         "mass_particles,mass_grid,max_speed,field_energy,substeps,remeshes,potential_flow_energy,enstrophy,"
         "energy_viscous_loss,energy_subgrid_loss,energy_buoyancy_work,wall_normal_speed,energy_change_remesh,energy_change_stretching,energy_change_relaxation,energy_change_baroclinic,energy_change_diffusion,energy_change_advection,energy_change_bodies,ms_",
         "body_ball_x,body_ball_y,body_ball_z,vortonfx_version"})
        EXPECT_NE(header.find(column), std::string::npos) << header;
}

TEST_F(SimCli, SceneStepsAreTheDefaultAndParamsMarkdownPrints) {
    const RunResult r = run(scene_ + " --dump '" + dump_ + "' --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream dumpFile(dump_);
    EXPECT_EQ(nlohmann::json::parse(dumpFile)["step"], 3);
    const RunResult md = run("--params-markdown");
    EXPECT_EQ(md.exitCode, 0);
    EXPECT_NE(md.output.find("`fluid.viscosity`"), std::string::npos);
}

TEST_F(SimCli, BenchTakesOnlyAThreadCount) {
    const RunResult withScene = run("--bench " + scene_);
    EXPECT_EQ(withScene.exitCode, 2) << withScene.output;
    EXPECT_NE(withScene.output.find("--bench: takes no scene file"), std::string::npos) << withScene.output;
    const RunResult withStats = run("--bench --stats '" + stats_ + "'");
    EXPECT_EQ(withStats.exitCode, 2) << withStats.output;
    EXPECT_NE(withStats.output.find("only --threads applies"), std::string::npos) << withStats.output;
    EXPECT_FALSE(fs::exists(stats_));
    const RunResult noThreads = run("--bench --threads 0");
    EXPECT_EQ(noThreads.exitCode, 2) << noThreads.output;
    // --threads has an upper bound (1024, as the demo's) so a huge value cannot wrap around.
    EXPECT_NE(noThreads.output.find("--threads: must be a whole number from 1 to 1024, got \"0\""), std::string::npos)
        << noThreads.output;
}

TEST_F(SimCli, NonFiniteStateExits3NamingStepAndPhase) {
    const std::string boom = writeFile("boom.json", R"({"fluid": {"gravity": [0, 0, 0]},
        "vortons": [{"shape": "ring", "radius": 0.5, "core_radius": 0.1, "circulation": 1000000, "count": 200}]})");
    const RunResult r = run(boom + " --steps 50 --dt 1000 --quiet --dump '" + dump_ + "'");
    EXPECT_EQ(r.exitCode, 3) << r.output;
    EXPECT_NE(r.output.find("at step "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("in phase "), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dump_));
}

}  // namespace
