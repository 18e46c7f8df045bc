// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA fluid solve of `gliding` against the CPU reference (docs/design/gliding.md 2.8, 3.5).
//
// Both backends run the arithmetic of fluid_physics.hpp in double without contraction
// (-ffp-contract=off, --fmad=false) and multiply by the same response bytes (fluidResponse),
// so the moments, stresses and forcing agree bit for bit on equal input; only the two FFTs per
// pass (cuFFT vs FFTW) round differently, ~1e-16 relative per transform. Hence the 1e-12
// relative tolerances below: four orders of magnitude of head room over FFT-order rounding,
// and many orders below any real discrepancy (a wrong Nyquist rule, layout or normalisation
// changes u by O(1) of its maximum).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "tests/support/backends.hpp"
#if CELLFORGE_HAVE_CUDA
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/gliding/cpu/fluid_cpu.hpp"
#include "sim/models/gliding/cuda/cufft_loader.hpp"
#include "sim/models/gliding/cuda/fluid_cuda.hpp"
#include "tests/sim/models/gliding_test_support.hpp"
#endif

namespace cf {
namespace {

using gliding::test::maxAbs;
using gliding::test::maxAbsDiff;
using gliding::test::params;

#if CELLFORGE_HAVE_CUDA

using gliding::FlowField;
using gliding::GlidingParams;
using gliding::GlidingTables;
using gliding::HostState;
constexpr double kTau = 2 * std::numbers::pi;

#define GLIDING_REQUIRE_CUDA_AND_CUFFT()                                                    \
    do {                                                                                    \
        CF_REQUIRE_BACKEND(Backend::Cuda);                                                  \
        if (!gliding::cuda::CufftLibrary::status().empty())                                 \
            GTEST_SKIP() << "cuFFT unavailable: " << gliding::cuda::CufftLibrary::status(); \
    } while (0)

// A smooth prescribed motor force F2 per cell, with several modes in both components so that
// both the longitudinal and the transverse response enter.
void motorForce(int n, double amp, std::vector<double>& fx, std::vector<double>& fy) {
    fx.resize(static_cast<std::size_t>(n) * n);
    fy.resize(fx.size());
    for (int iy = 0; iy < n; ++iy)
        for (int ix = 0; ix < n; ++ix) {
            const double x = (ix + 0.5) / n, y = (iy + 0.5) / n;
            const std::size_t c = static_cast<std::size_t>(iy) * n + ix;
            fx[c] = amp *
                    (std::sin(kTau * x) * std::cos(2 * kTau * y) + 0.5 * std::cos(kTau * (x + y)));
            fy[c] = amp *
                    (std::cos(kTau * x) * std::sin(kTau * y) - 0.3 * std::sin(kTau * (2 * x - y)));
        }
}

// A nonzero lagged flow: the cellular flow u = A sin cos, v = -A cos sin and its exact
// gradient plus a weak shear, so every strain component is nonzero somewhere.
FlowField laggedFlow(int n, double amp) {
    FlowField f;
    for (int iy = 0; iy < n; ++iy)
        for (int ix = 0; ix < n; ++ix) {
            const double x = (ix + 0.5) / n, y = (iy + 0.5) / n;
            const double sx = std::sin(kTau * x), cx = std::cos(kTau * x);
            const double sy = std::sin(kTau * y), cy = std::cos(kTau * y);
            f.u.push_back(amp * sx * cy);
            f.v.push_back(-amp * cx * sy);
            f.dudx.push_back(amp * kTau * cx * cy);
            f.dudy.push_back(-amp * kTau * sx * sy + 0.2 * amp * std::cos(kTau * y));
            f.dvdx.push_back(amp * kTau * sx * sy);
            f.dvdy.push_back(-amp * kTau * cx * cy);
        }
    return f;
}

struct Fields {
    const char* name;
    const std::vector<double> FlowField::*member;
};
constexpr Fields kFields[] = {{"u", &FlowField::u},       {"v", &FlowField::v},
                              {"dudx", &FlowField::dudx}, {"dudy", &FlowField::dudy},
                              {"dvdx", &FlowField::dvdx}, {"dvdy", &FlowField::dvdy}};

// Two consecutive solves (the first lags on the prescribed flow, the second on each backend's
// own output) of the 64^2 x 16 ring lattice with the motor force, on both backends.
void compareWithCpu(std::initializer_list<std::string> extra) {
    std::vector<std::string> a = {"grid.n=64", "grid.ninner=16", "init.layout=ring_lattice"};
    a.insert(a.end(), extra.begin(), extra.end());
    ParamSet set(gliding::parameterTable());
    for (const std::string& s : a)
        set.setFromAssignment(s);
    const GlidingParams p = gliding::checkedParams(set);
    const GlidingTables t = gliding::buildTables(p);
    const HostState s = gliding::initialState(p, t, 7);
    std::vector<double> fx, fy;
    motorForce(t.n, 0.05, fx, fy);
    const FlowField lagged = laggedFlow(t.n, 0.02);

    gliding::FluidCpu cpu(p, t);
    gliding::cuda::FluidCuda gpu(p, t);
    const cf::cuda::DeviceBuffer<double> psiD{std::span<const double>(s.psi)};
    const cf::cuda::DeviceBuffer<double> fxD{std::span<const double>(fx)};
    const cf::cuda::DeviceBuffer<double> fyD{std::span<const double>(fy)};
    // The first solve from rest on the CPU: what the lagged strain adds is the difference.
    FlowField fromRest;
    gliding::FluidCpu(p, t).solve(p, t, s, fx, fy, fromRest);
    FlowField flowCpu = lagged, flowGpu;
    gpu.upload(lagged);
    std::printf("config:");
    for (const std::string& x : extra)
        std::printf(" %s", x.c_str());
    std::printf(" (cuFFT %d)\n", gliding::cuda::CufftLibrary::instance().version());
    for (int solve = 1; solve <= 2; ++solve) {
        cpu.solve(p, t, s, fx, fy, flowCpu);
        gpu.solve(p, psiD.data(), fxD.data(), fyD.data(), cpu.lastMaxDensity());
        gpu.download(flowGpu);
        std::printf("solve %d: max c %.6f, g %.4f, passes cpu %d cuda %d\n", solve,
                    cpu.lastMaxDensity(), cpu.lagFactor(p, cpu.lastMaxDensity()),
                    cpu.lastIterations(), gpu.lastIterations());
        EXPECT_EQ(gpu.lastIterations(), cpu.lastIterations());
        for (const Fields& f : kFields) {
            const std::vector<double>& c = flowCpu.*f.member;
            const std::vector<double>& g = flowGpu.*f.member;
            ASSERT_EQ(g.size(), c.size());
            const double scale = maxAbs(c), rel = maxAbsDiff(c, g) / scale;
            std::printf("  %-4s max|cpu| %.6e  max|cuda-cpu|/max|cpu| %.3e", f.name, scale, rel);
            // FFT order only (see the top of the file).
            EXPECT_LE(rel, 1e-12) << f.name;
            EXPECT_GT(scale, 0.0) << f.name;
            if (solve == 1) {
                // Not vacuous: the lagged strain changes the field by far more than the
                // tolerance (about 0.3 with one pass; ~3e-4 after three, which contract it),
                // so its use on the device is checked too.
                const double lag = maxAbsDiff(c, fromRest.*f.member) / scale;
                std::printf("  (lagged strain's share %.3e)", lag);
                EXPECT_GT(lag, 1e-6) << f.name;
            }
            std::printf("\n");
        }
    }
}

TEST(GlidingFluidCuda, MatchesCpuDefaults) {
    GLIDING_REQUIRE_CUDA_AND_CUFFT();
    compareWithCpu({});
}

// A stronger lagged coupling with three passes per solve (fluid.iterations = 3), so the
// device's own output is fed back through stress, forcing and Stokes apply.
TEST(GlidingFluidCuda, MatchesCpuWithThreePasses) {
    GLIDING_REQUIRE_CUDA_AND_CUFFT();
    compareWithCpu({"filaments.sigma_f=3", "filaments.sigma_t=0.3", "fluid.iterations=3"});
}

// A uniform (isotropic) Psi has uniform moments; with a uniform lagged strain every stress is
// the same in each cell, its centred divergence is exactly 0, and with no motor force the
// forcing is exactly 0, so u2 and its gradient must be exactly 0 (no tolerance), not merely
// small. The lagged u, v are nonzero, so a solve that left them in place would fail too.
TEST(GlidingFluidCuda, RestForIsotropicPsiWithoutForce) {
    GLIDING_REQUIRE_CUDA_AND_CUFFT();
    const GlidingParams p = params({"grid.n=64", "grid.ninner=16", "init.layout=uniform",
                                    "fluid.iterations=3", "filaments.sigma_f=0.7"});
    const GlidingTables t = gliding::buildTables(p);
    const HostState s = gliding::initialState(p, t, 7);
    const std::size_t cells = static_cast<std::size_t>(t.n) * t.n;
    FlowField lag;
    lag.u.assign(cells, 0.3);
    lag.v.assign(cells, -0.2);
    lag.dudx.assign(cells, 0.1);
    lag.dudy.assign(cells, 0.05);
    lag.dvdx.assign(cells, -0.02);
    lag.dvdy.assign(cells, -0.1);
    gliding::cuda::FluidCuda gpu(p, t);
    const cf::cuda::DeviceBuffer<double> psiD{std::span<const double>(s.psi)};
    gpu.upload(lag);
    gpu.solve(p, psiD.data(), nullptr, nullptr, p.meanDensity);
    FlowField out;
    gpu.download(out);
    std::size_t nonzero = 0;
    for (const Fields& f : kFields)
        for (double x : out.*f.member)
            nonzero += x != 0.0 ? 1 : 0;
    std::printf(
        "uniform Psi, no force, uniform lagged strain, %d passes: %zu of %zu flow "
        "values nonzero\n",
        gpu.lastIterations(), nonzero, 6 * cells);
    EXPECT_EQ(nonzero, 0u);
}

// Design 3.5: per-item writes only and a fixed plan, so two runs agree bit for bit (given
// that cuFFT is deterministic for a fixed plan, which this checks).
TEST(GlidingFluidCuda, RunsAreBitwiseReproducible) {
    GLIDING_REQUIRE_CUDA_AND_CUFFT();
    const GlidingParams p = params({"grid.n=64", "grid.ninner=16", "fluid.iterations=3"});
    const GlidingTables t = gliding::buildTables(p);
    const HostState s = gliding::initialState(p, t, 7);
    std::vector<double> fx, fy;
    motorForce(t.n, 0.05, fx, fy);
    const cf::cuda::DeviceBuffer<double> psiD{std::span<const double>(s.psi)};
    const cf::cuda::DeviceBuffer<double> fxD{std::span<const double>(fx)};
    const cf::cuda::DeviceBuffer<double> fyD{std::span<const double>(fy)};
    FlowField out[2];
    for (FlowField& o : out) {
        gliding::cuda::FluidCuda gpu(p, t);
        gpu.upload(laggedFlow(t.n, 0.02));
        for (int solve = 0; solve < 3; ++solve)
            gpu.solve(p, psiD.data(), fxD.data(), fyD.data(), 2.0);
        gpu.download(o);
    }
    std::size_t differ = 0, total = 0;
    for (const Fields& f : kFields)
        for (std::size_t i = 0; i < (out[0].*f.member).size(); ++i, ++total)
            differ += (out[0].*f.member)[i] != (out[1].*f.member)[i] ? 1 : 0;
    std::printf("two runs of 3 solves x 3 passes: %zu of %zu flow values differ\n", differ, total);
    EXPECT_GT(maxAbs(out[0].u), 0.0);
    EXPECT_EQ(differ, 0u);
}

#else

TEST(GlidingFluidCuda, MatchesCpuDefaults) {
    GTEST_SKIP() << "built without CUDA";
}

#endif

}  // namespace
}  // namespace cf
