// Density-gradient "poisoning" at walls (part 14): removes the wall-normal component of the
// grid density gradient (its part across gravity, see poisonDirection) where the grid cannot see
// a wall, so still stratified fluid in a container does not spin up from the spurious
// horizontal gradient at its sides.
//
// Order independence. Many vortons touch the same grid point, possibly through different walls.
// Removing components one hit at a time would make the result depend on the order of the hits
// (and a float compare-and-swap add of the removed part on the order threads run). Instead a
// hit only *marks* the grid points of its cell with the wall faces ("features") the vorton
// touches: one bit per (body, face). Setting bits is idempotent and commutative, so every
// variant (serial, atomic, partitioned) and every thread count produce the same marks. A second
// pass, independent per grid point, projects out the span of the marked faces' normals in
// fixed feature order. The result is bitwise identical for all variants and thread counts.
#include "sim/poisoning.hpp"

#include "bodies/shapes.hpp"
#include "core/parallel.hpp"

#include <atomic>
#include <memory>

namespace vfx {

namespace {

constexpr int kMaxWords = 8;  // up to 256 wall faces take part in poisoning (e.g. 42 boxes)
constexpr uint32_t kMaxFeatures = 32u * kMaxWords;

// One bit per (body, face): body b's faces take slots first[b] .. first[b] + faces(b) - 1.
struct FeatureSlots {
    std::vector<uint32_t> first;
    std::vector<std::pair<uint32_t, int>> owner;  // slot -> (body, feature)
    int words = 1;

    explicit FeatureSlots(const std::vector<RigidBody>& bodies) {
        for (size_t b = 0; b < bodies.size(); ++b) {
            first.push_back(uint32_t(owner.size()));
            const size_t faces = bodies[b].shape.kind == ShapeKind::Sphere ? 1 : bodies[b].shape.planes.size();
            for (size_t f = 0; f < faces && owner.size() < kMaxFeatures; ++f) owner.push_back({uint32_t(b), int(f)});
        }
        words = std::max<int>(1, int((owner.size() + 31) / 32));
    }
    // Slot of a feature, or kMaxFeatures when past the supported count.
    uint32_t slot(size_t body, int feature) const {
        const uint32_t s = first[body] + uint32_t(feature);
        return s < owner.size() && owner[s].first == body ? s : kMaxFeatures;
    }
};

// Per-grid-point feature bits. Stored as atomics so the atomic variant can compare-and-swap;
// the serial and partitioned variants use relaxed loads and stores (plain moves on x86).
class WallMarks {
public:
    WallMarks(size_t points, int words) : words_(words), bits_(new std::atomic<uint32_t>[points * size_t(words)]()) {}

