#include "ui/param_widgets.hpp"

#include "core/text_format.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace vfx {

namespace {

constexpr double kUnbounded = 1e29;

bool hasMin(const ParamSpec& s) { return s.minValue > -kUnbounded; }
bool hasMax(const ParamSpec& s) { return s.maxValue < kUnbounded; }

// Drag speed proportional to the value's magnitude so small and large parameters both feel right.
float dragSpeed(const ParamSpec& s, float value) {
    float span = (hasMin(s) && hasMax(s)) ? float(s.maxValue - s.minValue) : 0.0f;
    float speed = std::max(std::abs(value) * 0.01f, 1e-4f);
    return span > 0.0f ? std::min(speed, span * 0.005f + 1e-6f) : speed;
}

// ImGui's DragFloat treats min == max as "no limit", so unbounded sides get huge finite limits.
void limits(const ParamSpec& s, float& lo, float& hi) {
    lo = hasMin(s) ? float(s.minValue) : -1e9f;
    hi = hasMax(s) ? float(s.maxValue) : 1e9f;
    if (s.minExclusive) lo = std::nextafter(lo, hi);
}

bool floatWidget(const ParamSpec& spec, const char* id, nlohmann::json& value) {
    float v = value.is_number() ? value.get<float>() : 0.0f;
    float lo, hi;
    limits(spec, lo, hi);
    ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp;
    if (hasMin(spec) && hasMax(spec) && lo > 0.0f && hi / lo > 1000.0f) flags |= ImGuiSliderFlags_Logarithmic;
    if (!ImGui::DragFloat(id, &v, dragSpeed(spec, v), lo, hi, "%.4g", flags)) return false;
    value = v;
    return true;
}

bool intWidget(const ParamSpec& spec, const char* id, nlohmann::json& value) {
    int v = value.is_number() ? value.get<int>() : 0;
    int lo = hasMin(spec) ? int(std::max(spec.minValue, -2e9)) : -2000000000;
    int hi = hasMax(spec) ? int(std::min(spec.maxValue, 2e9)) : 2000000000;
    if (spec.minExclusive) lo += 1;
    if (!ImGui::DragInt(id, &v, 1.0f, lo, hi, "%d", ImGuiSliderFlags_AlwaysClamp)) return false;
    value = v;
    return true;
}

bool vec3Widget(const ParamSpec& spec, const char* id, nlohmann::json& value) {
    float v[3] = {0, 0, 0};
    if (value.is_array() && value.size() == 3)
        for (int i = 0; i < 3; ++i) v[i] = value[i].get<float>();
    float lo, hi;
    limits(spec, lo, hi);
    float speed = std::max({dragSpeed(spec, v[0]), dragSpeed(spec, v[1]), dragSpeed(spec, v[2])});
    if (!ImGui::DragFloat3(id, v, speed, lo, hi, "%.3g")) return false;
    value = nlohmann::json::array({v[0], v[1], v[2]});
    return true;
}

bool enumWidget(const ParamSpec& spec, const char* id, nlohmann::json& value) {
    std::string current = value.is_string() ? value.get<std::string>() : "";
    bool changed = false;
    if (ImGui::BeginCombo(id, current.c_str())) {
        for (const std::string& choice : spec.choices) {
            bool selected = choice == current;
            if (ImGui::Selectable(choice.c_str(), selected) && !selected) {
                value = choice;
                changed = true;
            }
            if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    return changed;
}

bool boolWidget(const char* id, nlohmann::json& value) {
    bool v = value.is_boolean() && value.get<bool>();
    if (!ImGui::Checkbox(id, &v)) return false;
    value = v;
    return true;
}

}  // namespace

std::string paramLabel(const std::string& key) {
    std::string label = key;
    std::replace(label.begin(), label.end(), '_', ' ');
    if (!label.empty()) label[0] = char(std::toupper(static_cast<unsigned char>(label[0])));
    for (const char* acronym : {"Sph", "Vpm"})  // keep acronyms readable: "SPH influence radius"
        if (label.rfind(acronym, 0) == 0) std::transform(label.begin(), label.begin() + 3, label.begin(), ::toupper);
    return label;
}

void hoverTooltip(const char* text) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

std::string paramTooltip(const ParamSpec& spec) {
    std::string text = spec.description;
    if (spec.type == ParamType::Float || spec.type == ParamType::Int || spec.type == ParamType::Vec3) {
        if (hasMin(spec) || hasMax(spec)) {
            text += "\nRange: ";
            text += hasMin(spec) ? (spec.minExclusive ? "(" : "[") + formatNumber(spec.minValue) : "(-inf";
            text += ", ";
            text += hasMax(spec) ? formatNumber(spec.maxValue) + "]" : "inf)";
        }
    }
    if (spec.type == ParamType::Enum) {
        text += "\nChoices:";
        for (const std::string& c : spec.choices) text += " " + c;
    }
    if (!spec.unit.empty()) text += "\nUnit: " + spec.unit;
    if (!spec.defaultValue.is_null()) text += "\nDefault: " + spec.defaultValue.dump();
    text += "\nJSON: " + spec.section + "." + spec.key;
    text += spec.needsReset ? "\nApplies on Reset (R)." : "\nApplies live.";
    return text;
}

bool paramWidget(const ParamSpec& spec, nlohmann::json& value) {
    std::string id = paramLabel(spec.key) + "##" + spec.section + "." + spec.key;
    bool changed = false;
    switch (spec.type) {
        case ParamType::Float:
            changed = floatWidget(spec, id.c_str(), value);
            break;
        case ParamType::Int:
            changed = intWidget(spec, id.c_str(), value);
            break;
        case ParamType::Bool:
            changed = boolWidget(id.c_str(), value);
            break;
        case ParamType::Vec3:
            changed = vec3Widget(spec, id.c_str(), value);
            break;
        case ParamType::Enum:
            changed = enumWidget(spec, id.c_str(), value);
            break;
        default:
            ImGui::TextDisabled("%s: %s", paramLabel(spec.key).c_str(), value.dump().c_str());
            break;
    }
    hoverTooltip(paramTooltip(spec).c_str());
    return changed;
}

}  // namespace vfx
