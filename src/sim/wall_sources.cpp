#include "sim/wall_sources.hpp"

#include "bodies/surface_samples.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {
namespace {

constexpr float kInverseFourPi = 0.0795774715f;

// Velocity of a unit source at the origin seen at r, its core bounding the kernel, 1/m^2.
vec3 sourceKernel(const vec3& r, float core) {
    const float distance = std::max(std::sqrt(glm::dot(r, r)), core);
    return r * (kInverseFourPi / (distance * distance * distance));
}

// A^T A + lambda^2 I for the n x n row-major A: Tikhonov's least squares. Flow features on the
// wall finer than the sources can represent (a vorton within a sample spacing of it) have tiny
// singular values; solved exactly they would come back as strengths large enough to throw the
// fluid about. lambda^2, 1e-8 of the mean squared singular value, damps those modes and
// leaves the smooth ones (a tank's motion, a ring's far field) as they were.
std::vector<double> regularisedNormalMatrix(const std::vector<double>& a, int n) {
    const size_t m = size_t(n);
    std::vector<double> normal(m * m, 0.0);
    parallelForEach(
        0, m,
        [&](size_t i) {
            for (size_t k = 0; k < m; ++k) {
                const double aki = a[k * m + i];
                if (aki == 0.0) continue;
                const double* row = &a[k * m];
                double* out = &normal[i * m];
                for (size_t j = 0; j < m; ++j) out[j] += aki * row[j];
            }
        },
        8);
    double trace = 0.0;
    for (size_t i = 0; i < m; ++i) trace += normal[i * m + i];
    const double lambda2 = 1e-8 * trace / double(m);
    for (size_t i = 0; i < m; ++i) normal[i * m + i] += lambda2;
    return normal;
}

}  // namespace

bool WallSources::ShapeKey::operator==(const ShapeKey& o) const {
    return kind == o.kind && radius == o.radius && circumscribedRadius == o.circumscribedRadius && hole == o.hole &&
           planes == o.planes && dynamic == o.dynamic;
}

WallSources::ShapeKey WallSources::keyOf(const RigidBody& body) {
    const CollisionShape& shape = body.shape;
    return {shape.kind, shape.radius,        shape.circumscribedRadius,
            shape.hole, shape.planes.size(), body.motion == MotionKind::Dynamic};
}

bool WallSources::layOut(const RigidBody& body, Layout& layout) const {
    const CollisionShape& shape = body.shape;
    layout.key = keyOf(body);
    // A dynamic solid already pushes its own potential flow aside (sim/potential_flow.hpp), which
    // its drag and added mass are built on; sources inside it would feed its own flow back into
    // its drag.
    if (body.motion == MotionKind::Dynamic) return true;
    const std::vector<SurfaceSample> samples = surfaceSamples(shape, kWallSourcesPerBody);
    // Sources a few sample spacings off the wall make a smooth flow between collocation points:
    // for a sealed box moving through still fluid the wall's normal speed between them is off by
    // 27% of the box's speed at 1 spacing, 9% at 2, 2.7% at 3, 0.7% at 4, 0.2% at 5 (its edges
    // 1%), while the strengths, in single precision, stay well above round-off. Inside a solid they
    // stay within half its inscribed radius.
    const float spacing = surfaceSampleSpacing(shape, kWallSourcesPerBody);
    const float offset = shape.isHole() ? 5.0f * spacing : std::min(5.0f * spacing, 0.5f * shape.inscribedRadius);
    layout.container = shape.isHole();
    layout.core = 0.5f * offset;
    const float away = layout.container ? offset : -offset;  // off the surface, away from the fluid
    for (const SurfaceSample& s : samples) {
        layout.point.push_back(s.position);
        layout.normal.push_back(s.normal);
        layout.source.push_back(s.position + away * s.normal);
    }
    const int n = int(samples.size());
    std::vector<double> matrix(size_t(n) * size_t(n));
    parallelForEach(
        0, size_t(n),
        [&](size_t i) {
            for (size_t j = 0; j < size_t(n); ++j)
                matrix[i * size_t(n) + j] =
                    double(glm::dot(layout.normal[i], sourceKernel(layout.point[i] - layout.source[j], layout.core)));
        },
        16);
    if (n == 0) return false;
    layout.matrix = matrix;
    return layout.lu.factorise(regularisedNormalMatrix(matrix, n), n);
}

bool WallSources::prepare(const std::vector<RigidBody>& bodies) {
    bool same = layouts_.size() == bodies.size();
    for (size_t b = 0; same && b < bodies.size(); ++b) same = layouts_[b].key == keyOf(bodies[b]);
    if (same) return active();
    clear();
    std::vector<Layout> layouts(bodies.size());
    size_t first = 0;
    for (size_t b = 0; b < bodies.size(); ++b) {
        if (!layOut(bodies[b], layouts[b])) return false;
        layouts[b].first = first;
        first += layouts[b].point.size();
    }
    layouts_ = std::move(layouts);
    for (std::vector<float>* v : {&sx_, &sy_, &sz_, &strength_, &core_}) v->assign(first, 0.0f);
    worldPoint_.assign(first, vec3(0.0f));
    worldNormal_.assign(first, vec3(0.0f));
    return true;
}

void WallSources::clear() {
    layouts_.clear();
    for (std::vector<float>* v : {&sx_, &sy_, &sz_, &strength_, &core_}) v->clear();
    worldPoint_.clear();
    worldNormal_.clear();
}

