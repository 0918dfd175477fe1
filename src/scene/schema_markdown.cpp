// The parameter reference as a Markdown table (vortonfx-sim --params-markdown, for the README):
// one row per schema row with its type, unit, default, allowed values and whether the demo
// applies it live or on reset.
#include "scene/schema.hpp"

#include <sstream>

namespace vfx {
namespace {

std::string typeName(const ParamSpec& s) {
    switch (s.type) {
        case ParamType::Float:
            return "number";
        case ParamType::Int:
            return "integer";
        case ParamType::Bool:
            return "boolean";
        case ParamType::Vec3:
            return "[x, y, z]";
        case ParamType::Enum:
            return "choice";
        case ParamType::String:
            return "string";
        case ParamType::Array:
            return s.tupleSize == 4   ? "[[nx, ny, nz, d], ...]"
                   : s.tupleSize == 3 ? "[[x, y, z], ...]"
                                      : "array of objects";
        case ParamType::Object:
            return "object";
    }
    return "?";
}

std::string qualifiedName(const ParamSpec& s) { return s.section.empty() ? s.key : s.section + "." + s.key; }

std::string escapeCell(const std::string& text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string joinWith(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
    return out;
}

std::string allowedText(const ParamSpec& s) {
    if (s.type == ParamType::Enum) return joinWith(s.choices, " | ");
    if (!hasRange(s)) return "";
    return (s.type == ParamType::Vec3 ? "each " : "") + rangeText(s);
}

std::string markdownRow(const ParamSpec& s) {
    const bool nested = !s.childSection.empty();
    std::string description = s.description;
    if (!s.onlyForShapes.empty()) description += " Shapes: " + joinWith(s.onlyForShapes, ", ") + ".";
    std::ostringstream row;
    row << "| `" << qualifiedName(s) << "` | " << escapeCell(typeName(s)) << " | " << escapeCell(s.unit) << " | "
        << (nested ? std::string("-") : "`" + escapeCell(describeJsonValue(s.defaultValue)) + "`") << " | "
        << escapeCell(allowedText(s)) << " | " << (s.needsReset ? "reset" : "yes") << " | " << escapeCell(description)
        << " |\n";
    return row.str();
}

}  // namespace

std::string parameterReferenceMarkdown() {
    std::string md = "| Parameter | Type | Unit | Default | Allowed | Live | Description |\n";
    md += "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const ParamSpec& s : allParamSpecs()) md += markdownRow(s);
    return md;
}

}  // namespace vfx
