// Particles colliding with bodies and containers (parts 4, 14). Collisions are resolved per
// particle in parallel; the momentum each particle hands to a body is summed in fixed chunks
// combined in order (deterministicReduce), so the bodies see the same impulse bit for bit
// whatever the thread count.
#include "sim/body_collisions.hpp"

#include "bodies/shapes.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
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

// No-slip vorticity for every vorton in contact (fluid.no_slip; free slip keeps it); the sheet of
// a wall patch is split among the vortons on it, so fluid crowded against a wall does not multiply
// the wall's circulation. Each vorton's sheet replaces the sheet it carried from the last phase
// (`previousSheet`, taken off once even when several bodies touch it), so the vorticity the fluid
// made there itself (baroclinic, stretching, diffusion) stays; where the old sheet is unknown the
// tangential part is replaced. Returns the spin angular momentum the vortons gained (a fluid ball
// rotating at omega/2 has L = 2/5 m sigma^2 omega/2).
dvec3 assignNoSlipVorticity(Vortons& v, const ContactLists& lists, const FluidParams& fluid,
                            std::vector<vec3>& previousSheet) {
    const bool sheetKnown = previousSheet.size() == v.size();
    return deterministicReduce(
        lists.size(), dvec3(0.0),
        [&](size_t begin, size_t end) {
            dvec3 spin(0.0);
            for (size_t c = begin; c < end; ++c)
                for (const ContactRecord& r : lists[c]) {
                    const size_t i = r.index;
                    const vec3 sheet = fluid.noSlip
                                           ? wallSheetVorticity(r.normal, r.slip / float(r.sharing), v.contactRadius(i))
                                           : vec3(0.0f);
                    vec3 vorticity = v.vorticity[i];
                    if (fluid.noSlip && sheetKnown) {
                        vorticity += sheet - previousSheet[i];
                        previousSheet[i] = vec3(0.0f);
                    } else if (fluid.noSlip) {
                        vorticity = r.normal * glm::dot(vorticity, r.normal) + sheet;
                    }
                    const double mass = double((fluid.ambientDensity + v.density[i]) * v.volume(i));
                    const double sigma = v.contactRadius(i);
                    spin += dvec3(vorticity - v.vorticity[i]) * (0.2 * mass * sigma * sigma);
                    v.vorticity[i] = vorticity;
                    v.wallSheet[i] += sheet;
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

}  // namespace

vec3 wallSheetVorticity(const vec3& normalIntoFluid, const vec3& slip, float sigma) {
    // No slip needs a vortex sheet of strength gamma = n x slip on the wall (the velocity jump
    // across it is the slip). A vorton of volume V stands for a cube of side V^(1/3), so it
    // carries the sheet over that much wall: omega V = gamma V^(2/3).
    const float side = std::cbrt(sphereVolume(sigma));
    return glm::cross(normalIntoFluid, slip) / side;
}

void collideParticlesWithBodies(std::vector<RigidBody>& bodies, Vortons& vortons, Tracers& tracers,
                                const FluidParams& fluid, float dt) {
    const size_t vortonCount = vortons.size();
    vortons.hitWall.assign(vortonCount, 0);
    vortons.hitNormal.resize(vortonCount, vec3(0.0f));
    vortons.velocity.resize(vortonCount, vec3(0.0f));
    std::vector<vec3> previousSheet;
    previousSheet.swap(vortons.wallSheet);
    vortons.wallSheet.assign(vortonCount, vec3(0.0f));
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
        const dvec3 spin = assignNoSlipVorticity(vortons, contacts, fluid, previousSheet);
        // A body that does not yield (kinematic) keeps the record of the fluid's push.
        body.impulse += vec3(sums.slipMomentum);
        body.angularImpulse += vec3(sums.slipAngularMomentum - spin);
    }
}

}  // namespace vfx
