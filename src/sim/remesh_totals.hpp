#pragma once
// What a capped remesh must keep when it leaves its weakest lattice nodes out: total vorticity
// sum(omega V), linear impulse 1/2 sum(x x omega V) and mass deviation sum(rho' V). The kept
// vortons take the least correction that restores them: each vorton's strength changes by
// w_i (lambda + 1/2 mu x x_i) with w_i = |omega_i| V_i (the smallest sum of |d alpha_i|^2 / w_i that meets
// the six conditions, so the correction sits where the vorticity is), and its mass deviation by
// its share of sum |rho'| V.
#include "core/math.hpp"
#include "sim/particles.hpp"

namespace vfx {

struct VortonTotals {
    dvec3 vorticity{0.0};  // sum omega V, m^3/s
    dvec3 impulse{0.0};    // 1/2 sum x x omega V, m^4/s
    double mass = 0.0;     // sum rho' V, kg
};

VortonTotals vortonTotals(const Vortons& v);

// Corrects v's densities and strengths so that its totals become `wanted`. The mass is always
// restored (when any vorton carries a density deviation); returns false, strengths unchanged,
// when the vortons carry no vorticity to correct them with (a fluid at rest has none to restore).
bool restoreTotals(Vortons& v, const VortonTotals& wanted);

}  // namespace vfx
