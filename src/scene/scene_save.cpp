// Saving: the scene document with the simulation's current fluid and time parameters written
// back (the demo's "Save as").
#include "scene/scene.hpp"
#include "scene/schema.hpp"

namespace vfx {

nlohmann::json sceneDocumentWithParams(const Scene& scene, const FluidParams& fluid, const TimeParams& time) {
    nlohmann::json document = scene.document.is_object() ? scene.document : nlohmann::json::object();
    nlohmann::json& fluidSection = document["fluid"];
    for (const ParamSpec* spec : paramSpecsInSection("fluid"))
        fluidSection[spec->key] = getFluidParam(fluid, spec->key);
    nlohmann::json& timeSection = document["time"];
    for (const ParamSpec* spec : paramSpecsInSection("time")) timeSection[spec->key] = getTimeParam(time, spec->key);
    return document;
}

}  // namespace vfx
