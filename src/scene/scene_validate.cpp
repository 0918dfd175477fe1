#include "scene/scene_validate.hpp"

#include "core/text_format.hpp"
#include "scene/scene_geometry.hpp"
#include "scene/schema.hpp"
#include "sim/box_container.hpp"

#include <algorithm>

namespace vfx {
namespace {

using json = nlohmann::json;

// --- keys against the schema -----------------------------------------------------------------

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

// Suggests the section's key within two edits, and lists them all.
std::string unknownKeyMessage(const std::string& section, const std::string& key) {
    if (section == "tracers[]" && findParamSpec("vortons[]", key))
        return "unknown key: tracers are passive, only vortons take \"" + key + "\"";  // a known, short key
    std::vector<std::string> known;
    std::string closest;
    size_t best = 3;
    for (const ParamSpec* s : paramSpecsInSection(section)) {
        known.push_back(s->key);
        // The distance is at least the difference in length: a long key cannot be a near miss.
        if (key.size() > s->key.size() + 2 || s->key.size() > key.size() + 2) continue;
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

void checkKeys(const json& object, const std::string& section, const std::string& pointer, const SceneReporter& r) {
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

// --- rules across the scene --------------------------------------------------------------------

void checkTotalDensity(const RegionDesc& region, float ambient, const std::string& pointer, const SceneReporter& r) {
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

std::string bodyLabel(const RigidBody& body, size_t index) {
    return (body.name.empty() ? std::string("body") : "\"" + body.name + "\"") + " (/bodies/" + std::to_string(index) +
           ")";
}

// Solid bodies i < j must not overlap (bounding spheres); a solid must lie fully inside or
// outside a container. Two containers may overlap.
void checkBodyPair(const std::vector<RigidBody>& bodies, size_t i, size_t j, const SceneReporter& r) {
    const RigidBody& a = bodies[i];
    const RigidBody& b = bodies[j];
    if (a.isHole() && b.isHole()) return;
    if (!a.isHole() && !b.isHole()) {
        const ConvexProbe pa = probeOfBodyBound(a), pb = probeOfBodyBound(b);
        const float gap = glm::length(pa.centre - pb.centre);
        if (gap < pa.boundingRadius + pb.boundingRadius)
            r.fail(childPointer(childPointer("/bodies", j), "position"),
                   "overlaps " + bodyLabel(a, i) + " at start: their bounding spheres (radius " +
                       formatNumber(pb.boundingRadius) + " and " + formatNumber(pa.boundingRadius) + ") are only " +
                       formatNumber(gap) + " apart, got position " + formatVec(b.position));
        return;
    }
    const size_t solidIndex = a.isHole() ? j : i;
    const RigidBody& container = a.isHole() ? a : b;
    const RigidBody& solid = a.isHole() ? b : a;
    if (placementInContainer(probeOfBodyBound(solid), container) == Placement::Crossing)
        r.fail(childPointer(childPointer("/bodies", solidIndex), "position"),
               "crosses the wall of container " + bodyLabel(container, a.isHole() ? i : j) +
                   " at start; place it fully inside or outside, got position " + formatVec(solid.position));
}

void checkRegionsInContainers(const std::vector<RegionDesc>& regions, const std::string& arrayPointer,
                              const std::vector<RigidBody>& bodies, const SceneReporter& r) {
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

}  // namespace

void checkDocumentKeys(const json& document, const SceneReporter& r) {
    if (!document.is_object()) r.fail("", "a scene must be a JSON object {...}, got " + describeJsonValue(document));
    checkKeys(document, "", "", r);
}

void rejectKeysOfOtherShapes(const SceneFields& f, const std::string& shape, const SceneReporter& r) {
    for (auto it = f.object().begin(); it != f.object().end(); ++it) {
        const ParamSpec* spec = findParamSpec(f.section(), it.key());
        const auto& only = spec->onlyForShapes;
        if (!only.empty() && std::find(only.begin(), only.end(), shape) == only.end())
            r.fail(f.pointer(it.key()), "is not used by shape \"" + shape + "\" (only by " + joinWords(only) + ")");
    }
}

void checkRegionRules(const RegionDesc& region, const SceneFields& f, const SceneReporter& r) {
    if (!f.has("count")) r.fail(f.pointer("count"), "missing: every region needs a count > 0");
    if (region.vortonRadius > 0.0f && region.vortonRadius < float(kShortestLength))
        r.fail(f.pointer("vorton_radius"), "must be 0 (automatic) or >= " + formatNumber(kShortestLength) +
                                               " and <= " + formatNumber(kWorldExtent) + ", got " +
                                               describeJsonValue(f.value("vorton_radius")));
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
}

void checkBodyRules(const BodyDesc& body, const SceneFields& f, const SceneReporter& r) {
    for (unsigned char c : body.name)
        if (c < 32 || c == ',' || c == '"')
            r.fail(f.pointer("name"),
                   "must not contain commas, quotes or control characters (it names CSV columns), got " +
                       describeJsonValue(f.value("name")));
    if (body.shape == "polytope") {
        if (!body.planes.empty() && !body.vertices.empty())
            r.fail(f.pointer("vertices"), "give planes or vertices, not both");
        if (body.planes.empty() && body.vertices.empty())
            r.fail(f.has("planes")     ? f.pointer("planes")
                   : f.has("vertices") ? f.pointer("vertices")
                                       : f.pointer(),
                   "a polytope needs planes [[nx, ny, nz, d], ...] or vertices [[x, y, z], ...], got none");
    }
    if (body.hole && body.motion != MotionKind::Kinematic)
        r.fail(f.has("motion") ? f.pointer("motion") : f.pointer("hole"),
               "a container (hole: true) must have motion \"kinematic\", got \"dynamic\"" +
                   std::string(f.has("motion") ? "" : " (the default)"));
    if (!f.has("oscillate")) return;
    if (body.motion != MotionKind::Kinematic)
        r.fail(f.pointer("oscillate"), "only kinematic bodies oscillate, this one has motion \"dynamic\"");
    const SceneFields o(f.value("oscillate"), "bodies[].oscillate", f.pointer("oscillate"));
    const bool moves =
        glm::length(body.kinematic.amplitude) > 0.0f || glm::length(body.kinematic.angularAmplitude) > 0.0f;
    if (moves && !(body.kinematic.period > 0.0f))
        r.fail(o.pointer("period"), "must be > 0 when amplitude or angular_amplitude is non-zero, got " +
                                        describeJsonValue(o.value("period")));
}

void checkUniqueBodyName(const BodyDesc& body, std::map<std::string, BodyName>& columns, const SceneFields& f,
                         const SceneReporter& r) {
    if (body.name.empty()) return;
    const std::string column = columnName(body.name);
    const auto [seen, inserted] = columns.emplace(column, BodyName{body.name, f.pointer()});
    if (inserted) return;
    if (seen->second.name == body.name)
        r.fail(f.pointer("name"), "must be unique among the bodies, got \"" + body.name + "\" twice");
    r.fail(f.pointer("name"), "must give a stats column of its own: \"" + body.name + "\" and \"" + seen->second.name +
                                  "\" (" + seen->second.pointer + ") both make body_" + column +
                                  "_x; rename one (letters and digits count, case and other characters do not)");
}

void checkSceneRules(const Scene& scene, const std::vector<RigidBody>& bodies, const SceneReporter& r) {
    for (size_t i = 0; i < scene.vortons.size(); ++i)
        checkTotalDensity(scene.vortons[i], scene.fluid.ambientDensity, childPointer("/vortons", i), r);
    for (size_t j = 0; j < bodies.size(); ++j)
        for (size_t i = 0; i < j; ++i) checkBodyPair(bodies, i, j, r);
    checkRegionsInContainers(scene.vortons, "/vortons", bodies, r);
    checkRegionsInContainers(scene.tracers, "/tracers", bodies, r);
    std::string why;
    if (scene.fluid.velocitySolver == VelocitySolver::Box && !findBoxContainer(bodies, &why))
        r.fail("/fluid/velocity_solver", "\"box\" needs " + why + "; use \"tree\" for flow without one");
}

}  // namespace vfx
