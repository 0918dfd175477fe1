#include "sim/closure_fit.hpp"

#include "core/gmres.hpp"
#include "core/parallel.hpp"
#include "sim/potential_flow_lanes.hpp"

namespace vfx {

namespace {

// The joint fit stops when the residual of (I + F C) q = F b is below this share of |F b|, or
// after this many iterations (a ball resting on a floor takes under a dozen).
constexpr double kJointFitTolerance = 1e-3;
constexpr int kJointFitIterations = 40;

struct SphereSet {
    const std::vector<size_t>& indices;  // into the flows
    size_t perSphere;                    // collocation points of each
    std::vector<vec3> points, normals;   // every sphere's collocation points, in order
};

// The normal speeds the flows send through each sphere's collocation points, the sphere's own
// closure left out (its images in walls kept).
std::vector<double> normalSpeedsFrom(const std::vector<PotentialFlow>& flows, const SphereSet& set) {
    std::vector<vec3> flow(set.points.size(), vec3(0.0f));
    addPotentialFlowVelocities(flows, set.points, flow);
    std::vector<double> speeds(set.points.size());
    parallelForEach(0, set.points.size(), [&](size_t k) {
        const PotentialFlow& own = flows[set.indices[k / set.perSphere]];
        const vec3& p = set.points[k];
        const vec3 u = flow[k] - closureVelocity(own.closure, own.centre, own.radius, p);
        speeds[k] = double(glm::dot(u, set.normals[k]));
    });
    return speeds;
}

// Each sphere's closure strengths for its share of `speeds` (F, sphere by sphere).
std::vector<double> fitEach(const std::vector<PotentialFlow>& flows, const SphereSet& set,
                            const std::vector<double>& speeds) {
    std::vector<double> strengths;
    for (size_t s = 0; s < set.indices.size(); ++s) {
        const std::vector<double> share(speeds.begin() + long(s * set.perSphere),
                                        speeds.begin() + long((s + 1) * set.perSphere));
        const std::vector<double> own = closureStrengths(flows[set.indices[s]].radius, share);
        strengths.insert(strengths.end(), own.begin(), own.end());
    }
    return strengths;
}

void setClosures(std::vector<PotentialFlow>& flows, const SphereSet& set, const std::vector<double>& strengths) {
    const size_t perSphere = strengths.size() / set.indices.size();
    for (size_t s = 0; s < set.indices.size(); ++s) {
        PotentialFlow& f = flows[set.indices[s]];
        const std::vector<double> own(strengths.begin() + long(s * perSphere),
                                      strengths.begin() + long((s + 1) * perSphere));
        f.closure = closureFromStrengths(f.centre, f.radius, own);
    }
}

}  // namespace

void fitClosures(std::vector<PotentialFlow>& flows, const std::vector<size_t>& spheres, const std::vector<vec3>& points,
                 const std::vector<vec3>& around, const std::vector<RigidBody>& bodies) {
    SphereSet set{spheres, points.size() / spheres.size(), points, {}};
    for (size_t k = 0; k < points.size(); ++k) {
        const PotentialFlow& f = flows[spheres[k / set.perSphere]];
        set.normals.push_back(glm::normalize(points[k] - f.centre));
    }
    for (size_t k : spheres) flows[k].closure = SphereClosure{};
    // b: the body's normal speed less the flow's (vortices, wall sources, dipoles and their images).
    std::vector<double> b = normalSpeedsFrom(flows, set);
    for (size_t k = 0; k < b.size(); ++k) {
        const vec3 body = bodies[flows[spheres[k / set.perSphere]].body].velocity;
        b[k] = double(glm::dot(body - around[k], set.normals[k])) - b[k];
    }
    const std::vector<double> fitted = fitEach(flows, set, b);
    if (!closuresReachEachOther(flows, spheres)) {
        setClosures(flows, set, fitted);
        return;
    }
    // C q: the closures' flow across spheres and through the images (own direct flow left out);
    // the dipoles are not part of it.
    std::vector<PotentialFlow> closuresOnly = flows;
    for (PotentialFlow& f : closuresOnly) f.relativeVelocity = vec3(0.0f);
    const auto apply = [&](const std::vector<double>& q, std::vector<double>& out) {
        setClosures(closuresOnly, set, q);
        const std::vector<double> cross = fitEach(closuresOnly, set, normalSpeedsFrom(closuresOnly, set));
        out.resize(q.size());
        for (size_t j = 0; j < q.size(); ++j) out[j] = q[j] + cross[j];
    };
    std::vector<double> strengths;
    solveGmres(apply, fitted, strengths, kJointFitIterations, kJointFitTolerance);
    setClosures(flows, set, strengths);
}

}  // namespace vfx
