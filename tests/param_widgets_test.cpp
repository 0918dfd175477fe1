// The parameter table the demo's panels generate their widgets from (ui/param_widgets.hpp reads
// scene/schema.hpp): every fluid parameter has a type a widget can edit, a tooltip, and takes back
// the value it reads.
#include <gtest/gtest.h>

#ifdef VFX_HAVE_DEMO_CORE

#include "scene/schema.hpp"

#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace vfx {
namespace {

TEST(FluidPanel, EveryFluidParameterHasAWidgetAndATooltip) {
    FluidParams fluid;
    auto specs = paramSpecsInSection("fluid");
    ASSERT_FALSE(specs.empty());
    std::set<std::string> keys;
    for (const ParamSpec* s : specs) keys.insert(s->key);
    for (const char* needed : {"ambient_density", "gravity", "viscosity", "method", "density_gradient", "poisoning",
                               "stretching", "diffusion", "baroclinic"})
        EXPECT_TRUE(keys.count(needed)) << "the Fluid panel needs fluid." << needed;
    for (const ParamSpec* s : specs) {
        EXPECT_FALSE(s->description.empty()) << s->key << " has no tooltip";
        nlohmann::json value = getFluidParam(fluid, s->key);
        switch (s->type) {
            case ParamType::Float:
                EXPECT_TRUE(value.is_number()) << s->key;
                break;
            case ParamType::Int:
                EXPECT_TRUE(value.is_number_integer()) << s->key;
                break;
            case ParamType::Bool:
                EXPECT_TRUE(value.is_boolean()) << s->key;
                break;
            case ParamType::Vec3:
                EXPECT_TRUE(value.is_array() && value.size() == 3) << s->key;
                break;
            case ParamType::Enum:
                EXPECT_FALSE(s->choices.empty()) << s->key;
                EXPECT_TRUE(value.is_string()) << s->key;
                break;
            default:
                ADD_FAILURE() << "fluid." << s->key << " has a type the panel cannot edit";
        }
        // Writing back what was read is accepted (the panel does this on every edit).
        EXPECT_EQ(setFluidParam(fluid, s->key, value), "") << s->key;
    }
}

}  // namespace
}  // namespace vfx

#endif
