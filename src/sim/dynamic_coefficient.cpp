#include "sim/dynamic_coefficient.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace vfx {

namespace {

// out = lo / 4 + mid / 2 + hi / 4 over `count` floats.
void tentRow(const float* lo, const float* mid, const float* hi, float* out, size_t count) {
    for (size_t i = 0; i < count; ++i) out[i] = lo[i] * 0.25f + mid[i] * 0.5f + hi[i] * 0.25f;
}

// [1/4 1/2 1/4] along one axis, the end points mirrored (a flat axis is left alone). A value is
// `width` floats (a vec3 3, a symmetric tensor 6), filtered component by component, a row of x
// at a time so that the loops run over contiguous floats.
template <typename T>
void tentAlong(const UniformGrid<T>& in, UniformGrid<T>& out, int axis) {
    static_assert(sizeof(T) % sizeof(float) == 0, "a grid of floats");
    constexpr size_t width = sizeof(T) / sizeof(float);
    const GridShape& s = in.shape();
    out.reshape(s);
    const ivec3 n = s.points;
    if (n[axis] < 2) {
        out.values() = in.values();
        return;
    }
    const float* source = reinterpret_cast<const float*>(in.values().data());
    float* target = reinterpret_cast<float*>(out.values().data());
    const size_t rowFloats = size_t(n.x) * width;
    const size_t stride = (axis == 1 ? size_t(n.x) : size_t(n.x) * size_t(n.y)) * width;
    const int last = n[axis] - 1;
    parallelForEach(
        0, size_t(n.z),
        [&](size_t zi) {
            const int z = int(zi);
            for (int y = 0; y < n.y; ++y) {
                const size_t row = s.index(0, y, z) * width;
                const float* mid = source + row;
                float* o = target + row;
                if (axis == 0) {
                    const size_t end = size_t(last) * width;
                    tentRow(mid + width, mid, mid + width, o, width);
                    tentRow(mid, mid + width, mid + 2 * width, o + width, end - width);
                    tentRow(mid + end - width, mid + end, mid + end - width, o + end, width);
                    continue;
                }
                const int p = axis == 1 ? y : z;
                const float* lo = p > 0 ? mid - stride : mid + stride;
                const float* hi = p < last ? mid + stride : mid - stride;
                tentRow(lo, mid, hi, o, rowFloats);
            }
        },
        1);
}

template <typename T>
void testFilter(const UniformGrid<T>& in, UniformGrid<T>& out, UniformGrid<T>& tmp) {
    tentAlong(in, out, 0);
    tentAlong(out, tmp, 1);
    tentAlong(tmp, out, 2);
}

SymmetricTensor strainOf(const mat3& g) {
    return {
        g[0][0], g[1][1], g[2][2], 0.5f * (g[1][0] + g[0][1]), 0.5f * (g[2][0] + g[0][2]), 0.5f * (g[2][1] + g[1][2])};
}

float magnitude(const SymmetricTensor& s) { return std::sqrt(2.0f * s.contract(s)); }

// The traceless part: the trace of L (the test filter's subfilter kinetic energy) is pressure's,
// not the model's.
SymmetricTensor deviatoric(SymmetricTensor s) {
    const float third = (s.xx + s.yy + s.zz) / 3.0f;
    s.xx -= third;
    s.yy -= third;
    s.zz -= third;
    return s;
}

SymmetricTensor outer(const vec3& u) { return {u.x * u.x, u.y * u.y, u.z * u.z, u.x * u.y, u.x * u.z, u.y * u.z}; }

}  // namespace

