// libFuzzer target for the scene loader: any bytes, read as a scene file, either load or are
// refused with a SceneError; nothing else may escape, crash, hang or exhaust memory. An input
// whose first line is "--set PATH=VALUE" has that override applied, so --set is fuzzed too.
// Built with clang's -fsanitize=fuzzer under ASan and UBSan (-DVFX_FUZZ=ON, .ci/run runs it).
#include "scene/scene.hpp"
#include "scene/scene_json.hpp"
#include "sim/simulation.hpp"
#include "sim/sphere_closure.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

// Small enough that an accepted scene builds in milliseconds, so the fuzzer keeps its pace.
constexpr double kBudgetBytes = 64.0 * 1048576.0;
constexpr int kMostParticlesBuilt = 4096;

int particleCount(const vfx::Scene& scene) {
    long total = 0;
    for (const auto* regions : {&scene.vortons, &scene.tracers})
        for (const vfx::RegionDesc& r : *regions) total += r.count;
    return int(std::min<long>(total, 1L << 30));
}

}  // namespace

// The closure fit every sphere shares is made once per process, as a loader makes it at start-up,
// so no input pays it: under the sanitizers it takes about 10 s, libFuzzer's limit for an input.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    vfx::prepareSphereClosures();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    std::string assignment;
    if (text.rfind("--set ", 0) == 0) {
        const size_t end = text.find('\n');
        assignment = text.substr(6, end == std::string::npos ? std::string::npos : end - 6);
        text = end == std::string::npos ? "{}" : text.substr(end + 1);
    }
    try {
        nlohmann::json document = vfx::parseSceneJson(text, "fuzz");
        if (!assignment.empty()) vfx::applyOverride(document, assignment);
        const vfx::Scene scene = vfx::parseScene(document, "fuzz", vfx::MemoryBudget{kBudgetBytes, "the fuzzer"});
        if (particleCount(scene) <= kMostParticlesBuilt) {
            vfx::Simulation sim;
            sim.setThreads(1);
            vfx::buildSimulation(scene, sim);
        }
    } catch (const vfx::SceneError&) {
        // Refused with a message: what bad input should get.
    }
    return 0;
}
