#include "scene/scene_document.hpp"

#include "core/text_format.hpp"

#include <stdexcept>

namespace vfx {
namespace {

std::string escapePointerToken(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

// True when `ancestor` is `pointer` or one of its parents.
bool pointerWithin(const std::string& pointer, const std::string& ancestor) {
    return pointer.compare(0, ancestor.size(), ancestor) == 0 &&
           (pointer.size() == ancestor.size() || pointer[ancestor.size()] == '/');
}

}  // namespace

std::string childPointer(const std::string& parent, const std::string& key) {
    return parent + "/" + escapePointerToken(key);
}
std::string childPointer(const std::string& parent, size_t index) { return parent + "/" + std::to_string(index); }

std::string joinWords(const std::vector<std::string>& words) {
    std::string out;
    for (size_t i = 0; i < words.size(); ++i) out += (i ? ", " : "") + words[i];
    return out;
}

std::string shownPointer(const std::string& pointer) {
    std::string out;
    size_t token = 0;  // characters of the current token so far
    for (char c : pointer) {
        token = c == '/' ? 0 : token + 1;
        if (token <= 37 || c == '/')
            out += c;
        else if (token <= 40)
            out += '.';
    }
    return out;
}

std::string overrideLabel(const std::string& assignment) {
    const std::string shown = oneLine(assignment, firstInvalidUtf8(assignment) < assignment.size());
    return "--set " + (shown.size() > 80 ? shown.substr(0, 77) + "..." : shown);
}

void SceneReporter::fail(const std::string& pointer, const std::string& what) const {
    throw SceneError(source_ + ": " + (pointer.empty() ? "/" : shownPointer(pointer)) + ": " + what +
                     overrideNote(pointer));
}

// The latest override wins, as it is the one whose value the document holds.
std::string SceneReporter::overrideNote(const std::string& pointer) const {
    if (pointer.empty()) return "";
    for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it)
        if (pointerWithin(pointer, it->pointer) || pointerWithin(it->pointer, pointer))
            return " (from " + overrideLabel(it->assignment) + ")";
    return "";
}

const nlohmann::json& SceneFields::value(const std::string& key) const {
    auto it = object_->find(key);
    if (it != object_->end()) return *it;
    const ParamSpec* spec = findParamSpec(section_, key);
    if (!spec) throw std::logic_error("scene schema has no " + section_ + "." + key);
    return spec->defaultValue;
}

const nlohmann::json& SceneFields::emptyObject() {
    static const nlohmann::json empty = nlohmann::json::object();
    return empty;
}

}  // namespace vfx
