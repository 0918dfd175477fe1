#pragma once
// The shell of vortons around a dynamic solid, through which its drag reaches the fluid (part 4:
// what the body loses the fluid gains as vortex impulse): which vortons take up what the body
// sheds, and the vorticity that hands them a given linear and angular impulse with the total
// vorticity unchanged.
#include "bodies/body_motion.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// A vorton in a body's shell: its depth into the shell (0 at the surface, 1 at the edge) and the
// surface normal. Its share of what the body sheds falls linearly from 1 at the surface to 0 at
// the edge, so a vorton drifting across the edge joins or leaves the exchange without a jump.
struct ShellVorton {
    size_t index = 0;
    double depth = 0.0;
    dvec3 normal{0.0};
    double weight() const { return 1.0 - depth; }
};

// The vortons around a body that take up what it sheds, in index order (the same for any thread
// count), with the fluid volume they hold.
struct Shell {
    std::vector<ShellVorton> members;
    double volume = 0.0;  // sum V: how much fluid surrounds the body
};

// The vortons within `reach` (m) of the body's surface. depths: scratch, resized to one entry
// per vorton.
Shell gatherShell(const RigidBody& body, const Vortons& v, float reach, std::vector<float>& depths);

// Adds to the shell's vortons the vorticity that changes the fluid's linear impulse
// 1/2 sum x x omega V by `impulse` and its angular impulse 1/3 sum x x (x x omega V) by
// `angularImpulse` (about the origin) exactly, leaving the total vorticity sum omega V
// unchanged; `reach` is the shell's thickness (m). The shape is physical: a ring for the impulse
// and a swirl for the angular impulse about the body centre (angularImpulse - c x impulse), each
// sized by its own 3 x 3 sums (the ring's is (tr M - M)/2 with M the shell's weighted second
// moment, positive definite unless the vortons lie on a line; a shape whose sums are singular is
// left out). What the vortons' discrete sums leave, and what the walls cutting the shell take
// away, is then made up by the least correction. The shapes come first because one square 9 x 9
// system of the three shapes and a uniform field is nearly singular for some shells cut by a
// corner. False (nothing changed) when the shell cannot carry the impulses.
bool injectImpulses(Vortons& v, const Shell& shell, const dvec3& bodyCentre, double reach, const dvec3& impulse,
                    const dvec3& angularImpulse);

}  // namespace vfx
