#pragma once
// A dynamic solid meets the fluid as the sphere of its volume (in its drag and in the potential
// flow it pushes aside): that sphere's radius, and the laws of a sphere's drag and spin drag.
#include "bodies/body_motion.hpp"

namespace vfx {

// Radius of the sphere of the body's volume, m.
double equivalentRadius(const RigidBody& body);

// Drag coefficient of a sphere at Reynolds number Re (Clift and Gauvin's fit to measurements,
// within a few per cent from Stokes flow to the drag crisis). Re = 0 (inviscid): the fit's
// high-Re limit.
double sphereDragCoefficient(double reynolds);

// Torque coefficient of a sphere spinning at rotational Reynolds number Re = |Omega| d^2 / nu
// (Dennis, Singh and Ingham's and Sawatzki's fits as collected by Crowe, Sommerfeld and Tsuji):
// torque = C_R / 2 rho0 r^5 |Omega| Omega. Below Re 32 it is Stokes' 8 pi mu r^3 Omega, the
// two branches meet at Re 32. Inviscid (Re = 0 given): no torque, an ideal fluid cannot spin a
// sphere.
double sphereTorqueCoefficient(double reynolds);

}  // namespace vfx
