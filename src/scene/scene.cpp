// Scene loading: read the JSON (with line/column for syntax errors and duplicate-key checks),
// apply --set overrides, validate every key against the schema table, then check the rules
// that span several fields (total density, overlapping bodies, regions that leave containers).
// Every error is one SceneError "FILE: /json/pointer: what is wrong, got X".
#include "scene/scene.hpp"

#include "bodies/shapes.hpp"
#include "core/text_format.hpp"
#include "scene/scene_geometry.hpp"
#include "scene/schema.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace vfx {
namespace {

using json = nlohmann::json;

// Where an override put its value, so errors about that value can name the --set flag.
struct OverrideRecord {
    std::string pointer;
    std::string assignment;
};

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

std::string childPointer(const std::string& parent, const std::string& key) {
    return parent + "/" + escapePointerToken(key);
}
std::string childPointer(const std::string& parent, size_t index) { return parent + "/" + std::to_string(index); }

// True when `ancestor` is `pointer` or one of its parents.
bool pointerWithin(const std::string& pointer, const std::string& ancestor) {
    return pointer.compare(0, ancestor.size(), ancestor) == 0 &&
           (pointer.size() == ancestor.size() || pointer[ancestor.size()] == '/');
}

std::string joinWords(const std::vector<std::string>& words) {
    std::string out;
    for (size_t i = 0; i < words.size(); ++i) out += (i ? ", " : "") + words[i];
    return out;
}

class Reporter {
public:
    Reporter(std::string source, std::vector<OverrideRecord> overrides)
        : source_(std::move(source)), overrides_(std::move(overrides)) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        throw SceneError(source_ + ": " + (pointer.empty() ? "/" : pointer) + ": " + what + overrideNote(pointer));
    }
    const std::string& source() const { return source_; }

private:
    std::string overrideNote(const std::string& pointer) const {
        if (pointer.empty()) return "";
        for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it)
            if (pointerWithin(pointer, it->pointer) || pointerWithin(it->pointer, pointer))
                return " (from --set " + it->assignment + ")";
        return "";
    }

    std::string source_;
    std::vector<OverrideRecord> overrides_;
};

// --- reading ---------------------------------------------------------------------------------

std::string readTextFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw SceneError(path + ": is a directory, expected a JSON scene file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SceneError(path + ": cannot open the scene file: " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw SceneError(path + ": cannot read the scene file: " + std::strerror(errno));
    return text.str();
}

// nlohmann reports "... parse error at line L, column C: detail"; rephrase it in our format.
std::string describeParseError(const json::parse_error& e) {
    const std::string what = e.what();
    const size_t at = what.find("at line ");
    const size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
    if (colon == std::string::npos) return "byte " + std::to_string(e.byte) + ": malformed JSON: " + what;
    return what.substr(at + 3, colon - at - 3) + ": malformed JSON: " + what.substr(colon + 2);
}

// Parses JSON and rejects duplicate keys, which nlohmann would silently collapse to one.
json parseJsonText(const std::string& text, const std::string& source) {
    struct Frame {
        bool isArray = false;
        size_t index = 0;
        std::string key;
        std::set<std::string> keys;
    };
    std::vector<Frame> stack;
    auto positionPointer = [&](size_t frames) {
        std::string pointer;
        for (size_t i = 0; i < frames; ++i)
            pointer = stack[i].isArray ? childPointer(pointer, stack[i].index) : childPointer(pointer, stack[i].key);
        return pointer;
    };
    auto advance = [&] {
        if (!stack.empty() && stack.back().isArray) ++stack.back().index;
    };
    auto callback = [&](int, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
                stack.push_back(Frame{false, 0, "", {}});
                break;
            case json::parse_event_t::array_start:
                stack.push_back(Frame{true, 0, "", {}});
                break;
            case json::parse_event_t::key: {
                Frame& top = stack.back();
                top.key = parsed.get<std::string>();
                if (!top.keys.insert(top.key).second)
                    throw SceneError(source + ": " + positionPointer(stack.size()) +
                                     ": duplicate key, each key may appear once per object");
                break;
            }
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                stack.pop_back();
                advance();
                break;
            case json::parse_event_t::value:
                advance();
                break;
        }
        return true;
    };
    try {
        return json::parse(text, callback);
    } catch (const json::parse_error& e) {
        throw SceneError(source + ": " + describeParseError(e));
    }
}

