// Body buoyancy (part 9): the fluid's density read around each body, from the deposited mass
// and the vorton volume covering the grid there.
#include "sim/body_buoyancy.hpp"

#include "bodies/shapes.hpp"
#include "core/parallel.hpp"

#include <cmath>
#include <limits>

namespace vfx {

namespace {

// A grid's value at p; 0 (ambient fluid) outside it or when it holds no values.
float gridSample(const UniformGrid<float>& grid, const vec3& p) {
    const bool valid = grid.size() > 0 && grid.size() == grid.shape().pointCount();
    return valid && grid.shape().encloses(p) ? grid.interpolate(p) : 0.0f;
}

// The fluid's mean density deviation around a body, read on its fluid side: six points one and
// a half grid spacings beyond its surface (above, below and around, relative to gravity), each
// the deposited mass deviation over the vorton volume covering it there. The ratio of the sums
// ignores points without fluid (outside a tank, in a body's emptied interior), and the pair above
// and below averages a linear stratification to its value at the centre. NaN: no fluid around.
float surroundingDeviation(const RigidBody& body, const UniformGrid<float>& deviation,
                           const UniformGrid<float>& coverage, const FluidParams& fluid) {
    const vec3 centre = centreInWorld(body);
    const float g = glm::length(fluid.gravity);
    const vec3 down = g > 0.0f ? fluid.gravity / g : vec3(0.0f, -1.0f, 0.0f);
    const vec3 side =
        glm::normalize(glm::abs(down.x) < 0.9f ? glm::cross(down, vec3(1, 0, 0)) : glm::cross(down, vec3(0, 1, 0)));
    const vec3 other = glm::cross(down, side);
    const float gap = 1.5f * deviation.shape().spacing.x;
    double mass = 0.0, covered = 0.0;
    for (const vec3& direction : {down, -down, side, -side, other, -other}) {
        const vec3 p =
            centre + direction * (reachAlong(body.shape, glm::conjugate(body.orientation) * direction) + gap);
        mass += gridSample(deviation, p);
        covered += gridSample(coverage, p);
    }
    return covered > 0.5 ? float(mass / covered) : std::numeric_limits<float>::quiet_NaN();
}

}  // namespace

void fillSolidsWithSurroundingDensity(UniformGrid<float>& meanDeviation, const std::vector<RigidBody>& bodies,
                                      const UniformGrid<float>& deposit, const UniformGrid<float>& coverage,
                                      const FluidParams& fluid, float heavyScale, float lightScale) {
    const GridShape& shape = meanDeviation.shape();
    if (meanDeviation.size() == 0 || coverage.size() != meanDeviation.size() || deposit.size() != meanDeviation.size())
        return;
    const float band = 1.5f * shape.spacing.x;
    constexpr float kFullyCovered = 0.75f;  // the coverage from which the mean density stands alone
    const size_t nx = size_t(shape.points.x), ny = size_t(shape.points.y);
    for (const RigidBody& body : bodies) {
        if (body.isHole()) continue;
        float around = surroundingDeviation(body, deposit, coverage, fluid);
        if (!std::isfinite(around)) continue;
        around *= around > 0.0f ? heavyScale : lightScale;  // as the field around was scaled
        parallelForEach(
            0, meanDeviation.size(),
            [&](size_t p) {
                if (coverage[p] >= kFullyCovered) return;
                const vec3 point = shape.pointPosition(int(p % nx), int((p / nx) % ny), int(p / (nx * ny)));
                if (mayTouchBody(body, point, band) && contactDistance(body, point) < band) meanDeviation[p] = around;
            },
            4096);
    }
}

float displacedMass(const RigidBody& body, const UniformGrid<float>& densityDeviation, const FluidParams& fluid,
                    const UniformGrid<float>* coverage) {
    if (body.isHole()) return 0.0f;  // a container holds fluid rather than displacing it
    if (coverage && coverage->size() == densityDeviation.size() && densityDeviation.size() > 0) {
        const float around = surroundingDeviation(body, densityDeviation, *coverage, fluid);
        return (fluid.ambientDensity + (std::isfinite(around) ? around : 0.0f)) * body.shape.volume();
    }
    const vec3 centre = centreInWorld(body);
    float deviation = gridSample(densityDeviation, centre);
    const float g = glm::length(fluid.gravity);
    if (g > 0.0f) {
        // Sample one "radius" below and above the centre along gravity; outside the grid the
        // fluid is ambient (deviation 0), so the average always has three terms.
        const vec3 down = fluid.gravity / g;
        const vec3 localDown = glm::conjugate(body.orientation) * down;
        const float below = reachAlong(body.shape, localDown);
        const float above = reachAlong(body.shape, -localDown);
        deviation = (deviation + gridSample(densityDeviation, centre + down * below) +
                     gridSample(densityDeviation, centre - down * above)) /
                    3.0f;
    }
    return (fluid.ambientDensity + deviation) * body.shape.volume();
}

void applyBuoyancyAndGravity(std::vector<RigidBody>& bodies, const UniformGrid<float>& densityDeviation,
                             const FluidParams& fluid, const UniformGrid<float>* coverage) {
    for (RigidBody& body : bodies) {
        body.lastDisplacedMass = displacedMass(body, densityDeviation, fluid, coverage);
        if (body.motion != MotionKind::Dynamic) continue;
        body.force += fluid.gravity * (body.mass - body.lastDisplacedMass);
    }
}

}  // namespace vfx
