// SPDX-License-Identifier: GPL-3.0-or-later
// Linear stability of the uniform isotropic state in the dry limit (design M18, design 6.2 T7b)
// on every backend: the measured growth of the least-stable n = 1 eigenmode against the spec's
// eigenvalue 0.052139, converging as the grid is refined.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "sim/models/gliding/gliding_model.hpp"
#include "tests/sim/models/gliding_reference.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

using gliding::test::HarmonicSystem;
using gliding::test::nearestEigenpair;

// The oracle itself against the spec's reference numbers (design M18): the defaults at n = 1
// (0.052139, printed to 6 decimals) and the second set at k = 1.5 (10 decimals) and k = 0.
TEST(GlidingReference, HarmonicSystemReproducesTheSpecsEigenvalues) {
    const double lambda = 1.0 / 32, ur = 0.4;
    const HarmonicSystem defaults{
        1.0, 1.0 / 32, 2e-4, 0.02, ur, lambda * lambda * ur / 12, 2 * std::numbers::pi};
    const auto n1 = nearestEigenpair(defaults, 0.05);
    std::printf("defaults, n = 1: %.7f %+.2e i\n", n1.value.real(), n1.value.imag());
    EXPECT_NEAR(n1.value.real(), 0.052139, 5e-7);
    EXPECT_NEAR(n1.value.imag(), 0.0, 1e-12);
    const HarmonicSystem second{1.0, 0.7, 0.02, 0.05, 0.6, 0.03, 1.5};
    const auto top = nearestEigenpair(second, {-0.07, 0.95});
    std::printf("second set, k = 1.5: %.10f %+.10f i\n", top.value.real(), top.value.imag());
    EXPECT_NEAR(top.value.real(), -0.0702643961, 1e-9);
    EXPECT_NEAR(std::abs(top.value.imag()), 0.9535269355, 1e-9);
    HarmonicSystem still = second;
    still.k = 0;
    EXPECT_NEAR(nearestEigenpair(still, 0.11).value.real(), 0.1, 1e-12);
}

class GlidingStabilityTest : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override { CF_REQUIRE_BACKEND(GetParam()); }
};

// Growth rate of the n = 1 eigenmode on an n x n grid (Ntheta 64): the dry uniform isotropic
// state plus 1e-6 x the eigenmode of the continuous system, stepped at dt = 0.02 to t = 20; the
// rate is the least-squares slope of the log of its projection onto that mode over t in [6, 20]
// (after the other discrete modes the initial state excites have faded relative to it).
double measuredGrowth(Backend backend, int n, const std::vector<std::complex<double>>& a, int maxM,
                      double k) {
    const ModelDescriptor desc = gliding::descriptor();
    ParamSet params{desc.parameters()};
    for (const std::string& s :
         {"grid.n=" + std::to_string(n), std::string("grid.ninner=64"),
          std::string("init.layout=uniform"), std::string("fluid.enabled=false"),
          std::string("motors.enabled=false"), std::string("time.dt_mode=fixed"),
          std::string("time.dt=0.02"),
          // Motors are off; a small capture radius keeps their (unused) packed storage, which
          // every snapshot copies, small.
          "motors.rc=" + std::to_string(std::min(0.004, 0.3 / n))})
        params.setFromAssignment(s);
    auto model = desc.create(backend);
    model->reset(params, 1);
    Snapshot snap = model->snapshot();
    std::vector<double> psi = snap.at("psi").as<double>();
    const int nt = 64;
    const double dth = 2 * std::numbers::pi / nt, base = psi[0];
    // The mode in theta: v_j = sum_m a_m e^{i m theta_j}.
    std::vector<std::complex<double>> v(nt);
    for (int j = 0; j < nt; ++j)
        for (int m = -maxM; m <= maxM; ++m)
            v[static_cast<std::size_t>(j)] +=
                a[static_cast<std::size_t>(m + maxM)] * std::polar(1.0, m * (j + 0.5) * dth);
    for (int iy = 0; iy < n; ++iy)
        for (int ix = 0; ix < n; ++ix)
            for (int j = 0; j < nt; ++j) {
                const double x = (ix + 0.5) / n;
                psi[(static_cast<std::size_t>(iy) * n + ix) * nt + j] +=
                    1e-6 * base * (v[static_cast<std::size_t>(j)] * std::polar(1.0, k * x)).real();
            }
    snap.fields.at(0) =
        Field::of<double>("psi", "n0", FieldRole::Grid, nt, std::span<const double>(psi));
    model->restore(snap);
    std::vector<double> times, logs;
    for (int sample = 1; sample <= 20; ++sample) {
        model->advance(50);
        const std::vector<double> now = model->snapshot().at("psi").as<double>();
        std::complex<double> projection = 0;
        for (int iy = 0; iy < n; ++iy)
            for (int ix = 0; ix < n; ++ix) {
                const std::complex<double> phase = std::polar(1.0, -k * (ix + 0.5) / n);
                for (int j = 0; j < nt; ++j)
                    projection += (now[(static_cast<std::size_t>(iy) * n + ix) * nt + j] - base) *
                                  phase * std::conj(v[static_cast<std::size_t>(j)]);
            }
        if (model->time() >= 6.0 - 1e-9) {
            times.push_back(model->time());
            logs.push_back(std::log(std::abs(projection)));
        }
    }
    double mt = 0, ml = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
        mt += times[i] / times.size();
        ml += logs[i] / times.size();
    }
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
        sxy += (times[i] - mt) * (logs[i] - ml);
        sxx += (times[i] - mt) * (times[i] - mt);
    }
    return sxy / sxx;
}

