// Fluid-body coupling (parts 4, 9, 13, 14): particles colliding with bodies and the momentum
// they exchange, no-slip vorticity at walls, the wall fields of the fluid phases, and body
// buoyancy from the fluid's density. Collisions are resolved per particle in parallel; the
// momentum each particle hands to a body is summed in fixed chunks combined in order
// (deterministicReduce), so the bodies see the same impulse bit for bit whatever the thread count.
#include "sim/body_coupling.hpp"

#include "bodies/shapes.hpp"
#include "core/parallel.hpp"
#include "sim/sph.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>

namespace vfx {

namespace {

constexpr size_t kChunk = 2048;  // vortons per reduction chunk (fixed: results never depend on threads)

// What the vortons in contact with a body push on it in one step (double, fixed order): their
// momentum relative to the wall, which a body that does not yield (kinematic) records.
struct ContactSums {
    dvec3 slipMomentum{0.0};  // sum m (v - v_wall)
    dvec3 slipAngularMomentum{0.0};
    size_t contacts = 0;  // vortons in contact (pushed or touching)
};

ContactSums addSums(const ContactSums& a, const ContactSums& b) {
    return {a.slipMomentum + b.slipMomentum, a.slipAngularMomentum + b.slipAngularMomentum, a.contacts + b.contacts};
}

// A body as the particles of this step meet it, with its broad-phase sphere in world space.
// Kinematic bodies are already at their end-of-step pose (the pose integrateBodies will give
// them), so particles are contained by the wall where it will be drawn and dumped, however
// fast it moves.
struct PosedBody {
    RigidBody body;
    vec3 centre{0.0f};
    float margin = 0.0f;

