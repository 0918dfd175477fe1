#include "core/param_spec.hpp"

#include "core/text_format.hpp"

#include <cfloat>
#include <cmath>
#include <cstdlib>

namespace vfx {

using nlohmann::json;

// --- builder -----------------------------------------------------------------------------------

Spec::Spec(std::string section, std::string key, ParamType type, std::string description) {
    s_.section = std::move(section);
    s_.key = std::move(key);
    s_.type = type;
    s_.description = std::move(description);
}

Spec& Spec::above(double v) {
    s_.minValue = v;
    s_.minExclusive = true;
    return *this;
}

Spec& Spec::atLeast(double v) {
    s_.minValue = v;
    s_.minExclusive = false;
    return *this;
}

Spec& Spec::atMost(double v) {
    s_.maxValue = v;
    return *this;
}

Spec& Spec::unit(std::string u) {
    s_.unit = std::move(u);
    return *this;
}

Spec& Spec::choices(std::vector<std::string> names) {
    s_.choices = std::move(names);
    return *this;
}

Spec& Spec::reset() {
    s_.needsReset = true;
    return *this;
}

Spec& Spec::child(std::string section) {
    s_.childSection = std::move(section);
    return *this;
}

Spec& Spec::tuple(int n) {
    s_.tupleSize = n;
    return *this;
}

Spec& Spec::items(size_t most) {
    s_.maxElements = most;
    return *this;
}

Spec& Spec::shapes(std::vector<std::string> names) {
    s_.onlyForShapes = std::move(names);
    return *this;
}

Spec& Spec::defaultsTo(json value) {
    s_.defaultValue = std::move(value);
    return *this;
}

Spec& Spec::bind(MemberBinding binding) {
    s_.member = std::move(binding);
    return *this;
}

// --- values ------------------------------------------------------------------------------------

json jsonFromFloat(float value) {
    if (!std::isfinite(value)) return json(double(value));
    return json(std::strtod(formatFloat(value).c_str(), nullptr));
}

bool hasRange(const ParamSpec& s) { return s.minValue > -1e29 || s.maxValue < 1e29; }

std::string rangeText(const ParamSpec& s) {
    std::string lower = s.minValue > -1e29 ? (s.minExclusive ? "> " : ">= ") + formatNumber(s.minValue, 10) : "";
    std::string upper = s.maxValue < 1e29 ? "<= " + formatNumber(s.maxValue, 10) : "";
    if (!lower.empty() && !upper.empty()) return lower + " and " + upper;
    return lower + upper;
}

namespace {

bool inRange(const ParamSpec& s, double v) {
    const bool lowOk = s.minExclusive ? v > s.minValue : v >= s.minValue;
    return lowOk && v <= s.maxValue;
}

bool isFiniteNumber(const json& v) { return v.is_number() && std::isfinite(v.get<double>()); }

std::string joinChoices(const std::vector<std::string>& c) {
    std::string out;
    for (size_t i = 0; i < c.size(); ++i) out += (i ? ", " : "") + c[i];
    return out;
}

// Float members hold 0 or a magnitude from FLT_MIN to FLT_MAX: anything else would silently
// become 0, a subnormal that has lost its digits, or infinity. "" when v fits.
std::string singlePrecisionProblem(double v) {
    if (std::abs(v) > double(FLT_MAX))
        return "beyond single precision (largest magnitude " + formatNumber(double(FLT_MAX)) + ")";
    if (v != 0.0 && std::abs(v) < double(FLT_MIN))
        return "too small for single precision (smallest magnitude " + formatNumber(double(FLT_MIN)) +
               "; write 0 or a larger value)";
    return "";
}

// "must be RANGE" in the words every range error uses ("a finite number" when unbounded).
std::string mustBe(const ParamSpec& spec) {
    return "must be " + (hasRange(spec) ? rangeText(spec) : "a finite number");
}

std::string checkNumber(const ParamSpec& spec, const json& value, bool whole) {
    if (!value.is_number())
        return std::string("must be ") + (whole ? "a whole number" : "a number") + ", got " + describeJsonValue(value);
    const double v = value.get<double>();
    if (!std::isfinite(v)) return "must be a finite number, got " + describeJsonValue(value);
    if (whole && v != std::floor(v)) return "must be a whole number, got " + describeJsonValue(value);
    if (!inRange(spec, v)) return mustBe(spec) + ", got " + describeJsonValue(value);
    if (whole) return "";
    const std::string precision = singlePrecisionProblem(v);
    return precision.empty() ? "" : mustBe(spec) + ", got " + describeJsonValue(value) + ", " + precision;
}

// The first problem of a tuple of float components (a vec3, a plane, a vertex) against the
// row's range; `what` opens the message ("each component", "element 3: each number").
std::string checkComponents(const ParamSpec& spec, const json& tuple, const std::string& what) {
    for (size_t i = 0; i < tuple.size(); ++i) {
        const double v = tuple[i].get<double>();
        if (!inRange(spec, v)) return what + " " + mustBe(spec) + ", got " + describeJsonValue(tuple);
        const std::string precision = singlePrecisionProblem(v);
        if (!precision.empty())
            return what + " " + mustBe(spec) + ", got " + describeJsonValue(tuple) + ": " + formatNumber(v, 10) +
                   " is " + precision;
    }
    return "";
}

std::string checkVec3(const ParamSpec& spec, const json& value) {
    bool shapeOk = value.is_array() && value.size() == 3;
    for (size_t i = 0; shapeOk && i < 3; ++i) shapeOk = isFiniteNumber(value[i]);
    if (!shapeOk) return "must be 3 finite numbers [x, y, z], got " + describeJsonValue(value);
    return checkComponents(spec, value, "each component");
}

std::string checkArray(const ParamSpec& spec, const json& value) {
    if (!value.is_array()) return "must be an array [...], got " + describeJsonValue(value);
    if (spec.maxElements > 0 && value.size() > spec.maxElements)
        return "must have at most " + std::to_string(spec.maxElements) + " elements, got " +
               std::to_string(value.size());
    if (spec.tupleSize <= 0) return "";
    const std::string form = spec.tupleSize == 4 ? "[nx, ny, nz, d]" : "[x, y, z]";
    for (size_t i = 0; i < value.size(); ++i) {
        const json& e = value[i];
        bool ok = e.is_array() && e.size() == size_t(spec.tupleSize);
        for (size_t k = 0; ok && k < e.size(); ++k) ok = isFiniteNumber(e[k]);
        if (!ok)
            return "element " + std::to_string(i) + " must be " + std::to_string(spec.tupleSize) + " finite numbers " +
                   form + ", got " + describeJsonValue(e);
        const std::string problem = checkComponents(spec, e, "element " + std::to_string(i) + ": each number");
        if (!problem.empty()) return problem;
    }
    return "";
}

std::string checkChoice(const ParamSpec& spec, const json& value) {
    if (value.is_string())
        for (const std::string& c : spec.choices)
            if (c == value.get<std::string>()) return "";
    return "must be one of " + joinChoices(spec.choices) + ", got " + describeJsonValue(value);
}

}  // namespace

std::string checkParamValue(const ParamSpec& spec, const json& value) {
    switch (spec.type) {
        case ParamType::Float:
            return checkNumber(spec, value, false);
        case ParamType::Int:
            return checkNumber(spec, value, true);
        case ParamType::Bool:
            return value.is_boolean() ? "" : "must be true or false, got " + describeJsonValue(value);
        case ParamType::Vec3:
            return checkVec3(spec, value);
        case ParamType::Enum:
            return checkChoice(spec, value);
        case ParamType::String:
            return value.is_string() ? "" : "must be a string \"...\", got " + describeJsonValue(value);
        case ParamType::Array:
            return checkArray(spec, value);
        case ParamType::Object:
            return value.is_object() ? "" : "must be an object {...}, got " + describeJsonValue(value);
    }
    return "";
}

namespace {

// JSON text of a scalar for a message; a string that is not UTF-8 has its bad bytes replaced
// (U+FFFD) instead of making the serializer throw.
std::string dumpScalar(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

// Appends a short form of `value` to `text`, stopping once the text is long enough to be cut:
// at most `depth` levels are opened, so a value nested arbitrarily deep costs a bounded stack.
void describeInto(const json& value, std::string& text, int depth) {
    constexpr size_t kEnough = 81;
    if (value.is_number_float()) {
        const double v = value.get<double>();
        text += std::isfinite(v) ? dumpScalar(value) : formatNumber(v);
    } else if (value.is_array() || value.is_object()) {
        const bool array = value.is_array();
        text += array ? "[" : "{";
        if (depth <= 0 && !value.empty()) text += "...";
        size_t i = 0;
        for (auto it = value.begin(); depth > 0 && it != value.end() && text.size() < kEnough; ++it, ++i) {
            text += i ? ", " : "";
            if (!array) text += dumpScalar(json(it.key())) + ": ";
            describeInto(*it, text, depth - 1);
        }
        text += array ? "]" : "}";
    } else if (value.is_null()) {
        text += "null";
    } else {
        text += dumpScalar(value);
    }
}

}  // namespace

std::string describeJsonValue(const json& value) {
    std::string text;
    describeInto(value, text, 8);
    if (text.size() > 80) text = text.substr(0, 77) + "...";
    return text;
}

const ParamSpec* findSpec(const std::vector<ParamSpec>& specs, const std::string& key) {
    for (const ParamSpec& s : specs)
        if (s.key == key) return &s;
    return nullptr;
}

}  // namespace vfx
