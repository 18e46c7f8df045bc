// SPDX-License-Identifier: GPL-3.0-or-later
// Lookup tables over the membrane potential (docs/design/cardiac.md section 3.5,
// lookup_tables.hpp): which variables become columns; the interpolation error against the
// analytic bound for f = exp(V/k); TP06 and Beeler-Reuter with and without tables; a
// parameter edit rebuilding the table; E161/E162; the CUDA source reading the table and
// compiling with NVRTC.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "sim/models/cardiac/lang/diagnostics.hpp"
#include "sim/models/cardiac/lang/lookup_tables.hpp"
#include "sim/models/cardiac/nvrtc/kernel_cache.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"
#include "tests/sim/models/cardiac_single_cell.hpp"

namespace cf::cardiac {
namespace {

// alpha, beta: potential-only with exp -> columns. inner: potential-only, read only by
// outer (a column) -> no column of its own. lin: no libm call. withc: reads the state c.
// withtime: reads time. pconst: parameters only. stim: the stimulus.
const char* kModel = R"(model lut_test
[cell]
param k = 8 range(1, 50)
param shift = 0 range(-20, 20)
param g = 0.5
state V = -80 bind potential
state c = 0.1
state m = 0.1
i_stim = 0 bind stimulus
alpha = exp((V - shift) / k)
beta = 0.2 / (1 + exp(-0.1 * (V + 40)))
inner = exp(V / 20)
outer = inner * 2 + 1
lin = V * g + 1
withc = exp(V / 10) * c
withtime = exp(V / 10 + time / 1000)
pconst = exp(g)
stim = sqrt(i_stim * i_stim + V * V)
dot(V) = -0.01 * (V + 80) + 1e-6 * (outer + lin + withc + withtime + pconst + stim + m) - i_stim
dot(c) = -0.1 * c
dot(m) = 1e-3 * (alpha * (1 - m) - beta * m)
)";

// kModel with `line` in its header (lookup lines go before the first section), as line 2.
std::string withHeaderLine(const std::string& line) {
    const std::string model = kModel;
    const std::size_t firstLine = model.find('\n') + 1;
    return model.substr(0, firstLine) + line + "\n" + model.substr(firstLine);
}

std::string readModel(const std::string& name) {
    return validation::readBundledModel(name);
}

std::set<std::string> columnNames(const CheckedModel& m) {
    std::set<std::string> names;
    for (int c : m.lookup->columns)
        names.insert(m.vars[static_cast<std::size_t>(c)].name);
    return names;
}

TEST(CardiacLookup, ChoosesPotentialOnlyVariablesWithALibmCall) {
    const CheckedModel m =
        compileModel(withHeaderLine("lookup cell.V (-100, 100, 0.01)"), "lut_test.cfm");
    ASSERT_TRUE(m.lookup.has_value());
    EXPECT_EQ(m.lookup->key, m.potential);
    EXPECT_EQ(lookupRows(*m.lookup), 20001u) << "(100 - -100)/0.01 + 1, the quotient's rounding";
    const std::set<std::string> cols = columnNames(m);
    std::string list;
    for (const std::string& n : cols)
        list += " " + n;
    std::printf("lut_test columns (%zu):%s\n", cols.size(), list.c_str());
    EXPECT_EQ(cols, (std::set<std::string>{"cell.alpha", "cell.beta", "cell.outer"}));
    // Without a lookup line there is no plan; applyLookup attaches the same one.
    CheckedModel plain = compileModel(kModel, "lut_test.cfm");
    EXPECT_FALSE(plain.lookup.has_value());
    applyLookup(plain, -100, 100, 0.01);
    ASSERT_TRUE(plain.lookup.has_value());
    EXPECT_EQ(plain.lookup->columns, m.lookup->columns);
}

TEST(CardiacLookup, TableRowsAreTheExpressionsAtTheGridPoints) {
    CheckedModel m = compileModel(kModel, "lut_test.cfm");
    applyLookup(m, -100, 100, 0.5);
    const std::vector<double> params = {8.0, 0.0, 0.5};
    const std::vector<double> t = buildTable(m, *m.lookup, params);
    const std::size_t rows = lookupRows(*m.lookup), cols = m.lookup->columns.size();
    ASSERT_EQ(rows, 401u);
    ASSERT_EQ(t.size(), rows * cols);
    const std::set<std::string> names = columnNames(m);
    for (std::size_t c = 0; c < cols; ++c) {
        const std::string& n = m.vars[static_cast<std::size_t>(m.lookup->columns[c])].name;
        for (std::size_t i : {std::size_t{0}, std::size_t{123}, rows - 1}) {
            const double v = -100 + 0.5 * static_cast<double>(i);
            const double exact = n == "cell.alpha"  ? std::exp(v / 8)
                                 : n == "cell.beta" ? 0.2 / (1 + std::exp(-0.1 * (v + 40)))
                                                    : std::exp(v / 20) * 2 + 1;
            EXPECT_DOUBLE_EQ(t[i * cols + c], exact) << n << " row " << i;
        }
    }
}

// For f = exp(V/k) linear interpolation on a grid of step h has the error
// (h^2/8) max|f''| <= (h^2/(8 k^2)) f(V_i) e^(h/k) within a cell, and f(V) >= f(V_i) there,
// so the relative error is below h^2/(8 k^2) * e^(h/k) (plus rounding, ~1e-15). The
// maximum over many random V must also come close to it (the midpoint attains
// h^2/(8 k^2) to first order), which a wrong interpolation (nearest row: h/(2k)) would not.
TEST(CardiacLookup, InterpolationErrorOfAnExponentialMeetsTheBound) {
    for (const double h : {0.01, 0.1}) {
        CheckedModel m = compileModel(kModel, "lut_test.cfm");
        applyLookup(m, -100, 100, h);
        CellProgram p(m);
        ASSERT_TRUE(p.tablesActive());
        const double k = 2.87;  // the steepest TP06 exponent (h gate beta)
        p.parameters()[0] = k;
        const int alpha = m.find("cell.alpha");
        const int iv = m.stateOf(m.potential);
        CellProgram::Workspace w;
        std::vector<double> y = p.initialStates();
        std::mt19937_64 rng(42);
        std::uniform_real_distribution<double> dist(-100, 100);
        double worst = 0;
        for (int n = 0; n < 200000; ++n) {
            y[static_cast<std::size_t>(iv)] = dist(rng);
            const double zero = 0;
            p.potentialRate(y.data(), 0.0, &zero, w);
            const double exact = std::exp(y[static_cast<std::size_t>(iv)] / k);
            worst = std::max(worst,
                             std::fabs(w.values[static_cast<std::size_t>(alpha)] - exact) / exact);
        }
        const double bound = h * h / (8 * k * k) * std::exp(h / k) + 1e-14;
        std::printf(
            "exp(V/%.2f), h = %.2f mV: max relative error %.4g, bound h^2/(8k^2)e^(h/k) "
            "%.4g (ratio %.3f); clamps %zu\n",
            k, h, worst, bound, worst / bound, w.lookupClamps);
        EXPECT_LE(worst, bound);
        EXPECT_GE(worst, 0.9 * h * h / (8 * k * k));
        EXPECT_EQ(w.lookupClamps, 0u);
        // Outside the table the edge row holds, and the clamp is counted.
        y[static_cast<std::size_t>(iv)] = 150;
        const double zero = 0;
        p.potentialRate(y.data(), 0.0, &zero, w);
        EXPECT_DOUBLE_EQ(w.values[static_cast<std::size_t>(alpha)],
                         std::exp((-100 + static_cast<double>(lookupRows(*m.lookup) - 1) * h) / k));
        EXPECT_EQ(w.lookupClamps, 1u);
    }
}

// A parameter that a column reads (the gate shift of alpha): changing it through
// parameters() rebuilds the table at the next evaluation.
TEST(CardiacLookup, AParameterChangeRebuildsTheTable) {
    CheckedModel m = compileModel(kModel, "lut_test.cfm");
    applyLookup(m, -100, 100, 0.01);
    CellProgram p(m);
    const int alpha = m.find("cell.alpha");
    const int iv = m.stateOf(m.potential);
    CellProgram::Workspace w;
    std::vector<double> y = p.initialStates();
    y[static_cast<std::size_t>(iv)] = -37.123;
    const double zero = 0;
    const double rel = 0.01 * 0.01 / (8 * 8.0 * 8.0) * 1.01;  // the bound above, k = 8
    for (const double shift : {0.0, 10.0, -15.5}) {
        p.parameters()[1] = shift;
        std::vector<double> y1 = y;
        p.step(y1.data(), 0.0, 0.01, &zero, w);  // w.values: the values at the step's start
        const double exact = std::exp((-37.123 - shift) / 8);
        const double got = w.values[static_cast<std::size_t>(alpha)];
        std::printf("shift %.1f: alpha tabulated %.12g exact %.12g (relative %.2g)\n", shift, got,
                    exact, std::fabs(got - exact) / exact);
        EXPECT_NEAR(got, exact, rel * exact);
        EXPECT_EQ(p.table()->params[1], shift);
    }
    // Without tables the same program evaluates the expression exactly.
    CellProgram exactProgram(m, false);
    EXPECT_FALSE(exactProgram.tablesActive());
    exactProgram.potentialRate(y.data(), 0.0, &zero, w);
    EXPECT_EQ(w.values[static_cast<std::size_t>(alpha)], std::exp(-37.123 / 8));
}

TEST(CardiacLookup, OnlyThePotentialCanKeyATable) {
    auto diagnose = [](const std::string& line) -> Diagnostic {
        try {
            compileModel(withHeaderLine(line), "lut_test.cfm");
        } catch (const ModelError& e) {
            for (const Diagnostic& d : e.diagnostics())
                if (d.severity == Severity::Error) {
                    std::printf("%s\n", d.format().c_str());
                    return d;
                }
        }
        ADD_FAILURE() << "no error for " << line;
        return {};
    };
    const Diagnostic other = diagnose("lookup cell.c (-100, 100, 0.01)");
    EXPECT_EQ(other.code, "E161");
    EXPECT_EQ(other.message, "lookup over 'cell.c': only the potential state can key a table");
    EXPECT_EQ(other.pos.line, 2);
    EXPECT_EQ(diagnose("lookup cell.alpha (-100, 100, 0.01)").code, "E161");
    EXPECT_EQ(diagnose("lookup cell.nothing (-100, 100, 0.01)").code, "E110");
    EXPECT_EQ(diagnose("lookup cell.V (100, -100, 0.01)").code, "E162");
    EXPECT_EQ(diagnose("lookup cell.V (-100, 100, 0)").code, "E162");
    CheckedModel m = compileModel(kModel, "lut_test.cfm");
    EXPECT_THROW(applyLookup(m, -100, 100, 1e-9), ModelError) << "2e11 rows";
    // A short name works as well as the qualified one.
    EXPECT_TRUE(
        compileModel(withHeaderLine("lookup V (-90, 60, 0.1)"), "x.cfm").lookup.has_value());
}

struct BeatRun {
    std::vector<double> v;
    double apd90 = NAN, peak = NAN, rest = NAN;
    std::size_t clamps = 0;
};

// One beat as in test_cardiac_models.cpp: stimulus at t = 10 ms, APD90 from the maximal
// upstroke velocity to the crossing of V_rest + 0.1 (V_peak - V_rest).
BeatRun beat(const CheckedModel& m, bool tables, double dt, double amplitude, double duration) {
    CellProgram p(m, tables);
    CellProgram::Workspace w;
    std::vector<double> y = p.initialStates();
    const std::size_t iv = static_cast<std::size_t>(m.stateOf(m.potential));
    const long steps = std::lround(500.0 / dt), on = std::lround(10.0 / dt),
               off = std::lround((10.0 + duration) / dt);
    BeatRun r;
    double dvdtMax = -INFINITY, tUp = NAN;
    for (long n = 0; n <= steps; ++n) {
        const double t = static_cast<double>(n) * dt;
        const double stim = n >= on && n < off ? amplitude : 0.0;
        r.v.push_back(y[iv]);
        if (n < on) r.rest = y[iv];
        if (n >= on) {
            const double d = p.potentialRate(y.data(), t, &stim, w);
            if (d > dvdtMax) {
                dvdtMax = d;
                tUp = t;
            }
        }
        if (n < steps) p.step(y.data(), t, dt, &stim, w);
    }
    std::size_t iPeak = static_cast<std::size_t>(on);
    for (std::size_t i = iPeak; i < r.v.size(); ++i)
        if (r.v[i] > r.v[iPeak]) iPeak = i;
    r.peak = r.v[iPeak];
    const double v90 = r.rest + 0.1 * (r.peak - r.rest);
    for (std::size_t i = iPeak + 1; i < r.v.size(); ++i)
        if (r.v[i] < v90) {
            const double a = (r.v[i - 1] - v90) / (r.v[i - 1] - r.v[i]);
            r.apd90 = (static_cast<double>(i - 1) + a) * dt - tUp;
            break;
        }
    r.clamps = w.lookupClamps;
    return r;
}

struct BeatCase {
    const char* file;
    double dt, amplitude, duration;
    double maxDv;  // mV, the bound on max |V_tables - V_exact| (see the test's comment)
};

// Tables (h = 0.01 mV) against exact evaluation over one 500 ms beat. Each column is within
// h^2/(8 k^2) = 1.5e-6 (relative) of its expression for the steepest exponent (k = 2.87 mV,
// TP06 h gate), and smoother columns far closer, so the rates differ by ~1e-6 relative; over
// one beat that moves the potential by O(1e-6) mV (measured: 1.5e-6 mV TP06, 1.2e-6 mV BR77).
// Bounds, from the design note's table (docs/design/cardiac.md section 5, "tables on vs off
// (h = 0.01 mV)"): max |dV| below 1e-3 mV, APD90 within 0.05 ms (tighter than the 0.5 ms asked
// for; a wrong column or row would show as millivolts).
class LookupBeat : public ::testing::TestWithParam<BeatCase> {};

TEST_P(LookupBeat, MatchesExactEvaluation) {
    const BeatCase& c = GetParam();
    CheckedModel m = compileModel(readModel(c.file), std::string(c.file) + ".cfm");
    applyLookup(m, -100, 100, 0.01);
    std::string list;
    for (int col : m.lookup->columns)
        list += " " + m.vars[static_cast<std::size_t>(col)].name;
    std::printf("%s: %zu columns:%s\n", c.file, m.lookup->columns.size(), list.c_str());
    ASSERT_FALSE(m.lookup->columns.empty());
    const BeatRun exact = beat(m, false, c.dt, c.amplitude, c.duration);
    const BeatRun table = beat(m, true, c.dt, c.amplitude, c.duration);
    ASSERT_EQ(exact.v.size(), table.v.size());
    double maxDv = 0, tMax = 0;
    for (std::size_t i = 0; i < exact.v.size(); ++i)
        if (std::fabs(exact.v[i] - table.v[i]) > maxDv) {
            maxDv = std::fabs(exact.v[i] - table.v[i]);
            tMax = static_cast<double>(i) * c.dt;
        }
    std::printf(
        "%s: APD90 exact %.4f ms, tables %.4f ms (diff %.3g ms); peak %.4f / %.4f mV; "
        "rest %.6f / %.6f mV; max |dV| %.3g mV at t = %.2f ms; clamps %zu\n",
        c.file, exact.apd90, table.apd90, table.apd90 - exact.apd90, exact.peak, table.peak,
        exact.rest, table.rest, maxDv, tMax, table.clamps);
    ASSERT_TRUE(std::isfinite(exact.apd90));
    EXPECT_NEAR(table.apd90, exact.apd90, 0.05);
    EXPECT_LT(maxDv, c.maxDv);
    EXPECT_EQ(table.clamps, 0u) << "the potential stays within [-100, 100] mV";
}

INSTANTIATE_TEST_SUITE_P(Cardiac, LookupBeat,
                         ::testing::Values(BeatCase{"tentusscher_2006", 0.01, -52.0, 1.0, 1e-3},
                                           BeatCase{"beeler_reuter_1977", 0.005, -50.0, 1.0, 0.1}),
                         [](const ::testing::TestParamInfo<BeatCase>& param) {
                             return std::string(param.param.file);
                         });

// These tests are about NVRTC compiling: no disk cache (as test_cardiac_codegen).
const bool kDiskCacheOff = [] { return setenv("CELLFORGE_KERNEL_CACHE", "off", 1) == 0; }();

TEST(CardiacLookup, CudaReadsTheTableAndCompiles) {
    CheckedModel m = compileModel(readModel("tentusscher_2006"), "tentusscher_2006.cfm");
    const GeneratedSource plain = emitCuda(m, Precision::Double);
    EXPECT_EQ(plain.code.find("cf_interp"), std::string::npos);
    EXPECT_FALSE(plain.lookup.has_value());
    EXPECT_NE(plain.code.find("    const real* lut;\n};"), std::string::npos)
        << "lut is CfArgs' last member, also without a plan";
    applyLookup(m, -100, 100, 0.01);
    const std::size_t cols = m.lookup->columns.size();
    for (Precision prec : {Precision::Float, Precision::Double}) {
        const GeneratedSource g = emitCuda(m, prec);
        ASSERT_TRUE(g.lookup.has_value());
        EXPECT_EQ(g.lookupRows, 20001u);
        EXPECT_EQ(g.lookup->columns, m.lookup->columns);
        EXPECT_NE(g.code.find("a.lut + "), std::string::npos);
        EXPECT_NE(g.code.find("__ldg(row + c)"), std::string::npos);
        std::size_t reads = 0;
        for (std::size_t at = g.code.find("= cf_interp(cf_row, "); at != std::string::npos;
             at = g.code.find("= cf_interp(cf_row, ", at + 1))
            ++reads;
        EXPECT_EQ(reads, cols);
        // Each column's own expression is gone from the kernel.
        const std::string first =
            m.vars[static_cast<std::size_t>(m.lookup->columns[0])].name;  // e.g. ina.m_inf
        std::string local = "v_" + first;
        std::replace(local.begin(), local.end(), '.', '_');
        EXPECT_NE(g.code.find("const real " + local + " = cf_interp(cf_row, 0u, "),
                  std::string::npos)
            << g.code;
        if (prec == Precision::Double) {
            const std::size_t at = g.code.find("const real cf_x");
            std::printf(
                "TP06 CUDA with tables (%zu columns):\n%s\n", cols,
                g.code.substr(at, g.code.find('\n', g.code.find("cf_row =", at)) - at).c_str());
        }
    }
    if (!nvrtcAvailable()) {
        std::printf("NVRTC unavailable: %s\n", nvrtcStatus().c_str());
        GTEST_SKIP() << "NVRTC unavailable: " << nvrtcStatus();
    }
    ASSERT_TRUE(kDiskCacheOff);
    clearKernelMemoryCache();
    for (Precision prec : {Precision::Float, Precision::Double}) {
        const CompiledKernel k = compileKernel(emitCuda(m, prec), "tp06_lut.cu", "sm_90");
        ASSERT_GT(k.image.size(), 4u);
        EXPECT_EQ(std::string(k.image.data(), 4),
                  "\x7f"
                  "ELF");
        std::printf("NVRTC %s: TP06 with tables, %s, %zu-byte sm_90 binary\n",
                    nvrtcVersion().c_str(), prec == Precision::Float ? "float" : "double",
                    k.image.size());
    }
    const CompiledKernel noPlan = compileKernel(
        emitCuda(compileModel(kModel, "lut_test.cfm"), Precision::Float), "lut_test.cu", "sm_90");
    EXPECT_GT(noPlan.image.size(), 4u);
}

}  // namespace
}  // namespace cf::cardiac