    PosedBody(const RigidBody& original, float dt) : body(original) {
        if (body.motion == MotionKind::Kinematic) setKinematicPose(body, original.clock + double(dt));
        centre = centreInWorld(body);
        margin = collisionMargin(body.shape);
    }
    // Broad phase (same test as mayTouchBody, with the centre computed once).
    bool mayTouch(const vec3& p, float reach) const {
        const float fromCentre = glm::length(p - centre);
        return body.isHole() ? fromCentre > body.shape.inscribedRadius - reach
                             : fromCentre < body.shape.circumscribedRadius + reach;
    }
};

// Moves a penetrating point to the fluid side of the body. Returns false (and changes nothing)
// when the point does not penetrate. `normal` gets the unit wall normal into the fluid.
bool pushOutOfBody(const PosedBody& posed, vec3& position, const vec3& velocity, vec3& normal) {
    if (!posed.mayTouch(position, 0.0f)) return false;
    const RigidBody& body = posed.body;
    const CollisionShape& shape = body.shape;
    vec3 local = body.toLocal(position);
    vec3 localNormal;
    if (shape.isHole()) {
        localNormal = moveInsideHole(shape, local, posed.margin);
        const float len = glm::length(localNormal);
        if (len == 0.0f) return false;
        localNormal /= len;
    } else {
        const vec3 relative = glm::conjugate(body.orientation) * (velocity - body.surfaceVelocity(position));
        const float distance = shapeCollisionDistance(shape, local, relative, &localNormal);
        if (distance >= 0.0f) return false;
        local += localNormal * (posed.margin - distance);
    }
    position = body.toWorld(local);
    normal = body.orientation * localNormal;
    return true;
}

// A vorton in contact with a body this step: pushed out of it, or with its core overlapping it.
struct ContactRecord {
    uint32_t index;
    uint32_t sharing;  // vortons in contact on the same wall patch (filled in later)
    vec3 normal;       // into the fluid
    vec3 slip;         // vorton velocity minus wall velocity before the exchange
    uint64_t patch;    // wall patch of the contact point
};
// Contact records per reduction chunk, in vorton order: later passes visit only contacts.
using ContactLists = std::vector<std::vector<ContactRecord>>;

// Wall patch key: the contact point on the surface, in the body frame, quantised to cubes of
// side `patchSize` (21 bits per axis; wrap-around far away only merges distant patches).
uint64_t patchKey(const RigidBody& body, const vec3& surfacePoint, float patchSize) {
    const ivec3 q = ivec3(glm::floor(body.toLocal(surfacePoint) / patchSize));
    const auto field = [](int v) { return uint64_t(uint32_t(v) & 0x1fffffu); };
    return field(q.x) | field(q.y) << 21 | field(q.z) << 42;
}

// Collides vortons [begin, end) with one body: moves penetrating vortons to the surface with
// the wall's (pre-collision) velocity, records every vorton in contact (pushed, or core
// overlapping the wall), and sums the pushed vortons' mass and momenta for the exchange.
ContactSums collideVortonRange(const PosedBody& posed, Vortons& v, const FluidParams& fluid, float patchSize,
                               size_t begin, size_t end, std::vector<ContactRecord>& contacts) {
    ContactSums sums;
    const RigidBody& body = posed.body;
    const dvec3 centre(body.position);
    for (size_t i = begin; i < end; ++i) {
        vec3 normal;
        vec3 x = v.position[i];
        if (pushOutOfBody(posed, x, v.velocity[i], normal)) {
            const double mass = double((fluid.ambientDensity + v.density[i]) * v.volume(i));
            const vec3 wallVelocity = body.surfaceVelocity(x);
            const vec3 slip = v.velocity[i] - wallVelocity;
            const dvec3 r = dvec3(x) - centre;
            sums.slipMomentum += dvec3(slip) * mass;
            sums.slipAngularMomentum += glm::cross(r, dvec3(slip) * mass);
            v.position[i] = x;
            v.velocity[i] = wallVelocity;
            if (i < v.sphVelocity.size()) {
                // SPH carries its own velocity: drop the part driving into the wall (inelastic).
                const float into = glm::dot(v.sphVelocity[i] - wallVelocity, normal);
                if (into < 0.0f) v.sphVelocity[i] -= normal * into;
            }
            contacts.push_back({uint32_t(i), 0, normal, slip, patchKey(body, x, patchSize)});
            ++sums.contacts;
        } else if (posed.mayTouch(x, v.contactRadius(i))) {
            // A vorton whose core overlaps a wall is in contact with it even when it did not cross
            // it (fluid resting against a wall, or a wall sliding beneath it).
            const BodyContact contact = contactWithBody(body, x);
            if (contact.distance >= v.contactRadius(i)) continue;
            const vec3 slip = v.velocity[i] - body.surfaceVelocity(x);
            contacts.push_back({uint32_t(i), 0, contact.normal, slip, patchKey(body, contact.point, patchSize)});
            ++sums.contacts;
        }
    }
    return sums;
}

// Counts vortons per wall patch in parallel: an open-addressing hash table whose slots are
// claimed by compare-and-swap and whose counts grow by atomic increments. The final count of a
// patch does not depend on the order of insertion, so the result is deterministic.
class PatchCounter {
public:
    explicit PatchCounter(size_t expected) {
        size_t capacity = 16;
        while (capacity < 2 * expected) capacity *= 2;
        mask_ = capacity - 1;
        keys_.reset(new std::atomic<uint64_t>[capacity]);
        counts_.reset(new std::atomic<uint32_t>[capacity]);
        for (size_t i = 0; i < capacity; ++i) {
            keys_[i].store(kEmpty, std::memory_order_relaxed);
            counts_[i].store(0, std::memory_order_relaxed);
        }
    }
    void add(uint64_t key) {
        for (size_t slot = hash(key);; slot = (slot + 1) & mask_) {
            uint64_t seen = keys_[slot].load(std::memory_order_relaxed);
            if (seen == kEmpty && keys_[slot].compare_exchange_strong(seen, key, std::memory_order_relaxed)) seen = key;
            if (seen == key) {
                counts_[slot].fetch_add(1, std::memory_order_relaxed);
                return;
            }
        }
    }
    uint32_t count(uint64_t key) const {
        for (size_t slot = hash(key);; slot = (slot + 1) & mask_) {
            const uint64_t seen = keys_[slot].load(std::memory_order_relaxed);
            if (seen == key) return counts_[slot].load(std::memory_order_relaxed);
            if (seen == kEmpty) return 0;
        }
    }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);  // patch keys use 63 bits, never this
    size_t hash(uint64_t key) const { return size_t((key * 0x9E3779B97F4A7C15ull) >> 17) & mask_; }
    size_t mask_ = 0;
    std::unique_ptr<std::atomic<uint64_t>[]> keys_;
    std::unique_ptr<std::atomic<uint32_t>[]> counts_;
};

// Fills in how many vortons in contact share each one's wall patch.
void countPatchSharing(ContactLists& lists, size_t contactCount) {
    if (contactCount == 0) return;
    PatchCounter counter(contactCount);
    parallelForEach(
        0, lists.size(),
        [&](size_t c) {
            for (const ContactRecord& r : lists[c]) counter.add(r.patch);
        },
        1);
    parallelForEach(
        0, lists.size(),
        [&](size_t c) {
            for (ContactRecord& r : lists[c]) r.sharing = counter.count(r.patch);
        },
        1);
}

// No-slip vorticity for every vorton in contact; the sheet of a wall patch is split among the
// vortons on it, so fluid crowded against a wall does not multiply the wall's circulation.
// Returns the spin angular momentum the vortons gained (a fluid ball rotating at omega/2 has
// L = 2/5 m sigma^2 omega/2).
dvec3 assignNoSlipVorticity(Vortons& v, const ContactLists& lists, const FluidParams& fluid) {
    return deterministicReduce(
        lists.size(), dvec3(0.0),
        [&](size_t begin, size_t end) {
            dvec3 spin(0.0);
            for (size_t c = begin; c < end; ++c)
                for (const ContactRecord& r : lists[c]) {
                    const size_t i = r.index;
                    const vec3 vorticity =
                        noSlipVorticity(v.vorticity[i], r.normal, r.slip / float(r.sharing), v.contactRadius(i));
                    const double mass = double((fluid.ambientDensity + v.density[i]) * v.volume(i));
                    const double sigma = v.contactRadius(i);
                    spin += dvec3(vorticity - v.vorticity[i]) * (0.2 * mass * sigma * sigma);
                    v.vorticity[i] = vorticity;
                    v.hitWall[i] = 1;
                    v.hitNormal[i] = r.normal;
                }
            return spin;
        },
        [](const dvec3& a, const dvec3& b) { return a + b; }, 1);
}

// Tracers are passive: they are moved and take the wall velocity but carry no mass (zero
// momentum exchanged), so adding tracers never changes the physics.
void collideTracerRange(const PosedBody& posed, Tracers& t, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
        vec3 normal;
        vec3 x = t.position[i];
        const vec3 velocity = i < t.velocity.size() ? t.velocity[i] : vec3(0.0f);
        if (!pushOutOfBody(posed, x, velocity, normal)) continue;
        t.position[i] = x;
        if (i < t.velocity.size()) t.velocity[i] = posed.body.surfaceVelocity(x);
    }
}

