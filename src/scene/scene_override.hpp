#pragma once
// --set overrides: "dotted.path=value" written into a scene document before it is validated.
#include <nlohmann/json.hpp>

#include <string>

namespace vfx {

// Applies "a.b.0.c=value" and returns the JSON pointer it wrote ("/a/b/0/c"). Missing objects
// are created; index == size appends a new array element. Throws SceneError "--set ASSIGNMENT: what is wrong".
std::string applyOverrideAt(nlohmann::json& document, const std::string& assignment);

}  // namespace vfx
