#pragma once
// Convex polytopes (part 13's collision shapes): built from face planes by clipping each face
// by the others, O(n^2) in the number of planes, or from vertices as their convex hull; and
// their volume and second moment. The factories makePolytopeFromPlanes/Vertices are declared in
// bodies/shapes.hpp.
#include "bodies/body.hpp"

#include <cstddef>
#include <vector>

namespace vfx {

// Most planes and vertices a polytope may have (a hull of 256 vertices has at most 508 faces).
inline constexpr size_t kMaxPolytopePlanes = 512;
inline constexpr size_t kMaxPolytopeVertices = 256;

struct PolytopeMass {
    double volume = 0.0;
    glm::dmat3 secondMoment{0.0};  // integral of x x^T over the solid (unit density), about the local origin
};

// Mass properties of the polytope with these faces and corners (a CollisionShape's planes and
// vertices).
PolytopeMass polytopeMass(const std::vector<Plane>& planes, const std::vector<vec3>& corners);

}  // namespace vfx
