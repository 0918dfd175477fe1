#pragma once
// Fluid for a dynamic solid's drag to act on. Vortons carry vorticity and density, and remeshing
// leaves out lattice nodes that carry neither, so still ambient fluid holds no particles. A solid
// falling into such fluid found no shell: no vortons to take its wake's impulse, no fluid to push
// aside (added mass 0), hence no drag, and the flow crossed it freely. Before its drag is
// exchanged, every node of the remeshing lattice (spacing h) within the shell that lies in fluid
// and has no vorton within 1.5 h gets a vorton of still ambient fluid: zero vorticity, zero
// density deviation, volume h^3.
// The fluid's vorticity, impulse and mass are unchanged; the next remesh leaves out what stayed
// still.
#include "bodies/body.hpp"
#include "sim/particles.hpp"

#include <functional>
#include <vector>

namespace vfx {

struct ShellLattice {
    float spacing = 0.0f;      // h, m: the remeshing lattice's, nodes at integer multiples of h
    float coreOverlap = 1.5f;  // sigma / h of the new vortons
    float reach = 0.0f;        // the shell's thickness beyond the surface, m
};

// Share of the shell within `reach` of body `b`'s surface that lies in fluid (inside the containers,
// outside the other solids), 0..1, from a fixed lattice of sample points in the shell. In the
// vortex particle method the fluid fills every place the walls leave it, whether or not vortons
// are there; this is how much of it surrounds the body.
float shellFluidShare(const std::vector<RigidBody>& bodies, size_t b, float reach);

// Appends the carriers to `vortons` (after the ones already there); returns how many it added.
size_t fillShellWithFluid(const RigidBody& body, const ShellLattice& lattice,
                          const std::function<bool(const vec3&)>& inFluid, Vortons& vortons);

}  // namespace vfx
