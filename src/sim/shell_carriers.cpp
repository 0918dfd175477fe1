#include "sim/shell_carriers.hpp"

#include "bodies/body_motion.hpp"
#include "sim/wall_fields.hpp"

#include <cmath>
#include <vector>

namespace vfx {

namespace {

// A node is empty when no vorton lies within this many spacings of it. Advected particles leave
// gaps of about a cell between them in fluid that is there (filling those with ambient fluid would
// dilute a layer's density); remeshing leaves out whole regions.
constexpr float kEmptyRadius = 1.5f;

// The lattice nodes around a body: a box of whole cells holding its circumscribed sphere and shell.
struct NodeBox {
    ivec3 first{0}, count{0};
    size_t index(const ivec3& node) const {
        const ivec3 k = node - first;
        return (size_t(k.z) * size_t(count.y) + size_t(k.y)) * size_t(count.x) + size_t(k.x);
    }
    bool holds(const ivec3& node) const {
        const ivec3 k = node - first;
        return k.x >= 0 && k.y >= 0 && k.z >= 0 && k.x < count.x && k.y < count.y && k.z < count.z;
    }
};

NodeBox nodesAround(const vec3& centre, float extent, float h) {
    NodeBox box;
    for (int a = 0; a < 3; ++a) {
        box.first[a] = int(std::floor((centre[a] - extent) / h));
        box.count[a] = int(std::ceil((centre[a] + extent) / h)) - box.first[a] + 1;
    }
    return box;
}

// Marks the nodes of the box within `radius` of x.
void markNodesNear(const vec3& x, float radius, float h, const NodeBox& box, std::vector<uint8_t>& marked) {
    const ivec3 lo(glm::ceil((x - radius) / h)), hi(glm::floor((x + radius) / h));
    for (int z = lo.z; z <= hi.z; ++z)
        for (int y = lo.y; y <= hi.y; ++y)
            for (int k = lo.x; k <= hi.x; ++k) {
                const ivec3 node(k, y, z);
                if (box.holds(node) && glm::length(vec3(node) * h - x) < radius) marked[box.index(node)] = 1;
            }
}

}  // namespace

float shellFluidShare(const std::vector<RigidBody>& bodies, size_t b, float reach) {
    constexpr int kSamplesPerHalfWidth = 6;
    const RigidBody& body = bodies[b];
    const vec3 centre = centreInWorld(body);
    const float half = body.shape.circumscribedRadius + reach, step = half / float(kSamplesPerHalfWidth);
    const auto inFluid = fluidRegionOf(bodies);
    size_t inShell = 0, wet = 0;
    for (int z = -kSamplesPerHalfWidth; z <= kSamplesPerHalfWidth; ++z)
        for (int y = -kSamplesPerHalfWidth; y <= kSamplesPerHalfWidth; ++y)
            for (int x = -kSamplesPerHalfWidth; x <= kSamplesPerHalfWidth; ++x) {
                const vec3 p = centre + step * vec3(x, y, z);
                const float d = contactDistance(body, p);
                if (!(d >= 0.0f && d < reach)) continue;
                ++inShell;
                if (inFluid(p)) ++wet;
            }
    return inShell > 0 ? float(wet) / float(inShell) : 0.0f;
}

size_t fillShellWithFluid(const RigidBody& body, const ShellLattice& lattice,
                          const std::function<bool(const vec3&)>& inFluid, Vortons& vortons) {
    const float h = lattice.spacing;
    if (!(h > 0.0f) || !(lattice.reach > 0.0f)) return 0;
    const vec3 centre = centreInWorld(body);
    const NodeBox box = nodesAround(centre, body.shape.circumscribedRadius + lattice.reach + h, h);
    if (double(box.count.x) * double(box.count.y) * double(box.count.z) > 4.0e6) return 0;  // h far below the body
    // A node holds fluid if a vorton lies within kEmptyRadius spacings of it.
    std::vector<uint8_t> occupied(size_t(box.count.x) * size_t(box.count.y) * size_t(box.count.z), 0);
    const vec3 lo = vec3(box.first) * h - kEmptyRadius * h, hi = vec3(box.first + box.count) * h + kEmptyRadius * h;
    for (const vec3& x : vortons.position)
        if (glm::all(glm::greaterThan(x, lo)) && glm::all(glm::lessThan(x, hi)))
            markNodesNear(x, kEmptyRadius * h, h, box, occupied);
    const float sigma = lattice.coreOverlap * h, volume = h * h * h;
    size_t added = 0;
    for (int z = 0; z < box.count.z; ++z)
        for (int y = 0; y < box.count.y; ++y)
            for (int x = 0; x < box.count.x; ++x) {
                const ivec3 node = box.first + ivec3(x, y, z);
                if (occupied[box.index(node)]) continue;
                const vec3 p = vec3(node) * h;
                if (!mayTouchBody(body, p, lattice.reach)) continue;
                const float d = contactDistance(body, p);
                if (!(d >= 0.0f && d < lattice.reach) || (inFluid && !inFluid(p))) continue;
                vortons.add(p, vec3(0.0f), sigma, 0.0f, volume);
                ++added;
            }
    return added;
}

}  // namespace vfx
