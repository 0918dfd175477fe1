// Body meshes for the renderer (render/mesh_builder.hpp): a box's twelve outward triangles and a
// closed sphere of the body's radius; the wall-flow colour ramp (render/wall_flow_colour.hpp).
#include <gtest/gtest.h>

#ifdef VFX_HAVE_DEMO_CORE

#include "bodies/shapes.hpp"
#include "render/mesh_builder.hpp"
#include "render/wall_flow_colour.hpp"

namespace vfx {
namespace {

TEST(WallFlowColour, GreenAtATenthOfAPercentYellowAtOneRedAtTen) {
    const glm::vec4 green = wallFlowColour(0.0f, 1.0f), yellow = wallFlowColour(0.01f, 1.0f),
                    red = wallFlowColour(0.2f, 1.0f);
    EXPECT_GT(green.y, 0.8f);
    EXPECT_LT(green.x, 0.3f);
    EXPECT_EQ(wallFlowColour(0.001f, 1.0f), green);  // at and below 0.1%: the same green
    EXPECT_GT(yellow.x, 0.95f);
    EXPECT_GT(yellow.y, 0.85f);
    EXPECT_EQ(wallFlowColour(0.1f, 1.0f), red);  // at and above 10%: the same red
    EXPECT_LT(red.y, 0.25f);
    EXPECT_EQ(wallFlowColour(0.02f, 2.0f), yellow);  // relative to the fastest flow
}

TEST(MeshBuilder, BoxHasTwelveOutwardTriangles) {
    CollisionShape box = makeBoxShape(glm::vec3(1.0f, 2.0f, 0.5f), false);
    TriangleMesh mesh = makeShapeMesh(box);
    ASSERT_EQ(mesh.vertices.size(), 36u);
    EXPECT_EQ(mesh.edgeLines.size(), 48u);  // 6 faces x 4 edges, 2 points each
    for (size_t t = 0; t < mesh.vertices.size(); t += 3) {
        glm::vec3 a = mesh.vertices[t].position, b = mesh.vertices[t + 1].position, c = mesh.vertices[t + 2].position;
        glm::vec3 n = mesh.vertices[t].normal;
        EXPECT_GT(glm::dot(n, (a + b + c) / 3.0f), 0.0f);        // normal points out
        EXPECT_GT(glm::dot(glm::cross(b - a, c - a), n), 0.0f);  // counter-clockwise from outside
    }
}

TEST(MeshBuilder, SphereIsClosedAndScaled) {
    CollisionShape sphere = makeSphereShape(0.3f, true);
    TriangleMesh mesh = makeShapeMesh(sphere);
    ASSERT_FALSE(mesh.vertices.empty());
    for (const MeshVertex& v : mesh.vertices) EXPECT_NEAR(glm::length(v.position), 0.3f, 1e-5f);
    for (size_t t = 0; t < mesh.vertices.size(); t += 3) {
        glm::vec3 a = mesh.vertices[t].position, b = mesh.vertices[t + 1].position, c = mesh.vertices[t + 2].position;
        EXPECT_GT(glm::dot(glm::cross(b - a, c - a), a + b + c), 0.0f);
    }
}

}  // namespace
}  // namespace vfx

#endif
