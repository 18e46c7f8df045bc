// SPDX-License-Identifier: GPL-3.0-or-later
// T12, motors part (docs/design/gliding.md 3.5, 6.2): the CUDA bound motors (MotorsCuda,
// motorSubcycle<f32|f64>, boundGather, forceGather) against the CPU reference (motors_cpu) on
// the 64^2 x 16^2 ring lattice: 4 advances with Psi frozen at Psi0, then 4 CFL filament steps on
// the CPU, Psi uploaded after each, each followed by an advance. Compared after each phase:
// Mb, Mb,coarse, Mf, W and F2.
// - f64 motors: every field within 1e-12 of its maximum. Both sides evaluate the same
//   expressions in the same order without FMA; the only reordering is the block tree over the
//   quarter-turn orbits in Mb,coarse and the capacity (CPU: a running sum), ~1e-16 relative per
//   resync, fed back through Mf over ~30 substeps: 1e-12 is ~1e3 x that.
// - f32 motors (design 3.5): Mb,coarse <= 2e-6 M and F2 <= 1e-5 max|F2|; Mb and W are checked
//   at the F2 bound 1e-5 of their maxima (float rounding 6e-8 per operation, ~100 operations
//   deep).
// - On the device, Mf + Mb,coarse = M per tail: f64 within one ulp of M (Mf = M - Mb,coarse is
//   one rounding), f32 within 1e-6 M (two float roundings of 6e-8 M).
// - Substep counts equal the CPU's (integers from the same double arithmetic), and with f64
//   motors the clamp counts too (f32: printed only).
// - Two CUDA runs are bitwise equal, and the global-memory slice path is bitwise equal to the
//   shared-memory one (same arithmetic, same order).
// - The kernel switches (docs/GLIDING.md "Kernel switches"): the block size, the strided and runs
//   lane mappings, the lane-major storage and the launch bounds give the default's bits; the
//   fast-math build stays within the bounds above.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/cpu/motors_cpu.hpp"
#include "sim/models/gliding/cpu/smoluchowski_cpu.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "tests/support/backends.hpp"
#if CELLFORGE_HAVE_CUDA
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/gliding/cuda/motors_cuda.hpp"
#include "tests/sim/models/gliding_test_support.hpp"
#endif

