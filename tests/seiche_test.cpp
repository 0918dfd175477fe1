// An internal seiche: linearly stratified fluid in a closed box, its isopycnals tilted and
// released from rest, against linear theory, with free-slip and with no-slip walls. In a box of width L and height H with buoyancy
// frequency N the modes are rho' ~ cos(n pi x'/L) sin(m pi y'/H), each ringing at
// omega^2 = N^2 (n/L)^2 / ((n/L)^2 + (m/H)^2); a tilt c x projects on the odd n, m with
// amplitude -16 c L / (n^2 m pi^3). The mass's first moment sum(rho' V x) is summed over those
// modes here and its zero crossings compared with the simulation's.
#include "scene/scene.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

namespace vfx {
namespace {

constexpr double kSide = 1.6, kTilt = 0.03, kStratification = 0.25, kGravity = 9.8;

// The first moment of the linear solution at time t (per unit depth; only its zeros matter).
double theoryMoment(double t) {
    const double n2 = kGravity * kStratification;  // N^2, rho0 = 1
    double sum = 0.0;
    for (int n = 1; n < 60; n += 2)
        for (int m = 1; m < 60; m += 2) {
            const double amplitude = -16.0 * kTilt * kSide / (n * n * m * std::pow(M_PI, 3));
            const double moment = (-2.0 * kSide * kSide / (n * n * M_PI * M_PI)) * (2.0 * kSide / (m * M_PI));
            const double omega = std::sqrt(n2 * n * n / double(n * n + m * m));  // square box
            sum += amplitude * moment * std::cos(omega * t);
        }
    return sum;
}

template <typename Moment>
std::vector<double> zeroCrossings(Moment moment, double duration, double dt) {
    std::vector<double> crossings;
    double last = moment(0.0);
    for (double t = dt; t <= duration + 1e-9; t += dt) {
        const double now = moment(t);
        if ((last < 0.0) != (now < 0.0)) crossings.push_back(t - dt + dt * last / (last - now));
        last = now;
    }
    return crossings;
}

double simulatedMoment(const Vortons& v) {
    double sum = 0.0;
    for (size_t i = 0; i < v.size(); ++i) sum += double(v.density[i]) * double(v.volume(i)) * double(v.position[i].x);
    return sum;
}

struct SeicheRun {
    std::vector<double> moments;  // every kStep
    std::vector<double> crossings;
    double period() const { return (crossings[3] - crossings[0]) / 1.5; }
    // The largest |moment| between crossings k and k + 1 (k = 0: the first swing after the release).
    double swing(size_t k) const;
};

constexpr double kStep = 0.02, kDuration = 11.0;

double SeicheRun::swing(size_t k) const {
    double largest = 0.0;
    for (size_t i = 0; i < moments.size(); ++i) {
        const double t = double(i) * kStep;
        if (t > crossings[k] && t < crossings[k + 1]) largest = std::max(largest, std::abs(moments[i]));
    }
    return largest;
}

// The box solver (walls with no flow through them) with free-slip or no-slip walls.
SeicheRun runSeiche(bool noSlip) {
    nlohmann::json document = nlohmann::json::parse(R"({
      "fluid": {"ambient_density": 1.0, "gravity": [0, -9.8, 0], "viscosity": 0.001,
                "velocity_solver": "box", "no_slip": false},
      "vortons": [{"shape": "box", "min": [-0.8, -0.8, -0.8], "max": [0.8, 0.8, 0.8], "count": 4096,
                   "layout": "lattice", "density": 0.0, "density_gradient": [0.03, -0.25, 0]}],
      "bodies": [{"name": "tank", "shape": "box", "half_extents": [0.8, 0.8, 0.8], "hole": true,
                  "motion": "kinematic"}]
    })");
    document["fluid"]["no_slip"] = noSlip;
    Simulation sim;
    buildSimulation(parseScene(document, "seiche"), sim);
    SeicheRun run;
    run.moments.push_back(simulatedMoment(sim.vortons()));
    for (int k = 0; k < int(kDuration / kStep + 0.5); ++k) {
        sim.step(float(kStep));
        run.moments.push_back(simulatedMoment(sim.vortons()));
    }
    run.crossings =
        zeroCrossings([&](double t) { return run.moments[size_t(std::lround(t / kStep))]; }, kDuration, kStep);
    return run;
}

// Free-slip walls (the inviscid limit the theory describes): the first four zero crossings,
// and so the period, within 5% of the theory's. The 16^3 lattice resolves the gravest mode with
// k h = 0.28 ((k h)^2 = 0.077); the second-order errors that reach its frequency are fractions
// of (k h)^2: the 7-point Laplacian (1/12), the centred curl (1/6) and the trilinear readings of
// velocity and density gradient (1/8 each), about 0.5 (k h)^2 in all, 4%. (Before the density
// field by walls counted its mass over the fluid share, the period was 9.6% long; through the
// free-space tree, which cannot close the vortex lines the walls end, 15%.)
TEST(Seiche, TiltedLayersRingAtTheLinearTheorysPeriod) {
    const SeicheRun run = runSeiche(false);
    const std::vector<double> theory = zeroCrossings(theoryMoment, kDuration, 0.001);
    ASSERT_GE(theory.size(), 4u);
    ASSERT_GE(run.crossings.size(), 4u) << "the seiche did not ring";
    for (size_t k = 0; k < 4; ++k)
        std::cout << "crossing " << run.crossings[k] << " s (theory " << theory[k] << " s)\n";
    const double theoryPeriod = (theory[3] - theory[0]) / 1.5;
    std::cout << "period " << run.period() << " s, theory " << theoryPeriod << " s (gravest mode alone "
              << 2.0 * M_PI / std::sqrt(kGravity * kStratification / 2.0) << " s)\n";
    EXPECT_NEAR(run.period(), theoryPeriod, 0.05 * theoryPeriod);
    for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(run.crossings[k], theory[k], 0.05 * theory[k]);
}

// No-slip walls add Stokes layers of thickness delta = sqrt(2 nu / omega). Their time-averaged
// dissipation (rho omega delta / 4) |U_t|^2 per unit wall area, over the gravest mode's energy
// (psi = sin(pi x/L) sin(pi y/L), six walls), damps its amplitude at gamma = 1.5 omega delta / L,
// and a Stokes layer slows the oscillation by as much: omega shifts by -gamma (the layer's
// impedance goes as (1 - i)). Here delta = 0.042 m is under half the vorton spacing (0.1 m):
// the first vortons carry the layer's whole vorticity over a spacing, so its effective thickness,
// on which both effects depend linearly, is known to within a factor of two either way. Against
// the same seiche with free-slip walls (which cancels the discretisation's own error), the
// period's lengthening and the third swing's loss must lie in that band, and the period within
// 10% of the inviscid theory. (Replacing the wall vortons' vorticity by the wall's sheet each
// step, instead of renewing only the sheet they carry, kept a third of the vortons from their
// baroclinic source: the third swing was 0.16 of the free-slip one.)
TEST(Seiche, NoSlipWallsDampAndSlowItAsStokesLayersDo) {
    const SeicheRun freeSlip = runSeiche(false), noSlip = runSeiche(true);
    ASSERT_GE(freeSlip.crossings.size(), 4u);
    ASSERT_GE(noSlip.crossings.size(), 4u) << "the seiche did not ring";
    const double omega = 2.0 * M_PI / freeSlip.period(), nu = 0.001;
    const double delta = std::sqrt(2.0 * nu / omega), rate = 1.5 * omega * delta / kSide;
    const double lengthening = noSlip.period() / freeSlip.period() - 1.0;
    const double elapsed = 0.5 * (noSlip.crossings[2] + noSlip.crossings[3]);
    const double loss = noSlip.swing(2) / freeSlip.swing(2), stokesLoss = std::exp(-rate * elapsed);
    const std::vector<double> theory = zeroCrossings(theoryMoment, kDuration, 0.001);
    const double theoryPeriod = (theory[3] - theory[0]) / 1.5;
    std::cout << "no-slip period " << noSlip.period() << " s, free slip " << freeSlip.period() << " s: longer by "
              << lengthening << " (Stokes layer " << rate / omega << "); third swing " << loss
              << " of the free-slip one (Stokes layer " << stokesLoss << " at " << elapsed << " s)\n";
    EXPECT_GT(lengthening, 0.5 * rate / omega);
    EXPECT_LT(lengthening, 2.0 * rate / omega);
    EXPECT_GT(loss, std::exp(-2.0 * rate * elapsed));
    EXPECT_LT(loss, std::exp(-0.5 * rate * elapsed));
    EXPECT_NEAR(noSlip.period(), theoryPeriod, 0.1 * theoryPeriod);
}

}  // namespace
}  // namespace vfx
