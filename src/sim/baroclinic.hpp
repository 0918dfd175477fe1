#pragma once
// Baroclinic generation from a grid density gradient, handed to the vortons so that the fluid's
// linear impulse grows at exactly its physical rate.
//
// The Boussinesq source d(omega)/dt = grad rho x g / rho0 lives on the grid, and a smeared
// interface reaches past the outermost vortons. Sampling it at vortons (Gourlay) misses that
// part: a heavy ball's impulse then grows at 30-70% of g sum(rho' V) / rho0. Here each grid
// point's source strength S_g V_cell dt is shared among the vortons within 1.5 grid spacings
// with weights that sum to 1 and whose weighted mean position is (nearly) the grid point itself
// (a moving-least-squares partition with a linear correction, slightly regularised). Sharing
// keeps the total exactly and the first moment to a few percent, so sum(omega V) and the impulse
// 1/2 sum(x x omega V) change as the grid source says; and centred differences with zero density
// at the grid's faces make that source's impulse exactly g sum(rho' V_cell) dt / rho0.
// By a wall (a container or solid) a point's source is that of the fluid its support holds,
// S_g V_cell share dt, handed out with plain weights: the walls hold the pressure and make no
// vorticity of their own.
#include "core/cell_partition.hpp"
#include "core/uniform_grid.hpp"
#include "sim/particles.hpp"

#include <vector>

namespace vfx {

// Positions as one array per axis (structure of arrays), for loops in SIMD lanes.
struct SortedPositions {
    std::vector<float> x, y, z;
};

// What a vorton's share of each grid point's source is made of, one array per quantity so that
// a row of points loads straight into SIMD lanes (padded for the last row's loads): a vorton at
// offset d from the point takes w(d) (base + beta . d) strength / weightSum.
struct BaroclinicShareFactors {
    std::vector<float> base;                                // 1 - beta . (weighted mean of x_i - x_g)
    std::vector<float> betaX, betaY, betaZ;                 // beta: linear correction of the weights
    std::vector<float> perWeightX, perWeightY, perWeightZ;  // strength / weightSum
    void resize(size_t pointCount);                         // values unset, but for the zeros past the last point
    void clear(size_t k);                                   // point k hands out nothing
};

class BaroclinicTransfer {
public:
    // The rate d(omega)/dt = (grad rho x g) / rho0 each vorton gains from the grid points around
    // it. The partition must hold the vortons' current positions in the cells of
    // gradient.shape(). With walls, fluidShare weights each point's source by the share of its
    // cell that is fluid (null: all fluid). It reads only the vortons' positions and volumes, so
    // it may run before the sub-step's length is known and beside work that reads their vorticity.
    void prepare(const UniformGrid<vec3>& densityGradient, const UniformGrid<float>* fluidShare,
                 const CellPartition& partition, const vec3& gravity, float ambientDensity, const Vortons& vortons);
    // Adds dt times the prepared rates to the vortons' vorticity.
    void add(float dt, Vortons& vortons) const;

private:
    void sortPositions(const CellPartition& partition, const Vortons& vortons);
    void shareGridSources(const UniformGrid<vec3>& densityGradient, const UniformGrid<float>* fluidShare,
                          const CellPartition& partition, const vec3& gravity, float scale, float reach);
    void sharePoint(const UniformGrid<vec3>& densityGradient, const UniformGrid<float>* fluidShare,
                    const CellPartition& partition, const vec3& gravity, float scale, float reach, int x, int y, int z);
    void gatherToVortons(const GridShape& shape, const CellPartition& partition, float invReach2,
                         const Vortons& vortons);

    BaroclinicShareFactors factors_;
    SortedPositions sortedLanes_;  // the vortons' positions in the partition's order, per axis
    std::vector<vec3> rates_;      // each vorton's gain, d(omega)/dt in 1/s^2
};

}  // namespace vfx
