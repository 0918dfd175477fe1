// Wall fields: distances to walls and the fluid's share of kernel and grid
// supports near them, one particle or grid point at a time in parallel.
#include "sim/wall_fields.hpp"

#include "bodies/shapes.hpp"
#include "core/parallel.hpp"
#include "sim/sph.hpp"

#include <algorithm>

namespace vfx {

void computeWallProximity(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions, float maxProximity,
                          std::vector<float>& proximity) {
    proximity.resize(positions.size());
    parallelForEach(
        0, positions.size(),
        [&](size_t i) {
            float nearest = maxProximity;
            for (const RigidBody& body : bodies) {
                // Deep inside a hole's inscribed sphere the walls are at least that far away.
                if (body.isHole() && !mayTouchBody(body, positions[i], maxProximity)) continue;
                nearest = std::min(nearest, contactDistance(body, positions[i]));
            }
            proximity[i] = nearest;
        },
        1024);
}

namespace {

// Share of a kernel of support h centred at a world point that lies on the body's fluid side,
// from the share a flat wall at signed distance d leaves on its fluid side, flatShare(d, h).
template <class FlatShare>
float bodyKernelShare(const RigidBody& body, const vec3& worldPoint, float h, FlatShare flatShare) {
    if (body.shape.kind != ShapeKind::Polytope) return flatShare(contactDistance(body, worldPoint), h);
    const vec3 local = body.toLocal(worldPoint);
    float product = 1.0f;  // hole: share inside every face; solid: share behind every face
    for (const Plane& plane : body.shape.planes) {
        const float outside = plane.distance(local);
        product *= body.isHole() ? flatShare(-outside, h) : 1.0f - flatShare(outside, h);
    }
    return body.isHole() ? product : 1.0f - product;
}

// The trilinear (cloud-in-cell) weight of one spacing h integrated over the half-space on the
// fluid side of a flat wall at signed distance d: the tent 1 - |x|/h per axis.
float tentShareOnFluidSide(float d, float h) {
    const float u = std::clamp(d / h, -1.0f, 1.0f);
    return u >= 0.0f ? 1.0f - 0.5f * (1.0f - u) * (1.0f - u) : 0.5f * (1.0f + u) * (1.0f + u);
}

}  // namespace

float latticePointFluidShare(const std::vector<RigidBody>& bodies, const vec3& point, float h, bool containersOnly) {
    float s = 1.0f;
    for (const RigidBody& body : bodies)
        if ((body.isHole() || !containersOnly) && mayTouchBody(body, point, h))
            s *= bodyKernelShare(body, point, h, tentShareOnFluidSide);
    return s;
}

void computeGridFluidShare(const std::vector<RigidBody>& bodies, const GridShape& shape, UniformGrid<float>& share) {
    share.reset(shape, 1.0f);
    const float h = shape.spacing.x;
    const size_t nx = size_t(shape.points.x), ny = size_t(shape.points.y);
    parallelForEach(
        0, share.size(),
        [&](size_t k) {
            const vec3 point = shape.pointPosition(int(k % nx), int((k / nx) % ny), int(k / (nx * ny)));
            share[k] = latticePointFluidShare(bodies, point, h);
        },
        4096);
}

void computeWallKernelShare(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions, float h,
                            std::vector<float>& share) {
    share.resize(positions.size());
    parallelForEach(
        0, positions.size(),
        [&](size_t i) {
            float s = 1.0f;
            for (const RigidBody& body : bodies)
                if (mayTouchBody(body, positions[i], h))
                    s *= bodyKernelShare(body, positions[i], h, sphKernelShareOnFluidSide);
            share[i] = std::max(s, 0.05f);
        },
        1024);
}

std::function<bool(const vec3&)> fluidRegionOf(const std::vector<RigidBody>& bodies) {
    return [&bodies](const vec3& p) {
        for (const RigidBody& body : bodies)
            if (mayTouchBody(body, p, 0.0f) && contactDistance(body, p) < 0.0f) return false;
        return true;
    };
}

std::function<float(const vec3&, float)> containerShareOf(const std::vector<RigidBody>& bodies) {
    return [&bodies](const vec3& p, float h) {
        for (const RigidBody& body : bodies)
            if (!body.isHole() && mayTouchBody(body, p, h) && contactDistance(body, p) < h) return -1.0f;
        return latticePointFluidShare(bodies, p, h, true);
    };
}

}  // namespace vfx
