// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA filament step of `gliding` against the CPU reference (docs/design/gliding.md 3.5,
// 6.2 T12), and the cuFFT loader's failure message (design 3.4).
//
// Both backends run the arithmetic of smoluchowski_physics.hpp in double without contraction
// (-ffp-contract=off, --fmad=false), so moments, A^n, the CFL rate, R and the CN factor agree
// bit for bit on equal input; only the FFTs (cuFFT vs FFTW) round differently, ~1e-16
// relative per transform. Over 20 steps of this smooth, non-chaotic dynamics that stays far
// below the tolerances of design 3.5, which are stated next to each assertion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>
#include <vector>

#include "sim/models/gliding/cpu/smoluchowski_cpu.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/env_guard.hpp"
#if CELLFORGE_HAVE_CUDA
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/gliding/cuda/cufft_loader.hpp"
#include "sim/models/gliding/cuda/smoluchowski_cuda.hpp"
#include "tests/sim/models/gliding_test_support.hpp"
#endif

namespace cf {
namespace {

using gliding::test::maxAbs;
using gliding::test::maxAbsDiff;
using gliding::test::params;

using gliding::GlidingParams;
using gliding::GlidingTables;
using gliding::HostState;

#if CELLFORGE_HAVE_CUDA

// A smooth divergence-free cellular flow at z0, stream function A sin(2 pi x) sin(2 pi y)/(2 pi):
// u = A sin(2 pi x) cos(2 pi y), v = -A cos(2 pi x) sin(2 pi y) and its exact gradient.
// A = 0.02 is 64 % of V_sp, so the flow terms move Psi visibly within 20 steps.
struct HostFlow {
    std::vector<double> u, v, dudx, dudy, dvdx, dvdy;
    gliding::FlowAtZ0 view() const {
        return {u.data(), v.data(), dudx.data(), dudy.data(), dvdx.data(), dvdy.data()};
    }
};

HostFlow cellularFlow(const GlidingTables& t, double amp) {
    HostFlow f;
    const std::size_t cells = static_cast<std::size_t>(t.n) * t.n;
    for (std::vector<double>* v : {&f.u, &f.v, &f.dudx, &f.dudy, &f.dvdx, &f.dvdy})
        v->resize(cells);
    const double k = 2 * std::numbers::pi;
    for (int iy = 0; iy < t.n; ++iy)
        for (int ix = 0; ix < t.n; ++ix) {
            const std::size_t c = static_cast<std::size_t>(iy) * t.n + ix;
            const double x = (ix + 0.5) * t.dx, y = (iy + 0.5) * t.dx;
            const double sx = std::sin(k * x), cx = std::cos(k * x);
            const double sy = std::sin(k * y), cy = std::cos(k * y);
            f.u[c] = amp * sx * cy;
            f.v[c] = -amp * cx * sy;
            f.dudx[c] = amp * k * cx * cy;
            f.dudy[c] = -amp * k * sx * sy;
            f.dvdx[c] = amp * k * sx * sy;
            f.dvdy[c] = -amp * k * cx * cy;
        }
    return f;
}

// Skips (with the reason printed) when there is no usable GPU or no libcufft.
#define GLIDING_REQUIRE_CUDA_AND_CUFFT()                                                    \
    do {                                                                                    \
        CF_REQUIRE_BACKEND(Backend::Cuda);                                                  \
        if (!gliding::cuda::CufftLibrary::status().empty())                                 \
            GTEST_SKIP() << "cuFFT unavailable: " << gliding::cuda::CufftLibrary::status(); \
    } while (0)

struct DeviceFlow {
    cf::cuda::DeviceBuffer<double> u, v, dudx, dudy, dvdx, dvdy;
    explicit DeviceFlow(const HostFlow& h)
        : u(std::span<const double>(h.u)),
          v(std::span<const double>(h.v)),
          dudx(std::span<const double>(h.dudx)),
          dudy(std::span<const double>(h.dudy)),
          dvdx(std::span<const double>(h.dvdx)),
          dvdy(std::span<const double>(h.dvdy)) {}
    gliding::FlowAtZ0 view() const {
        return {u.data(), v.data(), dudx.data(), dudy.data(), dvdx.data(), dvdy.data()};
    }
};

// 20 CFL steps of the 64^2 x 16 ring lattice on both backends, dry or in the cellular flow.
void compareWithCpu(bool withFlow) {
    const GlidingParams p = params({"grid.n=64", "grid.ninner=16", "init.layout=ring_lattice"});
    const GlidingTables t = gliding::buildTables(p);
    HostState cpu = gliding::initialState(p, t, 7);
    const HostState initial = cpu;
    const double n0 = gliding::filamentNumber(cpu, t);
    const HostFlow hostFlow = cellularFlow(t, 0.02);
    const DeviceFlow deviceFlow(hostFlow);
    const gliding::FlowAtZ0 hf = hostFlow.view(), df = deviceFlow.view();

    gliding::SmoluchowskiCpu cpuSolver(t);
    gliding::cuda::SmoluchowskiCuda gpuSolver(t);
    gpuSolver.upload(cpu);
    std::printf("%s, cuFFT %d from %s\n", withFlow ? "cellular flow A = 0.02" : "dry",
                gliding::cuda::CufftLibrary::instance().version(),
                gliding::cuda::CufftLibrary::instance().name().c_str());
    double worstPsi = 0, worstDt = 0, worstRate = 0, worstN = 0;
    int bitwiseDt = 0;
    HostState gpu;
    for (int step = 1; step <= 20; ++step) {
        const double dt = cpuSolver.cflStep(p, t, cpu, withFlow ? &hf : nullptr);
        const double rate = cpuSolver.step(p, t, cpu, dt, withFlow ? &hf : nullptr);
        gpuSolver.step(p, withFlow ? &df : nullptr);
        const gliding::cuda::StepScalars sc = gpuSolver.scalars();
        gpuSolver.download(gpu);
        const double dPsi = maxAbsDiff(cpu.psi, gpu.psi) / maxAbs(cpu.psi);
        const double dDt = std::fabs(sc.dt / dt - 1), dRate = std::fabs(sc.rate / rate - 1);
        const double dN = std::fabs(gliding::filamentNumber(gpu, t) / n0 - 1);
        bitwiseDt += sc.dt == dt ? 1 : 0;
        worstPsi = std::max(worstPsi, dPsi);
        worstDt = std::max(worstDt, dDt);
        worstRate = std::max(worstRate, dRate);
        worstN = std::max(worstN, dN);
        if (step % 5 == 0 || step == 1)
            std::printf(
                "step %2d: dt cpu %.15f cuda %.15f (rel %.2e), rate rel %.2e, "
                "max|dPsi|/maxPsi %.3e, |N_cuda/N0 - 1| %.2e\n",
                step, dt, sc.dt, dDt, dRate, dPsi, dN);
    }
    const double moved = maxAbsDiff(cpu.psi, initial.psi) / maxAbs(initial.psi);
    std::printf(
        "worst over 20 steps: max|dPsi|/maxPsi %.3e, dt rel %.2e (%d of 20 bitwise "
        "equal), rate rel %.2e, |N/N0 - 1| %.2e; Psi moved by %.3e of maxPsi\n",
        worstPsi, worstDt, bitwiseDt, worstRate, worstN, moved);
    // Design 3.5: FFT and summation order differ only, so 1e-10 relative to max Psi.
    EXPECT_LE(worstPsi, 1e-10);
    // The dt follow from identically computed rates of states that differ by ~1e-15.
    EXPECT_LE(worstDt, 1e-12);
    EXPECT_LE(worstRate, 1e-12);
    // N is carried by the Lambda = 0 mode exactly (design M17); the DFT leaves ~1e-15 per step.
    EXPECT_LE(worstN, 1e-12);
    // Not a vacuous comparison: Psi changed by far more than the tolerance.
    EXPECT_GT(moved, 1e-4);
}

TEST(GlidingCuda, MatchesCpuDry) {
    GLIDING_REQUIRE_CUDA_AND_CUFFT();
    compareWithCpu(false);
}

TEST(GlidingCuda, MatchesCpuInAFlow) {
    GLIDING_REQUIRE_CUDA_AND_CUFFT();
    compareWithCpu(true);
}

// Design 3.5: no atomics and fixed reduction trees, so two runs of one configuration on one
// GPU must agree bit for bit (if cuFFT is deterministic for a fixed plan, which this checks).
TEST(GlidingCuda, RunsAreBitwiseReproducible) {
    GLIDING_REQUIRE_CUDA_AND_CUFFT();
    const GlidingParams p = params({"grid.n=64", "grid.ninner=16"});
    const GlidingTables t = gliding::buildTables(p);
    const HostState s0 = gliding::initialState(p, t, 7);
    const HostFlow hostFlow = cellularFlow(t, 0.02);
    const DeviceFlow deviceFlow(hostFlow);
    const gliding::FlowAtZ0 df = deviceFlow.view();
    HostState out[2];
    for (HostState& o : out) {
        gliding::cuda::SmoluchowskiCuda solver(t);
        solver.upload(s0);
        for (int step = 0; step < 20; ++step)
            solver.step(p, &df);
        solver.download(o);
    }
    std::size_t differ = 0;
    for (std::size_t i = 0; i < out[0].psi.size(); ++i)
        differ += out[0].psi[i] != out[1].psi[i] ? 1 : 0;
    std::printf("two runs of 20 steps: %zu of %zu values differ\n", differ, out[0].psi.size());
    EXPECT_EQ(differ, 0u);
}

// The kernels read the live parameters from __constant__ memory, one symbol per process: two
// solvers with different parameters stepped in turn each run as if alone, bit for bit (each
// binds its own before it launches), and the block holds the parameters of the last step's
// solver, including a change of p between steps.
TEST(GlidingCuda, SolversUsedInTurnKeepTheirParameters) {
    GLIDING_REQUIRE_CUDA_AND_CUFFT();
    const GlidingParams p = params({"grid.n=64", "grid.ninner=16"});
    const GlidingParams q = params({"grid.n=64", "grid.ninner=16", "filaments.Vsp=0.02",
                                    "filaments.Dt=3e-4", "time.cout=0.3"});
    const GlidingTables t = gliding::buildTables(p);
    const HostState s0 = gliding::initialState(p, t, 7);
    const auto alone = [&](const GlidingParams& pp) {
        gliding::cuda::SmoluchowskiCuda solver(t);
        solver.upload(s0);
        for (int step = 0; step < 6; ++step)
            solver.step(pp);
        HostState out;
        solver.download(out);
        return out.psi;
    };
    const std::vector<double> expectP = alone(p), expectQ = alone(q);
    gliding::cuda::SmoluchowskiCuda a(t), b(t);
    a.upload(s0);
    b.upload(s0);
    for (int step = 0; step < 6; ++step) {
        a.step(p);
        b.step(q);
    }
    HostState outA, outB;
    a.download(outA);
    b.download(outB);
    EXPECT_TRUE(outA.psi == expectP);
    EXPECT_TRUE(outB.psi == expectQ);
    EXPECT_FALSE(expectP == expectQ) << "the parameters made a difference";
    EXPECT_EQ(b.deviceParams().vsp, 0.02);
    a.bindParams(p);
    EXPECT_EQ(a.deviceParams().vsp, p.vsp);
    EXPECT_EQ(a.deviceParams().diffT, p.diffT);
    GlidingParams edited = p;
    edited.diffR = 0.03;
    a.step(edited);  // new values without uploadParams: step binds them
    EXPECT_EQ(a.deviceParams().diffR, 0.03);
}

using test::EnvGuard;

// Design 3.4 / T12: a missing cuFFT gives an error that names the library tried and the
// reason, and so does a library that is not cuFFT. Needs no GPU.
TEST(GlidingCuda, CufftLoaderFailureIsClear) {
    const EnvGuard guard("CELLFORGE_CUFFT");
    setenv("CELLFORGE_CUFFT", "/nonexistent", 1);
    EXPECT_EQ(gliding::cuda::cufftLibraryName(), "/nonexistent");
    std::string message;
    try {
        const gliding::cuda::CufftLibrary lib = gliding::cuda::CufftLibrary::fromEnvironment();
        ADD_FAILURE() << "loading /nonexistent succeeded";
    } catch (const SimulationError& e) {
        message = e.what();
    }
    std::printf("CELLFORGE_CUFFT=/nonexistent: \"%s\"\n", message.c_str());
    EXPECT_NE(message.find("cuFFT"), std::string::npos);
    EXPECT_NE(message.find("/nonexistent"), std::string::npos);
    // libc is loadable but has no cuFFT entry points.
    setenv("CELLFORGE_CUFFT", "libc.so.6", 1);
    message.clear();
    try {
        const gliding::cuda::CufftLibrary lib = gliding::cuda::CufftLibrary::fromEnvironment();
        ADD_FAILURE() << "loading libc.so.6 as cuFFT succeeded";
    } catch (const SimulationError& e) {
        message = e.what();
    }
    std::printf("CELLFORGE_CUFFT=libc.so.6: \"%s\"\n", message.c_str());
    EXPECT_NE(message.find("lacks cufftCreate"), std::string::npos);
}

#else

TEST(GlidingCuda, MatchesCpuDry) {
    GTEST_SKIP() << "built without CUDA";
}

#endif

}  // namespace
}  // namespace cf
