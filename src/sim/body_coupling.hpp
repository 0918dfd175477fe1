#pragma once
// Fluid-body coupling (parts 4, 9, 13, 14), the entry the simulation step includes. In step order:
// - body_collisions.hpp: particles pushed out of bodies, no-slip vorticity, the push on bodies
//   that do not yield;
// - wall_fields.hpp: wall proximity and the fluid's share of kernel and grid supports;
// - body_buoyancy.hpp: displaced mass, gravity minus buoyancy, solids filled in the buoyancy field;
// - drag_exchange.hpp: drag and spin drag of dynamic solids, given to the fluid through a shell
//   of vortons (shell_impulse.hpp), the body taken as the sphere of its volume
//   (equivalent_sphere.hpp), the shell first filled with still fluid where remeshing left
//   none (shell_carriers.hpp);
// - potential_flow.hpp: the flow a moving solid pushes aside;
// - poisoning.hpp: the density gradient's wall-normal part removed at walls.
// The bodies themselves (shapes, motion) know nothing of the fluid.
#include "sim/body_buoyancy.hpp"
#include "sim/body_collisions.hpp"
#include "sim/drag_exchange.hpp"
#include "sim/poisoning.hpp"
#include "sim/potential_flow.hpp"
#include "sim/shell_carriers.hpp"
#include "sim/wall_fields.hpp"