    void orPlain(size_t point, const uint32_t* bits) {
        for (int w = 0; w < words_; ++w) {
            if (!bits[w]) continue;
            std::atomic<uint32_t>& word = bits_[point * size_t(words_) + size_t(w)];
            word.store(word.load(std::memory_order_relaxed) | bits[w], std::memory_order_relaxed);
        }
    }
    // Lock-free update with a compare-and-swap loop (the article's Float_FetchAndAdd pattern,
    // applied to an idempotent OR on the word's bits instead of a float sum).
    void orAtomic(size_t point, const uint32_t* bits) {
        for (int w = 0; w < words_; ++w) {
            if (!bits[w]) continue;
            std::atomic<uint32_t>& word = bits_[point * size_t(words_) + size_t(w)];
            uint32_t seen = word.load(std::memory_order_relaxed);
            while ((seen | bits[w]) != seen &&
                   !word.compare_exchange_weak(seen, seen | bits[w], std::memory_order_relaxed)) {}
        }
    }
    uint32_t word(size_t point, int w) const {
        return bits_[point * size_t(words_) + size_t(w)].load(std::memory_order_relaxed);
    }
    int words() const { return words_; }

private:
    int words_;
    std::unique_ptr<std::atomic<uint32_t>[]> bits_;
};

// Feature bits of the walls a vorton touches (within its core radius).
void touchedFeatureBits(const std::vector<RigidBody>& bodies, const FeatureSlots& slots, const vec3& position,
                        float reach, std::vector<int>& features, std::vector<vec3>& normals, uint32_t* bits) {
    for (int w = 0; w < kMaxWords; ++w) bits[w] = 0;
    for (size_t b = 0; b < bodies.size(); ++b) {
        if (!mayTouchBody(bodies[b], position, reach)) continue;
        features.clear();
        normals.clear();
        nearFeatures(bodies[b].shape, bodies[b].toLocal(position), reach, features, normals);
        for (int f : features) {
            const uint32_t s = slots.slot(b, f);
            if (s < kMaxFeatures) bits[s / 32] |= 1u << (s % 32);
        }
    }
}

// Calls visit(pointIndex) for the corners of a cell (the trilinear stencil of points inside it).
template <typename Visit>
void forEachCellCorner(const GridShape& shape, ivec3 cell, Visit&& visit) {
    const int nx = shape.flatAxis(0) ? 1 : 2, ny = shape.flatAxis(1) ? 1 : 2, nz = shape.flatAxis(2) ? 1 : 2;
    for (int dz = 0; dz < nz; ++dz)
        for (int dy = 0; dy < ny; ++dy)
            for (int dx = 0; dx < nx; ++dx) visit(shape.index(cell.x + dx, cell.y + dy, cell.z + dz));
}

float touchReach(const Vortons& vortons, size_t i, const std::vector<RigidBody>& bodies) {
    float margin = 0.0f;
    for (const RigidBody& b : bodies) margin = std::max(margin, 2.0f * collisionMargin(b.shape));
    return std::max(vortons.contactRadius(i), margin);
}

bool sameShape(const GridShape& a, const GridShape& b) {
    return a.points == b.points && a.minCorner == b.minCorner && a.spacing == b.spacing;
}

void markHitsSerial(WallMarks& marks, const GridShape& shape, const std::vector<RigidBody>& bodies,
                    const FeatureSlots& slots, const Vortons& vortons) {
    std::vector<int> features;
    std::vector<vec3> normals;
    uint32_t bits[kMaxWords];
    for (size_t i = 0; i < vortons.size(); ++i) {
        if (!vortons.hitWall[i]) continue;
        touchedFeatureBits(bodies, slots, vortons.position[i], touchReach(vortons, i, bodies), features, normals, bits);
        forEachCellCorner(shape, shape.cellOf(vortons.position[i]), [&](size_t p) { marks.orPlain(p, bits); });
    }
}

void markHitsAtomic(WallMarks& marks, const GridShape& shape, const std::vector<RigidBody>& bodies,
                    const FeatureSlots& slots, const Vortons& vortons) {
    parallelForRange(
        0, vortons.size(),
        [&](size_t begin, size_t end) {
            std::vector<int> features;
            std::vector<vec3> normals;
            uint32_t bits[kMaxWords];
            for (size_t i = begin; i < end; ++i) {
                if (!vortons.hitWall[i]) continue;
                touchedFeatureBits(bodies, slots, vortons.position[i], touchReach(vortons, i, bodies), features,
                                   normals, bits);
                forEachCellCorner(shape, shape.cellOf(vortons.position[i]), [&](size_t p) { marks.orAtomic(p, bits); });
            }
        },
        1024);
}

// No atomics: vortons sorted by cell; a cell in z-layer k writes only points in z-layers k and
// k+1, so all even layers run in parallel, then all odd layers, without two threads ever
// touching one grid point.
void markHitsPartitioned(WallMarks& marks, const GridShape& shape, const std::vector<RigidBody>& bodies,
                         const FeatureSlots& slots, const Vortons& vortons, const CellPartition& partition) {
    const ivec3 cells = partition.cells();
    const std::vector<uint32_t>& sorted = partition.sortedIndices();
    for (int parity = 0; parity < 2; ++parity) {
        const size_t layers = size_t(cells.z + 1 - parity) / 2;
        parallelForEach(
            0, layers,
            [&](size_t layer) {
                const int z = int(2 * layer) + parity;
                std::vector<int> features;
                std::vector<vec3> normals;
                uint32_t bits[kMaxWords];
                for (int y = 0; y < cells.y; ++y)
                    for (int x = 0; x < cells.x; ++x) {
                        const ivec3 cell(x, y, z);
                        const size_t c = partition.cellIndex(cell);
                        for (uint32_t k = partition.begin(c); k < partition.end(c); ++k) {
                            const size_t i = sorted[k];
                            if (!vortons.hitWall[i]) continue;
                            touchedFeatureBits(bodies, slots, vortons.position[i], touchReach(vortons, i, bodies),
                                               features, normals, bits);
                            forEachCellCorner(shape, cell, [&](size_t p) { marks.orPlain(p, bits); });
                        }
                    }
            },
            1);
    }
}

// Wall normal of a feature seen from a grid point (a sphere's normal depends on the point).
bool featureNormal(const RigidBody& body, int feature, const vec3& point, vec3& normal) {
    if (body.shape.kind == ShapeKind::Sphere) {
        const vec3 radial = point - body.position;
        const float len = glm::length(radial);
        if (len <= 0.0f) return false;
        normal = radial / len;
        return true;
    }
    normal = body.orientation * body.shape.planes[size_t(feature)].normal;
    return true;
}

// The direction along which poisoning removes the gradient at a wall of normal n: n's part
// across gravity, `down` its unit direction (zero when the wall faces along gravity, n itself
// when there is no gravity and `down` is zero). Only the
// gradient across gravity drives vorticity (grad rho x g), and a wall's spurious jump along n
// has its driving part along this direction; removing along n itself would turn the vertical
// gradient of layers meeting a curved or tilted wall into a horizontal one, which stirs still
// layers (a ball resting at an interface spun a tank up to 0.4 m/s).
vec3 poisonDirection(const vec3& normal, const vec3& down) {
    const vec3 across = normal - glm::dot(normal, down) * down;
    constexpr float kLeastAcross = 0.05f;  // walls within 3 degrees of facing along gravity: floors
    return glm::length(across) >= kLeastAcross ? across : vec3(0.0f);
}

vec3 gravityDirection(const vec3& gravity) {
    const float g = glm::length(gravity);
    return g > 0.0f ? gravity / g : vec3(0.0f);
}

void removeMarkedComponents(UniformGrid<vec3>& gradient, const WallMarks& marks, const FeatureSlots& slots,
                            const std::vector<RigidBody>& bodies, const vec3& down) {
    const GridShape& shape = gradient.shape();
    const size_t nx = size_t(shape.points.x), ny = size_t(shape.points.y);
    const int words = marks.words();
    // Bits of sphere features: their normal depends on the grid point, so no basis reuse.
    std::vector<uint32_t> sphereBits(size_t(words), 0);
    for (size_t slot = 0; slot < slots.owner.size(); ++slot)
        if (bodies[slots.owner[slot].first].shape.kind == ShapeKind::Sphere) sphereBits[slot / 32] |= 1u << (slot % 32);
    parallelForRange(
        0, gradient.size(),
        [&](size_t begin, size_t end) {
            uint32_t previous[kMaxWords] = {};
            vec3 basis[3];
            int basisSize = 0;
            bool reusable = false;
            for (size_t p = begin; p < end; ++p) {
                uint32_t mask[kMaxWords];
                bool any = false, same = reusable, curved = false;
                for (int w = 0; w < words; ++w) {
                    mask[w] = marks.word(p, w);
                    any = any || mask[w];
                    same = same && mask[w] == previous[w];
                    curved = curved || (mask[w] & sphereBits[size_t(w)]);
                }
                if (!any) continue;
                if (!same) {
                    // The span of the marked faces' normals, in fixed feature order.
                    vec3 normals[48];  // the span has at most 3 dimensions; 48 faces at one point is plenty
                    size_t count = 0;
                    const vec3 point = shape.pointPosition(int(p % nx), int((p / nx) % ny), int(p / (nx * ny)));
                    for (int w = 0; w < words; ++w)
                        for (uint32_t bits = mask[w]; bits && count < 48; bits &= bits - 1) {
                            const auto [body, feature] = slots.owner[size_t(w) * 32 + size_t(__builtin_ctz(bits))];
                            if (!featureNormal(bodies[body], feature, point, normals[count])) continue;
                            normals[count] = poisonDirection(normals[count], down);
                            ++count;
                        }
                    basisSize = orthonormalSpan(normals, count, basis);
                    for (int w = 0; w < words; ++w) previous[w] = mask[w];
                    reusable = !curved;
                }
                gradient[p] = removeAlongBasis(gradient[p], basis, basisSize);
            }
        },
        2048);
}

// `walls`: every grid point inside or within the test radius of a wall, with no latency.
void poisonAtWalls(UniformGrid<vec3>& gradient, const std::vector<RigidBody>& bodies, const FluidParams& fluid) {
    const GridShape& shape = gradient.shape();
    float spacing = 0.0f;
    for (int a = 0; a < 3; ++a)
        if (!shape.flatAxis(a)) spacing = std::max(spacing, shape.spacing[a]);
    // Default reach: two grid spacings. The mass deposit spreads one cell past the last vorton
    // and the centred difference looks one more point out, so points up to two spacings from a
    // wall see its density fall-off.
    const float reach = fluid.poisonTestRadius > 0.0f ? fluid.poisonTestRadius : 2.0f * spacing;
    const vec3 down = gravityDirection(fluid.gravity);
    const size_t nx = size_t(shape.points.x), ny = size_t(shape.points.y);
    parallelForRange(
        0, gradient.size(),
        [&](size_t begin, size_t end) {
            std::vector<int> features;
            std::vector<vec3> local, world;
            for (size_t p = begin; p < end; ++p) {
                const vec3 point = shape.pointPosition(int(p % nx), int((p / nx) % ny), int(p / (nx * ny)));
                world.clear();
                for (const RigidBody& body : bodies) {
                    if (!mayTouchBody(body, point, reach)) continue;
                    features.clear();
                    local.clear();
                    nearFeatures(body.shape, body.toLocal(point), reach, features, local);
                    for (const vec3& n : local) world.push_back(poisonDirection(body.orientation * n, down));
                }
                if (!world.empty()) gradient[p] = removeNormalComponents(gradient[p], world.data(), world.size());
            }
        },
        2048);
}

}  // namespace

void poisonDensityGradient(UniformGrid<vec3>& densityGradient, const std::vector<RigidBody>& bodies,
                           const Vortons& vortons, const CellPartition& partition, const FluidParams& fluid) {
    if (fluid.poisoning == Poisoning::None || bodies.empty()) return;
    const GridShape& shape = densityGradient.shape();
    if (densityGradient.size() == 0 || densityGradient.size() != shape.pointCount()) return;
    if (fluid.poisoning == Poisoning::Walls) {
        poisonAtWalls(densityGradient, bodies, fluid);
        return;
    }
    if (vortons.hitWall.size() != vortons.size()) return;  // no collision pass yet: nothing hit
    const FeatureSlots slots(bodies);
    WallMarks marks(densityGradient.size(), slots.words);
    switch (fluid.poisonVariant) {
        case PoisonVariant::Serial:
            markHitsSerial(marks, shape, bodies, slots, vortons);
            break;
        case PoisonVariant::Atomic:
            markHitsAtomic(marks, shape, bodies, slots, vortons);
            break;
        case PoisonVariant::Partitioned:
            if (sameShape(partition.shape(), shape) && partition.sortedIndices().size() == vortons.size()) {
                markHitsPartitioned(marks, shape, bodies, slots, vortons, partition);
            } else {
                // The caller's partition is of another grid: sort the vortons into this one.
                CellPartition own;
                own.build(shape, vortons.position);
                markHitsPartitioned(marks, shape, bodies, slots, vortons, own);
            }
            break;
    }
    removeMarkedComponents(densityGradient, marks, slots, bodies, gravityDirection(fluid.gravity));
}

}  // namespace vfx