// --- overrides -------------------------------------------------------------------------------

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
            throw SceneError("--set " + assignment +
                             ": the path has an empty element, expected e.g. fluid.viscosity or vortons.0.count");
        if (dot == std::string::npos) return parts;
        start = dot + 1;
    }
}

// The spec a dotted path ends at, or nullptr (unknown key, or a whole array element).
const ParamSpec* specForPath(const std::vector<std::string>& parts) {
    std::string section;
    for (size_t i = 0; i < parts.size(); ++i) {
        const ParamSpec* spec = findParamSpec(section, parts[i]);
        if (!spec || i + 1 == parts.size()) return spec;
        if (spec->childSection.empty()) return nullptr;
        section = spec->childSection;
        if (spec->type == ParamType::Array && ++i + 1 == parts.size()) return nullptr;
    }
    return nullptr;
}

// JSON if the text parses as JSON, else the text as a string. nan/inf spellings become those
// numbers so validation can reject them by name instead of as "a string".
json parseOverrideValue(const std::string& text, const ParamSpec* spec) {
    if (spec && (spec->type == ParamType::String || spec->type == ParamType::Enum)) return json(text);
    std::string lower;
    for (char c : text) lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "nan" || lower == "+nan" || lower == "-nan") return json(std::numeric_limits<double>::quiet_NaN());
    if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity")
        return json(std::numeric_limits<double>::infinity());
    if (lower == "-inf" || lower == "-infinity") return json(-std::numeric_limits<double>::infinity());
    try {
        return json::parse(text);
    } catch (const json::exception&) {
        return json(text);
    }
}

std::string kindOf(const json& v) {
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "a boolean";
    return "a value";
}

// Applies "a.b.0.c=value"; returns the JSON pointer it wrote. Missing objects are created;
// index == size appends a new array element.
std::string applyOverrideAt(json& document, const std::string& assignment) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw SceneError("--set " + assignment + ": expected path=value, e.g. --set fluid.viscosity=0.01");
    const std::vector<std::string> parts = splitPath(assignment.substr(0, eq), assignment);
    if (!document.is_object()) document = json::object();
    json* node = &document;
    std::string pointer, dotted;
    for (const std::string& part : parts) {
        if (node->is_null()) *node = isIndex(part) ? json::array() : json::object();
        if (node->is_array()) {
            if (!isIndex(part))
                throw SceneError("--set " + assignment + ": " + dotted +
                                 " is an array, expected an index (0, 1, ...), got \"" + part + "\"");
            const size_t index = std::stoul(part);
            if (index > node->size())
                throw SceneError("--set " + assignment + ": " + dotted + " has " + std::to_string(node->size()) +
                                 (node->size() == 1 ? " element" : " elements") + ", index " + part +
                                 " is out of range (" + std::to_string(node->size()) + " appends one)");
            if (index == node->size()) node->push_back(json());
            node = &(*node)[index];
            pointer = childPointer(pointer, index);
        } else if (node->is_object()) {
            node = &(*node)[part];
            pointer = childPointer(pointer, part);
        } else {
            throw SceneError("--set " + assignment + ": " + dotted + " is " + kindOf(*node) + ", it has no field \"" +
                             part + "\"");
        }
        dotted += (dotted.empty() ? "" : ".") + part;
    }
    *node = parseOverrideValue(assignment.substr(eq + 1), specForPath(parts));
    return pointer;
}

// --- structural validation against the schema -----------------------------------------------

size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string unknownKeyMessage(const std::string& section, const std::string& key) {
    if (section == "tracers[]" && findParamSpec("vortons[]", key))
        return "unknown key: tracers are passive, only vortons take \"" + key + "\"";
    std::vector<std::string> known;
    std::string closest;
    size_t best = 3;
    for (const ParamSpec* s : paramSpecsInSection(section)) {
        known.push_back(s->key);
        const size_t d = editDistance(key, s->key);
        if (d < best) {
            best = d;
            closest = s->key;
        }
    }
    std::string message = "unknown key";
    if (!closest.empty()) message += " (did you mean \"" + closest + "\"?)";
    return message + ", expected one of " + joinWords(known);
}

