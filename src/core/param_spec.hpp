#pragma once
// One declaration per parameter. A row names the JSON key, binds it to a struct member
// (the member's type gives the parameter's type, the struct's own default gives its default),
// and adds range, unit, live/reset and a description. Loading, validation, --set, the demo's
// widgets and tooltips, the README table and the solvers' range checks all read these rows.
#include "core/enum_names.hpp"
#include "core/math.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace vfx {

enum class ParamType { Float, Int, Bool, Vec3, Enum, String, Array, Object };

// Where a parameter lives: read and write one member of a struct through a void pointer to
// the whole struct (the struct type is `owner`; callers check it before use).
struct MemberBinding {
    const std::type_info* owner = nullptr;
    size_t offset = 0;  // of the member inside its struct: lets a test prove members are distinct
    std::function<nlohmann::json(const void*)> read;
    std::function<void(void*, const nlohmann::json&)> write;  // the value is already validated
};

struct ParamSpec {
    std::string section;  // "fluid", "time", "vortons[]", "tracers[]", "bodies[]", "view.camera", ...
    std::string key;      // JSON key inside the section, e.g. "viscosity"
    ParamType type = ParamType::Float;
    std::string unit;         // SI unit, e.g. "m^2/s"; "" when dimensionless or not a number
    std::string description;  // one or two sentences, used as tooltip and in the README
    nlohmann::json defaultValue;
    double minValue = -1e30;  // inclusive unless minExclusive
    double maxValue = 1e30;
    bool minExclusive = false;
    std::vector<std::string> choices;        // Enum
    bool needsReset = false;                 // true: changing it live needs rebuilding the scene
    std::string childSection;                // Object / Array of objects: section of the nested keys
    int tupleSize = 0;                       // Array of number tuples (planes: 4, vertices: 3); 0 otherwise
    size_t maxElements = 0;                  // Array: most elements it may have (0 = no limit)
    std::vector<std::string> onlyForShapes;  // region/body keys used by these shapes only (empty: all)
    MemberBinding member;                    // empty for sections (Object / Array of objects) and document-level keys

    template <typename S>
    bool boundTo() const {
        return member.owner && *member.owner == typeid(S);
    }
};

// JSON form of member values. A float is written with the shortest decimal that reads back
// as the same float, so defaults print as declared (0.1, not 0.100000001).
nlohmann::json jsonFromFloat(float value);

namespace param_detail {

template <typename T>
struct Codec;  // json <-> member value, and the ParamType a member type declares

template <>
struct Codec<float> {
    static constexpr ParamType type = ParamType::Float;
    static nlohmann::json toJson(float v) { return jsonFromFloat(v); }
    static float fromJson(const nlohmann::json& j) { return j.get<float>(); }
};
template <>
struct Codec<int> {
    static constexpr ParamType type = ParamType::Int;
    static nlohmann::json toJson(int v) { return v; }
    static int fromJson(const nlohmann::json& j) { return int(j.get<double>()); }
};
template <>
struct Codec<unsigned> {
    static constexpr ParamType type = ParamType::Int;
    static nlohmann::json toJson(unsigned v) { return v; }
    static unsigned fromJson(const nlohmann::json& j) { return unsigned(j.get<double>()); }
};
template <>
struct Codec<bool> {
    static constexpr ParamType type = ParamType::Bool;
    static nlohmann::json toJson(bool v) { return v; }
    static bool fromJson(const nlohmann::json& j) { return j.get<bool>(); }
};
template <>
struct Codec<std::string> {
    static constexpr ParamType type = ParamType::String;
    static nlohmann::json toJson(const std::string& v) { return v; }
    static std::string fromJson(const nlohmann::json& j) { return j.get<std::string>(); }
};
template <>
struct Codec<vec3> {
    static constexpr ParamType type = ParamType::Vec3;
    static nlohmann::json toJson(const vec3& v) { return {jsonFromFloat(v.x), jsonFromFloat(v.y), jsonFromFloat(v.z)}; }
    static vec3 fromJson(const nlohmann::json& j) { return {j[0].get<float>(), j[1].get<float>(), j[2].get<float>()}; }
};
// Enums are spelled by EnumNames<E>, indexed by the enum's value.
template <typename E>
struct EnumCodec {
    static constexpr ParamType type = ParamType::Enum;
    static nlohmann::json toJson(E v) {
        const auto& names = EnumNames<E>::names();
        const size_t i = size_t(v);
        return i < names.size() ? nlohmann::json(names[i]) : nlohmann::json(i);  // a number fails the choice check
    }
    static E fromJson(const nlohmann::json& j) { return enumFromName<E>(j.get<std::string>()); }
};

template <typename T>
using CodecFor = std::conditional_t<std::is_enum_v<T>, EnumCodec<T>, Codec<T>>;

}  // namespace param_detail

