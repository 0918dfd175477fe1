#pragma once
// The author's dye drop (Gourlay, part 9) as a scene document: a ball of radius 1 m centred 5 m
// up, density deviation +10 kg/m^3, vortons on a lattice, gravity 10 m/s^2 down. `fluid` adds or
// overrides fluid parameters; `tracers` > 0 seeds that many tracers in the ball.
#include <nlohmann/json.hpp>

namespace vfx::test {

inline nlohmann::json authorsDropScene(int vortons, nlohmann::json fluid, int tracers = 0) {
    fluid["gravity"] = {0, -10, 0};
    const nlohmann::json ball = {{"shape", "sphere"}, {"center", {0, 5, 0}}, {"radius", 1.0}};
    nlohmann::json drop = ball;
    drop.update({{"count", vortons}, {"density", 10.0}, {"layout", "lattice"}});
    nlohmann::json document = {{"fluid", fluid}, {"vortons", nlohmann::json::array({drop})}};
    if (tracers > 0) {
        nlohmann::json dye = ball;
        dye.update({{"count", tracers}, {"seed", 1}});
        document["tracers"] = nlohmann::json::array({dye});
    }
    return document;
}

}  // namespace vfx::test
