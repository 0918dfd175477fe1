#include "sim/equivalent_sphere.hpp"

#include <cmath>

namespace vfx {

double equivalentRadius(const RigidBody& body) {
    return std::cbrt(3.0 * double(body.shape.volume()) / (4.0 * kPiDouble));
}

double sphereDragCoefficient(double reynolds) {
    if (!(reynolds > 0.0) || !std::isfinite(reynolds)) return 0.42;
    return 24.0 / reynolds * (1.0 + 0.15 * std::pow(reynolds, 0.687)) +
           0.42 / (1.0 + 42500.0 * std::pow(reynolds, -1.16));
}

double sphereTorqueCoefficient(double reynolds) {
    if (!(reynolds > 0.0) || !std::isfinite(reynolds)) return 0.0;
    if (reynolds <= 32.0) return 64.0 * kPiDouble / reynolds;
    return 12.9 / std::sqrt(reynolds) + 128.4 / reynolds;
}

}  // namespace vfx
