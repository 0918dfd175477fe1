#include "sim/baroclinic.hpp"

#include "core/parallel.hpp"
#include "core/simd_lanes.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vfx {
namespace {

// Grid spacings within which vortons share a point's source. The energy the source gives the
// flow is the buoyancy work done at the velocity smoothed over this reach (and the deposit and
// difference stencils), so a wide reach loses work where the dense fluid rides a velocity peak:
// on the author's drop (2,176 vortons, inviscid, no stretching) 1.5 leaves 9% of the work
// unaccounted at 5 s against 17% for 2.0; 1.2 leaves 9% too but misses 9% of the impulse rate.
constexpr float kReach = 1.5f;
// Ridge added to the vortons' spread about their mean, in units of reach^2. Outside the dyed
// fluid a grid point's vortons lie in a thin cap on one side, and moving their mean onto the
// point is an extrapolation: without a ridge a few weights reach 10^6 times the plain share.
// With 0.003 reach^2 none exceeds ~300 and a heavy ball's impulse still grows at 97-99% of the
// exact rate (lattice and random layouts; 0.01 gives 96%, 0.001 98-99% with weights to 1000).
constexpr float kRidge = 0.003f;

// Inclusive index range [lo, hi] along each axis, clamped to [0, count - 1].
struct Range {
    ivec3 lo, hi;
};

VFX_LANES_INLINE Range clampRange(ivec3 lo, ivec3 hi, ivec3 count) {
    return {glm::max(lo, ivec3(0)), glm::min(hi, count - ivec3(1))};
}

// Zeroth, first and second moments of the share weights of a grid point's vortons about it.
struct WeightMoments {
    float weightSum = 0.0f;
    vec3 first{0.0f};
    float xx = 0.0f, xy = 0.0f, xz = 0.0f, yy = 0.0f, yz = 0.0f, zz = 0.0f;
    mat3 second() const { return mat3(xx, xy, xz, xy, yy, yz, xz, yz, zz); }
};

// Zeroth, first and (symmetric) second moments of the share weights about the point, over the
// vortons of the cells in r. A row of cells along x is one run of the partition's order, taken
// kLanes vortons at a time (the lanes past the run's end are masked). Vortons beyond reach
// (about half of the block) add exact zeros, so there is no branch. The lane a vorton lands in
// depends only on the partition, never on the thread. Unfused (see core/simd_lanes.hpp): pass 2
// must compute each vorton's weight with exactly these operations, so that the shares a point
// hands out sum to its source up to round-off of the sums alone.
VFX_SIMD_KERNEL_UNFUSED WeightMoments momentsAround(const SortedPositions& p, const vec3& at, const Range& r,
                                                    const CellPartition& partition, float invReach2) {
    using lanes::Lanes;
    Lanes sum{}, fx{}, fy{}, fz{}, xx{}, xy{}, xz{}, yy{}, yz{}, zz{};
    for (int cz = r.lo.z; cz <= r.hi.z; ++cz)
        for (int cy = r.lo.y; cy <= r.hi.y; ++cy) {
            const uint32_t first = partition.begin(partition.cellIndex(ivec3(r.lo.x, cy, cz)));
            const uint32_t last = partition.end(partition.cellIndex(ivec3(r.hi.x, cy, cz)));
            for (uint32_t s = first; s < last; s += lanes::kLanes) {
                const Lanes dx = lanes::load(&p.x[s]) - at.x, dy = lanes::load(&p.y[s]) - at.y,
                            dz = lanes::load(&p.z[s]) - at.z;
                const Lanes q = lanes::positive(1.0f - (dx * dx + dy * dy + dz * dz) * invReach2);
                const Lanes w = lanes::firstLanes(q * q, last - s);
                sum += w;
                fx += w * dx;
                fy += w * dy;
                fz += w * dz;
                xx += w * (dx * dx);
                xy += w * (dx * dy);
                xz += w * (dx * dz);
                yy += w * (dy * dy);
                yz += w * (dy * dz);
                zz += w * (dz * dz);
            }
        }
    WeightMoments m;
    m.weightSum = lanes::addLanes(sum);
    m.first = vec3(lanes::addLanes(fx), lanes::addLanes(fy), lanes::addLanes(fz));
    m.xx = lanes::addLanes(xx);
    m.xy = lanes::addLanes(xy);
    m.xz = lanes::addLanes(xz);
    m.yy = lanes::addLanes(yy);
    m.yz = lanes::addLanes(yz);
    m.zz = lanes::addLanes(zz);
    return m;
}

// A vorton's gain from the source points of the cells in r (at most 4 x 4 x 4 points): the
// four points of a row along x fill half of the lanes, two rows of the same z plane the whole.
// Lanes past a clamped row's end, or a missing second row, are masked to weight zero; points
// without a source or beyond reach add exact zeros, so there is no other branch.
VFX_SIMD_KERNEL_UNFUSED vec3 gatherShares(const BaroclinicShareFactors& f, const GridShape& shape, const vec3& x,
                                          const Range& r, float invReach2) {
    using lanes::Lanes;
    const Lanes alongRow = {0, 1, 2, 3, 0, 1, 2, 3};
    const Lanes secondRow = {0, 0, 0, 0, 1, 1, 1, 1};
    const float rowLength = float(r.hi.x - r.lo.x + 1);
    // Same arithmetic as GridShape::pointPosition (unfused), so offsets match the ones pass 1 used.
    const Lanes dx = x.x - (shape.minCorner.x + (float(r.lo.x) + alongRow) * shape.spacing.x);
    Lanes gx{}, gy{}, gz{};
    for (int pz = r.lo.z; pz <= r.hi.z; ++pz) {
        const float dz = x.z - (shape.minCorner.z + float(pz) * shape.spacing.z);
        for (int py = r.lo.y; py <= r.hi.y; py += 2) {
            const bool hasSecond = py + 1 <= r.hi.y;
            const Lanes limit = secondRow < 0.5f ? lanes::splat(rowLength) : lanes::splat(hasSecond ? rowLength : 0.0f);
            const Lanes dy = x.y - (shape.minCorner.y + (float(py) + secondRow) * shape.spacing.y);
            const size_t first = shape.index(r.lo.x, py, pz);
            const size_t second = hasSecond ? shape.index(r.lo.x, py + 1, pz) : first;
            auto rows = [&](const std::vector<float>& v) { return lanes::loadHalves(&v[first], &v[second]); };
            const Lanes q = lanes::positive(1.0f - (dx * dx + dy * dy + dz * dz) * invReach2);
            const Lanes w = alongRow < limit ? q * q : Lanes{};
            const Lanes part = w * (rows(f.base) + (rows(f.betaX) * dx + rows(f.betaY) * dy + rows(f.betaZ) * dz));
            gx += part * rows(f.perWeightX);
            gy += part * rows(f.perWeightY);
            gz += part * rows(f.perWeightZ);
        }
    }
    return vec3(lanes::addLanes(gx), lanes::addLanes(gy), lanes::addLanes(gz));
}

}  // namespace

