#pragma once
// The density deviation rho' on the step's grid and its gradient, the source of baroclinic
// generation (part 9): d(omega)/dt = grad rho x g / rho0.
//
// The vortons' mass deviation rho' V and volume V are deposited on the grid points with
// trilinear (cloud-in-cell) weights that sum to one, so the grid carries exactly the particles'
// mass. The gradient differentiates the buoyancy field: the deposit itself or, with
// fluid.coverage_density, the vortons' mean density at each point (mass / covered volume)
// through a coverage ramp, which has no grid-scale noise where vortons are not on a lattice;
// walls are not edges of the fluid (coverage is measured against each point's fluid share, and
// solids are filled with the density around them); and the heavy and light mass the ramp moves
// is scaled back to the deposited mass, so the baroclinic impulse rate stays exact.
//
// A step calls depositVortons, then computeBuoyancyField and computeGradientGrid (and, near
// walls, poisonGradientGrid); the accessors return what the last calls made.
#include "bodies/body.hpp"
#include "core/cell_partition.hpp"
#include "core/uniform_grid.hpp"
#include "sim/params.hpp"
#include "sim/particles.hpp"

#include <cstdint>
#include <vector>

namespace vfx {

class DensityField {
public:
    // Deposits every vorton's mass deviation rho' V and volume V on the points of `shape`:
    // densityGrid() becomes rho' (kg/m^3) and coverage() the vortons' volume per cell volume.
    // The partition must hold the vortons' current positions in the cells of `shape`.
    void depositVortons(const Vortons& vortons, const CellPartition& partition, const GridShape& shape);
    // Makes the field the gradient differentiates from the last deposit: the deposit itself, or
    // with fluid.coverageDensity its coverage-normalised version (bodies: the walls and solids).
    void computeBuoyancyField(const FluidParams& fluid, const std::vector<RigidBody>& bodies);
    // Centred differences of the buoyancy field at every grid point (kg/m^4).
    void computeGradientGrid();
    // Removes the wall-normal part of the gradient grid near walls (fluid.poisoning).
    void poisonGradientGrid(const std::vector<RigidBody>& bodies, const Vortons& vortons,
                            const CellPartition& partition, const FluidParams& fluid);

    // Back to no deposit, as constructed (the per-vorton and per-cell scratch keeps its memory).
    void forgetGrids() {
        deposit_ = {};
        coverage_ = {};
        buoyancy_ = {};
        fluidShare_ = {};
        gradient_ = {};
        buoyancyIsDeposit_ = true;
        fluidShareCurrent_ = false;
        gradientCurrent_ = true;
    }

    const UniformGrid<float>& densityGrid() const { return deposit_; }
    const UniformGrid<float>& coverage() const { return coverage_; }
    const UniformGrid<float>& buoyancyField() const { return buoyancyIsDeposit_ ? deposit_ : buoyancy_; }
    const UniformGrid<vec3>& gradientGrid() const { return gradient_; }
    // False between a deposit and the gradient grid made from it.
    bool gradientGridCurrent() const { return gradientCurrent_; }
    // Share of each grid point's support that lies in fluid (computeGridFluidShare) on the last
    // deposit's grid, made on first use after a deposit.
    const UniformGrid<float>& gridFluidShare(const std::vector<RigidBody>& bodies);

private:
    void differenceWithinFluid();  // one-sided differences by walls (computeGradientGrid)
    // What one cell's vortons deposit at each of its 8 corners (corner index x + 2y + 4z).
    struct CornerSums {
        float mass[8] = {};
        float volume[8] = {};
    };
    struct DepositScales {
        float heavy = 1.0f, light = 1.0f;
    };
    void measureVortons(const Vortons& vortons, const GridShape& shape);
    void sumCellCorners(const CellPartition& partition);
    void gatherCornerSums(const CellPartition& partition, const GridShape& shape);
    void computeRampArguments(bool walls);
    void fillRampIntoWalls();
    void normaliseByCoverage();
    DepositScales keepDepositedMass(bool walls);

    UniformGrid<float> deposit_;         // rho' at each grid point, kg/m^3
    UniformGrid<float> coverage_;        // vorton volume per cell volume at each grid point
    UniformGrid<float> buoyancy_;        // the coverage-normalised field (with fluid.coverageDensity)
    UniformGrid<float> fluidShare_;      // share of each grid point's support in fluid (with bodies)
    UniformGrid<vec3> gradient_;         // gradient of the buoyancy field, kg/m^4
    std::vector<uint8_t> gradientRing_;  // differenceWithinFluid's rings of points outside the fluid
    bool buoyancyIsDeposit_ = true;
    bool fluidShareCurrent_ = false;
    bool gradientCurrent_ = true;
    // Scratch of the deposit: each vorton's place in its cell, mass deviation and volume, and
    // each cell's corner sums.
    std::vector<vec3> fraction_;
    std::vector<float> massDeviation_;
    std::vector<float> volume_;
    std::vector<CornerSums> cellCornerSums_;
    // Scratch of the coverage ramp: its argument at each grid point, and a copy filled into walls.
    std::vector<float> rampArgument_;
    std::vector<float> rampFilled_;
};

}  // namespace vfx
