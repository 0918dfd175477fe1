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

void BoxVortexInCell::solve(const Vortons& vortons, const AxisBox& box, float spacing, const vec3& uniformVorticity) {
    prepare(box, spacing);
    deposit(vortons, uniformVorticity);
    parallelForEach(
        0, 3,
        [&](size_t c) {
            invertLaplacian(int(c));
            padPotential(int(c));
        },
        1);
    takeCurl();
}

namespace {

// The deposit's chunks: each spreads a run of vortons into arrays of its own, summed in chunk order
// afterwards, so the deposit runs on several threads with the same bits for any thread count. At
// least 2,048 vortons a chunk and at most 8 chunks, so clearing and summing the chunks' arrays
// stays a small multiple of the grid.
constexpr size_t kVortonsPerDepositChunk = 2048;
constexpr size_t kMostDepositChunks = 8;

}  // namespace

BoxVortexInCell::SpreadTaps BoxVortexInCell::spreadTaps(const vec3& position) const {
    SpreadTaps taps;
    for (int a = 0; a < 3; ++a) {
        const int last = shape_.points[a] - 1;
        const float t = std::clamp((position[a] - shape_.minCorner[a]) / shape_.spacing[a], 0.0f, float(last));
        const int first = int(std::floor(t)) - 1;
        for (int j = 0; j < 4; ++j) {
            const Mirrored m = mirrorIndex(first + j, last);
            taps.node[a][j] = m.index;
            taps.reflected[a][j] = m.reflected;
            taps.weight[a][j] = m4PrimeWeight(t - float(first + j));
        }
    }
    return taps;
}

// One vorton's omega_c V / h^3 (`strength`) spread on component c's transform array `values`
// through its taps, with the walls' images folded in.
void BoxVortexInCell::spreadComponent(int c, const SpreadTaps& taps, float strength, float* values) const {
    const ivec3 extent = components_[size_t(c)].extent;
    const size_t stride[3] = {1, size_t(extent.x), size_t(extent.x) * size_t(extent.y)};
    // Per axis: up to 4 array offsets and signed weights.
    size_t offset[3][4];
    float weight[3][4];
    int count[3] = {0, 0, 0};
    for (int a = 0; a < 3; ++a) {
        const int last = shape_.points[a] - 1;
        for (int j = 0; j < 4; ++j) {
            const int node = taps.node[a][j];
            const int k = transformIndex(c, a, node, last);
            if (taps.weight[a][j] == 0.0f || k < 0) continue;
            // A wall point is its own mirror: on the even axis the image puts as much there again.
            const bool onWall = c == a && (node == 0 || node == last);
            offset[a][count[a]] = size_t(k) * stride[a];
            weight[a][count[a]++] = taps.weight[a][j] * imageSign(c, a, taps.reflected[a][j]) * (onWall ? 2.0f : 1.0f);
        }
    }
    for (int z = 0; z < count[2]; ++z)
        for (int y = 0; y < count[1]; ++y) {
            const float wyz = strength * weight[1][y] * weight[2][z];
            float* row = values + offset[1][y] + offset[2][z];
            for (int x = 0; x < count[0]; ++x) row[offset[0][x]] += wyz * weight[0][x];
        }
}