// Solids first, containers last: the final word on every particle belongs to the walls that
// must hold it, so nothing pushed out of a solid ends up outside its tank.
std::vector<size_t> collisionOrder(const std::vector<RigidBody>& bodies) {
    std::vector<size_t> order;
    for (size_t b = 0; b < bodies.size(); ++b)
        if (!bodies[b].isHole()) order.push_back(b);
    for (size_t b = 0; b < bodies.size(); ++b)
        if (bodies[b].isHole()) order.push_back(b);
    return order;
}

float gridSample(const UniformGrid<float>& grid, const vec3& p) {
    const bool valid = grid.size() > 0 && grid.size() == grid.shape().pointCount();
    return valid && grid.shape().encloses(p) ? grid.interpolate(p) : 0.0f;
}

}  // namespace

vec3 noSlipVorticity(const vec3& vorticity, const vec3& normalIntoFluid, const vec3& slip, float sigma) {
    // No slip needs a vortex sheet of strength gamma = n x slip on the wall (the velocity jump
    // across it is the slip). A vorton of volume V stands for a cube of side V^(1/3), so it
    // carries the sheet over that much wall: omega V = gamma V^(2/3).
    const float side = std::cbrt(sphereVolume(sigma));
    const vec3 normalPart = normalIntoFluid * glm::dot(vorticity, normalIntoFluid);
    return normalPart + glm::cross(normalIntoFluid, slip) / side;
}

void computeWallProximity(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions, float maxProximity,
                          std::vector<float>& proximity) {
    proximity.resize(positions.size());
    parallelForEach(
        0, positions.size(),
        [&](size_t i) {
            float nearest = maxProximity;
            for (const RigidBody& body : bodies) {
                // Deep inside a hole's inscribed sphere the walls are at least that far away.
                if (body.isHole() && !mayTouchBody(body, positions[i], maxProximity)) continue;
                nearest = std::min(nearest, contactDistance(body, positions[i]));
            }
            proximity[i] = nearest;
        },
        1024);
}

namespace {

// Share of a kernel of support h centred at a world point that lies on the body's fluid side,
// from the share a flat wall at signed distance d leaves on its fluid side, flatShare(d, h).
template <class FlatShare>
float bodyKernelShare(const RigidBody& body, const vec3& worldPoint, float h, FlatShare flatShare) {
    if (body.shape.kind != ShapeKind::Polytope) return flatShare(contactDistance(body, worldPoint), h);
    const vec3 local = body.toLocal(worldPoint);
    float product = 1.0f;  // hole: share inside every face; solid: share behind every face
    for (const Plane& plane : body.shape.planes) {
        const float outside = plane.distance(local);
        product *= body.isHole() ? flatShare(-outside, h) : 1.0f - flatShare(outside, h);
    }
    return body.isHole() ? product : 1.0f - product;
}

// The trilinear (cloud-in-cell) weight of one spacing h integrated over the half-space on the
// fluid side of a flat wall at signed distance d: the tent 1 - |x|/h per axis.
float tentShareOnFluidSide(float d, float h) {
    const float u = std::clamp(d / h, -1.0f, 1.0f);
    return u >= 0.0f ? 1.0f - 0.5f * (1.0f - u) * (1.0f - u) : 0.5f * (1.0f + u) * (1.0f + u);
}

}  // namespace

void computeGridFluidShare(const std::vector<RigidBody>& bodies, const GridShape& shape, UniformGrid<float>& share) {
    share.reset(shape, 1.0f);
    const float h = shape.spacing.x;
    const size_t nx = size_t(shape.points.x), ny = size_t(shape.points.y);
    parallelForEach(
        0, share.size(),
        [&](size_t k) {
            const vec3 point = shape.pointPosition(int(k % nx), int((k / nx) % ny), int(k / (nx * ny)));
            float s = 1.0f;
            for (const RigidBody& body : bodies)
                if (mayTouchBody(body, point, h)) s *= bodyKernelShare(body, point, h, tentShareOnFluidSide);
            share[k] = s;
        },
        4096);
}

void computeWallKernelShare(const std::vector<RigidBody>& bodies, const std::vector<vec3>& positions, float h,
                            std::vector<float>& share) {
    share.resize(positions.size());
    parallelForEach(
        0, positions.size(),
        [&](size_t i) {
            float s = 1.0f;
            for (const RigidBody& body : bodies)
                if (mayTouchBody(body, positions[i], h))
                    s *= bodyKernelShare(body, positions[i], h, sphKernelShareOnFluidSide);
            share[i] = std::max(s, 0.05f);
        },
        1024);
}