// Builder: each row of a declaration table reads as one statement, e.g.
//   param("fluid", "viscosity", &FluidParams::viscosity, "Kinematic viscosity ...").unit("m^2/s").atLeast(0)
class Spec {
public:
    Spec(std::string section, std::string key, ParamType type, std::string description);
    Spec& above(double v);
    Spec& atLeast(double v);
    Spec& atMost(double v);
    Spec& unit(std::string u);
    Spec& choices(std::vector<std::string> names);
    Spec& reset();
    Spec& child(std::string section);
    Spec& tuple(int n);
    Spec& items(size_t most);
    Spec& shapes(std::vector<std::string> names);
    Spec& defaultsTo(nlohmann::json value);
    Spec& bind(MemberBinding binding);
    operator ParamSpec() const { return s_; }

private:
    ParamSpec s_;
};

// Binds a member; a custom codec converts members whose JSON form is not the default one
// (radians stored, degrees written; planes as [nx, ny, nz, d]).
template <typename Codec, typename S, typename T>
MemberBinding bindMember(T S::*member) {
    MemberBinding b;
    b.owner = &typeid(S);
    static const S reference{};
    b.offset = size_t(reinterpret_cast<const char*>(&(reference.*member)) - reinterpret_cast<const char*>(&reference));
    b.read = [member](const void* s) { return Codec::toJson(static_cast<const S*>(s)->*member); };
    b.write = [member](void* s, const nlohmann::json& v) { static_cast<S*>(s)->*member = Codec::fromJson(v); };
    return b;
}

// A parameter of struct S stored in `member`: type from the member, default from S{}.
template <typename S, typename T, typename Codec = param_detail::CodecFor<T>>
Spec param(std::string section, std::string key, T S::*member, std::string description, Codec = {}) {
    Spec spec(std::move(section), std::move(key), Codec::type, std::move(description));
    const MemberBinding binding = bindMember<Codec>(member);
    spec.bind(binding);
    static const S defaults{};
    spec.defaultsTo(binding.read(&defaults));
    if constexpr (std::is_enum_v<T>) spec.choices(EnumNames<T>::names());
    return spec;
}

// Checks a JSON value against a spec (type, finiteness, range, choices, and for float members a
// value single precision can hold: no overflow, no underflow to 0 or a subnormal); "" when
// valid, else the message without location, e.g. "must be > 0, got -1".
std::string checkParamValue(const ParamSpec& spec, const nlohmann::json& value);
// A JSON value shown in messages: numbers as written (nan/inf spelled out), long values cut
// (at most 80 characters; nesting of any depth is safe).
std::string describeJsonValue(const nlohmann::json& value);
// "> 0 and <= 10", ">= 0", ... ("" when unbounded).
std::string rangeText(const ParamSpec& spec);
bool hasRange(const ParamSpec& spec);

// The row for `key` in `specs`, nullptr if none.
const ParamSpec* findSpec(const std::vector<ParamSpec>& specs, const std::string& key);

// Typed access through the rows bound to S.
template <typename S>
nlohmann::json readParam(const std::vector<ParamSpec>& specs, const S& params, const std::string& key) {
    const ParamSpec* spec = findSpec(specs, key);
    return spec && spec->boundTo<S>() ? spec->member.read(&params) : nlohmann::json();
}

// Validates and stores; "" on success, else what is wrong (unknown key, bad value).
template <typename S>
std::string writeParam(const std::vector<ParamSpec>& specs, S& params, const std::string& key,
                       const nlohmann::json& value) {
    const ParamSpec* spec = findSpec(specs, key);
    if (!spec || !spec->boundTo<S>())
        return "unknown " + (specs.empty() ? std::string() : specs.front().section + " ") + "parameter \"" + key + "\"";
    std::string problem = checkParamValue(*spec, value);
    if (problem.empty()) spec->member.write(&params, value);
    return problem;
}

// The first member of `params` outside its declared range, as "section.key: must be ..., got x";
// "" when all are valid. Solvers call this instead of writing their own range checks.
template <typename S>
std::string firstInvalidParam(const std::vector<ParamSpec>& specs, const S& params) {
    for (const ParamSpec& spec : specs) {
        if (!spec.boundTo<S>()) continue;
        const std::string problem = checkParamValue(spec, spec.member.read(&params));
        if (!problem.empty()) return spec.section + "." + spec.key + ": " + problem;
    }
    return "";
}

}  // namespace vfx
