#pragma once
// Reading a scene document, shared by the loader's stages: JSON pointers to its values, the
// reporter that turns a problem into one SceneError "FILE: /json/pointer: what is wrong" (naming
// the --set flag that put the value there), and typed reads of its objects.
#include "scene/scene.hpp"
#include "scene/schema.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vfx {

// JSON pointer (RFC 6901) of a member or an element of the value at `parent`.
std::string childPointer(const std::string& parent, const std::string& key);
std::string childPointer(const std::string& parent, size_t index);

// "a, b, c".
std::string joinWords(const std::vector<std::string>& words);

// A pointer as messages show it: each token longer than 40 characters is cut.
std::string shownPointer(const std::string& pointer);

// "--set ASSIGNMENT" as messages show it: a long assignment is cut to 80 characters.
std::string overrideLabel(const std::string& assignment);

// Where an override put its value, so errors about that value can name the --set flag.
struct OverrideRecord {
    std::string pointer;
    std::string assignment;
};

class SceneReporter {
public:
    SceneReporter(std::string source, std::vector<OverrideRecord> overrides)
        : source_(std::move(source)), overrides_(std::move(overrides)) {}

    // Throws SceneError "SOURCE: POINTER: WHAT", plus " (from --set ...)" when an override wrote
    // the value at the pointer, inside it or around it.
    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const;
    const std::string& source() const { return source_; }

private:
    std::string overrideNote(const std::string& pointer) const;

    std::string source_;
    std::vector<OverrideRecord> overrides_;
};

// Typed reads of an object whose keys are already checked, falling back to the schema default.
class SceneFields {
public:
    SceneFields(const nlohmann::json& object, std::string section, std::string pointer)
        : object_(object.is_object() ? &object : &emptyObject()),
          section_(std::move(section)),
          pointer_(std::move(pointer)) {}

    bool has(const std::string& key) const { return object_->contains(key); }
    const nlohmann::json& value(const std::string& key) const;
    std::string text(const std::string& key) const { return value(key).get<std::string>(); }
    std::string pointer(const std::string& key) const { return childPointer(pointer_, key); }
    const std::string& pointer() const { return pointer_; }
    const nlohmann::json& object() const { return *object_; }
    const std::string& section() const { return section_; }

private:
    static const nlohmann::json& emptyObject();

    const nlohmann::json* object_;
    std::string section_;
    std::string pointer_;
};

// Copies each key the object has into the member its schema row binds; keys it lacks keep the
// struct's defaults, which are the declared ones.
template <typename S>
void readBoundMembers(const SceneFields& f, S& target) {
    for (auto it = f.object().begin(); it != f.object().end(); ++it) {
        const ParamSpec* spec = findParamSpec(f.section(), it.key());
        if (spec && spec->boundTo<S>()) spec->member.write(&target, it.value());
    }
}

}  // namespace vfx