void collideParticlesWithBodies(std::vector<RigidBody>& bodies, Vortons& vortons, Tracers& tracers,
                                const FluidParams& fluid, float dt) {
    const size_t vortonCount = vortons.size();
    vortons.hitWall.assign(vortonCount, 0);
    vortons.hitNormal.resize(vortonCount, vec3(0.0f));
    vortons.velocity.resize(vortonCount, vec3(0.0f));
    float largestVolume = 0.0f;
    for (float volume : vortons.volumes) largestVolume = std::max(largestVolume, volume);
    const float patchSize = std::max(std::cbrt(largestVolume), 1e-6f);
    ContactLists contacts((vortonCount + kChunk - 1) / kChunk);
    for (size_t b : collisionOrder(bodies)) {
        RigidBody& body = bodies[b];
        const PosedBody posed(body, dt);
        ContactSums sums = deterministicReduce(
            vortonCount, ContactSums{},
            [&](size_t begin, size_t end) {
                std::vector<ContactRecord>& list = contacts[begin / kChunk];
                list.clear();
                return collideVortonRange(posed, vortons, fluid, patchSize, begin, end, list);
            },
            addSums, kChunk);
        // A dynamic solid meets the fluid through its drag (exchangeDragWithFluid), whose
        // momentum goes into the fluid as vorticity; here it only keeps the particles out.
        parallelForRange(
            0, tracers.size(), [&](size_t begin, size_t end) { collideTracerRange(posed, tracers, begin, end); }, 2048);
        if (body.motion == MotionKind::Dynamic) continue;
        countPatchSharing(contacts, sums.contacts);
        const dvec3 spin = assignNoSlipVorticity(vortons, contacts, fluid);
        // A body that does not yield (kinematic) keeps the record of the fluid's push.
        body.impulse += vec3(sums.slipMomentum);
        body.angularImpulse += vec3(sums.slipAngularMomentum - spin);
    }
}

namespace {

// The fluid's mean density deviation around a body, read on its fluid side: six points one and
// a half grid spacings beyond its surface (above, below and around, relative to gravity), each
// the deposited mass deviation over the vorton volume covering it there. The ratio of the sums
// ignores points without fluid (outside a tank, in a body's emptied interior), and the pair above
// and below averages a linear stratification to its value at the centre. NaN: no fluid around.
float surroundingDeviation(const RigidBody& body, const UniformGrid<float>& deviation,
                           const UniformGrid<float>& coverage, const FluidParams& fluid) {
    const vec3 centre = centreInWorld(body);
    const float g = glm::length(fluid.gravity);
    const vec3 down = g > 0.0f ? fluid.gravity / g : vec3(0.0f, -1.0f, 0.0f);
    const vec3 side =
        glm::normalize(glm::abs(down.x) < 0.9f ? glm::cross(down, vec3(1, 0, 0)) : glm::cross(down, vec3(0, 1, 0)));
    const vec3 other = glm::cross(down, side);
    const float gap = 1.5f * deviation.shape().spacing.x;
    double mass = 0.0, covered = 0.0;
    for (const vec3& direction : {down, -down, side, -side, other, -other}) {
        const vec3 p =
            centre + direction * (reachAlong(body.shape, glm::conjugate(body.orientation) * direction) + gap);
        mass += gridSample(deviation, p);
        covered += gridSample(coverage, p);
    }
    return covered > 0.5 ? float(mass / covered) : std::numeric_limits<float>::quiet_NaN();
}

}  // namespace

void fillSolidsWithSurroundingDensity(UniformGrid<float>& meanDeviation, const std::vector<RigidBody>& bodies,
                                      const UniformGrid<float>& deposit, const UniformGrid<float>& coverage,
                                      const FluidParams& fluid, float heavyScale, float lightScale) {
    const GridShape& shape = meanDeviation.shape();
    if (meanDeviation.size() == 0 || coverage.size() != meanDeviation.size() || deposit.size() != meanDeviation.size())
        return;
    const float band = 1.5f * shape.spacing.x;
    constexpr float kFullyCovered = 0.75f;  // the coverage from which the mean density stands alone
    const size_t nx = size_t(shape.points.x), ny = size_t(shape.points.y);
    for (const RigidBody& body : bodies) {
        if (body.isHole()) continue;
        float around = surroundingDeviation(body, deposit, coverage, fluid);
        if (!std::isfinite(around)) continue;
        around *= around > 0.0f ? heavyScale : lightScale;  // as the field around was scaled
        parallelForEach(
            0, meanDeviation.size(),
            [&](size_t p) {
                if (coverage[p] >= kFullyCovered) return;
                const vec3 point = shape.pointPosition(int(p % nx), int((p / nx) % ny), int(p / (nx * ny)));
                if (mayTouchBody(body, point, band) && contactDistance(body, point) < band) meanDeviation[p] = around;
            },
            4096);
    }
}

float displacedMass(const RigidBody& body, const UniformGrid<float>& densityDeviation, const FluidParams& fluid,
                    const UniformGrid<float>* coverage) {
    if (body.isHole()) return 0.0f;  // a container holds fluid rather than displacing it
    if (coverage && coverage->size() == densityDeviation.size() && densityDeviation.size() > 0) {
        const float around = surroundingDeviation(body, densityDeviation, *coverage, fluid);
        return (fluid.ambientDensity + (std::isfinite(around) ? around : 0.0f)) * body.shape.volume();
    }
    const vec3 centre = centreInWorld(body);
    float deviation = gridSample(densityDeviation, centre);
    const float g = glm::length(fluid.gravity);
    if (g > 0.0f) {
        // Sample one "radius" below and above the centre along gravity; outside the grid the
        // fluid is ambient (deviation 0), so the average always has three terms.
        const vec3 down = fluid.gravity / g;
        const vec3 localDown = glm::conjugate(body.orientation) * down;
        const float below = reachAlong(body.shape, localDown);
        const float above = reachAlong(body.shape, -localDown);
        deviation = (deviation + gridSample(densityDeviation, centre + down * below) +
                     gridSample(densityDeviation, centre - down * above)) /
                    3.0f;
    }
    return (fluid.ambientDensity + deviation) * body.shape.volume();
}

