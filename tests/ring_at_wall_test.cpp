// A vortex ring fired at a flat wall, against the thin-ring model with an image ring: with no
// flow through the wall (fluid.wall_sources) the ring feels the wall before it reaches it, its
// image ring slowing it and spreading it along the wall (Walker, Smith, Cerra & Doligalski, JFM
// 181, 1987: the inviscid approach). Free slip (fluid.no_slip false) is the inviscid limit the
// model describes.
#include "body_helpers.hpp"
#include "sim/simulation.hpp"
#include "test_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

namespace vfx {
namespace {

constexpr double kGamma = 3.0, kRadius = 1.0, kCore = 0.15, kHeight = 3.0, kHalfBox = 4.0;

// Velocity (radial, axial toward the wall) that the image of a ring of radius R at height h
// induces at the ring's own core: a ring of radius R at height -h with opposite vorticity, summed
// segment by segment (Biot-Savart, cores smoothed over a).
glm::dvec2 imageVelocity(double R, double h, double a) {
    constexpr int kSegments = 720;
    const double ds = 2.0 * M_PI * R / kSegments;
    const dvec3 at(R, 0.0, 0.0);  // the wall is the plane y = h above the ring; the image sits at y = 2h
    dvec3 u(0.0);
    for (int k = 0; k < kSegments; ++k) {
        const double t = (k + 0.5) * 2.0 * M_PI / kSegments;
        const dvec3 p(R * std::cos(t), 2.0 * h, R * std::sin(t));
        // The real ring moves along +y with vorticity along e_phi = y_hat x e_rho; its image turns the other way.
        const dvec3 tangent(-std::sin(t), 0.0, std::cos(t));
        const dvec3 r = at - p;
        const double d2 = glm::dot(r, r) + a * a;
        u += kGamma / (4.0 * M_PI) * glm::cross(tangent, r) / (d2 * std::sqrt(d2)) * ds;
    }
    return {u.x, u.y};
}

// The thin ring's radius when its height above the wall first falls to each of `heights`
// (descending): self-induced speed Gamma / (4 pi R) (ln(8R/a) - 1/4) toward the wall (uniform
// core, Saffman 1970), the core thinning as the ring grows (a^2 R constant), plus the image's flow.
std::vector<double> modelRadiusAtHeights(const std::vector<double>& heights) {
    double R = kRadius, h = kHeight;
    std::vector<double> out;
    const double dt = 1e-3;
    for (size_t next = 0; next < heights.size();) {
        const double a = kCore * std::sqrt(kRadius / R);
        const double self = kGamma / (4.0 * M_PI * R) * (std::log(8.0 * R / a) - 0.25);
        const glm::dvec2 image = imageVelocity(R, h, a);
        const double newH = h - dt * (self + image.y);
        const double newR = R + dt * image.x;
        while (next < heights.size() && newH <= heights[next]) {
            const double f = (h - heights[next]) / (h - newH);
            out.push_back(R + f * (newR - R));
            ++next;
        }
        h = newH;
        R = newR;
    }
    return out;
}

struct RingState {
    double height = 0.0;  // distance of the ring's core from the wall, m
    double radius = 0.0;  // |omega| V-weighted distance from the axis, m
};

RingState measure(const Vortons& v) {
    double weight = 0.0, y = 0.0, rho = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const double w = double(glm::length(v.vorticity[i])) * double(v.volume(i));
        weight += w;
        y += w * double(v.position[i].y);
        rho += w * std::hypot(double(v.position[i].x), double(v.position[i].z));
    }
    return {kHalfBox - y / weight, rho / weight};
}

struct WallRun {
    std::vector<double> radiusAtHeights;
    double finalRadius = 0.0;
};

WallRun fireRingAtWall(bool wallSources, const std::vector<double>& heights, float duration) {
    Simulation sim;
    test::makeInviscid(sim);
    // Inviscid, but with the subgrid model draining the cascade the impact starts (without it the
    // flattened ring piles strain below the particle spacing until it is no longer finite).
    sim.fluid().diffusion = true;
    // A sub-step short enough for the core's spin (Gamma / (2 pi a^2) ~ 21 rad/s): the radius at
    // each height converges at second order in the sub-step, 0.15 within 0.01 R of its limit.
    sim.fluid().strainLimit = 0.15f;
    sim.fluid().wallSources = wallSources;
    sim.fluid().noSlip = false;
    sim.bodies().push_back(test::makeContainer(vec3(float(kHalfBox))));
    test::RingSpec spec;
    spec.centre = vec3(0.0f, float(kHalfBox - kHeight), 0.0f);
    spec.radius = float(kRadius);
    spec.coreRadius = float(kCore);
    spec.circulation = float(kGamma);
    spec.count = 6000;
    test::addVortexRing(sim.vortons(), spec);
    WallRun run;
    RingState last = measure(sim.vortons());
    const float dt = 0.02f;
    for (int k = 0; k < int(duration / dt + 0.5f); ++k) {
        sim.step(dt);
        const RingState now = measure(sim.vortons());
        while (run.radiusAtHeights.size() < heights.size() && now.height <= heights[run.radiusAtHeights.size()]) {
            const double h = heights[run.radiusAtHeights.size()];
            const double f = (last.height - h) / (last.height - now.height);
            run.radiusAtHeights.push_back(last.radius + f * (now.radius - last.radius));
        }
        last = now;
    }
    run.finalRadius = last.radius;
    return run;
}

// On the way in, down to heights of about 2.5 core radii (below that the thin-ring model no
// longer holds), the ring's radius at each height matches the model's within 5% of R: the
// thin-ring speed the ring keeps (within 5%, VortexRing tests) and its O((a/R)^2) ~ 2% core
// corrections bound how far its path may stray. Then the image drives it along the wall: after
// 6 s it has more than doubled its radius (the model reaches the side walls at R 4 by then;
// through a wall that lets the flow cross, the radius stalls near 1.1 R).
TEST(RingAtWall, FeelsTheWallAndSpreadsAlongItAsItsImageDrives) {
    const std::vector<double> heights{1.0, 0.6, 0.4};
    const std::vector<double> model = modelRadiusAtHeights(heights);
    const WallRun run = fireRingAtWall(true, heights, 6.0f);
    ASSERT_EQ(run.radiusAtHeights.size(), heights.size()) << "the ring never came that close to the wall";
    for (size_t k = 0; k < heights.size(); ++k) {
        std::cout << "height " << heights[k] << ": radius " << run.radiusAtHeights[k] << " (model " << model[k]
                  << ")\n";
        EXPECT_NEAR(run.radiusAtHeights[k], model[k], 0.05 * kRadius) << "at height " << heights[k];
    }
    std::cout << "radius after 6 s: " << run.finalRadius << "\n";
    EXPECT_GT(run.finalRadius, 2.0 * kRadius);
}

}  // namespace
}  // namespace vfx
