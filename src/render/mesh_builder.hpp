#pragma once
// Triangle meshes for drawing rigid bodies, built from the library's collision shapes.
// Pure geometry (no OpenGL) so tests can check that a box comes out as 12 triangles.
#include "bodies/body.hpp"

#include <glm/glm.hpp>

#include <vector>

namespace vfx {

struct MeshVertex {
    glm::vec3 position;
    glm::vec3 normal;
};

struct TriangleMesh {
    std::vector<MeshVertex> vertices;  // three per triangle (flat faces keep hard normals)
    std::vector<glm::vec3> edgeLines;  // pairs of points, for the wireframe of containers
};

// Unit sphere, latitude/longitude tessellation with smooth normals.
TriangleMesh makeSphereMesh(int rings, int segments);
// Faces of a convex polytope: for each plane, the corners lying on it, ordered around the
// face and fanned into triangles. Normals point out of the solid region.
TriangleMesh makePolytopeMesh(const CollisionShape& shape);
// Mesh in the body's local frame (spheres scaled to their radius).
TriangleMesh makeShapeMesh(const CollisionShape& shape);

}  // namespace vfx
