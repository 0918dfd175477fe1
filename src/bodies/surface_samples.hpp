#pragma once
// Points spread over a collision shape's surface, in its local frame, with the surface's outward
// normal at each (for a container: out of the cavity, away from the fluid). They are where the
// flow's normal speed through a wall is measured (sim/wall_flow.hpp).
#include "bodies/body.hpp"

#include <vector>

namespace vfx {

struct SurfaceSample {
    vec3 position{0.0f};  // local frame, m
    vec3 normal{0.0f};    // unit, outward of the shape
};

// About `targetCount` points: a sphere gets a Fibonacci lattice; a polytope a square
// lattice on each face, anchored at the face's centre so a face centred on an axis is sampled on
// it, with the spacing that would put targetCount points on its circumscribed sphere (whose
// area bounds the polytope's, so the count stays near or below the target).
std::vector<SurfaceSample> surfaceSamples(const CollisionShape& shape, int targetCount);
// The distance between neighbouring samples of that layout, m.
float surfaceSampleSpacing(const CollisionShape& shape, int targetCount);

}  // namespace vfx
