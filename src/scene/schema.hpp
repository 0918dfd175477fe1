#pragma once
// The single declaration of every scene parameter: JSON key, type, description, default,
// valid range and whether changing it needs a reset. The loader, --set, the demo's panels and
// the README's parameter reference (vortonfx-sim --params-markdown) all read this table.
#include "sim/params.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vfx {

enum class ParamType { Float, Int, Bool, Vec3, Enum, String, Array, Object };

struct ParamSpec {
    std::string section;        // "fluid", "time", "vortons[]", "tracers[]", "bodies[]", "view.camera", ...
    std::string key;            // JSON key inside the section, e.g. "viscosity"
    ParamType type = ParamType::Float;
    std::string description;    // one sentence, used as tooltip and in the README
    nlohmann::json defaultValue;
    double minValue = -1e30;    // inclusive unless minExclusive
    double maxValue = 1e30;
    bool minExclusive = false;
    std::vector<std::string> choices;  // Enum
    bool needsReset = false;    // true: changing it live needs rebuilding the scene
    std::string childSection;   // Object / Array of objects: section of the nested keys
    int tupleSize = 0;          // Array of number tuples (planes: 4, vertices: 3); 0 otherwise
    std::vector<std::string> onlyForShapes;  // region/body keys used by these shapes only (empty: all)
};

const std::vector<ParamSpec>& allParamSpecs();
std::vector<const ParamSpec*> paramSpecsInSection(const std::string& section);
// nullptr if the section has no such key.
const ParamSpec* findParamSpec(const std::string& section, const std::string& key);

// Checks a JSON value against a spec (type, finiteness, range, choices); "" when valid, else
// the message without location, e.g. "must be > 0, got -1".
std::string checkParamValue(const ParamSpec& spec, const nlohmann::json& value);
// A JSON value shown in messages: numbers as written (nan/inf spelled out), long values cut.
std::string describeJsonValue(const nlohmann::json& value);
// A float as the JSON number with the shortest decimal that reads back as the same float.
nlohmann::json jsonFromFloat(float value);

// Live access to FluidParams / TimeParams fields by key (section "fluid" / "time").
nlohmann::json getFluidParam(const FluidParams& fluid, const std::string& key);
// Validates against the spec; returns "" on success or a message saying what is wrong.
std::string setFluidParam(FluidParams& fluid, const std::string& key, const nlohmann::json& value);
nlohmann::json getTimeParam(const TimeParams& time, const std::string& key);
std::string setTimeParam(TimeParams& time, const std::string& key, const nlohmann::json& value);

// Markdown table of every parameter (for the README).
std::string parameterReferenceMarkdown();

}  // namespace vfx