void applyBuoyancyAndGravity(std::vector<RigidBody>& bodies, const UniformGrid<float>& densityDeviation,
                             const FluidParams& fluid, const UniformGrid<float>* coverage) {
    for (RigidBody& body : bodies) {
        body.lastDisplacedMass = displacedMass(body, densityDeviation, fluid, coverage);
        if (body.motion != MotionKind::Dynamic) continue;
        body.force += fluid.gravity * (body.mass - body.lastDisplacedMass);
    }
}

// --- drag and the impulse it hands to the fluid ------------------------------------------------

namespace {

// Drag coefficient of a sphere at Reynolds number Re (Clift and Gauvin's fit to measurements,
// within a few per cent from Stokes flow to the drag crisis). Re = 0 (inviscid): the fit's
// high-Re limit.
double sphereDragCoefficient(double reynolds) {
    if (!(reynolds > 0.0) || !std::isfinite(reynolds)) return 0.42;
    return 24.0 / reynolds * (1.0 + 0.15 * std::pow(reynolds, 0.687)) +
           0.42 / (1.0 + 42500.0 * std::pow(reynolds, -1.16));
}

constexpr double kPiDouble = 3.141592653589793;

// Radius of the sphere of the body's volume, which stands for its shape in the drag laws and the
// potential flow.
double equivalentRadius(const RigidBody& body) {
    return std::cbrt(3.0 * double(body.shape.volume()) / (4.0 * kPiDouble));
}

// Torque coefficient of a sphere spinning at rotational Reynolds number Re = |Omega| d^2 / nu
// (Dennis, Singh and Ingham's and Sawatzki's fits as collected by Crowe, Sommerfeld and Tsuji):
// torque = C_R / 2 rho0 r^5 |Omega| Omega. Below Re 32 it is Stokes' 8 pi mu r^3 Omega, the
// two branches meet at Re 32. Inviscid (Re = 0 given): no torque, an ideal fluid cannot spin a
// sphere.
double sphereTorqueCoefficient(double reynolds) {
    if (!(reynolds > 0.0) || !std::isfinite(reynolds)) return 0.0;
    if (reynolds <= 32.0) return 64.0 * kPiDouble / reynolds;
    return 12.9 / std::sqrt(reynolds) + 128.4 / reynolds;
}

// A vorton in a body's shell: its depth into the shell (0 at the surface, 1 at the edge) and the
// surface normal. Its share of what the body sheds falls linearly from 1 at the surface to 0 at
// the edge, so a vorton drifting across the edge joins or leaves the exchange without a jump.
struct ShellVorton {
    size_t index = 0;
    double depth = 0.0;
    dvec3 normal{0.0};
    double weight() const { return 1.0 - depth; }
};

// The vortons around a body that take up what it sheds, in index order (the same for any thread
// count), with the fluid volume they hold.
struct Shell {
    std::vector<ShellVorton> members;
    double volume = 0.0;  // sum V: how much fluid surrounds the body
};

Shell gatherShell(const RigidBody& body, const Vortons& v, float reach, std::vector<float>& depths) {
    depths.resize(v.size());
    parallelForEach(
        0, v.size(),
        [&](size_t i) {
            const vec3& x = v.position[i];
            const float d = mayTouchBody(body, x, reach) ? contactDistance(body, x) : reach;
            depths[i] = d >= 0.0f && d < reach ? d / reach : -1.0f;
        },
        kChunk);
    Shell shell;
    for (size_t i = 0; i < v.size(); ++i) {
        if (depths[i] < 0.0f) continue;
        ShellVorton m;
        m.index = i;
        m.depth = double(depths[i]);
        vec3 normal;
        contactDistance(body, v.position[i], &normal);
        m.normal = dvec3(normal);
        shell.members.push_back(m);
        shell.volume += v.volume(i);
    }
    return shell;
}

// The shapes an exchange gives the fluid, each linear in a direction e (unit axes):
// - swirl: the curl of a swirling flow g(s) e x r about the body centre, g = sin^2(pi s) of the
//   depth s, so it vanishes at the surface and at the edge: divergence-free, zero total
//   vorticity and zero linear impulse in the continuum, no rotation inside the body; it carries
//   angular impulse (what a spinning body sheds);
// - ring: w e x (x - c), a closed vortex ring around the body carrying linear impulse (what a
//   body dragged through the fluid sheds).
dvec3 swirlVorticity(const dvec3& e, const ShellVorton& m, const dvec3& x, const dvec3& bodyCentre, double reach) {
    const double s = std::sin(kPiDouble * m.depth);
    const double swirl = s * s;                                                    // g
    const double slope = kPiDouble * std::sin(2.0 * kPiDouble * m.depth) / reach;  // dg/dd along the normal
    return 2.0 * swirl * e + slope * glm::cross(m.normal, glm::cross(e, x - bodyCentre));
}

dvec3 ringVorticity(const dvec3& e, const ShellVorton& m, const dvec3& x, const dvec3& ringCentre) {
    return m.weight() * glm::cross(e, x - ringCentre);
}

// What a vorton's strength s = omega V adds to the nine sums an exchange must set: the total
// vorticity sum s, the linear impulse 1/2 sum x x s and the angular impulse 1/3 sum x x (x x s).
// Each is a 3 x 3 matrix acting on s: I, K/2 and K^2/3 with K the cross-product matrix of x.
constexpr int kConstraints = 9;

std::array<dmat3, 3> constraintBlocks(const dvec3& x) {
    const dmat3 k(0.0, x.z, -x.y, -x.z, 0.0, x.x, x.y, -x.x, 0.0);  // column-major: k * s = x x s
    return {dmat3(1.0), 0.5 * k, (1.0 / 3.0) * (k * k)};
}

// Solves a x = b (n x n, row-major) by Gaussian elimination with partial pivoting; false when
// the matrix is singular to working precision.
template <int N>
bool solveLinear(std::array<std::array<double, N>, N> a, std::array<double, N> b, std::array<double, N>& x) {
    double largest = 0.0;
    for (const auto& row : a)
        for (double value : row) largest = std::max(largest, std::abs(value));
    for (int col = 0; col < N; ++col) {
        int pivot = col;
        for (int row = col + 1; row < N; ++row)
            if (std::abs(a[row][col]) > std::abs(a[pivot][col])) pivot = row;
        if (!(std::abs(a[pivot][col]) > 1e-12 * largest)) return false;
        std::swap(a[pivot], a[col]);
        std::swap(b[pivot], b[col]);
        for (int row = col + 1; row < N; ++row) {
            const double factor = a[row][col] / a[col][col];
            for (int k = col; k < N; ++k) a[row][k] -= factor * a[col][k];
            b[row] -= factor * b[col];
        }
    }
    for (int row = N - 1; row >= 0; --row) {
        double sum = b[row];
        for (int k = row + 1; k < N; ++k) sum -= a[row][k] * x[k];
        x[row] = sum / a[row][row];
    }
    return true;
}

// The 3 x 3 matrix whose column k is sum(V f(e_k, vorton)), f mapping a direction to a 3-vector.
template <class F>
dmat3 shellSum(const Vortons& v, const Shell& shell, F&& f) {
    dmat3 sum(0.0);
    for (const ShellVorton& m : shell.members)
        for (int k = 0; k < 3; ++k) sum[k] += double(v.volume(m.index)) * f(dvec3(k == 0, k == 1, k == 2), m);
    return sum;
}

// The nine sums (total vorticity, linear and angular impulse about the origin) of strengths s_i.
std::array<double, kConstraints> constraintSums(const Vortons& v, const Shell& shell, const std::vector<dvec3>& s) {
    std::array<double, kConstraints> sums{};
    for (size_t j = 0; j < shell.members.size(); ++j) {
        const std::array<dmat3, 3> b = constraintBlocks(dvec3(v.position[shell.members[j].index]));
        for (int p = 0; p < 3; ++p) {
            const dvec3 part = b[p] * s[j];
            for (int r = 0; r < 3; ++r) sums[3 * p + r] += part[r];
        }
    }
    return sums;
}

// The least strengths s_i = omega_i V_i (least sum |s_i|^2 / (V_i w_i), w the shell weight) whose
// nine sums are `wanted`: s_i = V_i w_i B_i^T lambda with B_i the vorton's constraint rows and
// lambda from the 9 x 9 Gram system sum V w B B^T lambda = wanted, positive definite unless the
// shell is degenerate (a line of vortons), however walls cut it. The rows are about the origin;
// scaling the diagonal keeps the system well conditioned for shells a few metres from it (the
// condition number grows as (distance / shell size)^4). Returns lambda's three parts.
bool leastCorrection(const Vortons& v, const Shell& shell, const std::array<double, kConstraints>& wanted,
                     std::array<dvec3, 3>& lambda) {
    std::array<std::array<double, kConstraints>, kConstraints> gram{};
    for (const ShellVorton& m : shell.members) {
        const std::array<dmat3, 3> b = constraintBlocks(dvec3(v.position[m.index]));
        const double share = double(v.volume(m.index)) * m.weight();
        for (int p = 0; p < 3; ++p)
            for (int q = 0; q < 3; ++q) {
                const dmat3 block = b[p] * glm::transpose(b[q]);  // row r, column c at [c][r]
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) gram[3 * p + r][3 * q + c] += share * block[c][r];
            }
    }
    // The three blocks differ in scale by powers of |x|: solve the equilibrated system.
    std::array<double, kConstraints> scale{}, scaled{}, solution{};
    for (int k = 0; k < kConstraints; ++k) {
        if (!(gram[k][k] > 0.0)) return false;
        scale[k] = 1.0 / std::sqrt(gram[k][k]);
        scaled[k] = scale[k] * wanted[k];
    }
    for (int r = 0; r < kConstraints; ++r)
        for (int c = 0; c < kConstraints; ++c) gram[r][c] *= scale[r] * scale[c];
    if (!solveLinear<kConstraints>(gram, scaled, solution)) return false;
    for (int p = 0; p < 3; ++p)
        lambda[size_t(p)] = dvec3(solution[3 * p], solution[3 * p + 1], solution[3 * p + 2]) *
                            dvec3(scale[3 * p], scale[3 * p + 1], scale[3 * p + 2]);
    return true;
}

