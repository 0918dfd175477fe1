// Still fluid in a dynamic solid's shell: every node of the remeshing lattice within the shell and
// in fluid with no vorton within 1.5 spacings gets one vorton of still ambient fluid; nodes by a
// vorton and places outside the fluid get none, and the vortons there stay as they were.
#include "body_helpers.hpp"
#include "sim/shell_carriers.hpp"
#include "sim/wall_fields.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace vfx {
namespace {

using test::makeBody;
using test::makeContainer;

// Lattice nodes (multiples of h) whose distance from the sphere's surface is in [0, reach), at or
// above floorY and not within 1.5 h of `taken`.
size_t shellNodes(const vec3& centre, float radius, float reach, float h, float floorY, const vec3& taken) {
    size_t n = 0;
    const int m = int(std::ceil((radius + reach) / h)) + 2;
    for (int z = -m; z <= m; ++z)
        for (int y = -m; y <= m; ++y)
            for (int x = -m; x <= m; ++x) {
                const vec3 p = vec3(x, y, z) * h;
                const float d = glm::length(p - centre) - radius;
                if (d >= 0.0f && d < reach && p.y >= floorY && glm::length(p - taken) >= 1.5f * h) ++n;
            }
    return n;
}

TEST(ShellCarriers, EveryEmptyShellNodeInFluidGetsOneStillVorton) {
    const float h = 0.1f, reach = 0.2f, radius = 0.25f;
    std::vector<RigidBody> bodies{makeBody(makeSphereShape(radius, false), 2.0f)};
    Vortons v;
    // One vorton in the shell, a little off the node (0.3, 0, 0): the nodes near it hold fluid.
    const vec3 taken(0.32f, 0.01f, 0.0f);
    v.add(taken, vec3(1.0f, 2.0f, 3.0f), 0.15f, 0.5f, h * h * h);
    const ShellLattice lattice{h, 1.5f, reach};
    const size_t added = fillShellWithFluid(bodies[0], lattice, fluidRegionOf(bodies), v);
    const size_t empty = shellNodes(vec3(0.0f), radius, reach, h, -1e9f, taken);
    EXPECT_GT(empty, 100u);
    EXPECT_EQ(added, empty);
    for (size_t i = 1; i < v.size(); ++i) {
        EXPECT_EQ(v.vorticity[i], vec3(0.0f));
        EXPECT_EQ(v.density[i], 0.0f);
        EXPECT_FLOAT_EQ(v.volume(i), h * h * h);
        EXPECT_FLOAT_EQ(v.radius[i], 1.5f * h);
    }
    // The vorton already there is untouched.
    EXPECT_EQ(v.vorticity[0], vec3(1.0f, 2.0f, 3.0f));
    // Filled once, the shell has no empty node left.
    EXPECT_EQ(fillShellWithFluid(bodies[0], lattice, fluidRegionOf(bodies), v), 0u);
}

TEST(ShellCarriers, NothingIsPlacedOutsideTheFluid) {
    const float h = 0.1f, reach = 0.2f, radius = 0.25f;
    // The ball rests on the floor of a box container: the floor at y = -0.25 cuts its shell.
    std::vector<RigidBody> bodies{makeBody(makeSphereShape(radius, false), 2.0f),
                                  makeContainer(vec3(1.0f), vec3(0.0f, 0.75f, 0.0f))};
    Vortons v;
    v.add(vec3(5.0f), vec3(0.0f), 0.15f, 0.0f, h * h * h);
    const size_t added = fillShellWithFluid(bodies[0], ShellLattice{h, 1.5f, reach}, fluidRegionOf(bodies), v);
    EXPECT_EQ(added, shellNodes(vec3(0.0f), radius, reach, h, -0.25f, vec3(5.0f)));
    for (size_t i = 1; i < v.size(); ++i) EXPECT_GE(v.position[i].y, -0.25f);
}

// The fluid's share of a shell: all of it in open fluid; for a ball resting on a container's floor,
// the shell less the cap of its outer sphere below the floor, pi t^2 (3 (r + t) - t) / 3. The
// sample lattice (spacing s = (r + t) / 6) places the floor within s / 2, which moves at most the
// floor's disc through the shell, pi ((r + t)^2 - r^2) s / 2, across it.
TEST(ShellCarriers, TheFluidsShareOfAShellIsWhatTheWallsLeave) {
    const float radius = 0.25f, reach = 0.2f;
    std::vector<RigidBody> open{makeBody(makeSphereShape(radius, false), 2.0f)};
    EXPECT_FLOAT_EQ(shellFluidShare(open, 0, reach), 1.0f);
    std::vector<RigidBody> resting{makeBody(makeSphereShape(radius, false), 2.0f),
                                   makeContainer(vec3(1.0f), vec3(0.0f, 0.75f, 0.0f))};
    const double pi = 3.141592653589793, r = radius, t = reach, outer = r + t;
    const double shell = 4.0 / 3.0 * pi * (outer * outer * outer - r * r * r);
    const double cap = pi * t * t * (3.0 * outer - t) / 3.0;
    const double slab = pi * (outer * outer - r * r) * 0.5 * outer / 6.0;
    EXPECT_NEAR(shellFluidShare(resting, 0, reach), 1.0 - cap / shell, slab / shell);
}

}  // namespace
}  // namespace vfx
