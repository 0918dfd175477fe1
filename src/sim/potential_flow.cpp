// The flow a moving body pushes aside: the dipole of the sphere of its volume, summed over the
// dynamic solids.
#include "sim/potential_flow.hpp"

#include "core/parallel.hpp"
#include "sim/equivalent_sphere.hpp"

#include <cmath>

namespace vfx {

namespace {

// Vortons per chunk of the impulse-rate sums (fixed: the sums never depend on the threads).
constexpr size_t kImpulseChunk = 2048;

}  // namespace

std::vector<PotentialFlow> potentialFlows(const std::vector<RigidBody>& bodies, const UniformGrid<vec3>& velocity,
                                          const FluidParams& fluid) {
    std::vector<PotentialFlow> flows;
    for (size_t b = 0; b < bodies.size(); ++b) {
        const RigidBody& body = bodies[b];
        if (body.motion != MotionKind::Dynamic || body.isHole() || !(body.addedMass > 0.0f)) continue;
        PotentialFlow f;
        f.body = b;
        f.centre = centreInWorld(body);
        f.radius = float(equivalentRadius(body));
        const vec3 flow =
            velocity.size() > 0 && velocity.shape().encloses(f.centre) ? velocity.interpolate(f.centre) : vec3(0.0f);
        // The share of the fluid that is there to be pushed (1 when the body is fully immersed).
        const float cover = body.addedMass / (0.5f * fluid.ambientDensity * body.shape.volume());
        f.relativeVelocity = cover * (body.velocity - flow);
        f.addedMass = body.addedMass;
        flows.push_back(f);
    }
    return flows;
}

namespace {

// The flow's own velocity and gradient at a point: the dipole and the closure, without its images.
vec3 ownPotentialFlowVelocity(const PotentialFlow& f, const vec3& x) {
    vec3 u = closureVelocity(f.closure, f.centre, f.radius, x);
    const vec3 r = x - f.centre;
    const float r2 = glm::dot(r, r);
    const float radius2 = f.radius * f.radius;
    if (r2 > kPotentialFlowReach * kPotentialFlowReach * radius2) return u;
    if (r2 <= radius2) return u + f.relativeVelocity;  // inside: the fluid there moves with the body
    // Outside: the dipole of a sphere moving at W, R^3 / (2 r^3) (3 (W.r^) r^ - W).
    const float scale = 0.5f * radius2 * f.radius / (r2 * std::sqrt(r2));
    return u + scale * (3.0f * glm::dot(f.relativeVelocity, r) / r2 * r - f.relativeVelocity);
}

mat3 ownPotentialFlowGradient(const PotentialFlow& f, const vec3& x) {
    mat3 gradient = closureGradient(f.closure, f.centre, f.radius, x);
    const vec3 r = x - f.centre;
    const float r2 = glm::dot(r, r);
    if (r2 <= f.radius * f.radius) return gradient;  // uniform inside
    if (r2 > kPotentialFlowReach * kPotentialFlowReach * f.radius * f.radius) return gradient;
    // d u_i / d x_j = R^3 / 2 (3 (W_j r_i + W_i r_j + (W.r) delta_ij) / r^5 - 15 (W.r) r_i r_j / r^7):
    // symmetric (irrotational) and traceless (divergence-free).
    const vec3& w = f.relativeVelocity;
    const float inverse2 = 1.0f / r2;
    const float scale = 0.5f * f.radius * f.radius * f.radius * inverse2 * inverse2 / std::sqrt(r2);
    const float along = glm::dot(w, r);
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
            gradient[j][i] += scale * (3.0f * (w[j] * r[i] + w[i] * r[j] + (i == j ? along : 0.0f)) -
                                       15.0f * along * r[i] * r[j] * inverse2);
    return gradient;
}

// M G M for the reflection M.
mat3 reflectGradient(const Mirror& m, const mat3& g) { return m.matrix * g * m.matrix; }

}  // namespace

vec3 potentialFlowVelocity(const std::vector<PotentialFlow>& flows, const vec3& x) {
    vec3 u(0.0f);
    for (const PotentialFlow& f : flows) {
        u += ownPotentialFlowVelocity(f, x);
        for (const Mirror& m : f.mirrors) u += m.reflectVector(ownPotentialFlowVelocity(f, m.reflect(x)));
    }
    return u;
}

mat3 potentialFlowGradient(const std::vector<PotentialFlow>& flows, const vec3& x) {
    mat3 gradient(0.0f);
    for (const PotentialFlow& f : flows) {
        gradient += ownPotentialFlowGradient(f, x);
        for (const Mirror& m : f.mirrors) gradient += reflectGradient(m, ownPotentialFlowGradient(f, m.reflect(x)));
    }
    return gradient;
}

void mirrorInBoxWalls(std::vector<PotentialFlow>& flows, const BoxContainer& container) {
    const mat3 frame = glm::mat3_cast(container.orientation);
    const AxisBox& box = container.box;
    for (PotentialFlow& f : flows) {
        f.mirrors.clear();
        const float reach = kPotentialFlowReach * f.radius;
        const vec3 centre = container.toFrame(f.centre);
        // Per axis of the box's frame: no reflection, or one in a wall within reach (shift 2 x wall).
        std::vector<float> shifts[3];
        for (int axis = 0; axis < 3; ++axis) {
            if (centre[axis] - box.lo[axis] < reach) shifts[axis].push_back(2.0f * box.lo[axis]);
            if (box.hi[axis] - centre[axis] < reach) shifts[axis].push_back(2.0f * box.hi[axis]);
        }
        for (int x = -1; x < int(shifts[0].size()); ++x)
            for (int y = -1; y < int(shifts[1].size()); ++y)
                for (int z = -1; z < int(shifts[2].size()); ++z) {
                    if (x < 0 && y < 0 && z < 0) continue;  // the flow itself
                    vec3 sign(1.0f), shift(0.0f);
                    const int choice[3] = {x, y, z};
                    for (int axis = 0; axis < 3; ++axis)
                        if (choice[axis] >= 0) {
                            sign[axis] = -1.0f;
                            shift[axis] = shifts[axis][size_t(choice[axis])];
                        }
                    // In the frame x' = S x + s; in the world M = R S R^T, shift o + R s - M o (for
                    // an upright box R = I and o = 0 exactly, so M = S and the shift is s).
                    const mat3 reflection(vec3(sign.x, 0.0f, 0.0f), vec3(0.0f, sign.y, 0.0f), vec3(0.0f, 0.0f, sign.z));
                    const mat3 matrix = frame * reflection * glm::transpose(frame);
                    f.mirrors.push_back({matrix, container.origin + frame * shift - matrix * container.origin});
                }
    }
}

bool closuresReachEachOther(const std::vector<PotentialFlow>& flows, const std::vector<size_t>& spheres) {
    if (spheres.size() > 1) return true;
    for (size_t k : spheres) {
        const PotentialFlow& f = flows[k];
        for (const Mirror& m : f.mirrors) {
            // The image of the surface point nearest the image lies |c' - c| - R from the centre.
            if (glm::length(m.reflect(f.centre) - f.centre) - f.radius < kClosureReach * f.radius) return true;
        }
    }
    return false;
}

std::vector<dvec3> impulseRateFromPotentialFlows(const std::vector<PotentialFlow>& flows, const Vortons& v) {
    std::vector<dvec3> rates;
    rates.reserve(flows.size());
    for (const PotentialFlow& f : flows) {
        // The body's own flow: what its images in walls do is the walls' push on the fluid.
        PotentialFlow own = f;
        own.mirrors.clear();
        const std::vector<PotentialFlow> one{own};
        rates.push_back(deterministicReduce<dvec3>(
            v.size(), dvec3(0.0),
            [&](size_t begin, size_t end) {
                dvec3 sum(0.0);
                for (size_t i = begin; i < end; ++i) {
                    const vec3& x = v.position[i];
                    const vec3& w = v.vorticity[i];
                    // d/dt of 1/2 x x omega V: the flow moves x, and its (symmetric) gradient
                    // stretches and tilts omega.
                    const vec3 moved = glm::cross(potentialFlowVelocity(one, x), w);
                    const vec3 stretched = glm::cross(x, potentialFlowGradient(one, x) * w);
                    sum += 0.5 * double(v.volume(i)) * (dvec3(moved) + dvec3(stretched));
                }
                return sum;
            },
            [](const dvec3& a, const dvec3& b) { return a + b; }, kImpulseChunk));
    }
    return rates;
}

}  // namespace vfx