// Adds to the shell's vortons the vorticity that changes the fluid's linear impulse
// 1/2 sum x x omega V by `impulse` and its angular impulse 1/3 sum x x (x x omega V) by
// `angularImpulse` exactly, leaving the total vorticity sum omega V unchanged. The shape is
// physical: a ring for the impulse and a swirl for the angular impulse about the body centre
// (angularImpulse - c x impulse), each sized by its own 3 x 3 sums (the ring's is (tr M - M)/2
// with M the shell's weighted second moment, positive definite unless the vortons lie on a line;
// a shape whose sums are singular is left out). What the
// vortons' discrete sums leave, and what the walls cutting the shell take away, is then made up
// by the least correction. (Solving the three shapes and a uniform field as one square 9 x 9
// system instead was nearly singular for some shells cut by a corner: a resting ball's drag
// reached the fluid as |omega| ~ 140 1/s.)
bool injectImpulses(Vortons& v, const Shell& shell, const dvec3& bodyCentre, double reach, const dvec3& impulse,
                    const dvec3& angularImpulse) {
    double weight = 0.0;
    dvec3 first{0.0};
    for (const ShellVorton& m : shell.members) {
        weight += m.weight() * v.volume(m.index);
        first += m.weight() * v.volume(m.index) * dvec3(v.position[m.index]);
    }
    if (!(weight > 0.0)) return false;
    const dvec3 ringCentre = first / weight;  // the ring's vorticity sums to zero about it
    auto position = [&](const ShellVorton& m) { return dvec3(v.position[m.index]); };
    const dmat3 ringImpulse = shellSum(v, shell, [&](const dvec3& e, const ShellVorton& m) {
        return 0.5 * glm::cross(position(m) - ringCentre, ringVorticity(e, m, position(m), ringCentre));
    });
    const dmat3 swirlAngular = shellSum(v, shell, [&](const dvec3& e, const ShellVorton& m) {
        const dvec3 r = position(m) - bodyCentre;
        return (1.0 / 3.0) * glm::cross(r, glm::cross(r, swirlVorticity(e, m, position(m), bodyCentre, reach)));
    });
    // A shape whose sums are singular (its vortons on a line) is left to the correction.
    const auto amountOf = [](const dmat3& sums, const dvec3& wanted) {
        const double d = glm::determinant(sums);
        const double size = glm::length(sums[0]) * glm::length(sums[1]) * glm::length(sums[2]);
        return std::abs(d) > 1e-9 * size ? glm::inverse(sums) * wanted : dvec3(0.0);
    };
    const dvec3 ring = amountOf(ringImpulse, impulse);
    const dvec3 swirl = amountOf(swirlAngular, angularImpulse - glm::cross(bodyCentre, impulse));
    std::vector<dvec3> strength(shell.members.size());
    for (size_t j = 0; j < shell.members.size(); ++j) {
        const ShellVorton& m = shell.members[j];
        const dvec3 x = position(m);
        strength[j] = double(v.volume(m.index)) *
                      (ringVorticity(ring, m, x, ringCentre) + swirlVorticity(swirl, m, x, bodyCentre, reach));
    }
    std::array<double, kConstraints> missing = constraintSums(v, shell, strength);
    const std::array<double, kConstraints> wanted{
        0.0, 0.0, 0.0, impulse.x, impulse.y, impulse.z, angularImpulse.x, angularImpulse.y, angularImpulse.z};
    for (int k = 0; k < kConstraints; ++k) missing[k] = wanted[k] - missing[k];
    std::array<dvec3, 3> lambda;
    if (!leastCorrection(v, shell, missing, lambda)) return false;
    parallelForEach(
        0, shell.members.size(),
        [&](size_t j) {
            const ShellVorton& m = shell.members[j];
            const std::array<dmat3, 3> b = constraintBlocks(position(m));
            const dvec3 correction = m.weight() * (glm::transpose(b[0]) * lambda[0] + glm::transpose(b[1]) * lambda[1] +
                                                   glm::transpose(b[2]) * lambda[2]);
            v.vorticity[m.index] += vec3(strength[j] / double(v.volume(m.index)) + correction);
        },
        256);
    return true;
}

