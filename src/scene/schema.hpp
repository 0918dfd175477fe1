#pragma once
// Every scene parameter in one table: the fluid and time rows declared by the simulation
// (sim/params.cpp) and the document, region, body and camera rows declared here. The loader,
// --set, the demo's panels and the README's parameter reference (vortonfx-sim
// --params-markdown) all read it.
#include "bodies/polytope.hpp"
#include "core/param_spec.hpp"
#include "sim/params.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vfx {

// The world a scene lives in: every coordinate within +-kWorldExtent metres of the origin and
// every length (radius, half extent, core radius) from kShortestLength, the velocity grid's
// finest spacing, to kWorldExtent. Keeps volumes, spacings and grids finite in single precision.
inline constexpr double kWorldExtent = 1e4;
inline constexpr double kShortestLength = 1e-4;
// Most regions per array and most bodies; a polytope's planes and vertices are capped in
// bodies/polytope.hpp.
inline constexpr size_t kMaxRegions = 256;
inline constexpr size_t kMaxBodies = 256;

const std::vector<ParamSpec>& allParamSpecs();
std::vector<const ParamSpec*> paramSpecsInSection(const std::string& section);
// nullptr if the section has no such key.
const ParamSpec* findParamSpec(const std::string& section, const std::string& key);
// The row a path of keys and array indices leads to: {"fluid", "viscosity"}, {"vortons", "0",
// "center", "1"} (indices after a vec3 or tuple row pick a component: the row is returned).
// nullptr for an unknown key or a whole element of an array of objects.
const ParamSpec* findParamSpecAlong(const std::vector<std::string>& path);

// Live access to FluidParams / TimeParams fields by key (section "fluid" / "time").
nlohmann::json getFluidParam(const FluidParams& fluid, const std::string& key);
// Validates against the declaration; returns "" on success or a message saying what is wrong.
std::string setFluidParam(FluidParams& fluid, const std::string& key, const nlohmann::json& value);
nlohmann::json getTimeParam(const TimeParams& time, const std::string& key);
std::string setTimeParam(TimeParams& time, const std::string& key, const nlohmann::json& value);

// Markdown table of every parameter (for the README).
std::string parameterReferenceMarkdown();

}  // namespace vfx
