#pragma once
// Scene validation: every key against the schema table (with a did-you-mean for near misses),
// the rules between fields of one region or body, and the rules across the whole scene (total
// density, overlapping bodies, regions that leave containers). Each check throws the SceneError
// of the first problem it finds, through the reporter.
#include "scene/scene.hpp"
#include "scene/scene_document.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace vfx {

// The document is an object, every key is known and every value fits its schema row.
void checkDocumentKeys(const nlohmann::json& document, const SceneReporter& r);
// Keys that only some shapes use are errors for the others, so nothing is silently ignored.
void rejectKeysOfOtherShapes(const SceneFields& f, const std::string& shape, const SceneReporter& r);

// A region needs a count, a ring a non-zero axis and a core thinner than its radius, a box
// max > min.
void checkRegionRules(const RegionDesc& region, const SceneFields& f, const SceneReporter& r);
// Names fit CSV columns, a polytope has planes or vertices, containers and oscillating bodies
// are kinematic, an oscillation that moves has a period.
void checkBodyRules(const BodyDesc& body, const SceneFields& f, const SceneReporter& r);
// A named body's name and where it is, by the stats column it makes.
struct BodyName {
    std::string name;
    std::string pointer;
};
// Body names are unique and give stats columns of their own ("a b" and "a_b" both make
// body_a_b_x); `columns` collects the names seen so far.
void checkUniqueBodyName(const BodyDesc& body, std::map<std::string, BodyName>& columns, const SceneFields& f,
                         const SceneReporter& r);

// Rules across the scene: total density stays positive in every vorton region, solid bodies do
// not overlap or cross container walls, and regions lie inside or outside each container.
// `bodies` are the scene's bodies as built, in order.
void checkSceneRules(const Scene& scene, const std::vector<RigidBody>& bodies, const SceneReporter& r);

}  // namespace vfx