// Half the curl of the velocity grid at a point (the local rotation rate of the flow), from
// central differences one spacing apart; zero where the stencil leaves the grid.
vec3 flowRotation(const UniformGrid<vec3>& velocity, const vec3& point) {
    if (velocity.size() == 0) return vec3(0.0f);
    const float h = velocity.shape().spacing.x;
    vec3 du[3];
    for (int axis = 0; axis < 3; ++axis) {
        vec3 step(0.0f);
        step[axis] = h;
        if (!velocity.shape().encloses(point + step) || !velocity.shape().encloses(point - step)) return vec3(0.0f);
        du[axis] = (velocity.interpolate(point + step) - velocity.interpolate(point - step)) / (2.0f * h);
    }
    // du[a][c] = d u_c / d x_a
    return 0.5f * vec3(du[1].z - du[2].y, du[2].x - du[0].z, du[0].y - du[1].x);
}

// The implicit change of a velocity-like quantity q under the drag law dq/dt = -c |q| q / inertia
// over dt: never reverses q, whatever dt.
dvec3 implicitDragChange(const dvec3& q, double c, double inertia, double dt) {
    const double magnitude = glm::length(q);
    if (!(magnitude > 0.0) || !(c > 0.0)) return dvec3(0.0);
    return -q * (inertia * c * magnitude * dt / (inertia + c * magnitude * dt));
}

}  // namespace