void checkKeys(const json& object, const std::string& section, const std::string& pointer, const Reporter& r) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const std::string child = childPointer(pointer, it.key());
        const ParamSpec* spec = findParamSpec(section, it.key());
        if (!spec) r.fail(child, unknownKeyMessage(section, it.key()));
        const std::string problem = checkParamValue(*spec, it.value());
        if (!problem.empty()) r.fail(child, problem);
        if (spec->childSection.empty()) continue;
        if (spec->type == ParamType::Object) {
            checkKeys(it.value(), spec->childSection, child, r);
            continue;
        }
        for (size_t i = 0; i < it.value().size(); ++i) {
            const json& element = it.value()[i];
            const std::string elementPointer = childPointer(child, i);
            if (!element.is_object())
                r.fail(elementPointer, "must be an object {...}, got " + describeJsonValue(element));
            checkKeys(element, spec->childSection, elementPointer, r);
        }
    }
}

// Typed reads of an already validated object, falling back to the schema default.
class Fields {
public:
    Fields(const json& object, std::string section, std::string pointer)
        : object_(object.is_object() ? &object : &empty()),
          section_(std::move(section)),
          pointer_(std::move(pointer)) {}

    bool has(const std::string& key) const { return object_->contains(key); }
    const json& value(const std::string& key) const {
        auto it = object_->find(key);
        if (it != object_->end()) return *it;
        const ParamSpec* spec = findParamSpec(section_, key);
        if (!spec) throw std::logic_error("scene schema has no " + section_ + "." + key);
        return spec->defaultValue;
    }
    std::string text(const std::string& key) const { return value(key).get<std::string>(); }
    std::string pointer(const std::string& key) const { return childPointer(pointer_, key); }
    const std::string& pointer() const { return pointer_; }
    const json& object() const { return *object_; }
    const std::string& section() const { return section_; }

private:
    static const json& empty() {
        static const json e = json::object();
        return e;
    }
    const json* object_;
    std::string section_;
    std::string pointer_;
};

// Keys that only some shapes use are errors for the others, so nothing is silently ignored.
void rejectKeysOfOtherShapes(const Fields& f, const std::string& shape, const Reporter& r) {
    for (auto it = f.object().begin(); it != f.object().end(); ++it) {
        const ParamSpec* spec = findParamSpec(f.section(), it.key());
        const auto& only = spec->onlyForShapes;
        if (!only.empty() && std::find(only.begin(), only.end(), shape) == only.end())
            r.fail(f.pointer(it.key()), "is not used by shape \"" + shape + "\" (only by " + joinWords(only) + ")");
    }
}

// Copies each key the object has into the member its row binds; keys it lacks keep the
// struct's defaults, which are the declared ones.
template <typename S>
void readBoundMembers(const Fields& f, S& target) {
    for (auto it = f.object().begin(); it != f.object().end(); ++it) {
        const ParamSpec* spec = findParamSpec(f.section(), it.key());
        if (spec && spec->boundTo<S>()) spec->member.write(&target, it.value());
    }
}

RegionDesc parseRegion(const Fields& f, const Reporter& r) {
    RegionDesc region;
    rejectKeysOfOtherShapes(f, f.text("shape"), r);
    readBoundMembers(f, region);
    if (!f.has("count")) r.fail(f.pointer("count"), "missing: every region needs a count > 0");

    if (region.shape == RegionShape::Ring) {
        if (!(glm::length(region.axis) > 1e-6f))
            r.fail(f.pointer("axis"), "must be a non-zero direction, got " + describeJsonValue(f.value("axis")));
        if (!(region.coreRadius < region.radius))
            r.fail(f.pointer("core_radius"), "must be < radius (" + formatNumber(region.radius) +
                                                 ") or the ring overlaps itself, got " +
                                                 describeJsonValue(f.value("core_radius")));
    }
    if (region.shape == RegionShape::Box && !glm::all(glm::lessThan(region.boxMin, region.boxMax)))
        r.fail(f.pointer("max"),
               "must be > min " + formatVec(region.boxMin) + " in every component, got " + formatVec(region.boxMax));
    return region;
}

