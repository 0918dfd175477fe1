#pragma once
// ImGui widgets generated from the parameter declaration (scene/schema.hpp): one widget per
// ParamSpec, chosen by its type, limited to its range, with its description as tooltip.
#include "scene/schema.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace vfx {

// Draws the widget for one parameter. Returns true if the user changed value.
bool paramWidget(const ParamSpec& spec, nlohmann::json& value);
// Tooltip text: description, range, default and whether it applies live.
std::string paramTooltip(const ParamSpec& spec);
// Shows `text` as a tooltip while the last drawn widget is hovered.
void hoverTooltip(const char* text);
// "Viscosity" from "viscosity", "Density gradient" from "density_gradient".
std::string paramLabel(const std::string& key);

}  // namespace vfx
