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

// [1/4 1/2 1/4] along x (axis 0) or y (axis 1) over one plane of n.x by n.y values of `width`
// floats, the end points mirrored (a flat axis is copied).
void tentPlane(const float* in, float* out, size_t width, const ivec3& n, int axis) {
    const size_t rowFloats = size_t(n.x) * width;
    if (n[axis] < 2) {
        std::copy(in, in + rowFloats * size_t(n.y), out);
        return;
    }
    const int last = n[axis] - 1;
    for (int y = 0; y < n.y; ++y) {
        const float* mid = in + size_t(y) * rowFloats;
        float* o = out + size_t(y) * rowFloats;
        if (axis == 0) {
            const size_t end = size_t(last) * width;
            tentRow(mid + width, mid, mid + width, o, width);
            tentRow(mid, mid + width, mid + 2 * width, o + width, end - width);
            tentRow(mid + end - width, mid + end, mid + end - width, o + end, width);
            continue;
        }
        const float* lo = y > 0 ? mid - rowFloats : mid + rowFloats;
        const float* hi = y < last ? mid + rowFloats : mid - rowFloats;
        tentRow(lo, mid, hi, o, rowFloats);
    }
}

// [1/4 1/2 1/4] along z at plane z of `planes` planes of planeFloats floats each (the end
// planes mirrored), into `out`: one plane's worth.
void tentAcrossPlanes(const float* all, float* out, size_t planeFloats, size_t z, int planes) {
    const float* mid = all + z * planeFloats;
    if (planes < 2) {
        std::copy(mid, mid + planeFloats, out);
        return;
    }
    const float* lo = z > 0 ? mid - planeFloats : mid + planeFloats;
    const float* hi = int(z) < planes - 1 ? mid + planeFloats : mid - planeFloats;
    tentRow(lo, mid, hi, out, planeFloats);
}

