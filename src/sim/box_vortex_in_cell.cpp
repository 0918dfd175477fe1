#include "sim/box_vortex_in_cell.hpp"

#include "core/parallel.hpp"
#include "sim/remesh.hpp"

#include <fftw3.h>

#include <cmath>
#include <mutex>

namespace vfx {

namespace {

// FFTW's planner is not thread-safe (executing a plan is): every plan is made and destroyed
// under this lock.
std::mutex& plannerLock() {
    static std::mutex lock;
    return lock;
}

// A point index on one axis of a box with `last` + 1 points, reflected into [0, last] across the
// walls; `odd` tells whether the reflection changed a field's sign, for a field odd about walls.
struct Mirrored {
    int index;
    bool reflected;
};
Mirrored mirrorIndex(int i, int last) {
    if (i < 0) return {-i, true};
    if (i > last) return {2 * last - i, true};
    return {i, false};
}

// A component is even about the walls normal to it and odd about the others (free-slip images:
// vorticity and the vector potential are axial vectors).
float imageSign(int component, int axis, bool reflected) { return reflected && component != axis ? -1.0f : 1.0f; }

// Where point i of an axis sits in a component's transform array: every point on its cosine
// axis (the component's own), interior points on the sine axes (the walls hold zero); -1 if on
// such a wall.
int transformIndex(int component, int axis, int i, int last) {
    if (component == axis) return i;
    return (i == 0 || i == last) ? -1 : i - 1;
}

}  // namespace

BoxVortexInCell::~BoxVortexInCell() { releasePlans(); }

void BoxVortexInCell::releasePlans() {
    std::lock_guard<std::mutex> guard(plannerLock());
    for (Component& c : components_) {
        if (c.plan) fftwf_destroy_plan(static_cast<fftwf_plan>(c.plan));
        c.plan = nullptr;
    }
}

void BoxVortexInCell::prepare(const AxisBox& box, float spacing) {
    GridShape shape;
    shape.minCorner = box.lo;
    for (int a = 0; a < 3; ++a) {
        const float length = std::max(box.hi[a] - box.lo[a], 1e-6f);
        shape.points[a] = std::max(3, int(std::lround(length / spacing)) + 1);
        shape.spacing[a] = length / float(shape.points[a] - 1);
    }
    const bool samePoints = shape.points == shape_.points && components_[0].plan;
    shape_ = shape;
    velocity_.reshape(shape_);
    if (samePoints) return;
    releasePlans();
    std::lock_guard<std::mutex> guard(plannerLock());
    for (int c = 0; c < 3; ++c) {
        Component& comp = components_[size_t(c)];
        fftwf_r2r_kind kinds[3];
        for (int a = 0; a < 3; ++a) {
            comp.extent[a] = c == a ? shape_.points[a] : shape_.points[a] - 2;
            kinds[a] = c == a ? FFTW_REDFT00 : FFTW_RODFT00;  // DCT-I / DST-I
        }
        comp.values.assign(size_t(comp.extent.x) * size_t(comp.extent.y) * size_t(comp.extent.z), 0.0f);
        // Row-major dimensions: z slowest, x fastest.
        comp.plan = fftwf_plan_r2r_3d(comp.extent.z, comp.extent.y, comp.extent.x, comp.values.data(),
                                      comp.values.data(), kinds[2], kinds[1], kinds[0], FFTW_ESTIMATE);
    }
}

void BoxVortexInCell::solve(const Vortons& vortons, const AxisBox& box, float spacing) {
    prepare(box, spacing);
    parallelForEach(
        0, 3,
        [&](size_t c) {
            deposit(vortons, int(c));
            invertLaplacian(int(c));
            padPotential(int(c));
        },
        1);
    takeCurl();
}

// omega_c of every vorton spread with M4' weights (per unit volume), folded at the walls.
void BoxVortexInCell::deposit(const Vortons& vortons, int c) {
    Component& comp = components_[size_t(c)];
    std::fill(comp.values.begin(), comp.values.end(), 0.0f);
    const ivec3 last = shape_.points - ivec3(1);
    const float perVolume = 1.0f / shape_.cellVolume();
    const size_t sx = 1, sy = size_t(comp.extent.x), sz = sy * size_t(comp.extent.y);
    const size_t stride[3] = {sx, sy, sz};
    for (size_t i = 0; i < vortons.size(); ++i) {
        const float strength = vortons.vorticity[i][c] * vortons.volume(i) * perVolume;
        if (strength == 0.0f) continue;
        // Per axis: up to 4 array offsets and signed weights.
        size_t offset[3][4];
        float weight[3][4];
        int count[3] = {0, 0, 0};
        for (int a = 0; a < 3; ++a) {
            const float t =
                std::clamp((vortons.position[i][a] - shape_.minCorner[a]) / shape_.spacing[a], 0.0f, float(last[a]));
            const int first = int(std::floor(t)) - 1;
            for (int j = first; j < first + 4; ++j) {
                const float w = m4PrimeWeight(t - float(j));
                const Mirrored m = mirrorIndex(j, last[a]);
                const int k = transformIndex(c, a, m.index, last[a]);
                if (w == 0.0f || k < 0) continue;
                // A wall point is its own mirror: on the even axis the image puts as much there again.
                const bool onWall = c == a && (m.index == 0 || m.index == last[a]);
                offset[a][count[a]] = size_t(k) * stride[a];
                weight[a][count[a]++] = w * imageSign(c, a, m.reflected) * (onWall ? 2.0f : 1.0f);
            }
        }
        for (int z = 0; z < count[2]; ++z)
            for (int y = 0; y < count[1]; ++y) {
                const float wyz = strength * weight[1][y] * weight[2][z];
                float* row = comp.values.data() + offset[1][y] + offset[2][z];
                for (int x = 0; x < count[0]; ++x) row[offset[0][x]] += wyz * weight[0][x];
            }
    }
}

// psi_c = (-lap)^-1 omega_c with the 7-point Laplacian's eigenvalues: a cosine mode k on an axis
// of L cells and a sine mode k each give (2 - 2 cos(pi k / L)) / h^2; a transform there and
// back scales by 2L an axis.
void BoxVortexInCell::invertLaplacian(int c) {
    Component& comp = components_[size_t(c)];
    if (comp.values.empty()) return;
    fftwf_execute_r2r(static_cast<fftwf_plan>(comp.plan), comp.values.data(), comp.values.data());
    std::vector<float> eigen[3];
    double normalisation = 1.0;
    for (int a = 0; a < 3; ++a) {
        const int cells = shape_.points[a] - 1;
        const int waveShift = c == a ? 0 : 1;
        const double h2 = double(shape_.spacing[a]) * double(shape_.spacing[a]);
        eigen[a].resize(size_t(comp.extent[a]));
        for (int k = 0; k < comp.extent[a]; ++k)
            eigen[a][size_t(k)] = float((2.0 - 2.0 * std::cos(M_PI * double(k + waveShift) / double(cells))) / h2);
        normalisation *= 2.0 * double(cells);
    }
    const float scale = float(1.0 / normalisation);
    size_t n = 0;
    for (int z = 0; z < comp.extent.z; ++z)
        for (int y = 0; y < comp.extent.y; ++y)
            for (int x = 0; x < comp.extent.x; ++x, ++n) {
                const float sum = eigen[0][size_t(x)] + eigen[1][size_t(y)] + eigen[2][size_t(z)];
                comp.values[n] = sum > 0.0f ? comp.values[n] * scale / sum : 0.0f;
            }
    fftwf_execute_r2r(static_cast<fftwf_plan>(comp.plan), comp.values.data(), comp.values.data());
}

// psi_c at a point index that may lie one beyond a wall (its image).
float BoxVortexInCell::psi(int c, ivec3 node) const {
    const Component& comp = components_[size_t(c)];
    float sign = 1.0f;
    size_t index = 0, stride = 1;
    for (int a = 0; a < 3; ++a) {
        const int last = shape_.points[a] - 1;
        const Mirrored m = mirrorIndex(node[a], last);
        const int k = transformIndex(c, a, m.index, last);
        if (k < 0) return 0.0f;
        sign *= imageSign(c, a, m.reflected);
        index += size_t(k) * stride;
        stride *= size_t(comp.extent[a]);
    }
    return sign * comp.values[index];
}

// psi_c on the grid with one layer of images all round, so the curl reads plain neighbours.
void BoxVortexInCell::padPotential(int c) {
    const ivec3 n = shape_.points + ivec3(2);
    std::vector<float>& padded = components_[size_t(c)].padded;
    padded.resize(size_t(n.x) * size_t(n.y) * size_t(n.z));
    size_t k = 0;
    for (int z = 0; z < n.z; ++z)
        for (int y = 0; y < n.y; ++y)
            for (int x = 0; x < n.x; ++x) padded[k++] = psi(c, ivec3(x - 1, y - 1, z - 1));
}

void BoxVortexInCell::takeCurl() {
    const ivec3 n = shape_.points;
    const vec3 half = 0.5f / shape_.spacing;
    const size_t sx = 1, sy = size_t(n.x + 2), sz = sy * size_t(n.y + 2);
    const float* px = components_[0].padded.data();
    const float* py = components_[1].padded.data();
    const float* pz = components_[2].padded.data();
    parallelForEach(
        0, size_t(n.z),
        [&](size_t z) {
            for (int y = 0; y < n.y; ++y)
                for (int x = 0; x < n.x; ++x) {
                    const size_t k = size_t(x + 1) * sx + size_t(y + 1) * sy + (z + 1) * sz;
                    // d psi / d axis, centred.
                    auto d = [&](const float* p, size_t stride, float h) {
                        return (p[k + stride] - p[k - stride]) * h;
                    };
                    velocity_.at(x, y, int(z)) =
                        vec3(d(pz, sy, half.y) - d(py, sz, half.z), d(px, sz, half.z) - d(pz, sx, half.x),
                             d(py, sx, half.x) - d(px, sy, half.y));
                }
        },
        1);
}

namespace {

// Weights of the nodes -1, 0, 1, 2 round a fraction f in [0, 1]: M4' (sim/remesh.hpp), the
// Catmull-Rom spline, interpolating and C1, so the flow's normal speed over a ball a few cells
// wide has no kinks at cell faces for its closure's fit to miss (trilinear weights left 0.7 mm/s,
// 1% of the peak speed, at one).
std::array<float, 4> catmullRomWeights(float f) {
    return {m4PrimeWeight(f + 1.0f), m4PrimeWeight(f), m4PrimeWeight(f - 1.0f), m4PrimeWeight(f - 2.0f)};
}

// A node index on an axis of `last` + 1 points folded into the box by the walls' mirrors (period
// 2 last); `sign` is -1 where an odd number of mirrors flips the axis' velocity component.
int foldIntoBox(int n, int last, float& sign) {
    const int period = 2 * last;
    int m = n % period;
    if (m < 0) m += period;
    sign = m > last ? -1.0f : 1.0f;
    return m > last ? period - m : m;
}

}  // namespace

vec3 BoxVortexInCell::velocityAt(const vec3& p) const {
    // Nodes beyond a wall are the mirror images of those inside (normal component odd, the others
    // even), so points outside the box see the images' flow and the normal flow at a wall is zero.
    const vec3 t = (p - shape_.minCorner) / shape_.spacing;
    std::array<std::array<float, 4>, 3> weights, signs;
    std::array<std::array<int, 4>, 3> nodes;
    for (int a = 0; a < 3; ++a) {
        const float base = std::floor(t[a]);
        weights[size_t(a)] = catmullRomWeights(t[a] - base);
        for (int k = 0; k < 4; ++k)
            nodes[size_t(a)][size_t(k)] =
                foldIntoBox(int(base) - 1 + k, shape_.points[a] - 1, signs[size_t(a)][size_t(k)]);
    }
    vec3 u(0.0f);
    for (size_t k = 0; k < 4; ++k)
        for (size_t j = 0; j < 4; ++j)
            for (size_t i = 0; i < 4; ++i) {
                const vec3& node = velocity_.at(nodes[0][i], nodes[1][j], nodes[2][k]);
                const float w = weights[0][i] * weights[1][j] * weights[2][k];
                u += w * vec3(signs[0][i] * node.x, signs[1][j] * node.y, signs[2][k] * node.z);
            }
    return u;
}

namespace {

// The four box nodes, weights and mirror signs of velocityAt along one axis for each of `count`
// coordinates from `first` at `step` (m).
struct AxisTaps {
    std::vector<std::array<int, 4>> nodes;
    std::vector<std::array<float, 4>> weights, signs;
};

AxisTaps tapsAlong(float first, float step, int count, float boxMin, float boxSpacing, int boxPoints) {
    AxisTaps taps;
    for (int i = 0; i < count; ++i) {
        const float t = (first + float(i) * step - boxMin) / boxSpacing;
        const float base = std::floor(t);
        std::array<int, 4> nodes;
        std::array<float, 4> signs;
        for (int k = 0; k < 4; ++k) nodes[size_t(k)] = foldIntoBox(int(base) - 1 + k, boxPoints - 1, signs[size_t(k)]);
        taps.nodes.push_back(nodes);
        taps.weights.push_back(catmullRomWeights(t - base));
        taps.signs.push_back(signs);
    }
    return taps;
}

// One pass of the separable interpolation: `in` (extent `from`, x fastest) interpolated along
// `axis` to taps.nodes.size() points, the axis' own velocity component taking the mirror signs.
std::vector<vec3> interpolateAlong(const std::vector<vec3>& in, ivec3 from, int axis, const AxisTaps& taps) {
    ivec3 to = from;
    to[axis] = int(taps.nodes.size());
    std::vector<vec3> out(size_t(to.x) * size_t(to.y) * size_t(to.z));
    const ivec3 stride(1, from.x, from.x * from.y);
    parallelForEach(
        0, size_t(to.z),
        [&](size_t z) {
            for (int y = 0; y < to.y; ++y)
                for (int x = 0; x < to.x; ++x) {
                    const ivec3 o(x, y, int(z));
                    const size_t i = size_t(o[axis]);
                    ivec3 base = o;
                    base[axis] = 0;
                    const size_t start = size_t(base.x * stride.x + base.y * stride.y + base.z * stride.z);
                    vec3 u(0.0f);
                    for (size_t k = 0; k < 4; ++k) {
                        vec3 node = in[start + size_t(taps.nodes[i][k] * stride[axis])];
                        node[axis] *= taps.signs[i][k];
                        u += taps.weights[i][k] * node;
                    }
                    out[size_t(x) + size_t(to.x) * (size_t(y) + size_t(to.y) * z)] = u;
                }
        },
        1);
    return out;
}

}  // namespace

// velocityAt at every grid point, axis by axis: the Catmull-Rom weights are a product of one
// per axis, so three passes of 4 taps give what 64 taps a point would.
void BoxVortexInCell::sampleOnGrid(UniformGrid<vec3>& grid, const vec3& uniform) const {
    const GridShape& s = grid.shape();
    std::vector<vec3> values;
    ivec3 extent = shape_.points;
    for (int axis = 0; axis < 3; ++axis) {
        const AxisTaps taps = tapsAlong(s.minCorner[axis], s.spacing[axis], s.points[axis], shape_.minCorner[axis],
                                        shape_.spacing[axis], shape_.points[axis]);
        values = interpolateAlong(axis == 0 ? velocity_.values() : values, extent, axis, taps);
        extent[axis] = s.points[axis];
    }
    // Both grids number their points x fastest.
    parallelForEach(0, values.size(), [&](size_t k) { grid.values()[k] = uniform + values[k]; });
}

}  // namespace vfx