const std::vector<vec3>& WallSources::collocationPoints(const std::vector<RigidBody>& bodies) {
    for (size_t b = 0; b < layouts_.size(); ++b) {
        const Layout& layout = layouts_[b];
        for (size_t i = 0; i < layout.point.size(); ++i) {
            const size_t k = layout.first + i;
            worldPoint_[k] = bodies[b].toWorld(layout.point[i]);
            worldNormal_[k] = bodies[b].orientation * layout.normal[i];
            const vec3 source = bodies[b].toWorld(layout.source[i]);
            sx_[k] = source.x;
            sy_[k] = source.y;
            sz_[k] = source.z;
            core_[k] = layout.core;
        }
    }
    return worldPoint_;
}

double WallSources::otherSourcesNormalSpeed(size_t body, const vec3& x, const vec3& n) const {
    const Layout& own = layouts_[body];
    vec3 u(0.0f);
    for (size_t j = 0; j < strength_.size(); ++j) {
        if (j >= own.first && j < own.first + own.point.size()) continue;
        u += strength_[j] * sourceKernel(x - vec3(sx_[j], sy_[j], sz_[j]), core_[j]);
    }
    return double(glm::dot(u, n));
}

void WallSources::solve(const std::vector<RigidBody>& bodies, const std::vector<vec3>& flowAtCollocation) {
    // One sweep is exact when one body carries sources; more let bodies see each other's.
    const size_t carrying =
        size_t(std::count_if(layouts_.begin(), layouts_.end(), [](const Layout& l) { return !l.point.empty(); }));
    const int sweeps = carrying > 1 ? 3 : 1;
    std::vector<double> rhs;
    for (int sweep = 0; sweep < sweeps; ++sweep)
        for (size_t b = 0; b < layouts_.size(); ++b) {
            const Layout& layout = layouts_[b];
            const size_t n = layout.point.size();
            if (n == 0) continue;
            rhs.assign(n, 0.0);
            parallelForEach(
                0, n,
                [&](size_t i) {
                    const size_t k = layout.first + i;
                    const vec3 x = worldPoint_[k], normal = worldNormal_[k];
                    const vec3 relative = bodies[b].surfaceVelocity(x) - flowAtCollocation[k];
                    rhs[i] = double(glm::dot(relative, normal)) - otherSourcesNormalSpeed(b, x, normal);
                },
                64);
            // Sources outside a closed container put no net flux through it: take out the net
            // flux the sampled flow shows (a sampling error; the true one is zero).
            if (layout.container) {
                double mean = 0.0;
                for (double r : rhs) mean += r / double(n);
                for (double& r : rhs) r -= mean;
            }
            // The least-squares right side A^T b.
            std::vector<double>& projected = projected_;
            projected.assign(n, 0.0);
            parallelForEach(
                0, n,
                [&](size_t j) {
                    double sum = 0.0;
                    for (size_t i = 0; i < n; ++i) sum += layout.matrix[i * n + j] * rhs[i];
                    projected[j] = sum;
                },
                32);
            layout.lu.solve(projected);
            for (size_t i = 0; i < n; ++i) strength_[layout.first + i] = float(projected[i]);
        }
}

vec3 WallSources::velocityAt(const vec3& x) const {
    float ux = 0.0f, uy = 0.0f, uz = 0.0f;
    const size_t count = strength_.size();
    for (size_t j = 0; j < count; ++j) {
        const float dx = x.x - sx_[j], dy = x.y - sy_[j], dz = x.z - sz_[j];
        const float distance = std::max(std::sqrt(dx * dx + dy * dy + dz * dz), core_[j]);
        const float w = strength_[j] * kInverseFourPi / (distance * distance * distance);
        ux += w * dx;
        uy += w * dy;
        uz += w * dz;
    }
    return vec3(ux, uy, uz);
}

void WallSources::addToGrid(UniformGrid<vec3>& grid) const {
    if (strength_.empty()) return;
    const GridShape& shape = grid.shape();
    const ivec3 n = shape.points;
    const size_t count = strength_.size();
    // A grid row at a time, sources outside and the row's points inside so the inner loop
    // vectorises; each point still sums the sources in order (the same bits for any threads).
    parallelForEach(
        0, size_t(n.z) * size_t(n.y),
        [&](size_t row) {
            const int z = int(row / size_t(n.y)), y = int(row % size_t(n.y));
            const size_t length = size_t(n.x);
            std::vector<float> px(length), ux(length, 0.0f), uy(length, 0.0f), uz(length, 0.0f);
            for (size_t x = 0; x < length; ++x) px[x] = shape.pointPosition(int(x), y, z).x;
            const vec3 first = shape.pointPosition(0, y, z);
            for (size_t j = 0; j < count; ++j) {
                const float dy = first.y - sy_[j], dz = first.z - sz_[j], q = strength_[j] * kInverseFourPi;
                const float core = core_[j], sx = sx_[j], across2 = dy * dy + dz * dz;
                for (size_t x = 0; x < length; ++x) {
                    const float dx = px[x] - sx;
                    const float distance = std::max(std::sqrt(dx * dx + across2), core);
                    const float w = q / (distance * distance * distance);
                    ux[x] += w * dx;
                    uy[x] += w * dy;
                    uz[x] += w * dz;
                }
            }
            for (size_t x = 0; x < length; ++x) grid.at(int(x), y, z) += vec3(ux[x], uy[x], uz[x]);
        },
        1);
}

}  // namespace vfx