void parseOscillation(const Fields& body, BodyDesc& desc, const Reporter& r) {
    if (!body.has("oscillate")) return;
    if (desc.motion != MotionKind::Kinematic)
        r.fail(body.pointer("oscillate"), "only kinematic bodies oscillate, this one has motion \"dynamic\"");
    const Fields o(body.value("oscillate"), "bodies[].oscillate", body.pointer("oscillate"));
    readBoundMembers(o, desc.kinematic);
    const bool moves =
        glm::length(desc.kinematic.amplitude) > 0.0f || glm::length(desc.kinematic.angularAmplitude) > 0.0f;
    if (moves && !(desc.kinematic.period > 0.0f))
        r.fail(o.pointer("period"), "must be > 0 when amplitude or angular_amplitude is non-zero, got " +
                                        describeJsonValue(o.value("period")));
}

BodyDesc parseBody(const Fields& f, const Reporter& r) {
    BodyDesc desc;
    rejectKeysOfOtherShapes(f, f.text("shape"), r);
    readBoundMembers(f, desc);
    for (unsigned char c : desc.name)
        if (c < 32 || c == ',' || c == '"')
            r.fail(f.pointer("name"),
                   "must not contain commas, quotes or control characters (it names CSV columns), got " +
                       describeJsonValue(f.value("name")));
    if (desc.shape == "polytope") {
        if (!desc.planes.empty() && !desc.vertices.empty())
            r.fail(f.pointer("vertices"), "give planes or vertices, not both");
        if (desc.planes.empty() && desc.vertices.empty())
            r.fail(f.has("planes")     ? f.pointer("planes")
                   : f.has("vertices") ? f.pointer("vertices")
                                       : f.pointer(),
                   "a polytope needs planes [[nx, ny, nz, d], ...] or vertices [[x, y, z], ...], got none");
    }
    if (desc.hole && desc.motion != MotionKind::Kinematic)
        r.fail(f.has("motion") ? f.pointer("motion") : f.pointer("hole"),
               "a container (hole: true) must have motion \"kinematic\", got \"dynamic\"" +
                   std::string(f.has("motion") ? "" : " (the default)"));
    parseOscillation(f, desc, r);
    return desc;
}

// Builds the body exactly as buildSimulation will, so shape errors surface while loading.
RigidBody buildBody(const BodyDesc& desc, const Reporter& r, const std::string& pointer) {
    try {
        return rigidBodyFromDesc(desc);
    } catch (const BodyBuildError& e) {
        r.fail(e.key.empty() ? pointer : childPointer(pointer, e.key), e.what());
    }
}

// --- rules across fields -----------------------------------------------------------------------

void checkTotalDensity(const RegionDesc& region, float ambient, const std::string& pointer, const Reporter& r) {
    const vec3 g = region.densityGradient;
    // min over the region of g.(x - origin) = -max(-g.x) - g.origin
    const float lowestChange = -regionSupport(region, -g) - glm::dot(g, regionDensityOrigin(region));
    const float lowest = ambient + region.density + lowestChange;
    if (lowest > 0.0f) return;
    const bool graded = glm::length(g) > 0.0f;
    r.fail(childPointer(pointer, graded ? "density_gradient" : "density"),
           "total density ambient_density + deviation must stay > 0 over the whole region, got a minimum of " +
               formatNumber(lowest) + " (ambient " + formatNumber(ambient) + ", deviation " +
               formatNumber(region.density) + " at the centre" +
               (graded ? ", gradient " + formatVec(g) : std::string()) + ")");
}

// A convex set seen through its support function, for containment tests against containers.
struct ConvexProbe {
    std::function<float(const vec3&)> support;  // max over the set of dot(n, x)
    vec3 centre;
    float boundingRadius;
};

ConvexProbe probeOfRegion(const RegionDesc& region) {
    return {[&region](const vec3& n) { return regionSupport(region, n); }, regionDensityOrigin(region),
            regionBoundingRadius(region)};
}

