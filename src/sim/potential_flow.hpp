#pragma once
// The flow a moving body pushes aside (the potential flow of a moving sphere): its velocity and
// gradient where particles move, and what it does to the vortons' impulse.
#include "bodies/body_motion.hpp"
#include "core/uniform_grid.hpp"
#include "sim/box_container.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"
#include "sim/sphere_closure.hpp"

#include <vector>

namespace vfx {

// An image in a box container's walls, x' = matrix x + shift: a reflection of the box frame's
// axes, each in one wall (an image in a face, across an edge or through a corner), turned into
// the world's frame (matrix symmetric and its own inverse).
// Beyond this many radii the dipole is left out: its speed there is below W / 3000 (and its
// energy beyond holds 1/1700 of the whole), and most particles of a large scene are that far.
constexpr float kPotentialFlowReach = 12.0f;

struct Mirror {
    mat3 matrix{1.0f};
    vec3 shift{0.0f};
    vec3 reflect(const vec3& x) const { return matrix * x + shift; }
    vec3 reflectVector(const vec3& v) const { return matrix * v; }
};

// The irrotational flow a dynamic solid pushes aside as it moves through the fluid: the potential
// flow of the sphere of its volume moving at its velocity relative to the flow at its centre (W).
// Outside the sphere it is the dipole R^3 / (2 r^3) (3 (W.r^) r^ - W), whose normal velocity at
// the surface is W's (no flow through the body), whose kinetic energy is 1/2 m_a W^2 and whose
// momentum is m_a W, with m_a = 1/2 rho0 V the body's added mass; inside it is W. With partial
// fluid cover (the body's addedMass below 1/2 rho0 V) W is scaled by the cover. Beyond 12 radii,
// where it is below W / 3000, it is left out.
struct PotentialFlow {
    vec3 centre{0.0f};
    float radius = 0.0f;
    vec3 relativeVelocity{0.0f};  // W, m/s
    float addedMass = 0.0f;       // kg
    size_t body = 0;              // index of the body in the list it came from
    // What cancels the rest of the flow through a sphere's surface (sim/sphere_closure.hpp);
    // empty until fitted. Its velocity and gradient are summed with the dipole's below.
    SphereClosure closure;
    // Images of the flow (dipole and closure) in the walls, so that it sends nothing through them:
    // the image u'(x) = M u(M x), M the reflection, has the mirror normal speed at the plane. The
    // box velocity solver's container: the images in each face within reach and, so that a face's
    // image sends nothing through the faces beside it, across each edge and through each corner
    // between faces within reach.
    std::vector<Mirror> mirrors;
    double energy() const { return 0.5 * double(addedMass) * double(glm::dot(relativeVelocity, relativeVelocity)); }
    dvec3 momentum() const { return double(addedMass) * dvec3(relativeVelocity); }
};

// One flow per dynamic solid with fluid around it (addedMass > 0, set by exchangeDragWithFluid).
std::vector<PotentialFlow> potentialFlows(const std::vector<RigidBody>& bodies, const UniformGrid<vec3>& velocity,
                                          const FluidParams& fluid);

// The box container's images within reach of each flow, as its mirrors (box velocity solver).
void mirrorInBoxWalls(std::vector<PotentialFlow>& flows, const BoxContainer& container);

// Whether any of these spheres' closures reaches another sphere's surface or, through its image
// in a wall, its own: then their fits depend on each other.
bool closuresReachEachOther(const std::vector<PotentialFlow>& flows, const std::vector<size_t>& spheres);

// Sum of the flows' velocities at a point, images included.
vec3 potentialFlowVelocity(const std::vector<PotentialFlow>& flows, const vec3& x);

// Sum of the flows' velocity gradients at a point (column j holds du/dx_j), for stretching.
mat3 potentialFlowGradient(const std::vector<PotentialFlow>& flows, const vec3& x);

// For each flow without its images, the rate at which it changes the vortons' impulse 1/2 sum x x omega V by moving
// them and stretching their vorticity (the vortices' own flow conserves their impulse).
std::vector<dvec3> impulseRateFromPotentialFlows(const std::vector<PotentialFlow>& flows, const Vortons& vortons);

}  // namespace vfx
