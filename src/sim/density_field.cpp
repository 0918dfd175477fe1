#include "sim/density_field.hpp"

#include "core/grid_differences.hpp"
#include "core/parallel.hpp"
#include "sim/body_coupling.hpp"

#include <algorithm>
#include <utility>

namespace vfx {

namespace {

// Coverage ramp ends: a point covered to less than kBare of what fluid everywhere would give it
// reads as bare, one covered to more than kCovered as fully covered.
constexpr float kBare = 0.25f, kCovered = 0.75f;

float coverageRamp(float covered, float expected) {
    return std::clamp((covered / expected - kBare) / (kCovered - kBare), 0.0f, 1.0f);
}

}  // namespace

// --- deposit ------------------------------------------------------------------------------------

// Gather formulation of the trilinear scatter: each grid point sums the vortons of the (up to)
// 8 cells that touch it. Race-free, thread-count independent, and every vorton's 8 weights still
// sum to one, so the grid carries exactly the particles' mass deviation.
void DensityField::depositVortons(const Vortons& vortons, const CellPartition& partition, const GridShape& shape) {
    deposit_.reshape(shape);  // every point is written by the gather, as is the coverage
    coverage_.reshape(shape);
    gradientCurrent_ = false;
    fluidShareCurrent_ = false;
    measureVortons(vortons, shape);
    // Each cell first sums what its vortons give each of its 8 corners (one visit per vorton),
    // then each grid point adds up the corners it is of the (up to) 8 cells around it.
    sumCellCorners(partition);
    gatherCornerSums(partition, shape);
}

// Each vorton's cell fraction, mass deviation rho' V and volume V.
void DensityField::measureVortons(const Vortons& vortons, const GridShape& shape) {
    fraction_.resize(vortons.size());
    massDeviation_.resize(vortons.size());
    volume_.resize(vortons.size());
    parallelForEach(
        0, vortons.size(),
        [&](size_t i) {
            shape.cellOf(vortons.position[i], &fraction_[i]);
            volume_[i] = vortons.volume(i);
            massDeviation_[i] = vortons.density[i] * volume_[i];
        },
        4096);
}

void DensityField::sumCellCorners(const CellPartition& partition) {
    const std::vector<uint32_t>& sorted = partition.sortedIndices();
    std::vector<CornerSums>& cellSums = cellCornerSums_;
    reserveWithHeadroom(cellSums, partition.cellCount());
    cellSums.resize(partition.cellCount());  // each cell's sums start from zero in its own item
    parallelForEach(
        0, cellSums.size(),
        [&](size_t cell) {
            CornerSums& sums = cellSums[cell];
            sums = CornerSums{};
            for (uint32_t k = partition.begin(cell); k < partition.end(cell); ++k) {
                const uint32_t i = sorted[k];
                const vec3& f = fraction_[i];
                for (int corner = 0; corner < 8; ++corner) {
                    const float w = (corner & 1 ? f.x : 1.0f - f.x) * (corner & 2 ? f.y : 1.0f - f.y) *
                                    (corner & 4 ? f.z : 1.0f - f.z);
                    sums.mass[corner] += w * massDeviation_[i];
                    sums.volume[corner] += w * volume_[i];
                }
            }
        },
        256);
}

void DensityField::gatherCornerSums(const CellPartition& partition, const GridShape& shape) {
    const float invCellVolume = 1.0f / shape.cellVolume();
    const ivec3 n = shape.points;
    const ivec3 cells = shape.cells();
    const std::vector<CornerSums>& cellSums = cellCornerSums_;
    parallelForEach(
        0, size_t(n.z),
        [&](size_t zi) {
            const int z = int(zi);
            for (int y = 0; y < n.y; ++y)
                for (int x = 0; x < n.x; ++x) {
                    float sum = 0.0f, covered = 0.0f;
                    const bool inside = x > 0 && y > 0 && z > 0 && x < cells.x && y < cells.y && z < cells.z;
                    if (inside) {
                        // All 8 cells around the point exist: fixed strides from the first, in
                        // the same order as the general loop below.
                        const size_t sy = size_t(cells.x), sz = size_t(cells.x) * size_t(cells.y);
                        const CornerSums* first = &cellSums[partition.cellIndex(ivec3(x - 1, y - 1, z - 1))];
                        for (int dz = 0; dz < 2; ++dz)
                            for (int dy = 0; dy < 2; ++dy)
                                for (int dx = 0; dx < 2; ++dx) {
                                    const CornerSums& sums = first[size_t(dz) * sz + size_t(dy) * sy + size_t(dx)];
                                    const int corner = (1 - dx) + 2 * (1 - dy) + 4 * (1 - dz);
                                    sum += sums.mass[corner];
                                    covered += sums.volume[corner];
                                }
                        deposit_.at(x, y, z) = sum * invCellVolume;
                        coverage_.at(x, y, z) = covered * invCellVolume;
                        continue;
                    }
                    for (int cz = std::max(z - 1, 0); cz <= std::min(z, cells.z - 1); ++cz)
                        for (int cy = std::max(y - 1, 0); cy <= std::min(y, cells.y - 1); ++cy)
                            for (int cx = std::max(x - 1, 0); cx <= std::min(x, cells.x - 1); ++cx) {
                                const int corner = (x - cx) + 2 * (y - cy) + 4 * (z - cz);
                                const CornerSums& sums = cellSums[partition.cellIndex(ivec3(cx, cy, cz))];
                                sum += sums.mass[corner];
                                covered += sums.volume[corner];
                            }
                    deposit_.at(x, y, z) = sum * invCellVolume;
                    coverage_.at(x, y, z) = covered * invCellVolume;
                }
        },
        1);
}

// --- buoyancy field -------------------------------------------------------------------------------

// The deposited mass deviation is rho' times the share of the cell the vortons cover, and that
// share is noisy at grid scale wherever vortons are not on a perfect lattice: inside a tank of
// uniform heavy fluid its gradient stirs the fluid, the stirring disorders the vortons, and the
// noise grows. The mean density of
// the vortons at a point (mass / volume) has no such noise, and the coverage enters only through
// a ramp that is exactly 1 where the fluid is fully covered, so only real edges of the dyed fluid
// (and walls, which poisoning handles) keep a gradient - with the same total jump rho' across
// them.
// A wall is not an edge of the fluid: coverage is measured against the share of each point's
// support that lies in fluid, so points by a wall (whose support reaches into it) keep the
// fluid's full density, the same all along the wall, instead of a ramp that varies with how the
// vortons happen to sit there, which would stir a resting layered tank.
void DensityField::computeBuoyancyField(const FluidParams& fluid, const std::vector<RigidBody>& bodies) {
    buoyancyIsDeposit_ = !fluid.coverageDensity || coverage_.size() != deposit_.size();
    if (buoyancyIsDeposit_) return;
    const bool walls = !bodies.empty();
    if (walls) gridFluidShare(bodies);
    buoyancy_.reset(deposit_.shape(), 0.0f);
    computeRampArguments(walls);
    if (walls) fillRampIntoWalls();
    normaliseByCoverage();
    const DepositScales scales = keepDepositedMass(walls);
    if (walls)
        fillSolidsWithSurroundingDensity(buoyancy_, bodies, deposit_, coverage_, fluid, scales.heavy, scales.light);
}

const UniformGrid<float>& DensityField::gridFluidShare(const std::vector<RigidBody>& bodies) {
    if (!fluidShareCurrent_) computeGridFluidShare(bodies, deposit_.shape(), fluidShare_);
    fluidShareCurrent_ = true;
    return fluidShare_;
}

// The ramp's argument where the fluid is (-1 marks points mostly inside a wall).
void DensityField::computeRampArguments(bool walls) {
    const UniformGrid<float>& share = fluidShare_;
    std::vector<float>& argument = rampArgument_;
    argument.resize(buoyancy_.size());
    parallelForEach(
        0, buoyancy_.size(),
        [&](size_t k) {
            const float covered = coverage_[k];
            if (walls && share[k] < 0.5f)
                argument[k] = -1.0f;
            else
                argument[k] = covered > 0.0f ? coverageRamp(covered, walls ? share[k] : 1.0f) : 0.0f;
        },
        4096);
}

// A point inside a wall takes the ramp of the fluid beside it (the largest over its neighbours
// in fluid), and a point one further in that of the points so filled: their own coverage is a
// sliver that varies along the wall with how the vortons sit there, and read alone it made the
// density there vary along the wall.
void DensityField::fillRampIntoWalls() {
    const GridShape& shape = deposit_.shape();
    const ivec3 n = shape.points;
    const auto largestNeighbour = [&](const std::vector<float>& values, size_t k) {
        const size_t nx = size_t(n.x), ny = size_t(n.y);
        const ivec3 p(int(k % nx), int((k / nx) % ny), int(k / (nx * ny)));
        float largest = -1.0f;
        for (int axis = 0; axis < 3; ++axis)
            for (int side : {-1, 1}) {
                ivec3 q = p;
                q[axis] += side;
                if (q[axis] >= 0 && q[axis] < n[axis]) largest = std::max(largest, values[shape.index(q.x, q.y, q.z)]);
            }
        return largest;
    };
    std::vector<float>& argument = rampArgument_;
    std::vector<float>& filled = rampFilled_;
    for (int layer = 0; layer < 2; ++layer) {
        filled = argument;
        parallelForEach(
            0, buoyancy_.size(),
            [&](size_t k) {
                if (argument[k] < 0.0f && coverage_[k] > 0.0f) filled[k] = largestNeighbour(argument, k);
            },
            4096);
        std::swap(filled, argument);
    }
}

// The vortons' mean density deviation at each covered point (deposit / coverage), through the
// smoothstep of the ramp.
void DensityField::normaliseByCoverage() {
    const UniformGrid<float>& share = fluidShare_;
    const std::vector<float>& argument = rampArgument_;
    UniformGrid<float>& g = buoyancy_;
    parallelForEach(
        0, g.size(),
        [&](size_t k) {
            const float covered = coverage_[k];
            if (covered <= 0.0f) return;
            const float t = argument[k] >= 0.0f ? argument[k] : coverageRamp(covered, std::max(share[k], 1e-4f));
            g[k] = deposit_[k] / covered * (t * t * (3.0f - 2.0f * t));
        },
        4096);
}

// The ramp moves where an edge's mass sits (a random layout's thin edge loses up to 8% of it),
// and the impulse the baroclinic source makes is g times the mass the differentiated field
// holds. Scaling the heavy and the light parts of the field to the deposited heavy and light
// mass restores that total exactly without bringing back the grid-scale noise. With walls a
// point's field holds mass only over the share of its support in fluid (the field reaches into
// the walls with the fluid's density there, so the wall sees no jump, and that is not mass to
// take from the fluid), as its raw deposit does: counting the whole point made the field seem
// heavier by the walls and scaled a layered tank's density waves down by 18%.
DensityField::DepositScales DensityField::keepDepositedMass(bool walls) {
    struct Sums {
        double rawHeavy = 0.0, rawLight = 0.0, heavy = 0.0, light = 0.0;
    };
    UniformGrid<float>& field = buoyancy_;
    const UniformGrid<float>* fluidShare = walls ? &fluidShare_ : nullptr;
    const Sums sums = deterministicReduce<Sums>(
        field.size(), Sums{},
        [&](size_t b, size_t e) {
            Sums s;
            for (size_t k = b; k < e; ++k) {
                const double raw = deposit_[k], value = field[k] * (fluidShare ? (*fluidShare)[k] : 1.0f);
                (raw > 0.0 ? s.rawHeavy : s.rawLight) += raw;
                (value > 0.0 ? s.heavy : s.light) += value;
            }
            return s;
        },
        [](Sums a, const Sums& c) {
            return Sums{a.rawHeavy + c.rawHeavy, a.rawLight + c.rawLight, a.heavy + c.heavy, a.light + c.light};
        },
        16384);
    // Where most of a part's mass sits on barely covered points (a few scattered vortons) the
    // ramp removes most of it; scaling the rest up would pile it onto those points, so such a
    // part is left as the ramp made it.
    auto restoring = [](double raw, double kept) {
        const double scale = kept != 0.0 ? raw / kept : 1.0;
        return float(scale >= 0.5 && scale <= 2.0 ? scale : 1.0);
    };
    const float heavyScale = restoring(sums.rawHeavy, sums.heavy);
    const float lightScale = restoring(sums.rawLight, sums.light);
    parallelForEach(
        0, field.size(), [&](size_t k) { field[k] *= field[k] > 0.0f ? heavyScale : lightScale; }, 8192);
    return {heavyScale, lightScale};
}

// --- gradient -------------------------------------------------------------------------------------

void DensityField::computeGradientGrid() {
    differentiate(buoyancyField(), gradient_);
    if (fluidShareCurrent_ && fluidShare_.size() == gradient_.size()) differenceWithinFluid();
    gradientCurrent_ = true;
}

// By a wall the centred difference reaches a point outside the fluid, whose density is only that
// of the vortons beside it carried over: at the side walls of a linearly layered tank it halved
// (or turned) the gradient the vortons there read, and the baroclinic source with it (an internal
// seiche ran 11% slow). A point in fluid (share >= 1/2) takes, along an axis where a neighbour is
// outside, the one-sided difference within the fluid; a point outside the fluid then takes the
// mean gradient of its face neighbours in fluid.
void DensityField::differenceWithinFluid() {
    const UniformGrid<float>& f = buoyancyField();
    const GridShape& s = f.shape();
    auto inFluid = [&](const ivec3& q) {
        return glm::all(glm::greaterThanEqual(q, ivec3(0))) && glm::all(glm::lessThan(q, s.points)) &&
               fluidShare_.at(q.x, q.y, q.z) >= 0.5f;
    };
    auto value = [&](const ivec3& q) { return f.at(q.x, q.y, q.z); };
    auto eachPoint = [&](auto&& body) {
        parallelForEach(
            0, size_t(s.points.z),
            [&](size_t z) {
                for (int y = 0; y < s.points.y; ++y)
                    for (int x = 0; x < s.points.x; ++x) body(ivec3(x, y, int(z)));
            },
            1);
    };
    eachPoint([&](const ivec3& p) {
        if (!inFluid(p)) return;
        for (int a = 0; a < 3; ++a) {
            ivec3 e(0);
            e[a] = 1;
            const bool below = inFluid(p - e), above = inFluid(p + e);
            if (s.flatAxis(a) || below == above) continue;  // centred, or no neighbour in fluid
            const float difference = above ? value(p + e) - value(p) : value(p) - value(p - e);
            gradient_.at(p.x, p.y, p.z)[a] = difference / s.spacing[a];
        }
    });
    // Two rings of points outside: the first from its neighbours in fluid, the second from the
    // first (a point on an edge or corner of a box reaches fluid only through them).
    std::vector<uint8_t>& ring = gradientRing_;
    ring.assign(s.pointCount(), 0);
    eachPoint([&](const ivec3& p) { ring[s.index(p.x, p.y, p.z)] = inFluid(p) ? 0 : 255; });
    std::vector<uint8_t> next;
    for (uint8_t r = 1; r <= 2; ++r) {
        next = ring;  // a ring reads the rings before it and marks itself in the copy
        eachPoint([&](const ivec3& p) {
            const size_t k = s.index(p.x, p.y, p.z);
            if (ring[k] != 255) return;
            vec3 sum(0.0f);
            int count = 0;
            for (int n = 0; n < 6; ++n) {
                ivec3 q = p;
                q[n / 2] += n % 2 ? 1 : -1;
                if (glm::any(glm::lessThan(q, ivec3(0))) || glm::any(glm::greaterThanEqual(q, s.points))) continue;
                if (ring[s.index(q.x, q.y, q.z)] >= r) continue;  // this ring or beyond
                sum += gradient_.at(q.x, q.y, q.z);
                ++count;
            }
            if (count == 0) return;
            gradient_[k] = sum / float(count);
            next[k] = r;
        });
        std::swap(ring, next);
    }
}

void DensityField::poisonGradientGrid(const std::vector<RigidBody>& bodies, const Vortons& vortons,
                                      const CellPartition& partition, const FluidParams& fluid) {
    poisonDensityGradient(gradient_, bodies, vortons, partition, fluid);
}

}  // namespace vfx