ConvexProbe probeOfSphere(const vec3& centre, float radius) {
    return {[centre, radius](const vec3& n) { return glm::dot(n, centre) + radius * glm::length(n); }, centre, radius};
}

enum class Placement { Inside, Outside, Crossing };

// Where a convex set lies relative to a container's cavity (face planes for polytopes, so a
// set just beyond an edge may be called Crossing: conservative).
Placement placementInContainer(const ConvexProbe& probe, const RigidBody& container) {
    const float tolerance = 1e-5f * std::max(1.0f, container.shape.circumscribedRadius);
    if (container.shape.kind == ShapeKind::Sphere) {
        const float d = glm::length(probe.centre - container.position);
        if (d + probe.boundingRadius <= container.shape.radius + tolerance) return Placement::Inside;
        if (d >= container.shape.radius + probe.boundingRadius - tolerance) return Placement::Outside;
        return Placement::Crossing;
    }
    bool inside = true;
    for (const Plane& p : container.shape.planes) {
        const vec3 n = container.orientation * p.normal;
        const float d = p.d + glm::dot(n, container.position);
        if (-probe.support(-n) >= d - tolerance) return Placement::Outside;
        inside = inside && probe.support(n) <= d + tolerance;
    }
    return inside ? Placement::Inside : Placement::Crossing;
}

ConvexProbe solidBound(const RigidBody& body) {
    return probeOfSphere(body.position + body.orientation * body.shape.center, body.shape.circumscribedRadius);
}

std::string bodyLabel(const RigidBody& body, size_t index) {
    return (body.name.empty() ? std::string("body") : "\"" + body.name + "\"") + " (/bodies/" + std::to_string(index) +
           ")";
}

void checkBodyOverlaps(const std::vector<RigidBody>& bodies, const Reporter& r) {
    for (size_t j = 0; j < bodies.size(); ++j)
        for (size_t i = 0; i < j; ++i) {
            const RigidBody& a = bodies[i];
            const RigidBody& b = bodies[j];
            if (a.isHole() && b.isHole()) continue;
            if (!a.isHole() && !b.isHole()) {
                const ConvexProbe pa = solidBound(a), pb = solidBound(b);
                const float gap = glm::length(pa.centre - pb.centre);
                if (gap < pa.boundingRadius + pb.boundingRadius)
                    r.fail(childPointer(childPointer("/bodies", j), "position"),
                           "overlaps " + bodyLabel(a, i) + " at start: their bounding spheres (radius " +
                               formatNumber(pb.boundingRadius) + " and " + formatNumber(pa.boundingRadius) +
                               ") are only " + formatNumber(gap) + " apart, got position " + formatVec(b.position));
                continue;
            }
            const size_t solidIndex = a.isHole() ? j : i;
            const RigidBody& container = a.isHole() ? a : b;
            const RigidBody& solid = a.isHole() ? b : a;
            if (placementInContainer(solidBound(solid), container) == Placement::Crossing)
                r.fail(childPointer(childPointer("/bodies", solidIndex), "position"),
                       "crosses the wall of container " + bodyLabel(container, a.isHole() ? i : j) +
                           " at start; place it fully inside or outside, got position " + formatVec(solid.position));
        }
}

void checkRegionsInContainers(const std::vector<RegionDesc>& regions, const std::string& arrayPointer,
                              const std::vector<RigidBody>& bodies, const Reporter& r) {
    for (size_t i = 0; i < regions.size(); ++i) {
        const ConvexProbe probe = probeOfRegion(regions[i]);
        for (size_t k = 0; k < bodies.size(); ++k) {
            if (!bodies[k].isHole()) continue;
            if (placementInContainer(probe, bodies[k]) == Placement::Crossing)
                r.fail(childPointer(arrayPointer, i),
                       "container too small for its particles: the region reaches outside container " +
                           bodyLabel(bodies[k], k) + "; shrink the region or enlarge the container");
        }
    }
}

// --- assembling the scene ----------------------------------------------------------------------

