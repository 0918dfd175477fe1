// Drag and spin drag of each dynamic solid as the sphere of its volume (equivalent_sphere.hpp),
// integrated implicitly; what the body loses reaches the fluid through its shell
// (shell_impulse.hpp).
#include "sim/drag_exchange.hpp"

#include "sim/equivalent_sphere.hpp"
#include "sim/shell_carriers.hpp"
#include "sim/shell_impulse.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

namespace {

// Half the curl of the velocity grid at a point (the local rotation rate of the flow), from
// central differences one spacing apart; zero where the stencil leaves the grid.
vec3 flowRotation(const UniformGrid<vec3>& velocity, const vec3& point) {
    if (velocity.size() == 0) return vec3(0.0f);
    const float h = velocity.shape().spacing.x;
    vec3 du[3];
    for (int axis = 0; axis < 3; ++axis) {
        vec3 step(0.0f);
        step[axis] = h;
        if (!velocity.shape().encloses(point + step) || !velocity.shape().encloses(point - step)) return vec3(0.0f);
        du[axis] = (velocity.interpolate(point + step) - velocity.interpolate(point - step)) / (2.0f * h);
    }
    // du[a][c] = d u_c / d x_a
    return 0.5f * vec3(du[1].z - du[2].y, du[2].x - du[0].z, du[0].y - du[1].x);
}

// The implicit change of a velocity-like quantity q under the drag law dq/dt = -c |q| q / inertia
// over dt: never reverses q, whatever dt.
dvec3 implicitDragChange(const dvec3& q, double c, double inertia, double dt) {
    const double magnitude = glm::length(q);
    if (!(magnitude > 0.0) || !(c > 0.0)) return dvec3(0.0);
    return -q * (inertia * c * magnitude * dt / (inertia + c * magnitude * dt));
}

// How much fluid surrounds the body, 0..1. Vortex particles: the share of the shell the walls
// leave to fluid (the fluid fills it, vortons or not; the simulation fills an empty shell with
// still vortons to carry the wake). SPH and hybrid: the particles are the fluid, so the volume
// they hold in the shell over the shell's (the sphere of the body's volume).
double fluidCover(const std::vector<RigidBody>& bodies, size_t b, const Shell& shell, double radius, double reach,
                  FluidMethod method) {
    if (method == FluidMethod::Vpm) return double(shellFluidShare(bodies, b, float(reach)));
    const double shellVolume = 4.0 / 3.0 * kPiDouble * (std::pow(radius + reach, 3.0) - std::pow(radius, 3.0));
    return std::min(1.0, shell.volume / shellVolume);
}

}  // namespace

void exchangeDragWithFluid(std::vector<RigidBody>& bodies, Vortons& vortons, const UniformGrid<vec3>& velocity,
                           const FluidParams& fluid, float shellThickness, float dt,
                           const std::vector<dvec3>& returnedImpulse) {
    std::vector<float> depths;
    const double rho0 = fluid.ambientDensity;
    for (size_t b = 0; b < bodies.size(); ++b) {
        RigidBody& body = bodies[b];
        const dvec3 returned = b < returnedImpulse.size() ? returnedImpulse[b] : dvec3(0.0);
        if (body.motion != MotionKind::Dynamic || body.isHole()) continue;
        const vec3 centre = centreInWorld(body);
        const vec3 flow =
            velocity.size() > 0 && velocity.shape().encloses(centre) ? velocity.interpolate(centre) : vec3(0.0f);
        const dvec3 relative = dvec3(body.velocity) - dvec3(flow);
        const dvec3 relativeSpin = dvec3(body.angularVelocity) - dvec3(flowRotation(velocity, centre));
        const double speed = glm::length(relative), spinRate = glm::length(relativeSpin);
        // Moving with the flow and its added mass known: nothing to exchange, skip the shell scan.
        if (!(speed > 0.0) && !(spinRate > 0.0) && body.addedMass > 0.0f && returned == dvec3(0.0)) continue;
        const float reach = shellThickness;
        const Shell shell = gatherShell(body, vortons, reach, depths);
        if (shell.members.size() < 8) {  // too few vortons to carry a ring: no fluid to push
            body.addedMass = 0.0f;
            continue;
        }
        const double radius = equivalentRadius(body);
        const double cover = fluidCover(bodies, b, shell, radius, reach, fluid.method);  // 0..1
        body.addedMass = float(0.5 * rho0 * double(body.shape.volume()) * cover);
        const double nu = fluid.viscosity;
        const double reynolds = nu > 0.0 ? speed * 2.0 * radius / nu : 0.0;
        const double spinReynolds = nu > 0.0 ? spinRate * 4.0 * radius * radius / nu : 0.0;
        const double dragFactor = 0.5 * rho0 * sphereDragCoefficient(reynolds) * kPiDouble * radius * radius * cover;
        const double torqueFactor = 0.5 * rho0 * sphereTorqueCoefficient(spinReynolds) * std::pow(radius, 5.0) * cover;
        const dvec3 bodyImpulse =
            implicitDragChange(relative, dragFactor, double(body.mass) + double(body.addedMass), double(dt));
        // The moment of inertia about the spin axis (the body's, in world axes).
        const mat3 rotation = glm::mat3_cast(body.orientation);
        const mat3 inverseInertia = rotation * body.inverseInertiaLocal * glm::transpose(rotation);
        const dvec3 axis = spinRate > 0.0 ? relativeSpin / spinRate : dvec3(0.0);
        const double inertia = spinRate > 0.0 ? 1.0 / glm::dot(axis, dvec3(inverseInertia * vec3(axis))) : 0.0;
        const dvec3 bodyAngularImpulse = implicitDragChange(relativeSpin, torqueFactor, inertia, double(dt));
        // What the body loses the fluid gains, as impulse rho0 I and angular impulse rho0 A about
        // the origin; the drag acts at the centre, so it moves the body's orbital angular momentum too.
        const dvec3 angularChange = bodyAngularImpulse + glm::cross(dvec3(centre), bodyImpulse);
        const dvec3 fluidImpulse = -bodyImpulse / rho0 + returned;
        const dvec3 fluidAngularImpulse = -angularChange / rho0 + glm::cross(dvec3(centre), returned);
        if (!injectImpulses(vortons, shell, dvec3(centre), reach, fluidImpulse, fluidAngularImpulse)) continue;
        body.impulse += vec3(bodyImpulse);
        body.angularImpulse += vec3(bodyAngularImpulse);
    }
}

}  // namespace vfx
