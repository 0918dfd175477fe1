#pragma once
// The declaration of every fluid and time parameter (rows bound to FluidParams and
// TimeParams members), and the range check the solvers run from it.
#include "core/param_spec.hpp"
#include "sim/params.hpp"

namespace vfx {

const std::vector<ParamSpec>& fluidParamSpecs();  // section "fluid"
const std::vector<ParamSpec>& timeParamSpecs();   // section "time"

// Throws std::invalid_argument("fluid.<key>: must be ..., got x") for the first member
// outside its declared range.
void requireValidParams(const FluidParams& fluid);

}  // namespace vfx
