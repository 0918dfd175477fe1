#pragma once
// How far the flow has distorted the lattice the vortons were last remeshed onto, seen from
// each vorton: the flow carries its neighbours' offsets by the deformation gradient F
// (dF/dt = grad u F, F = I at a remesh), and the lattice F Z^3 they now form is kept reduced to
// its shortest basis. Shear and rotation leave that basis short (a sheared lattice is the same
// lattice, rows sliding past each other, and its particles still overlap), so only stretching
// that opens gaps between particles counts (Cottet & Koumoutsakos, "Vortex Methods", 2000,
// ch. 7, on particle overlap).
#include "core/math.hpp"

#include <vector>

namespace vfx {

struct Vortons;

// Reduces the basis (columns) of a lattice in place: pairwise Lagrange-Gauss steps, then each
// edge against the sums and differences of the other two, which in three dimensions leaves a
// basis within rounding of Minkowski's shortest.
void reduceLatticeBasis(mat3& basis);

// Advances each vorton's reduced lattice basis over a sub-step dt in the velocity gradient at it
// (F <- exp(grad u dt) F, then reduced; vortons added since the last call start from the
// identity) and returns ln of the longest reduced edge over the vortons whose vorticity or
// density deviation is at least `share` of the largest: the logarithmic stretch of the worst
// distorted neighbourhood that matters, 0 right after a remesh.
float carryLatticeMaps(const std::vector<mat3>& velocityGradient, const Vortons& vortons, float dt, float share,
                       std::vector<mat3>& maps);

}  // namespace vfx
