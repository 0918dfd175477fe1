#include "render/mesh_builder.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

glm::vec3 anyPerpendicular(const glm::vec3& n) {
    glm::vec3 axis = std::abs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    return glm::normalize(glm::cross(n, axis));
}

// Corners within a small tolerance of the plane, sorted counter-clockwise seen from outside.
std::vector<glm::vec3> faceLoop(const Plane& plane, const std::vector<glm::vec3>& corners, float tolerance) {
    std::vector<glm::vec3> onFace;
    for (const glm::vec3& c : corners)
        if (std::abs(plane.distance(c)) <= tolerance) onFace.push_back(c);
    if (onFace.size() < 3) return {};
    glm::vec3 centre(0.0f);
    for (const glm::vec3& c : onFace) centre += c;
    centre /= float(onFace.size());
    glm::vec3 u = anyPerpendicular(plane.normal);
    glm::vec3 v = glm::cross(plane.normal, u);
    std::sort(onFace.begin(), onFace.end(), [&](const glm::vec3& a, const glm::vec3& b) {
        glm::vec3 da = a - centre, db = b - centre;
        return std::atan2(glm::dot(da, v), glm::dot(da, u)) < std::atan2(glm::dot(db, v), glm::dot(db, u));
    });
    return onFace;
}

float shapeScale(const std::vector<glm::vec3>& corners) {
    float scale = 0.0f;
    for (const glm::vec3& c : corners) scale = std::max(scale, glm::length(c));
    return std::max(scale, 1e-6f);
}

}  // namespace

TriangleMesh makeSphereMesh(int rings, int segments) {
    TriangleMesh mesh;
    auto point = [&](int ring, int seg) {
        float theta = kPi * float(ring) / float(rings);
        float phi = 2.0f * kPi * float(seg) / float(segments);
        glm::vec3 p(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi));
        return MeshVertex{p, p};
    };
    for (int r = 0; r < rings; ++r) {
        for (int s = 0; s < segments; ++s) {
            MeshVertex a = point(r, s), b = point(r + 1, s), c = point(r + 1, s + 1), d = point(r, s + 1);
            if (r > 0) mesh.vertices.insert(mesh.vertices.end(), {a, d, c});
            if (r < rings - 1) mesh.vertices.insert(mesh.vertices.end(), {a, c, b});
        }
    }
    // A few great circles so a spherical container still shows its outline as lines.
    for (int s = 0; s < segments; ++s) {
        float phi0 = 2.0f * kPi * float(s) / float(segments), phi1 = 2.0f * kPi * float(s + 1) / float(segments);
        mesh.edgeLines.insert(mesh.edgeLines.end(),
                              {{std::cos(phi0), 0, std::sin(phi0)}, {std::cos(phi1), 0, std::sin(phi1)}});
        mesh.edgeLines.insert(mesh.edgeLines.end(),
                              {{std::cos(phi0), std::sin(phi0), 0}, {std::cos(phi1), std::sin(phi1), 0}});
        mesh.edgeLines.insert(mesh.edgeLines.end(),
                              {{0, std::cos(phi0), std::sin(phi0)}, {0, std::cos(phi1), std::sin(phi1)}});
    }
    return mesh;
}

TriangleMesh makePolytopeMesh(const CollisionShape& shape) {
    TriangleMesh mesh;
    float tolerance = 1e-4f * shapeScale(shape.vertices);
    for (const Plane& plane : shape.planes) {
        std::vector<glm::vec3> loop = faceLoop(plane, shape.vertices, tolerance);
        if (loop.empty()) continue;  // redundant plane that touches the solid in an edge or a point
        glm::vec3 n = glm::normalize(plane.normal);
        for (size_t i = 1; i + 1 < loop.size(); ++i)
            mesh.vertices.insert(mesh.vertices.end(), {{loop[0], n}, {loop[i], n}, {loop[i + 1], n}});
        for (size_t i = 0; i < loop.size(); ++i)
            mesh.edgeLines.insert(mesh.edgeLines.end(), {loop[i], loop[(i + 1) % loop.size()]});
    }
    return mesh;
}

TriangleMesh makeShapeMesh(const CollisionShape& shape) {
    if (shape.kind == ShapeKind::Polytope) return makePolytopeMesh(shape);
    TriangleMesh mesh = makeSphereMesh(24, 48);
    for (MeshVertex& v : mesh.vertices) v.position *= shape.radius;
    for (glm::vec3& p : mesh.edgeLines) p *= shape.radius;
    return mesh;
}

}  // namespace vfx