namespace cf {
namespace {

using gliding::test::maxAbs;

using gliding::GlidingParams;
using gliding::GlidingTables;
using gliding::HostState;
using gliding::MotorState;

#if CELLFORGE_HAVE_CUDA

GlidingParams params(const char* precision, const std::vector<std::string>& extra = {}) {
    ParamSet set(gliding::parameterTable());
    set.setFromAssignment("grid.n=64");
    set.setFromAssignment("grid.ninner=16");
    set.setFromAssignment(std::string("motors.precision=") + precision);
    for (const std::string& e : extra)
        set.setFromAssignment(e);
    return gliding::checkedParams(set);
}

// One advance: the Psi it sees and its dt.
struct Advance {
    std::vector<double> psi;
    double dt;
};

constexpr int kFrozen = 4, kMoving = 4;

// Psi0 frozen (dt = the CFL step of Psi0) for kFrozen advances, then kMoving CFL steps.
std::vector<Advance> psiSequence(const GlidingParams& p, const GlidingTables& t) {
    HostState s = gliding::initialState(p, t, 1);
    gliding::SmoluchowskiCpu solver(t);
    std::vector<Advance> seq;
    const double dt0 = solver.cflStep(p, t, s);
    for (int i = 0; i < kFrozen; ++i)
        seq.push_back({s.psi, dt0});
    for (int i = 0; i < kMoving; ++i) {
        const double dt = solver.cflStep(p, t, s);
        solver.step(p, t, s, dt);
        seq.push_back({s.psi, dt});
    }
    return seq;
}

// The motor state and the force after a phase.
struct Result {
    MotorState ms;
    std::vector<double> w, fx, fy;
};

HostState stateOf(const GlidingTables& t, const std::vector<double>& psi) {
    HostState s;
    s.n = t.n;
    s.ntheta = t.ntheta;
    s.psi = psi;
    return s;
}

std::vector<Result> runCpu(const GlidingParams& p, const GlidingTables& t,
                           const std::vector<Advance>& seq) {
    std::vector<Result> out;
    MotorState ms;
    gliding::initMotors(p, t, ms);
    for (std::size_t i = 0; i < seq.size(); ++i) {
        const HostState s = stateOf(t, seq[i].psi);
        gliding::advanceMotors(p, t, s, seq[i].dt, ms);
        if (i + 1 == kFrozen || i + 1 == seq.size()) {
            Result r;
            gliding::boundGather(p, t, s, ms, r.w);
            gliding::forceGather(p, t, r.w, r.fx, r.fy);
            r.ms = ms;
            out.push_back(std::move(r));
        }
    }
    return out;
}

struct Stream {
    cudaStream_t s = nullptr;
    Stream() { CF_CUDA_CHECK(cudaStreamCreate(&s)); }
    ~Stream() { cudaStreamDestroy(s); }
};

std::vector<Result> runCuda(const GlidingParams& p, const GlidingTables& t,
                            const std::vector<Advance>& seq, bool shared, bool* usedShared,
                            gliding::cuda::MotorLaunch* launch = nullptr) {
    Stream stream;
    gliding::MotorsCuda gpu(p, t, stream.s);
    gpu.setSliceInSharedForTests(shared);
    *usedShared = gpu.sliceInShared();
    if (launch) *launch = gpu.launch();
    cf::cuda::DeviceBuffer<double> psi(seq[0].psi.size());
    std::vector<Result> out;
    for (std::size_t i = 0; i < seq.size(); ++i) {
        psi.copyFromHost(seq[i].psi, stream.s);
        gpu.advance(p, psi.data(), seq[i].dt);
        if (i + 1 == kFrozen || i + 1 == seq.size()) {
            Result r;
            gpu.force(p, psi.data());
            gpu.download(r.ms);
            r.w = gpu.downloadW();
            gpu.downloadForce(r.fx, r.fy);
            out.push_back(std::move(r));
        }
    }
    return out;
}

// max|a - b| / max|a| (a: the CPU reference).
double relDiff(const std::vector<double>& a, const std::vector<double>& b) {
    EXPECT_EQ(a.size(), b.size());
    double d = 0, m = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        d = std::max(d, std::fabs(a[i] - b[i]));
        m = std::max(m, std::fabs(a[i]));
    }
    return m > 0 ? d / m : d;
}

// max over tails of |Mf + Mb,coarse - M| / M.
double freePlusBound(const MotorState& ms, double mtot) {
    double worst = 0;
    for (std::size_t r = 0; r < ms.free.size(); ++r)
        worst = std::max(worst, std::fabs(ms.free[r] + ms.coarse[r] - mtot) / mtot);
    return worst;
}

bool sameBits(const Result& a, const Result& b) {
    return a.ms.mb == b.ms.mb && a.ms.coarse == b.ms.coarse && a.ms.free == b.ms.free &&
           a.w == b.w && a.fx == b.fx && a.fy == b.fy && a.ms.clampCount == b.ms.clampCount;
}

struct Tolerances {
    double mb, coarse, free, w, f2, conservation;
    bool sameClamps;  // f64 only: a float lane can round to -0 where double stays +tiny
};

void compareWithCpu(const char* precision, const Tolerances& tol,
                    const std::vector<std::string>& extra = {}) {
    const GlidingParams p = params(precision, extra);
    const GlidingTables t = gliding::buildTables(p);
    const std::vector<Advance> seq = psiSequence(p, t);
    const std::vector<Result> cpu = runCpu(p, t, seq);
    bool shared = false, shared2 = false, sharedGlobal = true;
    const std::vector<Result> gpu = runCuda(p, t, seq, true, &shared);
    const std::vector<Result> again = runCuda(p, t, seq, true, &shared2);
    const std::vector<Result> global = runCuda(p, t, seq, false, &sharedGlobal);
    EXPECT_TRUE(shared) << "the 64^2 x 16^2 slice fits into shared memory";
    EXPECT_FALSE(sharedGlobal);
    ASSERT_EQ(cpu.size(), 2u);
    ASSERT_EQ(gpu.size(), 2u);
    const char* phase[2] = {"Psi frozen, 4 advances", "+4 CFL filament steps"};
    for (int k = 0; k < 2; ++k) {
        SCOPED_TRACE(phase[k]);
        const Result &a = cpu[k], &b = gpu[k];
        const double dMb = relDiff(a.ms.mb, b.ms.mb);
        const double dCoarse = relDiff(a.ms.coarse, b.ms.coarse);
        // Mb,coarse and Mf relative to M (design 3.5: "<= 2e-6 M").
        double dCoarseM = 0, dFreeM = 0;
        for (std::size_t r = 0; r < a.ms.coarse.size(); ++r) {
            dCoarseM = std::max(dCoarseM, std::fabs(a.ms.coarse[r] - b.ms.coarse[r]) / p.mtot);
            dFreeM = std::max(dFreeM, std::fabs(a.ms.free[r] - b.ms.free[r]) / p.mtot);
        }
        const double dW = relDiff(a.w, b.w);
        const double fmax = std::max(maxAbs(a.fx), maxAbs(a.fy));
        double dF = 0;
        for (std::size_t g = 0; g < a.fx.size(); ++g)
            dF = std::max({dF, std::fabs(a.fx[g] - b.fx[g]), std::fabs(a.fy[g] - b.fy[g])});
        dF /= fmax;
        const double cons = freePlusBound(b.ms, p.mtot);
        std::printf(
            "[%s motors, %s] CPU vs CUDA: Mb %.3e (max Mb %.4e), coarse %.3e of max / %.3e of M, "
            "Mf %.3e of M, W %.3e, F2 %.3e (max|F2| %.4e); device |Mf + coarse - M|/M %.3e; "
            "substeps max %d/%d mean %.4f/%.4f, clamps %lld/%lld\n",
            precision, phase[k], dMb, maxAbs(a.ms.mb), dCoarse, dCoarseM, dFreeM, dW, dF, fmax,
            cons, a.ms.substepsMax, b.ms.substepsMax, a.ms.substepsMean, b.ms.substepsMean,
            static_cast<long long>(a.ms.clampCount), static_cast<long long>(b.ms.clampCount));
        EXPECT_GT(maxAbs(a.ms.mb), 0.0);  // the motors did bind: the comparison is not vacuous
        EXPECT_GT(fmax, 0.0);
        EXPECT_LE(dMb, tol.mb);
        EXPECT_LE(dCoarseM, tol.coarse);
        EXPECT_LE(dFreeM, tol.free);
        EXPECT_LE(dW, tol.w);
        EXPECT_LE(dF, tol.f2);
        EXPECT_LE(cons, tol.conservation);
        EXPECT_EQ(a.ms.substepsMax, b.ms.substepsMax);
        EXPECT_EQ(a.ms.substepsMean, b.ms.substepsMean);
        if (tol.sameClamps) {
            EXPECT_EQ(a.ms.clampCount, b.ms.clampCount);
        }
        const bool rerun = sameBits(gpu[k], again[k]), fallback = sameBits(gpu[k], global[k]);
        std::printf(
            "[%s motors, %s] two CUDA runs bitwise equal: %s; global-memory slice "
            "bitwise equal to shared: %s\n",
            precision, phase[k], rerun ? "yes" : "NO", fallback ? "yes" : "NO");
        EXPECT_TRUE(rerun);
        EXPECT_TRUE(fallback);
    }
}

TEST(GlidingMotorsCuda, DoubleMotorsMatchTheCpu) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    compareWithCpu("double", {1e-12, 1e-12, 1e-12, 1e-12, 1e-12, 0x1p-52, true});
}

