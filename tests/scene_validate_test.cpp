// Scene validation (scene/scene_validate.hpp) of the fluid's SPH parameters: bad values are
// refused naming the file and the key, good ones read into the scene.
#include "scene/scene.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace vfx {
namespace {

std::string sceneError(const nlohmann::json& doc) {
    try {
        parseScene(doc, "scenes/test.json");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}

TEST(SphScene, LoaderRejectsBadSphParameters) {
    const struct {
        const char* key;
        nlohmann::json value;
    } bad[] = {
        {"sph_influence_radius", 0.0},    {"sph_influence_radius", -0.1}, {"sph_stiffness", 0.0},
        {"sph_stiffness", -2.0},          {"sph_rest_spacing", 0.0},      {"method", "lbm"},
        {"density_gradient", "spectral"}, {"sph_cohesion", -0.1},         {"sph_cohesion", 1.5},
        {"sph_cohesion", "strong"},
    };
    for (const auto& b : bad) {
        nlohmann::json doc = {{"fluid", {{b.key, b.value}}}};
        const std::string message = sceneError(doc);
        EXPECT_NE(message.find("scenes/test.json"), std::string::npos) << message;
        EXPECT_NE(message.find(std::string("/fluid/") + b.key), std::string::npos) << message;
    }
    nlohmann::json good = {
        {"fluid",
         {{"method", "hybrid"}, {"density_gradient", "sph"}, {"sph_influence_radius", 0.2}, {"sph_stiffness", 3.0}}}};
    EXPECT_EQ(sceneError(good), "");
    const Scene s = parseScene(good, "scenes/test.json");
    EXPECT_EQ(s.fluid.method, FluidMethod::Hybrid);
    EXPECT_EQ(s.fluid.densityGradient, GradientSource::Sph);
    EXPECT_FLOAT_EQ(s.fluid.sphInfluenceRadius, 0.2f);
}

}  // namespace
}  // namespace vfx
