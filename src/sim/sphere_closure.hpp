#pragma once
// No flow through a dynamic sphere. The dipole a moving solid pushes aside (potential_flow.hpp)
// cancels the uniform part of the flow it meets, measured at its centre; the rest still crosses
// its surface: a vortex passing close, its own wake, the share of the dipole a wall's nearness
// takes away. The closure is the potential flow outside the sphere that cancels that remainder
// (the method of fundamental solutions, as for the walls in wall_sources.hpp): point sources on a
// concentric sphere of 0.7 R, their strengths the damped least-squares fit of (V - u) . n at
// collocation points on the surface, u the flow there with the dipole, less its mean, which a
// point source at the centre cancels (the vortex flow, interpolated from a grid, carries a small
// net flux). Irrotational and divergence-free outside the sphere, it moves and stretches the
// particles around the body and never reaches the grid the body's drag reads. Beyond
// kClosureNear radii a coarse set of sources nearer the centre stands in for the fine one (the
// same flow there, fitted once for all spheres, at a tenth of the cost); beyond kClosureReach
// radii it is left out: there the sources, summing to zero, fall away as a dipole, and the
// centre's source to 1/16 of the net flux speed it cancels.
#include "core/math.hpp"

#include <vector>

namespace vfx {

constexpr float kClosureReach = 4.0f;  // radii
constexpr float kClosureNear = 2.0f;   // radii

// A set of point sources laid out for summing eight at a time: positions (m) and strengths over
// 4 pi (m^3/s), padded to a multiple of eight with sources of no strength far away.
struct SourceLanes {
    std::vector<float> x, y, z, strength;
};

struct SphereClosure {
    std::vector<vec4> sources;        // world position (xyz, m) and strength (w, m^3/s)
    std::vector<vec4> farSources;     // the coarse set that gives their flow beyond kClosureNear radii
    SourceLanes nearLanes, farLanes;  // the same two sets, as closureVelocity sums them
};

// Fits the unit sphere's maps, shared by every sphere, if they are not fitted yet: about 0.05 s
// once per process. Loaders call it when a scene has a sphere, so the step in which a sphere
// first moves does not stall; without it that step fits them.
void prepareSphereClosures();

// The collocation points on a sphere (world), where the flow the closure must cancel is sampled.
std::vector<vec3> closureCollocationPoints(const vec3& centre, float radius);

// The strengths (m^3/s) of the closure's sources, the centre's last, that cancel these normal
// speeds (m/s, outward) at the collocation points of a sphere of `radius`: linear in them.
std::vector<double> closureStrengths(float radius, const std::vector<double>& normalSpeeds);
// The closure with these strengths on a sphere at `centre`.
SphereClosure closureFromStrengths(const vec3& centre, float radius, const std::vector<double>& strengths);

// The closure for a sphere moving at `velocity`, from the flow at its collocation points (all
// but the closure itself).
SphereClosure fitSphereClosure(const vec3& centre, float radius, const vec3& velocity,
                               const std::vector<vec3>& flowAtPoints);

// The closure's velocity (m/s) and its gradient (column j = du/dx_j, 1/s) at x, zero within 0.9
// radii (inside the body) and beyond kClosureReach radii.
vec3 closureVelocity(const SphereClosure& closure, const vec3& centre, float radius, const vec3& x);
mat3 closureGradient(const SphereClosure& closure, const vec3& centre, float radius, const vec3& x);

}  // namespace vfx
