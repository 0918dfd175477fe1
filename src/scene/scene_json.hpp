#pragma once
// Scene file to JSON: reads the file (a regular file of bounded size) and parses it with a
// builder that bounds the nesting depth, rejects duplicate keys (JSON allows them; a scene would
// silently lose one) and numbers that overflow or underflow double precision, and reports syntax
// errors by line and column.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace vfx {

// Largest scene file read: a scene describes regions and bodies, it does not carry particle
// data (the largest, a polytope of 512 planes, is about 30 kB).
inline constexpr size_t kMaxSceneFileBytes = size_t(8) << 20;
// Deepest nesting of arrays and objects accepted; a scene needs 5 (bodies[].planes[][]).
inline constexpr int kMaxJsonNesting = 64;

// The file's bytes. Throws SceneError "PATH: cannot open ...", "is a directory", "is not a
// regular file" or "is N MB, more than a scene file may be".
std::string readSceneText(const std::string& path);

// The parsed document. Throws SceneError "SOURCE: line L, column C: malformed JSON: ...",
// "SOURCE: line L, column C: arrays and objects nest deeper than ...", or "SOURCE: /json/pointer:
// duplicate key ..." / "...: must be ..., got 1e400, ..." for a number double precision cannot hold.
nlohmann::json parseSceneJson(const std::string& text, const std::string& source);

// The value of a --set assignment into `out`; false when the text is not JSON (the caller then
// takes it as a string). Bounds depth and numbers as parseSceneJson does and throws SceneError
// "LABEL: ..." when the text breaks them. `pointer` is where the value goes, so a message can
// name its key.
bool parseOverrideJson(const std::string& text, const std::string& label, const std::string& pointer,
                       nlohmann::json& out);

}  // namespace vfx
