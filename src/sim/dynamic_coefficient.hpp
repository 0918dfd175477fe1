#pragma once
// Germano's dynamic procedure for the Smagorinsky coefficient (Germano, Piomelli, Moin & Cabot
// 1991; Lilly's least squares, 1992), on the velocity grid. The resolved flow is filtered once
// more by a test filter (a [1/4 1/2 1/4] tent along each axis, width^2 = Delta^2 + 6 h^2); the
// stress the test filter resolves, L = (u u)^ - u^ u^, is what the model must put between the
// two filter widths, C^2 M with M = 2 (Delta^2 (|S| S)^ - Delta^^2 |S^| S^). The coefficient is
// C^2 = <L:M> / <M:M> over the flow (or over a neighbourhood: computeLocal), clipped at 0: where
// the resolved scales pass no energy to smaller ones (a laminar vortex) L:M is small and the
// model stays off.
#include "core/uniform_grid.hpp"

#include <vector>

namespace vfx {

// A symmetric 3x3 tensor's six components.
struct SymmetricTensor {
    float xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
    SymmetricTensor operator+(const SymmetricTensor& o) const {
        return {xx + o.xx, yy + o.yy, zz + o.zz, xy + o.xy, xz + o.xz, yz + o.yz};
    }
    SymmetricTensor operator-(const SymmetricTensor& o) const {
        return {xx - o.xx, yy - o.yy, zz - o.zz, xy - o.xy, xz - o.xz, yz - o.yz};
    }
    SymmetricTensor operator*(float s) const { return {xx * s, yy * s, zz * s, xy * s, xz * s, yz * s}; }
    // A:B with each off-diagonal entry counted twice.
    float contract(const SymmetricTensor& o) const {
        return xx * o.xx + yy * o.yy + zz * o.zz + 2.0f * (xy * o.xy + xz * o.xz + yz * o.yz);
    }
};

class DynamicCoefficient {
public:
    // C^2 for the velocity grid and its gradient (column j holds du/dx_j), with Delta the filter
    // width the vortons see the flow through (m).
    float compute(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient, float filterWidth);
    // C^2 at each grid point from L:M and M:M averaged over its neighbourhood (the test filter
    // applied kLocalAveragingPasses more times, about 2 grid spacings each way), clipped to
    // [0, ceiling]: the local dynamic model (Zang, Street & Koseff 1993; Piomelli & Liu 1995). It
    // drains where the cascade runs (a turbulent wake, a ring breaking on a wall) and stays off
    // where the resolved scales pass no energy down, whatever happens elsewhere in the flow.
    void computeLocal(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient, float filterWidth,
                      float ceiling, UniformGrid<float>& coefficientSquared);

    static constexpr int kLocalAveragingPasses = 2;

private:
    // The four fields the test filter acts on (u, u u, S and |S| S), over one plane or a grid.
    struct Fields {
        std::vector<vec3> velocity;
        std::vector<SymmetricTensor> products, strain, smag;
        void resize(size_t count);
        // filter(this field's floats, out's floats from `offset` points on, floats per point).
        template <class Filter>
        void forEachInto(Fields& out, size_t offset, Filter&& filter) const;
        // The [1/4 1/2 1/4] tent along z at plane z (planes of planeSize points, the end planes
        // mirrored), into `out`.
        void filterAlongZ(size_t z, size_t planeSize, int planes, Fields& out) const;
    };
    void fieldsOfPlane(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient, int z, Fields& raw) const;
    void germanoContractions(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient, float filterWidth);
    void contractPlane(const Fields& hat, int z, const ivec3& n, float delta2, float deltaHat2);

    Fields inPlane_;                                       // the fields filtered along x and y
    UniformGrid<float> lm_, mm_, averaged_, averagedTmp_;  // L:M and M:M per grid point
};

}  // namespace vfx
