#pragma once
// Scene file to JSON: reads the file and parses it, reporting syntax errors by line and column
// and rejecting duplicate keys (JSON allows them; a scene would silently lose one).
#include <nlohmann/json.hpp>

#include <string>

namespace vfx {

// The file's bytes. Throws SceneError "PATH: cannot open ..." (or "is a directory").
std::string readSceneText(const std::string& path);
// The parsed document. Throws SceneError "SOURCE: line L, column C: malformed JSON: ..." or
// "SOURCE: /json/pointer: duplicate key ...".
nlohmann::json parseSceneJson(const std::string& text, const std::string& source);

}  // namespace vfx