void BaroclinicShareFactors::resize(size_t pointCount) {
    // Four floats past the last point (zeros): the last row's loads stay inside.
    for (std::vector<float>* v : {&base, &betaX, &betaY, &betaZ, &perWeightX, &perWeightY, &perWeightZ}) {
        reserveWithHeadroom(*v, pointCount + 4);
        v->resize(pointCount + 4);
        std::fill(v->begin() + std::ptrdiff_t(pointCount), v->end(), 0.0f);
    }
}

void BaroclinicShareFactors::clear(size_t k) {
    base[k] = betaX[k] = betaY[k] = betaZ[k] = 0.0f;
    perWeightX[k] = perWeightY[k] = perWeightZ[k] = 0.0f;
}

void BaroclinicTransfer::prepare(const UniformGrid<vec3>& densityGradient, const UniformGrid<float>* fluidShare,
                                 const CellPartition& partition, const vec3& gravity, float ambientDensity,
                                 const Vortons& vortons) {
    const GridShape& shape = densityGradient.shape();
    const float reach = kReach * std::max({shape.spacing.x, shape.spacing.y, shape.spacing.z});
    const float scale = shape.cellVolume() / ambientDensity;  // a point's source per unit time
    sortPositions(partition, vortons);
    shareGridSources(densityGradient, fluidShare, partition, gravity, scale, reach);
    gatherToVortons(shape, partition, 1.0f / (reach * reach), vortons);
}

void BaroclinicTransfer::add(float dt, Vortons& vortons) const {
    if (rates_.size() != vortons.size()) throw std::logic_error("baroclinic: no prepared rate for every vorton");
    parallelForEach(
        0, vortons.size(), [&](size_t i) { vortons.vorticity[i] += dt * rates_[i]; }, 2048);
}