void exchangeDragWithFluid(std::vector<RigidBody>& bodies, Vortons& vortons, const UniformGrid<vec3>& velocity,
                           const FluidParams& fluid, float shellThickness, float dt,
                           const std::vector<dvec3>& returnedImpulse) {
    std::vector<float> depths;
    const double rho0 = fluid.ambientDensity;
    for (size_t b = 0; b < bodies.size(); ++b) {
        RigidBody& body = bodies[b];
        const dvec3 returned = b < returnedImpulse.size() ? returnedImpulse[b] : dvec3(0.0);
        if (body.motion != MotionKind::Dynamic || body.isHole()) continue;
        const vec3 centre = centreInWorld(body);
        const vec3 flow =
            velocity.size() > 0 && velocity.shape().encloses(centre) ? velocity.interpolate(centre) : vec3(0.0f);
        const dvec3 relative = dvec3(body.velocity) - dvec3(flow);
        const dvec3 relativeSpin = dvec3(body.angularVelocity) - dvec3(flowRotation(velocity, centre));
        const double speed = glm::length(relative), spinRate = glm::length(relativeSpin);
        // Moving with the flow and its added mass known: nothing to exchange, skip the shell scan.
        if (!(speed > 0.0) && !(spinRate > 0.0) && body.addedMass > 0.0f && returned == dvec3(0.0)) continue;
        const float reach = shellThickness;
        const Shell shell = gatherShell(body, vortons, reach, depths);
        if (shell.members.size() < 8) {  // too few vortons to carry a ring: no fluid to push
            body.addedMass = 0.0f;
            continue;
        }
        const double radius = equivalentRadius(body);
        const double shellVolume = 4.0 / 3.0 * kPiDouble * (std::pow(radius + reach, 3.0) - std::pow(radius, 3.0));
        const double cover = std::min(1.0, shell.volume / shellVolume);  // fluid around it, 0..1
        body.addedMass = float(0.5 * rho0 * double(body.shape.volume()) * cover);
        const double nu = fluid.viscosity;
        const double reynolds = nu > 0.0 ? speed * 2.0 * radius / nu : 0.0;
        const double spinReynolds = nu > 0.0 ? spinRate * 4.0 * radius * radius / nu : 0.0;
        const double dragFactor = 0.5 * rho0 * sphereDragCoefficient(reynolds) * kPiDouble * radius * radius * cover;
        const double torqueFactor = 0.5 * rho0 * sphereTorqueCoefficient(spinReynolds) * std::pow(radius, 5.0) * cover;
        const dvec3 bodyImpulse =
            implicitDragChange(relative, dragFactor, double(body.mass) + double(body.addedMass), double(dt));
        // The moment of inertia about the spin axis (the body's, in world axes).
        const mat3 rotation = glm::mat3_cast(body.orientation);
        const mat3 inverseInertia = rotation * body.inverseInertiaLocal * glm::transpose(rotation);
        const dvec3 axis = spinRate > 0.0 ? relativeSpin / spinRate : dvec3(0.0);
        const double inertia = spinRate > 0.0 ? 1.0 / glm::dot(axis, dvec3(inverseInertia * vec3(axis))) : 0.0;
        const dvec3 bodyAngularImpulse = implicitDragChange(relativeSpin, torqueFactor, inertia, double(dt));
        // What the body loses the fluid gains, as impulse rho0 I and angular impulse rho0 A about
        // the origin; the drag acts at the centre, so it moves the body's orbital angular momentum too.
        const dvec3 angularChange = bodyAngularImpulse + glm::cross(dvec3(centre), bodyImpulse);
        const dvec3 fluidImpulse = -bodyImpulse / rho0 + returned;
        const dvec3 fluidAngularImpulse = -angularChange / rho0 + glm::cross(dvec3(centre), returned);
        if (!injectImpulses(vortons, shell, dvec3(centre), reach, fluidImpulse, fluidAngularImpulse)) continue;
        body.impulse += vec3(bodyImpulse);
        body.angularImpulse += vec3(bodyAngularImpulse);
    }
}

// --- the flow a moving body pushes aside ------------------------------------------------------

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
// Beyond this many radii the dipole is left out: its speed there is below W / 3000 (and its
// energy beyond holds 1/1700 of the whole), and most particles of a large scene are that far.
constexpr float kPotentialFlowReach = 12.0f;
}  // namespace

vec3 potentialFlowVelocity(const std::vector<PotentialFlow>& flows, const vec3& x) {
    vec3 u(0.0f);
    for (const PotentialFlow& f : flows) {
        const vec3 r = x - f.centre;
        const float r2 = glm::dot(r, r);
        const float radius2 = f.radius * f.radius;
        if (r2 > kPotentialFlowReach * kPotentialFlowReach * radius2) continue;
        if (r2 <= radius2) {
            u += f.relativeVelocity;  // inside: the fluid there moves with the body
            continue;
        }
        // Outside: the dipole of a sphere moving at W, R^3 / (2 r^3) (3 (W.r^) r^ - W).
        const float scale = 0.5f * radius2 * f.radius / (r2 * std::sqrt(r2));
        u += scale * (3.0f * glm::dot(f.relativeVelocity, r) / r2 * r - f.relativeVelocity);
    }
    return u;
}

mat3 potentialFlowGradient(const std::vector<PotentialFlow>& flows, const vec3& x) {
    mat3 gradient(0.0f);
    for (const PotentialFlow& f : flows) {
        const vec3 r = x - f.centre;
        const float r2 = glm::dot(r, r);
        if (r2 <= f.radius * f.radius) continue;  // uniform inside
        if (r2 > kPotentialFlowReach * kPotentialFlowReach * f.radius * f.radius) continue;
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
    }
    return gradient;
}

std::vector<dvec3> impulseRateFromPotentialFlows(const std::vector<PotentialFlow>& flows, const Vortons& v) {
    std::vector<dvec3> rates;
    rates.reserve(flows.size());
    for (const PotentialFlow& f : flows) {
        const std::vector<PotentialFlow> one{f};
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
            [](const dvec3& a, const dvec3& b) { return a + b; }, kChunk));
    }
    return rates;
}

}  // namespace vfx
