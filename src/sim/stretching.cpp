#include "sim/stretching.hpp"

#include "core/matrix_exponential.hpp"
#include "core/neighbour_search.hpp"
#include "sim/potential_flow_lanes.hpp"
#include "sim/vorticity_relaxation.hpp"  // curlOfGradient

namespace vfx {

mat3 stretchingMatrix(StretchingScheme scheme, const mat3& j) {
    switch (scheme) {
        case StretchingScheme::Classic:
            return j;
        case StretchingScheme::Transpose:
            return glm::transpose(j);
        default:
            return 0.5f * (j + glm::transpose(j));
    }
}

namespace {

// The vorticity the stretching acts on (StretchingInputs::stretchResolvedVorticity).
vec3 stretchedVorticity(const StretchingInputs& in, const Vortons& v, size_t i) {
    return in.stretchResolvedVorticity ? curlOfGradient(in.gradient[i]) : v.vorticity[i];
}

// grad u at vorton i: the vortex flow's, and (pushed, when moving bodies push flow aside) theirs.
mat3 matrixAt(const StretchingInputs& in, const std::vector<mat3>& pushed, size_t i) {
    return stretchingMatrix(in.scheme, pushed.empty() ? in.gradient[i] : in.gradient[i] + pushed[i]);
}

void stretchExplicitly(const StretchingInputs& in, const std::vector<mat3>& pushed, Vortons& v, MotionHistory& history,
                       float dt, StepWeights weights) {
    history.stretching.resize(v.size());
    history.stretchingMatrix.clear();
    parallelForEachStable(
        0, v.size(),
        [&](size_t i) {
            const vec3 rate = matrixAt(in, pushed, i) * stretchedVorticity(in, v, i);
            const vec3 previous = history.stretching[i];
            history.stretching[i] = rate;
            const StepWeights use = movedByWall(v, i) ? StepWeights{} : weights;
            v.vorticity[i] += dt * (use.current * rate + use.previous * previous);
        },
        1024);
}

void stretchExponentially(const StretchingInputs& in, const std::vector<mat3>& pushed, Vortons& v,
                          MotionHistory& history, float dt, StepWeights weights) {
    history.stretchingMatrix.resize(v.size());
    history.stretching.clear();
    parallelForEachStable(
        0, v.size(),
        [&](size_t i) {
            const mat3 now = matrixAt(in, pushed, i);
            const mat3 previous = history.stretchingMatrix[i];
            history.stretchingMatrix[i] = now;
            // The two-step weights (1 + r/2, -r/2) extrapolate M linearly to t + dt/2 as well.
            const StepWeights use = movedByWall(v, i) ? StepWeights{} : weights;
            const mat3 middle = use.twoStep() ? use.current * now + use.previous * previous : now;
            if (!in.stretchResolvedVorticity) {
                v.vorticity[i] = exponentialTimes(dt * middle, v.vorticity[i]);
                return;
            }
            const vec3 resolved = curlOfGradient(in.gradient[i]);
            v.vorticity[i] += exponentialTimes(dt * middle, resolved) - resolved;
        },
        1024);
}

}  // namespace

void stretchVortons(const StretchingInputs& in, Vortons& vortons, MotionHistory& history, float dt) {
    const bool exponential = in.integrator == StretchingIntegrator::Exponential;
    const size_t kept = exponential ? history.stretchingMatrix.size() : history.stretching.size();
    const bool twoStep = in.twoStep && kept == vortons.size();
    const StepWeights weights = adamsBashforthWeights(twoStep, dt, history.dt);
    // What moving bodies push aside, its gradient at every vorton, eight vortons at a time.
    std::vector<mat3> pushed;
    if (!in.pushed.empty()) {
        pushed.assign(vortons.size(), mat3(0.0f));
        addPotentialFlowGradients(in.pushed, vortons.position, pushed);
    }
    if (exponential)
        stretchExponentially(in, pushed, vortons, history, dt, weights);
    else
        stretchExplicitly(in, pushed, vortons, history, dt, weights);
}

}  // namespace vfx
