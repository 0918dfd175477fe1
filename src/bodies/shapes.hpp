#pragma once
// Factories for collision shapes and rigid bodies, with validation. Errors are thrown as
// std::invalid_argument with a message that says what is wrong (the caller adds file/path).
#include "bodies/body.hpp"

#include <string>
#include <vector>

namespace vfx {

CollisionShape makeSphereShape(float radius, bool hole);
CollisionShape makeBoxShape(const vec3& halfExtents, bool hole);
// Planes n.x = d (normals need not be unit; zero normals and unbounded/empty sets are rejected).
CollisionShape makePolytopeFromPlanes(const std::vector<Plane>& planes, bool hole);
// Convex hull of the vertices (at least 4, not coplanar).
CollisionShape makePolytopeFromVertices(const std::vector<vec3>& vertices, bool hole);

// Readies a newly built body: sets mass, inverse mass and inertia from shape and density
// (kinematic: inverse mass 0), validates density and kinematic motion, records the current pose
// as the rest pose, takes the body's velocity as the drift of a kinematic body and resets the
// body clock. Containers (holes) must be kinematic. Throws std::invalid_argument.
void finalizeBodyMass(RigidBody& body);

// Edits a live body's density and motion: only its mass properties change, it keeps its pose,
// velocity and prescribed path. A body made kinematic holds its current pose (no drift; its
// rest pose moves so its oscillation passes through where it is). Returns "" or what is wrong
// (bad density; a container cannot be dynamic), and then changes nothing.
std::string changeBodyMaterial(RigidBody& body, float density, MotionKind motion);

// --- Local-frame geometry (the shape's own frame). Distances are signed toward the fluid:
// positive where a point is free (outside a solid, inside a hole), negative when penetrating.
// `feature` (optional) gets the plane index of the face used, -1 for spheres.

// Contact distance of a point at rest: the largest plane distance times the parity (part 14).
// Exact inside a solid and inside a hole; outside a solid near an edge it is a lower bound.
float shapeContactDistance(const CollisionShape& shape, const vec3& local, vec3* normalIntoFluid = nullptr,
                           int* feature = nullptr);
// Collision distance of a moving point (relative velocity in the shape frame). Solids only
// count planes the point moves deeper through (or is outside of); holes count every plane.
float shapeCollisionDistance(const CollisionShape& shape, const vec3& local, const vec3& localRelativeVelocity,
                             vec3* normalIntoFluid = nullptr, int* feature = nullptr);
// Contact point on the surface for a point at signed distance `distance` along `normalIntoFluid`.
inline vec3 shapeContactPoint(const vec3& local, const vec3& normalIntoFluid, float distance) {
    return local - normalIntoFluid * distance;
}
// Moves a point that lies outside a hole to `margin` inside it (every violated face, exactly
// for boxes; falls back to a radial move toward the centre for awkward polytopes).
// Returns the sum of the inward normals of the faces it moved through (zero if none).
vec3 moveInsideHole(const CollisionShape& shape, vec3& local, float margin);
// Push distance used to place particles strictly on the fluid side of a surface.
inline float collisionMargin(const CollisionShape& shape) { return 1e-4f * shape.circumscribedRadius; }
// Normals (local frame, into the fluid) of every face within `reach` of a point: the faces the
// point touches. Appends feature indices (plane index; 0 for a sphere) and normals.
void nearFeatures(const CollisionShape& shape, const vec3& local, float reach, std::vector<int>& features,
                  std::vector<vec3>& normals);

}  // namespace vfx
