// SPDX-License-Identifier: GPL-3.0-or-later
// The generator's arithmetic rewrites (cuda_emitter.hpp EmitOptions: hoistInvariants,
// approximateDivision, polynomialPhi1; model.arithmetic): what the source holds and the hoisted
// values the host computes; then every generator option's kernel (the rewrites, kernel
// splitting, launch bounds) against the CPU reference, through a live parameter edit that
// changes the hoisted values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "sim/models/cardiac/lang/invariants.hpp"
#include "tests/support/backends.hpp"

namespace cf::cardiac {
namespace {

std::vector<double> defaults(const CheckedModel& m) {
    std::vector<double> out;
    for (int p : m.params)
        out.push_back(m.vars[static_cast<std::size_t>(p)].initial);
    return out;
}

// TP06's phys.RTF = R T / F reads parameters alone: hoisted, its value computed by the host
// in double exactly as the interpreter computes it, and again after T changes. Every hoisted
// term reads no state; divisions by constants became products with the reciprocal; the
// parameter block holds the hoisted values after the parameters.
TEST(CardiacArithmetic, HoistedTermsAreThoseOfParametersAlone) {
    const CheckedModel m = compileModel(bundledModelSource("tentusscher_2006"), "tp06.cfm");
    EmitOptions hoist;
    hoist.hoistInvariants = true;
    const GeneratedSource plain = emitCuda(m, Precision::Float);
    const GeneratedSource g = emitCuda(m, Precision::Float, hoist);
    EXPECT_TRUE(plain.invariants.empty());
    ASSERT_FALSE(g.invariants.empty());
    EXPECT_EQ(g.parameterBlockReals, 2 + m.params.size() + g.invariants.size());
    EXPECT_NE(g.code.find("    real k[" + std::to_string(g.invariants.size()) + "];"),
              std::string::npos);
    EXPECT_NE(g.code.find("const real v_phys_RTF = cf_params.k[0];  // phys.RTF"),
              std::string::npos)
        << g.code;
    EXPECT_NE(plain.code.find("/ (real)9.0299999999999994"), std::string::npos);
    EXPECT_EQ(g.code.find("/ (real)9.0299999999999994"), std::string::npos)
        << "a division by a constant is a product with its reciprocal";
    const InvariantTerms analysis(m);
    for (const TermPtr& t : g.invariants) {
        EXPECT_TRUE(analysis.invariant(*t));
        for (const StateInfo& s : m.states)
            EXPECT_FALSE(mentions(*t, s.var));
    }
    std::vector<double> params = defaults(m);
    const auto param = [&](const char* name) {
        for (std::size_t k = 0; k < m.params.size(); ++k)
            if (m.vars[static_cast<std::size_t>(m.params[k])].name == name) return k;
        ADD_FAILURE() << "no parameter " << name;
        return std::size_t{0};
    };
    const double r = params[param("phys.R")], f = params[param("phys.F")];
    EXPECT_EQ(invariantValues(m, g.invariants, params)[0], r * params[param("phys.T")] / f);
    params[param("phys.T")] = 300.0;
    EXPECT_EQ(invariantValues(m, g.invariants, params)[0], r * 300.0 / f);
    const std::vector<float> block =
        parameterBlock<float>(0.01, -52.0, params, invariantValues(m, g.invariants, params));
    ASSERT_EQ(block.size(), g.parameterBlockReals);
    EXPECT_EQ(block[2 + m.params.size()], static_cast<float>(r * 300.0 / f));
}

// approximateDivision is a float rewrite (cf_div, PTX div.full.f32); a double kernel keeps
// IEEE division. polynomialPhi1 replaces expm1 in cf_phi1. model.arithmetic = auto is every
// rewrite in float and none in double.
TEST(CardiacArithmetic, RewritesAreOptionsAndAutoFollowsThePrecision) {
    const CheckedModel m = compileModel(bundledModelSource("tentusscher_2006"), "tp06.cfm");
    EmitOptions division, phi1;
    division.approximateDivision = true;
    phi1.polynomialPhi1 = true;
    EXPECT_NE(emitCuda(m, Precision::Float, division).code.find("div.full.f32"), std::string::npos);
    EXPECT_EQ(emitCuda(m, Precision::Double, division).code.find("cf_div"), std::string::npos);
    EXPECT_NE(emitCuda(m, Precision::Float).code.find("expm1f(z)"), std::string::npos);
    EXPECT_EQ(emitCuda(m, Precision::Float, phi1).code.find("expm1f(z)"), std::string::npos);
    CardiacParams p{};
    p.arithmetic = static_cast<std::int32_t>(Arithmetic::Auto);
    p.precision = 1;
    EmitOptions o = cudaEmitOptions(p, m);
    EXPECT_TRUE(o.hoistInvariants && o.approximateDivision && o.polynomialPhi1);
    p.precision = 0;
    o = cudaEmitOptions(p, m);
    EXPECT_FALSE(o.hoistInvariants || o.approximateDivision || o.polynomialPhi1);
    p.arithmetic = static_cast<std::int32_t>(Arithmetic::Phi1);
    o = cudaEmitOptions(p, m);
    EXPECT_TRUE(o.polynomialPhi1 && !o.hoistInvariants && !o.approximateDivision);
}

// 64 uncoupled TP06 cells, all paced, 20 ms (2000 steps of 0.01 ms, through the upstroke and
// the plateau), with extra.Ko edited live from 5.4 to 8 mM at 10 ms (it feeds hoisted terms:
// gK1 and gKr scale with sqrt(Ko / 5.4)); CUDA against the CPU interpreter for each arithmetic
// rewrite, the step split into 3 and into 19 kernels (Opt3), and launch bounds of 6 blocks per
// SM. Tolerances: double 1e-6 mV (the rewrites change the last bits: reciprocal products, the
// host's double values, the polynomial; amplified in the upstroke); float 0.5 mV, as the
// kernel as written (float rounding dominates). Splitting and launch bounds change no
// arithmetic: in double the split kernels give the monolithic kernel's V to the last bit. The
// edit itself moves V by 0.39 mV at 20 ms (asserted above 0.1 mV), far past the double
// tolerance, so a double kernel that kept the old hoisted values fails.
TEST(CardiacCuda, GeneratorOptionsFollowTheCpuThroughALiveEdit) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    auto run = [](Backend backend, const std::string& precision,
                  const std::vector<std::string>& options, bool edit) {
        ParamSet ps{descriptor().parameters()};
        for (const char* a : {"model.bundled=tentusscher_2006", "tissue.nx=8", "tissue.ny=8",
                              "tissue.diffusion_long=0", "tissue.diffusion_trans=0", "time.dt=0.01",
                              "protocol.region=all", "protocol.amplitude=-52"})
            ps.setFromAssignment(a);
        ps.setFromAssignment("model.precision=" + precision);
        for (const std::string& o : options)
            ps.setFromAssignment(o);
        auto m = descriptor().create(backend);
        m->reset(ps, 1);
        m->advance(1000);
        if (edit) {
            ps.setFromAssignment("model.parameters=extra.Ko = 8");
            m->setLiveParameters(ps);
        }
        m->advance(1000);
        return m->snapshot().at("membrane.V").as<double>();
    };
    const std::vector<double> cpu = run(Backend::Cpu, "double", {}, true);
    const std::vector<double> unedited = run(Backend::Cpu, "double", {}, false);
    double moved = 0;
    for (std::size_t k = 0; k < cpu.size(); ++k)
        moved = std::max(moved, std::fabs(cpu[k] - unedited[k]));
    EXPECT_GT(moved, 0.1) << "the edit must change V for the test to see stale values";
    const std::vector<std::vector<std::string>> configurations = {
        {"model.arithmetic=as_written"},
        {"model.arithmetic=hoist"},
        {"model.arithmetic=division"},
        {"model.arithmetic=phi1"},
        {"model.arithmetic=rewritten"},
        {"model.arithmetic=as_written", "model.kernel_parts=3"},
        {"model.arithmetic=rewritten", "model.kernel_parts=19"},
        {"model.arithmetic=rewritten", "model.kernel_parts=3", "model.state_storage=shared"},
        {"model.arithmetic=rewritten", "model.min_blocks_per_sm=6"},
    };
    for (const char* precision : {"double", "float"}) {
        const bool dbl = std::string(precision) == "double";
        const std::vector<double> monolithic =
            run(Backend::Cuda, precision, {"model.arithmetic=as_written"}, true);
        for (const std::vector<std::string>& options : configurations) {
            const std::vector<double> gpu = run(Backend::Cuda, precision, options, true);
            double worst = 0, fromMonolithic = 0;
            for (std::size_t k = 0; k < cpu.size(); ++k) {
                worst = std::max(worst, std::fabs(gpu[k] - cpu[k]));
                fromMonolithic = std::max(fromMonolithic, std::fabs(gpu[k] - monolithic[k]));
            }
            std::string name;
            for (const std::string& o : options)
                name += (name.empty() ? "" : ", ") + o;
            std::printf("TP06 %s, %s: V %.3f mV at 20 ms, max |V_cuda - V_cpu| %.3g mV\n",
                        precision, name.c_str(), cpu[0], worst);
            EXPECT_LE(worst, dbl ? 1e-6 : 0.5) << precision << ", " << name;
            if (dbl && options[0] == "model.arithmetic=as_written") {
                EXPECT_EQ(fromMonolithic, 0.0) << name;
            }
        }
    }
}

}  // namespace
}  // namespace cf::cardiac
