#pragma once
// How much flow crosses the walls: at points spread over every body's surface (containers and
// solids), the speed |(u - u_wall) . n| of the fluid through the wall, u being the velocity the
// vortices induce there plus the flows moving solids push aside, u_wall the wall's own velocity.
// Zero is the no-through-flow condition an impermeable wall sets.
#include "core/math.hpp"

#include <vector>

namespace vfx {

class Simulation;

struct WallFlowSample {
    vec3 position{0.0f};    // world frame, m
    vec3 normal{0.0f};      // unit, outward of the body's shape
    float normalSpeed = 0;  // |(u - u_wall) . n|, m/s
    int body = 0;           // index into Simulation::bodies()
};

// Points on each body's surface (about kWallSamplesPerBody each) with the flow through the wall.
constexpr int kWallSamplesPerBody = 1024;
std::vector<WallFlowSample> measureWallFlow(const Simulation& sim, int samplesPerBody = kWallSamplesPerBody);

// The largest normal speed of the samples (0 without bodies), m/s.
float largestWallNormalSpeed(const std::vector<WallFlowSample>& samples);

}  // namespace vfx
