#pragma once
// Every scene parameter in one table: the fluid and time rows declared by the simulation
// (sim/params.cpp) and the document, region, body and camera rows declared here. The loader,
// --set, the demo's panels and the README's parameter reference (vortonfx-sim
// --params-markdown) all read it.
#include "core/param_spec.hpp"
#include "sim/params.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vfx {

const std::vector<ParamSpec>& allParamSpecs();
std::vector<const ParamSpec*> paramSpecsInSection(const std::string& section);
// nullptr if the section has no such key.
const ParamSpec* findParamSpec(const std::string& section, const std::string& key);

// Live access to FluidParams / TimeParams fields by key (section "fluid" / "time").
nlohmann::json getFluidParam(const FluidParams& fluid, const std::string& key);
// Validates against the declaration; returns "" on success or a message saying what is wrong.
std::string setFluidParam(FluidParams& fluid, const std::string& key, const nlohmann::json& value);
nlohmann::json getTimeParam(const TimeParams& time, const std::string& key);
std::string setTimeParam(TimeParams& time, const std::string& key, const nlohmann::json& value);

// Markdown table of every parameter (for the README).
std::string parameterReferenceMarkdown();

}  // namespace vfx