TEST(GlidingMotorsCuda, FloatMotorsMatchTheCpuWithinDesignTolerances) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    compareWithCpu("float", {1e-5, 2e-6, 2e-6, 1e-5, 1e-5, 1e-6, false});
}

// motors.fast_math (the --use_fast_math build): fused multiply-adds round once where the
// default rounds twice, so each operation differs by at most the rounding of the default build.
// Float: the design bounds above hold (they are ~100 x float rounding). Double: 1e-12, the f64
// bound above (~1e3 x the round-off fed back over ~30 substeps). Clamp counts are not compared:
// a lane at zero can round to -0 one way and +tiny the other.
TEST(GlidingMotorsCuda, FastMathMotorsMatchTheCpuWithinTheSameBounds) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    compareWithCpu("float", {1e-5, 2e-6, 2e-6, 1e-5, 1e-5, 1e-6, false}, {"motors.fast_math=true"});
    compareWithCpu("double", {1e-12, 1e-12, 1e-12, 1e-12, 1e-12, 0x1p-52, false},
                   {"motors.fast_math=true"});
}

// The block size, the lane mapping, the launch bounds and the staged bound gather change how the
// work is spread or read, not what each lane computes or the order of any sum: every
// configuration gives the default's bits (W included). The
// global-memory slice path of the runs mapping (its midpoints stay in shared memory) too.
TEST(GlidingMotorsCuda, KernelSwitchesGiveTheDefaultBits) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::vector<std::vector<std::string>> switches = {
        {"motors.block_threads=64"},
        {"motors.block_threads=512"},
        {"motors.lane_mapping=segments"},
        {"motors.lane_mapping=segments", "motors.launch_bounds=true"},
        {"motors.lane_mapping=segments", "motors.block_threads=512"},
        {"motors.lane_mapping=strided"},
        {"motors.lane_mapping=strided", "motors.block_threads=128"},
        {"motors.launch_bounds=true"},
        {"motors.block_threads=1024"},
        {"motors.launch_bounds=true", "motors.block_threads=128"},
        {"motors.storage=lanes"},
        {"motors.storage=lanes", "motors.lane_mapping=segments"},
        {"motors.bound_gather=staged"},
        {"motors.bound_gather=staged", "motors.storage=lanes"},
    };
    for (const char* precision : {"float", "double"}) {
        const GlidingParams p0 = params(precision);
        const GlidingTables t = gliding::buildTables(p0);
        const std::vector<Advance> seq = psiSequence(p0, t);
        bool shared = false;
        const std::vector<Result> reference = runCuda(p0, t, seq, true, &shared);
        for (const std::vector<std::string>& s : switches) {
            std::string name;
            for (const std::string& e : s)
                name += (name.empty() ? "" : ", ") + e;
            const GlidingParams p = params(precision, s);
            std::vector<Result> run;
            gliding::cuda::MotorLaunch launch{};
            try {
                run = runCuda(p, t, seq, true, &shared, &launch);
            } catch (const ParameterError& e) {
                // Without launch bounds the kernel's registers may cap the block below 1024:
                // then the switch is refused by name, which is the behaviour to check.
                EXPECT_NE(std::string(e.what()).find("motors.block_threads"), std::string::npos);
                std::printf("[%s motors] %s refused: %s\n", precision, name.c_str(), e.what());
                continue;
            }
            // The switches reached the launch; the automatic block (occupancy calculator) is a
            // power of two from 64 covering at most the lanes a block keeps busy (192 stored
            // configurations or 32 chords x 8 lanes at 64^2 x 16^2: 256).
            if (p.motorBlockThreads > 0) {
                EXPECT_EQ(launch.threads, p.motorBlockThreads) << name;
            } else {
                EXPECT_TRUE(launch.threads >= 64 && launch.threads <= 256 &&
                            std::has_single_bit(static_cast<unsigned>(launch.threads)))
                    << name << ": " << launch.threads;
                std::printf("[%s motors] %s: automatic block of %d threads\n", precision,
                            name.c_str(), launch.threads);
            }
            EXPECT_EQ(launch.launchBounds, p.motorLaunchBounds) << name;
            EXPECT_EQ(launch.mapping, p.motorLaneMapping) << name;
            ASSERT_EQ(run.size(), reference.size());
            bool same = true;
            for (std::size_t k = 0; k < run.size(); ++k)
                same = same && sameBits(reference[k], run[k]);
            // The global-memory slice path (lanes storage has none: it needs shared memory).
            if (p.motorLaneMapping != 0 && p.motorStorage == 0) {
                const std::vector<Result> global = runCuda(p, t, seq, false, &shared);
                EXPECT_FALSE(shared);
                for (std::size_t k = 0; k < global.size(); ++k)
                    same = same && sameBits(reference[k], global[k]);
            }
            std::printf("[%s motors] %s: bitwise equal to the default: %s\n", precision,
                        name.c_str(), same ? "yes" : "NO");
            EXPECT_TRUE(same) << precision << ", " << name;
        }
    }
}

#else

TEST(GlidingMotorsCuda, DoubleMotorsMatchTheCpu) {
    GTEST_SKIP() << "built without CUDA";
}
TEST(GlidingMotorsCuda, FloatMotorsMatchTheCpuWithinDesignTolerances) {
    GTEST_SKIP() << "built without CUDA";
}
TEST(GlidingMotorsCuda, FastMathMotorsMatchTheCpuWithinTheSameBounds) {
    GTEST_SKIP() << "built without CUDA";
}
TEST(GlidingMotorsCuda, KernelSwitchesGiveTheDefaultBits) {
    GTEST_SKIP() << "built without CUDA";
}

#endif

}  // namespace
}  // namespace cf
