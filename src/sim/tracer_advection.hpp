#pragma once
// The tracers' pass of a sub-step: the pass over the most particles, so it has its own kernel.
#include "core/uniform_grid.hpp"
#include "sim/particles.hpp"
#include "sim/time_integration.hpp"

#include <vector>

namespace vfx {

// Velocity (x, y, z) and density deviation side by side at each grid point: each pair of
// neighbouring corners is 32 contiguous bytes and all four values interpolate together.
using FlowAndDensity = float __attribute__((vector_size(4 * sizeof(float))));

// The box the tracers' new positions span, and whether every one is finite, found by the pass
// that moves them: the next sub-step fits its grid to it and the finite check reads it, so
// neither reads the (many) positions again. Exact min and max, the same whatever the order.
struct MovedTracerBounds {
    vec3 lo{1e30f}, hi{-1e30f};  // empty: lo above hi
    bool finite = true;
    MovedTracerBounds joined(const MovedTracerBounds& o) const;
};

// Moves every tracer one sub-step dt by the two-step rule (weights current u_n + previous u_n-1,
// sim/time_integration.hpp) in the flow of `packed`, and colours it with the density deviation
// where it starts: u_n is the packed velocity at the tracer, lastVelocity[i] holds u_n-1 on entry
// and u_n on return, tracers.velocity[i] becomes v and tracers.position[i] gains dt v. With
// `velocityBefore` (u_n-2 on entry, u_n-1 on return) the step is the three-step rule (adding
// beforePrevious u_n-2). The lookup is UniformGrid::interpolate's (the same cell, clamping and
// order of linear interpolations), with the cells and fractions found for eight tracers at once
// in SIMD lanes. Every axis of the grid must have at least two points. With `pushed`, u_n is the
// packed velocity plus pushed[i] (what moving bodies push aside there). Returns the bounds of
// the moved tracers.
MovedTracerBounds advanceTracersTwoStep(const UniformGrid<FlowAndDensity>& packed, StepWeights weights, float dt,
                                        Tracers& tracers, std::vector<vec3>& lastVelocity,
                                        std::vector<vec3>* velocityBefore = nullptr,
                                        const std::vector<vec3>* pushed = nullptr);

// The one-step (midpoint) rule for every tracer, in the flow of `packed` alone (no moving bodies):
// v = u(x + dt/2 u(x)), looked up as above; lastVelocity[i] becomes u(x). With `velocityBefore`
// it takes beforePrevious times it as well and becomes the old lastVelocity[i], as the generic
// path keeps the three-step rule's history through a one-step sub-step. Returns the bounds of
// the moved tracers.
MovedTracerBounds advanceTracersByMidpoint(const UniformGrid<FlowAndDensity>& packed, StepWeights weights, float dt,
                                           Tracers& tracers, std::vector<vec3>& lastVelocity,
                                           std::vector<vec3>* velocityBefore = nullptr);

}  // namespace vfx