// L:M and M:M at each grid point off the outermost layer, where the test filter needs no mirrored
// neighbour (every point along a flat axis); zero on that layer.
void DynamicCoefficient::germanoContractions(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient,
                                             float filterWidth) {
    const GridShape& shape = velocity.shape();
    const size_t count = shape.pointCount();
    products_.reshape(shape);
    strain_.reshape(shape);
    smag_.reshape(shape);
    parallelForEach(
        0, count,
        [&](size_t k) {
            products_[k] = outer(velocity[k]);
            strain_[k] = strainOf(gradient[k]);
            smag_[k] = strain_[k] * magnitude(strain_[k]);
        },
        4096);
    testFilter(velocity, velocityHat_, velocityTmp_);
    const UniformGrid<vec3>& uHat = velocityHat_;
    testFilter(products_, productsHat_, tmp_);
    testFilter(strain_, strainHat_, tmp_);
    testFilter(smag_, smagHat_, tmp_);
    const int realAxis = shape.flatAxis(0) ? (shape.flatAxis(1) ? 2 : 1) : 0;
    const float h2 = shape.spacing[realAxis] * shape.spacing[realAxis];
    const float delta2 = filterWidth * filterWidth, deltaHat2 = delta2 + 6.0f * h2;
    const ivec3 n = shape.points;
    const auto interior = [&](int p, int axis) { return n[axis] < 2 || (p > 0 && p < n[axis] - 1); };
    lm_.reshape(shape);
    mm_.reshape(shape);
    parallelForEach(
        0, size_t(n.z),
        [&](size_t zi) {
            const int z = int(zi);
            for (int y = 0; y < n.y; ++y)
                for (int x = 0; x < n.x; ++x) {
                    const size_t k = shape.index(x, y, z);
                    if (!interior(x, 0) || !interior(y, 1) || !interior(z, 2)) {
                        lm_[k] = mm_[k] = 0.0f;
                        continue;
                    }
                    const SymmetricTensor l = deviatoric(productsHat_[k] - outer(uHat[k]));
                    const SymmetricTensor m =
                        (smagHat_[k] * delta2 - strainHat_[k] * (deltaHat2 * magnitude(strainHat_[k]))) * 2.0f;
                    lm_[k] = l.contract(m);
                    mm_[k] = m.contract(m);
                }
        },
        1);
}

float DynamicCoefficient::compute(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient,
                                  float filterWidth) {
    germanoContractions(velocity, gradient, filterWidth);
    struct Sums {
        double lm = 0.0, mm = 0.0;
    };
    const GridShape& shape = velocity.shape();
    const ivec3 n = shape.points;
    const Sums sums = deterministicReduce<Sums>(
        size_t(n.z), Sums{},
        [&](size_t zb, size_t ze) {
            Sums s;
            for (int z = int(zb); z < int(ze); ++z)
                for (int y = 0; y < n.y; ++y)
                    for (int x = 0; x < n.x; ++x) {
                        const size_t k = shape.index(x, y, z);
                        s.lm += double(lm_[k]);
                        s.mm += double(mm_[k]);
                    }
            return s;
        },
        [](Sums a, const Sums& c) {
            return Sums{a.lm + c.lm, a.mm + c.mm};
        },
        1);
    if (!(sums.mm > 0.0)) return 0.0f;
    return float(std::max(0.0, sums.lm / sums.mm));
}

void DynamicCoefficient::computeLocal(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient,
                                      float filterWidth, float ceiling, UniformGrid<float>& coefficientSquared) {
    germanoContractions(velocity, gradient, filterWidth);
    for (int pass = 0; pass < kLocalAveragingPasses; ++pass) {
        testFilter(lm_, averaged_, averagedTmp_);
        std::swap(lm_, averaged_);
        testFilter(mm_, averaged_, averagedTmp_);
        std::swap(mm_, averaged_);
    }
    coefficientSquared.reshape(velocity.shape());
    parallelForEach(
        0, coefficientSquared.size(),
        [&](size_t k) {
            const float mm = mm_[k];
            coefficientSquared[k] = mm > 0.0f ? std::clamp(lm_[k] / mm, 0.0f, ceiling) : 0.0f;
        },
        4096);
}

}  // namespace vfx
