// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled ionic models (assets/models/*.cfm, docs/design/cardiac.md section 7): each
// compiles without errors, has the published number of states, with the expected states found
// as gates (Rush-Larsen) and the rest integrated by forward Euler; one cell run for 500 ms on
// the CPU reference interpreter rests at the published initial potential, fires one action
// potential after a stimulus at t = 10 ms and repolarises. The printed peak, maximal upstroke
// velocity and APD90 are context, not oracles (CVODE references come later); only loose bounds
// are asserted.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/diagnostics.hpp"
#include "tests/sim/models/cardiac_single_cell.hpp"

namespace cf::cardiac {
namespace {

std::string readModel(const std::string& name) {
    return validation::readBundledModel(name);
}

struct ModelCase {
    const char* file;
    std::size_t states;
    std::set<std::string> gates;  // qualified names of the states integrated by Rush-Larsen
    double dt;                    // ms
    double stimAmplitude;         // in the unit of the model's stimulus variable
    double stimDuration;          // ms
    double vInitial;              // mV, the published initial (resting) potential
};

// Published context (not asserted tightly), and what this test prints (CPU interpreter,
// Rush-Larsen gates, forward Euler otherwise; dV/dt max is the model's own rate, stimulus
// included, so it peaks within the pulse for BR77 and TP06):
// - Beeler-Reuter 1977: APD90 about 250-300 ms. Prints rest -84.62 mV, peak +32.4 mV,
//   dV/dt max 200 mV/ms, APD90 285.9 ms (dt 0.005 ms).
// - Luo-Rudy 1991: APD90 about 350 ms. Prints rest -83.88 mV, peak +47.4 mV, dV/dt max
//   414 mV/ms, APD90 329.7 ms (dt 0.005 ms).
// - ten Tusscher-Panfilov 2006 epi: APD90 about 300 ms at 1 Hz (steady state). Prints rest
//   -85.25 mV, peak +38.4 mV, dV/dt max 371 mV/ms, APD90 291.4 ms (dt 0.01 ms, first beat
//   from the published initial state).
const std::vector<ModelCase>& cases() {
    static const std::vector<ModelCase> all = {
        {"beeler_reuter_1977",
         8,
         {"ina.m", "ina.h", "ina.j", "isi.d", "isi.f", "ix1.x1"},
         0.005,
         -50.0,  // uA/cm^2: the CellML protocol's 0.5 uA/mm^2 for 1 ms
         1.0,
         -84.624},
        {"luo_rudy_1991",
         8,
         {"ina.m", "ina.h", "ina.j", "isi.d", "isi.f", "ik.X"},
         0.005,
         -25.5,  // uA/cm^2 for 2 ms: the CellML protocol
         2.0,
         -83.853},
        {"tentusscher_2006",
         19,
         {"ina.m", "ina.h", "ina.j", "ikr.xr1", "ikr.xr2", "iks.xs", "ito.r", "ito.s", "ical.d",
          "ical.f", "ical.f2", "ical.fCaSS", "jrel.R_prime"},
         0.01,
         -52.0,  // A/F for 1 ms: the CellML and .mmt protocol
         1.0,
         -85.23},
    };
    return all;
}

class BundledModel : public ::testing::TestWithParam<ModelCase> {};

TEST_P(BundledModel, CompilesAndFiresOneActionPotential) {
    const ModelCase& c = GetParam();
    const std::string file = std::string(c.file) + ".cfm";
    CheckedModel model;
    try {
        model = compileModel(readModel(c.file), file);
    } catch (const ModelError& e) {
        FAIL() << e.what();
    }
    for (const Diagnostic& w : model.warnings)
        std::printf("  %s\n", w.format().c_str());

    ASSERT_EQ(model.states.size(), c.states);
    std::set<std::string> gates;
    std::string gateList, otherList;
    for (const StateInfo& s : model.states) {
        const std::string& name = model.vars[static_cast<std::size_t>(s.var)].name;
        if (s.gate) gates.insert(name);
        (s.gate ? gateList : otherList) += " " + name;
        EXPECT_EQ(s.method, s.gate ? Method::RushLarsen : Method::ForwardEuler) << name;
    }
    std::printf("%s: gates (Rush-Larsen):%s\n%s: other states (forward Euler):%s\n", c.file,
                gateList.c_str(), c.file, otherList.c_str());
    EXPECT_EQ(gates, c.gates);

    CellProgram p(model);
    CellProgram::Workspace w;
    std::vector<double> y = p.initialStates();
    const int iv = model.stateOf(model.potential);
    ASSERT_GE(iv, 0);
    const double tStim = 10.0, tEnd = 500.0;
    const long steps = std::lround(tEnd / c.dt);
    const long stimOn = std::lround(tStim / c.dt);
    const long stimOff = std::lround((tStim + c.stimDuration) / c.dt);

    std::vector<double> ts, vs;
    ts.reserve(static_cast<std::size_t>(steps) + 1);
    vs.reserve(static_cast<std::size_t>(steps) + 1);
    double vRest = NAN, dvdtMax = -INFINITY, tUp = NAN;
    bool finite = true;
    for (long n = 0; n <= steps; ++n) {
        const double t = static_cast<double>(n) * c.dt;
        const double stim = n >= stimOn && n < stimOff ? c.stimAmplitude : 0.0;
        const double v = y[static_cast<std::size_t>(iv)];
        for (double x : y)
            finite = finite && std::isfinite(x);
        if (!finite) {
            ADD_FAILURE() << c.file << ": a state is not finite at t = " << t << " ms";
            break;
        }
        ts.push_back(t);
        vs.push_back(v);
        if (n < stimOn) vRest = v;
        if (n >= stimOn) {
            const double dvdt = p.potentialRate(y.data(), t, &stim, w);
            if (dvdt > dvdtMax) {
                dvdtMax = dvdt;
                tUp = t;
            }
        }
        if (n < steps) p.step(y.data(), t, c.dt, &stim, w);
    }
    ASSERT_TRUE(finite);

    // Peak after the stimulus, then APD90 from the upstroke (max dV/dt) to the first crossing
    // of V_rest + 0.1 (V_peak - V_rest) after the peak, interpolated between the samples.
    std::size_t iPeak = static_cast<std::size_t>(stimOn);
    for (std::size_t i = iPeak; i < vs.size(); ++i)
        if (vs[i] > vs[iPeak]) iPeak = i;
    const double vPeak = vs[iPeak];
    const double v90 = vRest + 0.1 * (vPeak - vRest);
    double t90 = NAN;
    for (std::size_t i = iPeak + 1; i < vs.size(); ++i)
        if (vs[i] < v90) {
            const double a = (vs[i - 1] - v90) / (vs[i - 1] - vs[i]);
            t90 = ts[i - 1] + a * (ts[i] - ts[i - 1]);
            break;
        }
    const double apd90 = t90 - tUp;
    const double vEnd = vs.back();
    std::printf(
        "%s: rest %.3f mV (initial %.3f), peak %.2f mV at %.2f ms, max dV/dt %.1f mV/ms at %.3f "
        "ms, "
        "APD90 %.1f ms, V(%.0f ms) %.3f mV\n",
        c.file, vRest, c.vInitial, vPeak, ts[iPeak], dvdtMax, tUp, apd90, tEnd, vEnd);

    EXPECT_NEAR(vRest, c.vInitial, 0.5);
    EXPECT_GT(vPeak, 10.0);
    EXPECT_NEAR(vEnd, vRest, 5.0);
    ASSERT_TRUE(std::isfinite(apd90)) << "no repolarisation below V90 = " << v90 << " mV";
    EXPECT_GT(apd90, 150.0);
    EXPECT_LT(apd90, 450.0);
}

INSTANTIATE_TEST_SUITE_P(Cardiac, BundledModel, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<ModelCase>& param) {
                             return std::string(param.param.file);
                         });

}  // namespace
}  // namespace cf::cardiac
