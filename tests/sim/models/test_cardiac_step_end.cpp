// SPDX-License-Identifier: GPL-3.0-or-later
// Without diffusion the CUDA cell kernel can end each step itself (CfStepEnd in
// lang/cuda_emitter.hpp: the activation map, the probe's trace, the step of the first failure)
// instead of a second kernel: the default since it ran and was measured on the H200
// (CELLFORGE_CARDIAC_STEP_END=separate keeps the second kernel). These cases run tissue without
// diffusion on both backends, the CUDA one in each way, and hold the CUDA results to the CPU
// reference's:
// - activation times and potentials under three pacing protocols, in double (1e-9: the CUDA
//   arithmetic is the CPU's up to fused multiply-adds, ~1e-13 after 4000 steps) and float
//   (0.5 mV and 0.05 ms: float rounding of an upstroke of ~100 mV/ms, as
//   test_cardiac.cpp's TissueMatchesTheCpuReference);
// - the beat meter, which reads the probe's trace (the centre node): the same beats, and
//   v_peak and v_rest within the same bounds, or NaN in both where the beat did not respond;
// - a state that blows up: the same cell and the same step named by both backends;
// - a float kernel that fails on a cancellation says that it computes in float (the same
//   model runs in double).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/env_guard.hpp"
#include "tests/support/model_fixture.hpp"

namespace cf {
namespace {

using test::metric;

// Two readings of a meter agree: both NaN (no beat that responded), or within 1e-9 in double
// and 0.5 mV in float (the bounds of the header).
bool agrees(double cpu, double gpu, bool dbl) {
    if (std::isnan(cpu) || std::isnan(gpu)) return std::isnan(cpu) && std::isnan(gpu);
    return std::fabs(cpu - gpu) <= (dbl ? 1e-9 : 0.5);
}

ParamSet uncoupled(const std::vector<std::string>& extra) {
    ParamSet ps{cardiac::descriptor().parameters()};
    for (const char* a :
         {"tissue.nx=48", "tissue.ny=32", "tissue.diffusion_long=0", "tissue.diffusion_trans=0"})
        ps.setFromAssignment(a);
    for (const std::string& a : extra)
        ps.setFromAssignment(a);
    return ps;
}

TEST(CardiacCudaStepEnd, UncoupledTissueMatchesTheCpuReference) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::vector<std::vector<std::string>> protocols = {
        {"protocol.region=all", "protocol.cycle_length=300", "protocol.beats=2"},
        {"protocol.region=corner", "protocol.region_size=3", "protocol.start=0.5"},
        {"protocol.region=centre", "protocol.region_size=2", "protocol.start=1",
         "protocol.cycle_length=25", "protocol.duration=2", "protocol.beats=2"},
    };
    test::EnvGuard guard("CELLFORGE_CARDIAC_STEP_END");
    for (const char* end : {"kernel", "separate"}) {
        for (const char* precision : {"double", "float"}) {
            setenv("CELLFORGE_CARDIAC_STEP_END", end, 1);
            const bool dbl = std::string(precision) == "double";
            for (std::size_t k = 0; k < protocols.size(); ++k) {
                std::vector<std::string> extra = protocols[k];
                extra.push_back(std::string("model.precision=") + precision);
                const ParamSet ps = uncoupled(extra);
                auto cpu = cardiac::descriptor().create(Backend::Cpu);
                auto gpu = cardiac::descriptor().create(Backend::Cuda);
                cpu->reset(ps, 1);
                gpu->reset(ps, 1);
                // In batches of uneven length: each batch has its own trace.
                for (const std::uint64_t batch : {1u, 999u, 3000u, 2000u}) {
                    cpu->advance(batch);
                    gpu->advance(batch);
                }
                const auto vc = cpu->snapshot().at("cell.V").as<double>();
                const auto vg = gpu->snapshot().at("cell.V").as<double>();
                const auto ac = cpu->snapshot().at("activation_time").as<double>();
                const auto ag = gpu->snapshot().at("activation_time").as<double>();
                double dv = 0, da = 0;
                std::size_t activated = 0, disagree = 0;
                for (std::size_t n = 0; n < vc.size(); ++n) {
                    dv = std::max(dv, std::fabs(vc[n] - vg[n]));
                    if ((ac[n] >= 0) != (ag[n] >= 0)) ++disagree;
                    if (ac[n] >= 0 && ag[n] >= 0) {
                        ++activated;
                        da = std::max(da, std::fabs(ac[n] - ag[n]));
                    }
                }
                const double beatsC = metric(*cpu, "beats"), beatsG = metric(*gpu, "beats");
                const double peak = std::fabs(metric(*cpu, "v_peak") - metric(*gpu, "v_peak"));
                const double rest = std::fabs(metric(*cpu, "v_rest") - metric(*gpu, "v_rest"));
                std::printf(
                    "step end in %s, %s, protocol %zu: %zu nodes activated, max |dV| %.3g mV, max "
                    "|dt_act| %.3g ms, "
                    "beats %g / %g, |d v_peak| %.3g, |d v_rest| %.3g mV\n",
                    end, precision, k, activated, dv, da, beatsC, beatsG, peak, rest);
                EXPECT_GT(activated, 0u) << precision << ", protocol " << k;
                EXPECT_EQ(disagree, 0u) << precision << ", protocol " << k;
                EXPECT_LE(dv, dbl ? 1e-9 : 0.5) << precision << ", protocol " << k;
                EXPECT_LE(da, dbl ? 1e-9 : 0.05) << precision << ", protocol " << k;
                EXPECT_EQ(beatsC, beatsG) << precision << ", protocol " << k;
                // A beat at a probe the stimulus misses (protocol 1's corner) does not respond,
                // so its metrics are NaN (beat_meter.hpp): both meters must say so.
                EXPECT_TRUE(agrees(metric(*cpu, "v_peak"), metric(*gpu, "v_peak"), dbl))
                    << precision << ", protocol " << k;
                EXPECT_TRUE(agrees(metric(*cpu, "v_rest"), metric(*gpu, "v_rest"), dbl))
                    << precision << ", protocol " << k;
            }
        }
    }
}

// V' = V^2 from V = 1 reaches infinity near t = 1 in every cell at once: the failure is the
// lowest cell (the kernel's atomicMin) at the first step with a state that is not finite,
// which the kernel itself now records. Both backends name the same cell and the same step.
TEST(CardiacCudaStepEnd, BlowUpNamesTheSameCellAndStepAsTheCpu) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::string path = testing::TempDir() + "blowup_" + std::to_string(::getpid()) + ".cfm";
    std::ofstream(path) << "model blowup\n[c]\nstate V = 1 bind potential\ndot(V) = V * V\n";
    const auto failure = [&](Backend b) -> std::string {
        ParamSet ps = uncoupled({"model.file=" + path, "time.dt=0.05", "model.precision=double"});
        ps.setFromAssignment("tissue.nx=3");
        ps.setFromAssignment("tissue.ny=2");
        auto m = cardiac::descriptor().create(b);
        m->reset(ps, 1);
        try {
            for (int batch = 0; batch < 100; ++batch)
                m->advance(7);
        } catch (const SimulationError& e) {
            return e.what();
        }
        return "(no error)";
    };
    test::EnvGuard guard("CELLFORGE_CARDIAC_STEP_END");
    setenv("CELLFORGE_CARDIAC_STEP_END", "kernel", 1);
    const std::string cpu = failure(Backend::Cpu), gpu = failure(Backend::Cuda);
    std::printf("CPU:  %s\nCUDA: %s\n", cpu.c_str(), gpu.c_str());
    const auto where = [](const std::string& what) {
        const std::size_t cell = what.find("of cell "), step = what.find(" at step ");
        if (cell == std::string::npos || step == std::string::npos) return std::string("?");
        return what.substr(cell, what.find(' ', cell + 8) - cell) + " / " +
               what.substr(step, what.find(' ', step + 9) - step);
    };
    EXPECT_NE(where(cpu), "?") << cpu;
    EXPECT_EQ(where(cpu), where(gpu));
    std::remove(path.c_str());
}

