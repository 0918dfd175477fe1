#include "sim/diagnostics.hpp"

#include "core/parallel.hpp"
#include "sim/body_coupling.hpp"
#include "sim/simulation.hpp"
#include "sim/wall_flow.hpp"

#include <algorithm>
#include <vector>

namespace vfx {

namespace {

struct VortonSums {
    double energy = 0.0, fieldEnergy = 0.0, massParticles = 0.0, maxSpeed = 0.0;
    dvec3 circulation{0.0}, linear{0.0}, angular{0.0};
};

// The strength-weighted centre of the vortons, sum |alpha| x / sum |alpha| (0 without vorticity).
dvec3 strengthCentre(const Vortons& vortons) {
    struct Sums {
        dvec3 moment{0.0};
        double weight = 0.0;
    };
    const Sums s = deterministicReduce<Sums>(
        vortons.size(), Sums{},
        [&](size_t b, size_t e) {
            Sums r;
            for (size_t i = b; i < e; ++i) {
                const double w = glm::length(dvec3(vortons.vorticity[i])) * double(vortons.volume(i));
                r.moment += w * dvec3(vortons.position[i]);
                r.weight += w;
            }
            return r;
        },
        [](Sums a, const Sums& c) {
            a.moment += c.moment;
            a.weight += c.weight;
            return a;
        });
    return s.weight > 0.0 ? s.moment / s.weight : dvec3(0.0);
}

// The sums over vortons, in double precision and a fixed order; `induced` is the velocity the
// vorticity induces at each vorton now. The field energy takes its lever arms x from the
// vortons' strength-weighted centre: for a vorticity field Lamb's form is the same about any
// point (the integral of omega x u vanishes), but the vortons' sum of alpha x u does not quite,
// and about a far origin the lever arms multiply it (a drop 20 m below it read up to 41% high).
VortonSums sumOverVortons(const Vortons& vortons, const std::vector<vec3>& induced, double rho0) {
    const dvec3 centre = strengthCentre(vortons);
    return deterministicReduce<VortonSums>(
        vortons.size(), VortonSums{},
        [&](size_t b, size_t e) {
            VortonSums r;
            for (size_t i = b; i < e; ++i) {
                const double volume = vortons.volume(i);
                const dvec3 x(vortons.position[i]);
                const dvec3 strength = dvec3(vortons.vorticity[i]) * volume;
                const dvec3 u(vortons.velocity[i]);
                r.energy += 0.5 * glm::dot(u, u) * (rho0 + vortons.density[i]) * volume;
                r.fieldEnergy += rho0 * glm::dot(dvec3(induced[i]), glm::cross(x - centre, strength));
                r.massParticles += double(vortons.density[i]) * volume;
                r.maxSpeed = std::max(r.maxSpeed, glm::length(u));
                r.circulation += strength;
                r.linear += 0.5 * glm::cross(x, strength);
                r.angular += (1.0 / 3.0) * glm::cross(x, glm::cross(x, strength));
            }
            return r;
        },
        [](VortonSums a, const VortonSums& c) {
            a.energy += c.energy;
            a.fieldEnergy += c.fieldEnergy;
            a.massParticles += c.massParticles;
            a.maxSpeed = std::max(a.maxSpeed, c.maxSpeed);
            a.circulation += c.circulation;
            a.linear += c.linear;
            a.angular += c.angular;
            return a;
        });
}

}  // namespace

Diagnostics Simulation::diagnostics() const {
    // The flow's energy needs the velocity the vorticity induces now, at the vortons as they are:
    // the velocity the last step moved them with is a blend over the step (and a different blend
    // right after a remesh), which would make the measure jump with the integrator.
    std::vector<vec3> induced;
    if (!vortons_.position.empty()) velocityAtPoints(vortons_.position, induced);
    const VortonSums s = sumOverVortons(vortons_, induced, fluid_.ambientDensity);
    Diagnostics d;
    d.kineticEnergy = s.energy;
    d.fieldEnergy = s.fieldEnergy;
    d.enstrophy = resolvedEnstrophy(velocityGrid_);
    d.energyViscousLoss = energyBudget_.viscousLoss;
    d.energySubgridLoss = energyBudget_.subgridLoss;
    d.energyBuoyancyWork = energyBudget_.buoyancyWork;
    d.energyChangesMeasured = measureEnergyChanges_;
    d.energyChanges = energyBudget_.measured;
    if (!bodies_.empty()) d.wallNormalSpeed = largestWallNormalSpeed(measureWallFlow(*this));
    d.circulation = s.circulation;
    d.linearImpulse = s.linear;
    d.angularImpulse = s.angular;
    d.massParticles = s.massParticles;
    d.maxSpeed = s.maxSpeed;
    for (const PotentialFlow& f : potentialFlows(bodies_, velocityGrid_, fluid_)) {
        d.potentialFlowEnergy += f.energy();
        d.potentialFlowMomentum += f.momentum();
    }
    const UniformGrid<float>& density = densityGrid();
    double gridSum = 0.0;
    for (float v : density.values()) gridSum += v;
    d.massGrid = density.size() ? gridSum * density.shape().cellVolume() : 0.0;
    return d;
}

double Simulation::fieldEnergyNow() const {
    if (vortons_.position.empty()) return 0.0;
    std::vector<vec3> induced;
    velocityAtPoints(vortons_.position, induced);
    return sumOverVortons(vortons_, induced, fluid_.ambientDensity).fieldEnergy;
}

}  // namespace vfx