void readParams(const json& document, Scene& scene, const Reporter& r) {
    const json fluidSection = document.value("fluid", json::object());
    const Fields fluid(fluidSection, "fluid", "/fluid");
    for (auto it = fluid.object().begin(); it != fluid.object().end(); ++it) {
        const std::string problem = setFluidParam(scene.fluid, it.key(), it.value());
        if (!problem.empty()) r.fail(fluid.pointer(it.key()), problem);
    }
    const json timeSection = document.value("time", json::object());
    const Fields time(timeSection, "time", "/time");
    for (auto it = time.object().begin(); it != time.object().end(); ++it) {
        const std::string problem = setTimeParam(scene.time, it.key(), it.value());
        if (!problem.empty()) r.fail(time.pointer(it.key()), problem);
    }
}

std::vector<RegionDesc> readRegions(const json& document, const std::string& key, const Reporter& r) {
    std::vector<RegionDesc> regions;
    const json& array = document.contains(key) ? document.at(key) : json::array();
    for (size_t i = 0; i < array.size(); ++i)
        regions.push_back(parseRegion(Fields(array[i], key + "[]", childPointer("/" + key, i)), r));
    return regions;
}

CameraDesc readCamera(const json& document) {
    const json view = document.value("view", json::object());
    const json cameraSection = view.value("camera", json::object());
    const Fields f(cameraSection, "view.camera", "/view/camera");
    CameraDesc camera;
    readBoundMembers(f, camera);
    return camera;
}

Scene parseWithOverrides(const json& document, const std::string& source, std::vector<OverrideRecord> overrides) {
    const Reporter r(source, std::move(overrides));
    if (!document.is_object()) r.fail("", "a scene must be a JSON object {...}, got " + describeJsonValue(document));
    checkKeys(document, "", "", r);

    Scene scene;
    scene.path = source;
    const Fields top(document, "", "");
    readBoundMembers(top, scene);
    readParams(document, scene, r);
    scene.vortons = readRegions(document, "vortons", r);
    scene.tracers = readRegions(document, "tracers", r);

    std::vector<RigidBody> bodies;
    std::set<std::string> names;
    const json& bodyArray = document.contains("bodies") ? document.at("bodies") : json::array();
    for (size_t i = 0; i < bodyArray.size(); ++i) {
        const std::string pointer = childPointer("/bodies", i);
        const Fields f(bodyArray[i], "bodies[]", pointer);
        BodyDesc desc = parseBody(f, r);
        if (!desc.name.empty() && !names.insert(desc.name).second)
            r.fail(f.pointer("name"), "must be unique among the bodies, got \"" + desc.name + "\" twice");
        bodies.push_back(buildBody(desc, r, pointer));
        scene.bodies.push_back(std::move(desc));
    }
    scene.camera = readCamera(document);

    for (size_t i = 0; i < scene.vortons.size(); ++i)
        checkTotalDensity(scene.vortons[i], scene.fluid.ambientDensity, childPointer("/vortons", i), r);
    checkBodyOverlaps(bodies, r);
    checkRegionsInContainers(scene.vortons, "/vortons", bodies, r);
    checkRegionsInContainers(scene.tracers, "/tracers", bodies, r);
    scene.document = document;
    return scene;
}

}  // namespace

Scene loadScene(const std::string& path, const std::vector<std::string>& overrides) {
    json document = parseJsonText(readTextFile(path), path);
    std::vector<OverrideRecord> records;
    for (const std::string& assignment : overrides)
        records.push_back({applyOverrideAt(document, assignment), assignment});
    return parseWithOverrides(document, path, std::move(records));
}

Scene parseScene(const json& document, const std::string& sourceName) {
    return parseWithOverrides(document, sourceName, {});
}

void applyOverride(json& document, const std::string& assignment) { applyOverrideAt(document, assignment); }

json sceneDocumentWithParams(const Scene& scene, const FluidParams& fluid, const TimeParams& time) {
    json document = scene.document.is_object() ? scene.document : json::object();
    json& fluidSection = document["fluid"];
    for (const ParamSpec* spec : paramSpecsInSection("fluid"))
        fluidSection[spec->key] = getFluidParam(fluid, spec->key);
    json& timeSection = document["time"];
    for (const ParamSpec* spec : paramSpecsInSection("time")) timeSection[spec->key] = getTimeParam(time, spec->key);
    return document;
}

}  // namespace vfx
