#include "scene/scene_override.hpp"

#include "core/text_format.hpp"

#include "scene/scene.hpp"
#include "scene/scene_document.hpp"
#include "scene/scene_json.hpp"
#include "scene/schema.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <vector>

namespace vfx {
namespace {

using json = nlohmann::json;

bool isIndex(const std::string& s) {
    return !s.empty() && s.size() < 10 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::vector<std::string> splitPath(const std::string& path, const std::string& assignment) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        const size_t dot = path.find('.', start);
        parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (parts.back().empty())
            throw SceneError(overrideLabel(assignment) +
                             ": the path has an empty element, expected e.g. fluid.viscosity or vortons.0.count");
        if (parts.size() > size_t(kMaxJsonNesting))
            throw SceneError(overrideLabel(assignment) + ": the path has more than " + std::to_string(kMaxJsonNesting) +
                             " elements");
        if (dot == std::string::npos) return parts;
        start = dot + 1;
    }
}

// JSON if the text parses as JSON, else the text as a string; string and enum parameters take
// the text as it is. nan/inf spellings become those numbers so validation can reject them by
// name instead of as "a string". JSON that nests too deep or holds a number double precision
// cannot is an error naming the flag.
json parseOverrideValue(const std::string& text, const ParamSpec* spec, const std::string& assignment,
                        const std::string& pointer) {
    if (spec && (spec->type == ParamType::String || spec->type == ParamType::Enum)) return json(text);
    std::string lower;
    for (char c : text) lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "nan" || lower == "+nan" || lower == "-nan") return json(std::numeric_limits<double>::quiet_NaN());
    if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity")
        return json(std::numeric_limits<double>::infinity());
    if (lower == "-inf" || lower == "-infinity") return json(-std::numeric_limits<double>::infinity());
    json value;
    return parseOverrideJson(text, overrideLabel(assignment), pointer, value) ? value : json(text);
}

std::string kindOf(const json& v) {
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "a boolean";
    return "a value";
}

// The array element `part` names (index == size appends one); `dotted` is the path so far.
json& arrayElement(json& array, const std::string& part, const std::string& dotted, const std::string& assignment) {
    if (!isIndex(part))
        throw SceneError(overrideLabel(assignment) + ": " + dotted +
                         " is an array, expected an index (0, 1, ...), got \"" + part + "\"");
    const size_t index = std::stoul(part);
    if (index > array.size())
        throw SceneError(overrideLabel(assignment) + ": " + dotted + " has " + std::to_string(array.size()) +
                         (array.size() == 1 ? " element" : " elements") + ", index " + part + " is out of range (" +
                         std::to_string(array.size()) + " appends one)");
    if (index == array.size()) array.push_back(json());
    return array[index];
}

}  // namespace

std::string applyOverrideAt(json& document, const std::string& assignment) {
    const size_t bad = firstInvalidUtf8(assignment);
    if (bad < assignment.size())
        throw SceneError(overrideLabel(assignment) + ": byte " + std::to_string(bad + 1) +
                         " is not UTF-8; paths and values must be UTF-8 text");
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw SceneError(overrideLabel(assignment) + ": expected path=value, e.g. --set fluid.viscosity=0.01");
    const std::vector<std::string> parts = splitPath(assignment.substr(0, eq), assignment);
    if (!document.is_object()) document = json::object();
    json* node = &document;
    std::string pointer, dotted;
    for (const std::string& part : parts) {
        if (node->is_null()) *node = isIndex(part) ? json::array() : json::object();
        if (node->is_array()) {
            node = &arrayElement(*node, part, dotted, assignment);
            pointer = childPointer(pointer, std::stoul(part));
        } else if (node->is_object()) {
            node = &(*node)[part];
            pointer = childPointer(pointer, part);
        } else {
            throw SceneError(overrideLabel(assignment) + ": " + dotted + " is " + kindOf(*node) +
                             ", it has no field \"" + part + "\"");
        }
        dotted += (dotted.empty() ? "" : ".") + part;
    }
    *node = parseOverrideValue(assignment.substr(eq + 1), findParamSpecAlong(parts), assignment, pointer);
    return pointer;
}

void applyOverride(json& document, const std::string& assignment) { applyOverrideAt(document, assignment); }

}  // namespace vfx
