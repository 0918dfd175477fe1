// Simulation's velocity phase: the flow on the grid from the vortons (tree, direct sum or the
// box container's vortex-in-cell), the wall sources, and the limits that size the sub-steps.
#include "core/grid_differences.hpp"
#include "core/parallel.hpp"
#include "core/parallel_invoke.hpp"
#include "sim/body_coupling.hpp"
#include "sim/box_container.hpp"
#include "sim/closure_fit.hpp"
#include "sim/simulation_workspace.hpp"

#include <algorithm>
#include <cmath>

namespace vfx {

// --- 2. velocity on the grid points ----------------------------------------------------------

void Simulation::computeVelocityGrid() {
    solveVelocityGrid();
    if (fluid_.wallSources && !bodies_.empty())
        keepFlowOffWalls();
    else
        work_->wallSources.clear();
    // The Jacobian serves stretching and, with the speed, sets the sub-step size.
    differentiate(velocityGrid_, jacobianGrid_);
    struct Limits {
        float speed2 = 0.0f, gradient2 = 0.0f, strain2 = 0.0f;
    };
    const Limits l = deterministicReduce<Limits>(
        velocityGrid_.size(), Limits{},
        [&](size_t b, size_t e) {
            Limits r;
            for (size_t k = b; k < e; ++k) {
                const vec3 u = velocityGrid_[k];
                const mat3& j = jacobianGrid_[k];
                r.speed2 = std::max(r.speed2, glm::dot(u, u));
                r.gradient2 = std::max(r.gradient2, glm::dot(j[0], j[0]) + glm::dot(j[1], j[1]) + glm::dot(j[2], j[2]));
                r.strain2 = std::max(r.strain2, strainRateSquared(j));
            }
            return r;
        },
        [](Limits a, Limits c) {
            return Limits{std::max(a.speed2, c.speed2), std::max(a.gradient2, c.gradient2),
                          std::max(a.strain2, c.strain2)};
        },
        1024);  // chunks of about 6 us: the sub-step waits for these maxima, so both threads take them
    // Frobenius norms: they bound every eigenvalue of grad u (rotation included, which explicit
    // sub-steps must also resolve) and of its symmetric part S (what distorts the particle set).
    maxGridSpeed_ = std::sqrt(l.speed2);
    // The flows moving bodies push aside this sub-step; each is fastest at the body's sides, at
    // 3/2 of its relative speed.
    work_->pushedFlows = potentialFlows(bodies_, velocityGrid_, fluid_);
    completePushedFlows(work_->pushedFlows, false);
    for (const PotentialFlow& f : work_->pushedFlows) {
        const bool inGrid = velocityGrid_.shape().encloses(f.centre);
        const float around = inGrid ? glm::length(velocityGrid_.interpolate(f.centre)) : 0.0f;
        maxGridSpeed_ = std::max(maxGridSpeed_, around + 1.5f * glm::length(f.relativeVelocity));
    }
    maxGridStrain_ = std::sqrt(l.gradient2);
    maxGridStrainRate_ = std::sqrt(l.strain2);
}

void Simulation::solveVelocityGrid() {
    velocityGrid_.reshape(gridShape_);  // every solver writes every point
    const auto gridPoints = [this]() -> const std::vector<vec3>& {
        std::vector<vec3>& points = work_->gridPoints;
        points.resize(gridShape_.pointCount());
        const ivec3 n = gridShape_.points;
        parallelForEach(
            0, size_t(n.z),
            [&](size_t z) {
                for (int y = 0; y < n.y; ++y)
                    for (int x = 0; x < n.x; ++x)
                        points[gridShape_.index(x, y, int(z))] = gridShape_.pointPosition(x, y, int(z));
            },
            1);
        return points;
    };
    // The sub-step's density gather is made here too: it reads only the vortons' positions,
    // densities and volumes (stretching, the one phase before the density phase, changes none),
    // so it runs beside the tree's build, which is mostly one thread's work. So do the density
    // gradient and the baroclinic rates from it, where they need nothing the sub-step changes
    // before its density and baroclinic phases (which then only add dt times the rates).
    const auto gatherDensity = [this] {
        work_->density.depositVortons(vortons_, partition_, gridShape_);
        prepareBaroclinicRates();
    };
    if (fluid_.velocitySolver == VelocitySolver::Tree) {
        // The tree's evaluation on the grid follows its build in the same piece, so the thread the
        // gather leaves free takes its blocks as soon as it is done.
        parallelInvoke(
            [&] {
                work_->tree.build(vortons_);
                work_->tree.velocityOnGrid(gridShape_, velocityGrid_.values(), fluid_.treeOpeningAngle);
            },
            gatherDensity);
        return;
    }
    gatherDensity();
    if (fluid_.velocitySolver == VelocitySolver::Box) {
        const BoxContainer container = solveInBoxContainer();
        if (container.tilted() || container.rotating())
            boxFlowAtPoints(container, gridPoints(), velocityGrid_.values());
        else
            work_->boxSolver.sampleOnGrid(velocityGrid_, container.velocity);
        return;
    }
    velocityAtPoints(gridPoints(), velocityGrid_.values());
}

// Solves the wall sources against the vortex flow and the flows solids push aside at the walls,
// and adds their flow to the grid (sim/wall_sources.hpp).
void Simulation::keepFlowOffWalls() {
    WallSources& walls = work_->wallSources;
    if (!walls.prepare(bodies_)) return;
    const std::vector<vec3>& points = walls.collocationPoints(bodies_);
    std::vector<vec3>& flow = work_->flowAtWalls;
    solvedVortexFlowAt(points, flow);
    const std::vector<PotentialFlow> pushed = potentialFlows(bodies_, velocityGrid_, fluid_);
    for (size_t i = 0; i < points.size(); ++i) flow[i] += potentialFlowVelocity(pushed, points[i]);
    walls.solve(bodies_, flow);
    walls.addToGrid(velocityGrid_);
}

vec3 Simulation::wallSourceVelocity(const vec3& x) const { return work_->wallSources.velocityAt(x); }

// The vortex flow at points from the solution solveVelocityGrid left (the tree it built, the box
// it solved), without solving again.
void Simulation::solvedVortexFlowAt(const std::vector<vec3>& points, std::vector<vec3>& out) const {
    if (vortons_.size() == 0)
        out.assign(points.size(), vec3(0.0f));
    else if (fluid_.velocitySolver == VelocitySolver::Tree)
        work_->tree.velocity(points, out, fluid_.treeOpeningAngle);
    else if (fluid_.velocitySolver == VelocitySolver::Box)
        boxFlowAtPoints(requireBoxContainer(bodies_), points, out);
    else
        velocityAtPoints(points, out);
}

// Completes the flows the dynamic solids push aside: with the box solver, their images in the
// container's walls (sim/potential_flow.hpp); with fluid.close_solids, each sphere's closure
// (sim/sphere_closure.hpp) fitted to the flow at its surface: the vortex flow (solved again for
// the vortons as they are, or the sub-step's solution), the wall sources and the flows pushed
// aside; closures that reach each other (through images in a near wall, or another sphere) are
// fitted jointly (sim/closure_fit.hpp).
void Simulation::completePushedFlows(std::vector<PotentialFlow>& flows, bool solveAgain) const {
    if (fluid_.velocitySolver == VelocitySolver::Box) {
        mirrorInBoxWalls(flows, requireBoxContainer(bodies_));
    }
    if (!fluid_.closeSolids) return;
    // Every sphere's collocation points, and the vortex flow and the wall sources' there, in one
    // call of the solver.
    std::vector<size_t> spheres;
    std::vector<vec3> points, around;
    for (size_t k = 0; k < flows.size(); ++k) {
        if (bodies_[flows[k].body].shape.kind != ShapeKind::Sphere) continue;
        spheres.push_back(k);
        for (const vec3& p : closureCollocationPoints(flows[k].centre, flows[k].radius)) points.push_back(p);
    }
    if (spheres.empty()) return;
    if (solveAgain && vortons_.size() > 0)
        velocityAtPoints(points, around);
    else
        solvedVortexFlowAt(points, around);
    for (size_t i = 0; i < points.size(); ++i) around[i] += wallSourceVelocity(points[i]);
    fitClosures(flows, spheres, points, around, bodies_);
}

std::vector<PotentialFlow> Simulation::pushedFlowsNow() const {
    std::vector<PotentialFlow> flows = potentialFlows(bodies_, velocityGrid_, fluid_);
    completePushedFlows(flows, true);
    return flows;
}

// The box container's vortex-in-cell solved for the vortons as they are now, in the box's frame;
// returns the container. A rotating box's flow is its rigid rotation plus the flow relative to it,
// which has no normal component at the walls and the vorticity omega - 2 Omega (the fluid's own,
// less the rotation's): with no vortons, the irrotational flow a turning tank gives still water
// (Lamb, "Hydrodynamics", sec. 72; Saint-Venant's torsion problem in a box's cross-section).
BoxContainer Simulation::solveInBoxContainer() const {
    const BoxContainer container = requireBoxContainer(bodies_);
    // About fluid.grid_cells_per_vorton cells a vorton (about max_grid_cells at most) over the
    // whole box, so the cost stays O(N log N) (spreading, six sine/cosine transforms, the curl);
    // a flow filling a small part of a large box is then resolved more coarsely than by the tree.
    const vec3 size = container.box.hi - container.box.lo;
    const float cells = float(fluid_.gridCellTarget(double(vortons_.size())));
    const float spacing = std::cbrt(size.x * size.y * size.z / cells);
    const quat toFrame = glm::conjugate(container.orientation);
    const vec3 relativeVorticity = -2.0f * (toFrame * container.angularVelocity);
    if (!container.tilted()) {
        work_->boxSolver.solve(vortons_, container.box, spacing, relativeVorticity);
        return container;
    }
    Vortons& inFrame = work_->vortonsInBoxFrame;
    inFrame = vortons_;
    parallelForEach(0, inFrame.size(), [&](size_t i) {
        inFrame.position[i] = container.toFrame(vortons_.position[i]);
        inFrame.vorticity[i] = toFrame * vortons_.vorticity[i];
    });
    work_->boxSolver.solve(inFrame, container.box, spacing, relativeVorticity);
    return container;
}

// The box solver's last solution, turned from the box's frame to the world's, plus the box's
// rigid motion, at each point.
void Simulation::boxFlowAtPoints(const BoxContainer& container, const std::vector<vec3>& points,
                                 std::vector<vec3>& out) const {
    out.resize(points.size());
    const BoxVortexInCell& solver = work_->boxSolver;
    parallelForEach(0, points.size(), [&](size_t i) {
        out[i] = container.rigidVelocity(points[i]) +
                 container.orientation * solver.velocityAt(container.toFrame(points[i]));
    });
}

void Simulation::velocityAtPoints(const std::vector<vec3>& points, std::vector<vec3>& out) const {
    if (fluid_.velocitySolver == VelocitySolver::Box) {
        const BoxContainer container = solveInBoxContainer();
        boxFlowAtPoints(container, points, out);
        return;
    }
    if (fluid_.velocitySolver == VelocitySolver::Direct) {
        directVelocity(vortons_, points, out);
        return;
    }
    work_->tree.build(vortons_);
    work_->tree.velocity(points, out, fluid_.treeOpeningAngle);
}

}  // namespace vfx
