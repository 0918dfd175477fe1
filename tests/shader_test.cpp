// The demo's shader sources (shaders/, loaded by render/shader.hpp): every program is GLSL 330
// core and every file it includes exists.
#include <gtest/gtest.h>

#ifdef VFX_HAVE_DEMO_CORE

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace vfx {
namespace {

TEST(Shaders, EveryProgramIsGlsl330CoreWithItsIncludes) {
    namespace fs = std::filesystem;
    fs::path dir = fs::path(VFX_SOURCE_DIR) / "shaders";
    std::set<std::string> programs;
    for (const auto& entry : fs::directory_iterator(dir)) {
        std::string ext = entry.path().extension().string();
        if (ext != ".vert" && ext != ".frag") continue;
        programs.insert(entry.path().stem().string());
        std::ifstream in(entry.path());
        std::string first;
        std::getline(in, first);
        EXPECT_EQ(first, "#version 330 core") << entry.path();
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("#include", 0) != 0) continue;
            std::string file = line.substr(line.find('"') + 1);
            file = file.substr(0, file.find('"'));
            EXPECT_TRUE(fs::exists(dir / file)) << entry.path() << " includes missing " << file;
        }
    }
    for (const char* name : {"background", "vorton", "tracer", "line", "body"}) {
        EXPECT_TRUE(fs::exists(dir / (std::string(name) + ".vert"))) << name;
        EXPECT_TRUE(fs::exists(dir / (std::string(name) + ".frag"))) << name;
    }
}

}  // namespace
}  // namespace vfx

#endif