// First-order upwinding adds a numerical diffusion of about Vsp dx / 2 along x, comparable to
// Dt at these grids (design 6.2 T7b), so the growth converges at first order in dx: the error
// must fall by >= 1.6 per refinement and the Richardson extrapolation 2 sigma(2n) - sigma(n) of
// the two finest grids must meet the spec's eigenvalue within 1 % (the "about 1 %").
// The theta grid is refined to 64 because the face-evaluated torque scales the nematic drive by
// sin(dtheta)/dtheta (design T7a): at Ntheta = 32 that alone lowers this rate by about 1.5 %
// (measured: 32 -> 64 raises it by 1.15 % at both N = 32 and 64), at 64 by about 0.3 %.
TEST_P(GlidingStabilityTest, DryNematicModeGrowsAtTheSpecsRate) {
    const double lambda = 1.0 / 32, ur = 0.4, k = 2 * std::numbers::pi;
    const HarmonicSystem h{1.0, 1.0 / 32, 2e-4, 0.02, ur, lambda * lambda * ur / 12, k};
    const auto mode = nearestEigenpair(h, 0.05);
    const double exact = mode.value.real();
    const std::vector<int> grids =
        GetParam() == Backend::Cuda ? std::vector<int>{64, 128, 256} : std::vector<int>{32, 64};
    std::vector<double> rates;
    for (int n : grids) {
        rates.push_back(measuredGrowth(GetParam(), n, mode.harmonics, h.maxHarmonic, k));
        std::printf("%s N = %d: growth %.6f (spec 0.052139: %+.2f %%)\n",
                    std::string(toString(GetParam())).c_str(), n, rates.back(),
                    100 * (rates.back() / exact - 1));
    }
    for (std::size_t i = 1; i < rates.size(); ++i) {
        const double ratio = (exact - rates[i - 1]) / (exact - rates[i]);
        std::printf("error ratio %d -> %d: %.3f\n", grids[i - 1], grids[i], ratio);
        EXPECT_GE(ratio, 1.6);
    }
    const double richardson = 2 * rates.back() - rates[rates.size() - 2];
    std::printf("Richardson 2 sigma(%d) - sigma(%d) = %.6f (%+.2f %%)\n", grids.back(),
                grids[grids.size() - 2], richardson, 100 * (richardson / exact - 1));
    EXPECT_NEAR(richardson / exact, 1.0, 0.01);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, GlidingStabilityTest,
                         testing::ValuesIn(test::builtBackends()), test::backendName);

}  // namespace
}  // namespace cf
