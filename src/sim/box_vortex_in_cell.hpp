#pragma once
// Velocity from vorticity inside a box container, by vortex-in-cell (Christiansen 1973; Cottet &
// Koumoutsakos, "Vortex Methods", ch. 7): each vorton's omega V is spread on a grid spanning the
// box with M4' weights, folded back at the walls as a free-slip wall's images (tangential
// vorticity odd, normal vorticity even); the vector potential solves -lap psi = omega with psi's
// tangential components zero on every wall and its normal component's normal derivative zero,
// by sine and cosine transforms (FFTW); u = curl psi by centred differences. The walls then carry
// no normal flow at all (u . n = 0 on them to round-off), and vortex lines may end on a wall
// with curl u = omega, which a free-space Biot-Savart sum cannot give.
#include "core/math.hpp"
#include "core/uniform_grid.hpp"
#include "sim/particles.hpp"

#include <array>
#include <vector>

namespace vfx {

struct AxisBox {
    vec3 lo{0.0f}, hi{0.0f};
};

class BoxVortexInCell {
public:
    BoxVortexInCell() = default;
    ~BoxVortexInCell();
    BoxVortexInCell(const BoxVortexInCell&) = delete;
    BoxVortexInCell& operator=(const BoxVortexInCell&) = delete;

    // Solves for the flow the vortons induce in `box` (m), on a grid of about `spacing` (m) with
    // at least 3 points an axis, with `uniformVorticity` (1/s) filling the box on top of theirs
    // (a rotating box's -2 Omega: the flow relative to its rigid rotation).
    void solve(const Vortons& vortons, const AxisBox& box, float spacing, const vec3& uniformVorticity = vec3(0.0f));
    // The flow at p (m/s): inside the box interpolated from the grid (Catmull-Rom), outside it the mirror
    // image of the inside (what the walls' images give there).
    vec3 velocityAt(const vec3& p) const;
    // uniform + velocityAt at every point of `grid` (uniform: the walls' own velocity, m/s).
    void sampleOnGrid(UniformGrid<vec3>& grid, const vec3& uniform) const;
    const GridShape& shape() const { return shape_; }

private:
    struct Component {
        ivec3 extent{0};            // transform points per axis (all on the cosine axis, interior on the others)
        std::vector<float> values;  // omega_c, then psi_c, x fastest
        std::vector<float> padded;  // psi_c on every grid point and one layer of images round them
        void* plan = nullptr;       // fftwf_plan, in place
    };
    void prepare(const AxisBox& box, float spacing);
    void releasePlans();
    // A vorton's M4' taps along each axis: nodes mirrored into the box, whether each was reflected.
    struct SpreadTaps {
        int node[3][4];
        bool reflected[3][4];
        float weight[3][4];
    };
    SpreadTaps spreadTaps(const vec3& position) const;
    void spreadComponent(int c, const SpreadTaps& taps, float strength, float* values) const;
    void deposit(const Vortons& vortons, const vec3& uniform);
    void invertLaplacian(int c);
    float psi(int c, ivec3 node) const;
    void padPotential(int c);
    void takeCurl();

    GridShape shape_;
    std::array<Component, 3> components_;
    std::vector<std::array<std::vector<float>, 3>> chunkValues_;  // each deposit chunk's omega, per component
    UniformGrid<vec3> velocity_;                                  // on shape_'s points
};

}  // namespace vfx