// [1/4 1/2 1/4] along one axis, the end points mirrored (a flat axis is left alone). A value is
// `width` floats (a vec3 3, a symmetric tensor 6), filtered component by component, a plane at a
// time so that the loops run over contiguous floats.
template <typename T>
void tentAlong(const UniformGrid<T>& in, UniformGrid<T>& out, int axis) {
    static_assert(sizeof(T) % sizeof(float) == 0, "a grid of floats");
    constexpr size_t width = sizeof(T) / sizeof(float);
    out.reshape(in.shape());
    const ivec3 n = in.shape().points;
    const float* source = reinterpret_cast<const float*>(in.values().data());
    float* target = reinterpret_cast<float*>(out.values().data());
    const size_t planeFloats = size_t(n.x) * size_t(n.y) * width;
    parallelForEach(
        0, size_t(n.z),
        [&](size_t z) {
            if (axis < 2)
                tentPlane(source + z * planeFloats, target + z * planeFloats, width, n, axis);
            else
                tentAcrossPlanes(source, target + z * planeFloats, planeFloats, z, n.z);
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

void DynamicCoefficient::Fields::resize(size_t count) {
    velocity.resize(count);
    products.resize(count);
    strain.resize(count);
    smag.resize(count);
}

template <class Filter>
void DynamicCoefficient::Fields::forEachInto(Fields& out, size_t offset, Filter&& filter) const {
    const auto floats = [](auto& v) { return reinterpret_cast<float*>(v.data()); };
    const auto source = [](const auto& v) { return reinterpret_cast<const float*>(v.data()); };
    filter(source(velocity), floats(out.velocity) + 3 * offset, 3);
    filter(source(products), floats(out.products) + 6 * offset, 6);
    filter(source(strain), floats(out.strain) + 6 * offset, 6);
    filter(source(smag), floats(out.smag) + 6 * offset, 6);
}

void DynamicCoefficient::Fields::filterAlongZ(size_t z, size_t planeSize, int planes, Fields& out) const {
    const auto along = [&](const auto& field, auto& into, size_t width) {
        tentAcrossPlanes(reinterpret_cast<const float*>(field.data()), reinterpret_cast<float*>(into.data()),
                         planeSize * width, z, planes);
    };
    along(velocity, out.velocity, 3);
    along(products, out.products, 6);
    along(strain, out.strain, 6);
    along(smag, out.smag, 6);
}

// Plane z's four fields before filtering: u, u u, S and |S| S at each point.
void DynamicCoefficient::fieldsOfPlane(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient, int z,
                                       Fields& raw) const {
    const GridShape& shape = velocity.shape();
    const size_t first = shape.index(0, 0, z), count = size_t(shape.points.x) * size_t(shape.points.y);
    raw.resize(count);
    for (size_t i = 0; i < count; ++i) {
        const vec3 u = velocity[first + i];
        raw.velocity[i] = u;
        raw.products[i] = outer(u);
        raw.strain[i] = strainOf(gradient[first + i]);
        raw.smag[i] = raw.strain[i] * magnitude(raw.strain[i]);
    }
}

// L:M and M:M at each grid point off the outermost layer, where the test filter needs no mirrored
// neighbour (every point along a flat axis); zero on that layer. Two passes over the planes: each
// plane's fields filtered along x and y, then along z with L:M and M:M at once (the same sums,
// in the same order, as the three whole-grid passes of testFilter).
void DynamicCoefficient::germanoContractions(const UniformGrid<vec3>& velocity, const UniformGrid<mat3>& gradient,
                                             float filterWidth) {
    const GridShape& shape = velocity.shape();
    const ivec3 n = shape.points;
    const size_t planeSize = size_t(n.x) * size_t(n.y);
    inPlane_.resize(shape.pointCount());
    parallelForEach(
        0, size_t(n.z),
        [&](size_t z) {
            Fields raw, alongX;
            fieldsOfPlane(velocity, gradient, int(z), raw);
            alongX.resize(planeSize);
            raw.forEachInto(alongX, 0,
                            [&](const float* in, float* out, size_t width) { tentPlane(in, out, width, n, 0); });
            const size_t first = z * planeSize;
            alongX.forEachInto(inPlane_, first,
                               [&](const float* in, float* out, size_t width) { tentPlane(in, out, width, n, 1); });
        },
        1);
    const int realAxis = shape.flatAxis(0) ? (shape.flatAxis(1) ? 2 : 1) : 0;
    const float h2 = shape.spacing[realAxis] * shape.spacing[realAxis];
    const float delta2 = filterWidth * filterWidth, deltaHat2 = delta2 + 6.0f * h2;
    lm_.reshape(shape);
    mm_.reshape(shape);
    parallelForEach(
        0, size_t(n.z),
        [&](size_t z) {
            const bool interiorPlane = n.z < 2 || (z > 0 && int(z) < n.z - 1);
            if (!interiorPlane) {
                std::fill_n(&lm_[z * planeSize], planeSize, 0.0f);
                std::fill_n(&mm_[z * planeSize], planeSize, 0.0f);
                return;
            }
            Fields hat;
            hat.resize(planeSize);
            inPlane_.filterAlongZ(z, planeSize, n.z, hat);
            contractPlane(hat, int(z), n, delta2, deltaHat2);
        },
        1);
}

// L:M and M:M over plane z from its test-filtered fields (zero on the plane's outermost rows).
void DynamicCoefficient::contractPlane(const Fields& hat, int z, const ivec3& n, float delta2, float deltaHat2) {
    const auto interior = [&](int p, int axis) { return n[axis] < 2 || (p > 0 && p < n[axis] - 1); };
    const size_t first = size_t(z) * size_t(n.x) * size_t(n.y);
    for (int y = 0; y < n.y; ++y)
        for (int x = 0; x < n.x; ++x) {
            const size_t i = size_t(x) + size_t(n.x) * size_t(y), k = first + i;
            if (!interior(x, 0) || !interior(y, 1)) {
                lm_[k] = mm_[k] = 0.0f;
                continue;
            }
            const SymmetricTensor l = deviatoric(hat.products[i] - outer(hat.velocity[i]));
            const SymmetricTensor m =
                (hat.smag[i] * delta2 - hat.strain[i] * (deltaHat2 * magnitude(hat.strain[i]))) * 2.0f;
            lm_[k] = l.contract(m);
            mm_[k] = m.contract(m);
        }
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