// The vortons' positions in partition order, so each row of cells is one contiguous run; one
// array per axis, padded so a run's last vector of lanes stays inside them.
void BaroclinicTransfer::sortPositions(const CellPartition& partition, const Vortons& vortons) {
    const std::vector<uint32_t>& sorted = partition.sortedIndices();
    sortedLanes_.x = lanes::padded(sorted.size());
    sortedLanes_.y = lanes::padded(sorted.size());
    sortedLanes_.z = lanes::padded(sorted.size());
    parallelForEach(
        0, sorted.size(),
        [&](size_t s) {
            const vec3 x = vortons.position[sorted[s]];
            sortedLanes_.x[s] = x.x;
            sortedLanes_.y[s] = x.y;
            sortedLanes_.z[s] = x.z;
        },
        8192);
}

// Pass 1, per grid point: its source and the weights the vortons around it will take. Writes
// every point's share and factors (zero where it has no source): no fill before it.
void BaroclinicTransfer::shareGridSources(const UniformGrid<vec3>& densityGradient,
                                          const UniformGrid<float>* fluidShare, const CellPartition& partition,
                                          const vec3& gravity, float scale, float reach) {
    const GridShape& shape = densityGradient.shape();
    factors_.resize(shape.pointCount());
    const ivec3 points = shape.points;
    parallelForEach(
        0, size_t(points.z),
        [&](size_t zi) {
            const int z = int(zi);
            for (int y = 0; y < points.y; ++y)
                for (int x = 0; x < points.x; ++x)
                    sharePoint(densityGradient, fluidShare, partition, gravity, scale, reach, x, y, z);
        },
        1);
}

void BaroclinicTransfer::sharePoint(const UniformGrid<vec3>& densityGradient, const UniformGrid<float>* fluidShare,
                                    const CellPartition& partition, const vec3& gravity, float scale, float reach,
                                    int x, int y, int z) {
    const GridShape& shape = densityGradient.shape();
    const size_t k = shape.index(x, y, z);
    const float fluidVolume = fluidShare ? (*fluidShare)[k] : 1.0f;
    const vec3 strength = glm::cross(densityGradient[k], gravity) * (scale * fluidVolume);
    factors_.clear(k);
    if (strength == vec3(0.0f)) return;
    const vec3 at = shape.pointPosition(x, y, z);
    // Cells whose vortons can lie within reach of the point.
    const Range r = clampRange(ivec3(x, y, z) - ivec3(2), ivec3(x, y, z) + ivec3(1), partition.cells());
    const WeightMoments m = momentsAround(sortedLanes_, at, r, partition, 1.0f / (reach * reach));
    if (m.weightSum <= 0.0f) return;  // no vorton within reach: the source is not handed out
    const vec3 mean = m.first / m.weightSum;
    const mat3 spread = m.second() / m.weightSum - glm::outerProduct(mean, mean);
    // beta moves the weighted mean position onto the grid point: sum p (1 + beta.(d - mean)) d = 0
    // when spread * beta = -mean. The ridge bounds the extrapolation (and keeps a flat, 2D layout
    // invertible). A point whose support a wall cuts keeps plain weights: its fluid's centre is
    // not the point but lies towards the vortons, and moving their mean onto the point handed the
    // outermost layer a multiple of its source and the next layer a negative part.
    const mat3 regular = spread + mat3(kRidge * reach * reach);
    const vec3 beta = fluidVolume < 1.0f ? vec3(0.0f) : glm::inverse(regular) * (-mean);
    // A vorton's part is w / weightSum (1 + beta.(d - mean)): the constant terms folded once per point.
    const vec3 perWeight = strength / m.weightSum;
    factors_.base[k] = 1.0f - glm::dot(beta, mean);
    factors_.betaX[k] = beta.x;
    factors_.betaY[k] = beta.y;
    factors_.betaZ[k] = beta.z;
    factors_.perWeightX[k] = perWeight.x;
    factors_.perWeightY[k] = perWeight.y;
    factors_.perWeightZ[k] = perWeight.z;
}

// Pass 2, per vorton: gather its share of every source point within reach. In the partition's
// order, so neighbouring vortons read the same points from cache.
void BaroclinicTransfer::gatherToVortons(const GridShape& shape, const CellPartition& partition, float invReach2,
                                         const Vortons& vortons) {
    const std::vector<uint32_t>& sorted = partition.sortedIndices();
    rates_.resize(vortons.size());
    parallelForEach(
        0, sorted.size(),
        [&](size_t s) {
            const size_t i = sorted[s];
            const vec3 x(sortedLanes_.x[s], sortedLanes_.y[s], sortedLanes_.z[s]);
            const ivec3 cell = shape.cellOf(x);
            const Range r = clampRange(cell - ivec3(1), cell + ivec3(2), shape.points);
            const vec3 gained = gatherShares(factors_, shape, x, r, invReach2);
            rates_[i] = gained / vortons.volume(i);
        },
        1024);
}

}  // namespace vfx
