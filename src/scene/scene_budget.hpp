#pragma once
// The memory a scene needs, estimated from its description before anything is allocated, and
// checked against a MemoryBudget (scene/scene.hpp): a scene that would exhaust the machine is
// refused with one message instead of failing half way through building or running.
#include "scene/scene.hpp"
#include "scene/scene_document.hpp"

#include <string>

namespace vfx {

// What the scene needs at its start: the particles (vortons up to the remeshing budget), the
// velocity grid over all of them, and the program itself. Per-item costs are measured ones
// (docs/method.md), rounded up.
struct MemoryEstimate {
    double bytes = 0.0;
    double vortons = 0.0, peakVortons = 0.0, tracers = 0.0;
    double gridPoints = 0.0;
    vec3 lo{0.0f}, hi{0.0f};  // the regions' bounds the grid covers
};
MemoryEstimate estimateSceneMemory(const Scene& scene);

// "2.6 GB", "310 MB", "1.84 TB".
std::string formatBytes(double bytes);

// Throws SceneError "FILE: POINTER: this scene needs about X (...); the limit is Y, SOURCE",
// blaming the largest region's count or, when the grid dominates, the scene as a whole.
void checkSceneMemory(const Scene& scene, const MemoryBudget& budget, const SceneReporter& r);

}  // namespace vfx