// A float kernel that fails says that it computes in float (docs/CARDIAC.md, "Float and
// cancellation"): y = 1 - 1 / (1 + e) with e = exp(-70 / 3) = 7.3e-11 at V = -87.5 is 0 in
// float (e is below half an ulp of 1), so dot(V) = y / y - 1 is 0/0 at the first step; in
// double y is 7.3e-11 and dot(V) is 0, so the same model runs.
TEST(CardiacCudaStepEnd, FloatCancellationFailureNamesTheFloatKernel) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::string path =
        testing::TempDir() + "cancellation_" + std::to_string(::getpid()) + ".cfm";
    std::ofstream(path) << "model cancellation\n[c]\nstate V = -87.5 bind potential\n"
                           "x = 1 / (1 + exp((V + 17.5) / 3))\ny = 1 - x\ndot(V) = y / y - 1\n";
    const auto run = [&](const char* precision) -> std::string {
        auto m = cardiac::descriptor().create(Backend::Cuda);
        m->reset(uncoupled({"model.file=" + path, std::string("model.precision=") + precision}), 1);
        try {
            m->advance(10);
        } catch (const SimulationError& e) {
            return e.what();
        }
        return "(no error)";
    };
    const std::string single = run("float"), twice = run("double");
    std::printf("float:  %s\ndouble: %s\n", single.c_str(), twice.c_str());
    EXPECT_NE(single.find("state 'c.V' of cell 0"), std::string::npos) << single;
    EXPECT_NE(single.find("at step 1 "), std::string::npos) << single;
    EXPECT_NE(single.find("the kernel computes in float (model.precision = float)"),
              std::string::npos)
        << single;
    EXPECT_EQ(twice, "(no error)");
    std::remove(path.c_str());
}

}  // namespace
}  // namespace cf
