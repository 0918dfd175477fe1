#include "bodies/surface_samples.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {
namespace {

std::vector<SurfaceSample> sphereSamples(float radius, int count) {
    std::vector<SurfaceSample> samples(size_t(std::max(count, 1)));
    const float golden = kPi * (3.0f - std::sqrt(5.0f));  // the golden angle, rad
    for (size_t i = 0; i < samples.size(); ++i) {
        const float y = 1.0f - 2.0f * (float(i) + 0.5f) / float(samples.size());
        const float r = std::sqrt(std::max(0.0f, 1.0f - y * y));
        const float a = golden * float(i);
        const vec3 n(r * std::cos(a), y, r * std::sin(a));
        samples[i] = {radius * n, n};
    }
    return samples;
}

// Two unit vectors spanning the plane normal to n.
void tangentsOf(const vec3& n, vec3& t1, vec3& t2) {
    const vec3 helper = std::abs(n.x) < 0.9f ? vec3(1.0f, 0.0f, 0.0f) : vec3(0.0f, 1.0f, 0.0f);
    t1 = glm::normalize(glm::cross(n, helper));
    t2 = glm::cross(n, t1);
}

// Lattice points of spacing `s` on face `f` that lie within every other face.
void appendFaceSamples(const CollisionShape& shape, size_t f, float s, std::vector<SurfaceSample>& out) {
    const Plane& face = shape.planes[f];
    const float tolerance = 1e-5f * std::max(shape.circumscribedRadius, 1e-6f);
    vec3 centre(0.0f);
    std::vector<vec3> corners;
    for (const vec3& v : shape.vertices)
        if (std::abs(face.distance(v)) <= tolerance) corners.push_back(v);
    if (corners.size() < 3) return;
    for (const vec3& c : corners) centre += c / float(corners.size());
    vec3 t1, t2;
    tangentsOf(face.normal, t1, t2);
    float reach = 0.0f;
    for (const vec3& c : corners) reach = std::max(reach, glm::length(c - centre));
    const int steps = int(std::floor(reach / s));
    for (int i = -steps; i <= steps; ++i)
        for (int j = -steps; j <= steps; ++j) {
            const vec3 p = centre + (float(i) * s) * t1 + (float(j) * s) * t2;
            bool inside = true;
            for (size_t k = 0; k < shape.planes.size() && inside; ++k)
                inside = k == f || shape.planes[k].distance(p) <= tolerance;
            if (inside) out.push_back({p, face.normal});
        }
}

}  // namespace

float surfaceSampleSpacing(const CollisionShape& shape, int targetCount) {
    // A polytope's area is at most its circumscribed sphere's.
    const float radius = shape.kind == ShapeKind::Sphere ? shape.radius : shape.circumscribedRadius;
    return std::sqrt(4.0f * kPi / float(std::max(targetCount, 1))) * radius;
}

std::vector<SurfaceSample> surfaceSamples(const CollisionShape& shape, int targetCount) {
    if (shape.kind == ShapeKind::Sphere) return sphereSamples(shape.radius, targetCount);
    const float spacing = surfaceSampleSpacing(shape, targetCount);
    std::vector<SurfaceSample> samples;
    for (size_t f = 0; f < shape.planes.size(); ++f) appendFaceSamples(shape, f, spacing, samples);
    return samples;
}

}  // namespace vfx
