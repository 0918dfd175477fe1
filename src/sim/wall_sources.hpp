#pragma once
// No flow through walls, by the method of fundamental solutions (Kupradze & Aleksidze 1964;
// Fairweather & Karageorghis 1998): every body carries point sources a few sample spacings off
// its surface, on the side away from the fluid (outside a container, inside a solid). Each sub-step
// their strengths q_j (m^3/s) are solved so that at collocation points x_i on the surface the
// whole flow's normal speed equals the wall's:
//   sum_j q_j n_i . K(x_i - y_j) = (u_wall(x_i) - u(x_i)) . n_i,   K(r) = r / (4 pi max(|r|, c)^3),
// u being the vortex flow, the flows solids push aside and the other bodies' sources; c, half the
// offset, only bounds the kernel at points no fluid reaches. A body's matrix is fixed in its own
// frame, so it is factorised once (as a damped least-squares system: see regularisedNormalMatrix);
// bodies couple through block Gauss-Seidel sweeps. The sources'
// flow is a potential flow: it carries no vorticity, it only keeps the vorticity's flow inside.
// Containers and kinematic solids carry sources; a dynamic solid keeps the dipole flow it pushes
// aside (sim/potential_flow.hpp).
#include "bodies/body.hpp"
#include "core/dense_lu.hpp"
#include "core/uniform_grid.hpp"

#include <vector>

namespace vfx {

constexpr int kWallSourcesPerBody = 768;

class WallSources {
public:
    // Lays out the sources and factorises each body's system when the bodies' shapes changed.
    // False (and nothing active) when a body's system is singular.
    bool prepare(const std::vector<RigidBody>& bodies);
    void clear();
    bool active() const { return !layouts_.empty(); }
    // Collocation points in the world frame for the bodies' poses now.
    const std::vector<vec3>& collocationPoints(const std::vector<RigidBody>& bodies);
    // Solves the strengths from the flow at each collocation point without the sources (the
    // vortex flow plus the flows solids push aside), for the poses collocationPoints() used.
    void solve(const std::vector<RigidBody>& bodies, const std::vector<vec3>& flowAtCollocation);
    // The sources' velocity at a point, m/s.
    vec3 velocityAt(const vec3& x) const;
    // Adds the sources' velocity at every grid point.
    void addToGrid(UniformGrid<vec3>& grid) const;

private:
    struct ShapeKey {
        ShapeKind kind;
        float radius, circumscribedRadius;
        bool hole;
        size_t planes;
        bool dynamic;
        bool operator==(const ShapeKey& o) const;
    };
    struct Layout {
        ShapeKey key;
        std::vector<vec3> point, normal, source;  // local frame
        float core = 0.0f;                        // c, m
        bool container = false;
        size_t first = 0;            // index of its first source in the concatenated arrays
        std::vector<double> matrix;  // A_ij = n_i . K(x_i - y_j), row-major
        DenseLu lu;                  // of A^T A + lambda^2 I
    };
    static ShapeKey keyOf(const RigidBody& body);
    bool layOut(const RigidBody& body, Layout& layout) const;
    double otherSourcesNormalSpeed(size_t body, const vec3& x, const vec3& n) const;

    std::vector<Layout> layouts_;
    std::vector<vec3> worldPoint_, worldNormal_;
    // The sources of all bodies, concatenated: positions (world), strengths and kernel cores.
    std::vector<float> sx_, sy_, sz_, strength_, core_;
    std::vector<double> projected_;
};

}  // namespace vfx