// omega of every vorton spread with M4' weights (per unit volume), folded at the walls, on top of
// a uniform omega (its images make it a square wave across the walls on the sine axes); the M4'
// taps of each vorton serve its three components.
void BoxVortexInCell::deposit(const Vortons& vortons, const vec3& uniform) {
    const size_t chunks = std::clamp<size_t>((vortons.size() + kVortonsPerDepositChunk - 1) / kVortonsPerDepositChunk,
                                             1, kMostDepositChunks);
    const size_t perChunk = (vortons.size() + chunks - 1) / chunks;
    chunkValues_.resize(chunks);
    const float perVolume = 1.0f / shape_.cellVolume();
    parallelForEach(
        0, chunks,
        [&](size_t k) {
            std::array<std::vector<float>, 3>& own = chunkValues_[k];
            for (int c = 0; c < 3; ++c) own[size_t(c)].assign(components_[size_t(c)].values.size(), 0.0f);
            const size_t end = std::min(vortons.size(), (k + 1) * perChunk);
            for (size_t i = k * perChunk; i < end; ++i) {
                const vec3 strength = vortons.vorticity[i] * (vortons.volume(i) * perVolume);
                if (strength == vec3(0.0f)) continue;
                const SpreadTaps taps = spreadTaps(vortons.position[i]);
                for (int c = 0; c < 3; ++c)
                    if (strength[c] != 0.0f) spreadComponent(c, taps, strength[c], own[size_t(c)].data());
            }
        },
        1);
    for (int c = 0; c < 3; ++c) {
        std::vector<float>& values = components_[size_t(c)].values;
        parallelForEach(0, values.size(), [&](size_t n) {
            float sum = uniform[c];
            for (size_t k = 0; k < chunks; ++k) sum += chunkValues_[k][size_t(c)][n];
            values[n] = sum;
        });
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

// psi_c on the grid with one layer round it, so the curl reads plain neighbours. Beyond a wall on
// which psi_c is zero (the walls its sine axes end on) the layer is extrapolated quadratically,
// psi(-1) = psi(2) - 3 psi(1), so the wall's tangential flow is second-order, where its odd image
// would give the flow there half a cell's worth of the vorticity at the wall (omega h / 2) too
// much; elsewhere the layer holds images (read only at corners the curl does not use).
void BoxVortexInCell::padPotential(int c) {
    const ivec3 n = shape_.points + ivec3(2);
    std::vector<float>& padded = components_[size_t(c)].padded;
    padded.resize(size_t(n.x) * size_t(n.y) * size_t(n.z));
    size_t k = 0;
    for (int z = 0; z < n.z; ++z)
        for (int y = 0; y < n.y; ++y)
            for (int x = 0; x < n.x; ++x) padded[k++] = psi(c, ivec3(x - 1, y - 1, z - 1));
    const size_t stride[3] = {1, size_t(n.x), size_t(n.x) * size_t(n.y)};
    for (int a = 0; a < 3; ++a) {
        if (a == c) continue;
        const int b = (a + 1) % 3, d = (a + 2) % 3;
        const int outer = n[a] - 1;
        for (int j = 1; j + 1 < n[d]; ++j)
            for (int i = 1; i + 1 < n[b]; ++i) {
                const size_t row = size_t(i) * stride[b] + size_t(j) * stride[d];
                const auto at = [&](int m) -> float& { return padded[row + size_t(m) * stride[a]]; };
                at(0) = at(3) - 3.0f * at(2);
                at(outer) = at(outer - 3) - 3.0f * at(outer - 2);
            }
    }
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

// The four nodes, weights and mirror signs that read the flow at grid coordinate t along an axis
// of `last` + 1 points. Outside the box the nodes fold back in (the walls' images' flow). Inside
// it the node a cell beyond a wall is extrapolated, 2 u(wall) - u(next), not mirrored: vorticity
// at a wall makes the tangential flow's mirror image a V across the wall, which Catmull-Rom would
// round off by a fifth of omega h; the normal component (zero on the wall) reads the same either
// way.
struct ReadTaps {
    std::array<int, 4> nodes;
    std::array<float, 4> weights, signs;
};

ReadTaps readTaps(float t, int last) {
    ReadTaps taps;
    const float base = std::floor(t);
    taps.weights = catmullRomWeights(t - base);
    const int first = int(base) - 1;
    for (int k = 0; k < 4; ++k) taps.nodes[size_t(k)] = foldIntoBox(first + k, last, taps.signs[size_t(k)]);
    if (t < 0.0f || t > float(last)) return taps;
    if (first == -1) {  // nodes -1, 0, 1, 2: u(-1) = 2 u(0) - u(1)
        taps.weights[1] += 2.0f * taps.weights[0];
        taps.weights[2] -= taps.weights[0];
        taps.weights[0] = 0.0f;
        taps.signs[0] = 1.0f;
    }
    if (first + 3 == last + 1) {  // nodes last - 2 .. last + 1: u(last + 1) = 2 u(last) - u(last - 1)
        taps.weights[2] += 2.0f * taps.weights[3];
        taps.weights[1] -= taps.weights[3];
        taps.weights[3] = 0.0f;
        taps.signs[3] = 1.0f;
    }
    return taps;
}

}  // namespace

vec3 BoxVortexInCell::velocityAt(const vec3& p) const {
    // Nodes beyond a wall are the mirror images of those inside (normal component odd, the others
    // even) or, next to a wall, extrapolated (readTaps): the normal flow at a wall is zero.
    const vec3 t = (p - shape_.minCorner) / shape_.spacing;
    std::array<ReadTaps, 3> taps;
    for (int a = 0; a < 3; ++a) taps[size_t(a)] = readTaps(t[a], shape_.points[a] - 1);
    vec3 u(0.0f);
    for (size_t k = 0; k < 4; ++k)
        for (size_t j = 0; j < 4; ++j)
            for (size_t i = 0; i < 4; ++i) {
                const vec3& node = velocity_.at(taps[0].nodes[i], taps[1].nodes[j], taps[2].nodes[k]);
                const float w = taps[0].weights[i] * taps[1].weights[j] * taps[2].weights[k];
                u += w * vec3(taps[0].signs[i] * node.x, taps[1].signs[j] * node.y, taps[2].signs[k] * node.z);
            }
    return u;
}

namespace {

// The read taps of velocityAt along one axis for each of `count` coordinates from `first` at
// `step` (m).
std::vector<ReadTaps> tapsAlong(float first, float step, int count, float boxMin, float boxSpacing, int boxPoints) {
    std::vector<ReadTaps> taps;
    for (int i = 0; i < count; ++i)
        taps.push_back(readTaps((first + float(i) * step - boxMin) / boxSpacing, boxPoints - 1));
    return taps;
}

// One pass of the separable interpolation: `in` (extent `from`, x fastest) interpolated along
// `axis` to taps.nodes.size() points, the axis' own velocity component taking the mirror signs.
std::vector<vec3> interpolateAlong(const std::vector<vec3>& in, ivec3 from, int axis,
                                   const std::vector<ReadTaps>& taps) {
    ivec3 to = from;
    to[axis] = int(taps.size());
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
                        vec3 node = in[start + size_t(taps[i].nodes[k] * stride[axis])];
                        node[axis] *= taps[i].signs[k];
                        u += taps[i].weights[k] * node;
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
        const std::vector<ReadTaps> taps = tapsAlong(s.minCorner[axis], s.spacing[axis], s.points[axis],
                                                     shape_.minCorner[axis], shape_.spacing[axis], shape_.points[axis]);
        values = interpolateAlong(axis == 0 ? velocity_.values() : values, extent, axis, taps);
        extent[axis] = s.points[axis];
    }
    // Both grids number their points x fastest.
    parallelForEach(0, values.size(), [&](size_t k) { grid.values()[k] = uniform + values[k]; });
}

}  // namespace vfx
