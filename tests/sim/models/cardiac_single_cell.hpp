// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One cardiac cell under a rectangular stimulus pulse, stepped by the CPU interpreter
// (CellProgram::step) and measured: resting potential, peak, upstroke and APD90 by one
// function for every trajectory. Shared by the single-cell tests (test_cardiac_simple_models,
// and test_cardiac_cvode through cvode_reference.hpp). Tests that include it define
// CELLFORGE_TEST_DATA (the tests/ folder) to read the bundled models.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/cell_program.hpp"

namespace cf::cardiac::validation {

#ifdef CELLFORGE_TEST_DATA
// The text of assets/models/<name>.cfm.
inline std::string readBundledModel(const std::string& name) {
    const std::string path = std::string(CELLFORGE_TEST_DATA "/../assets/models/") + name + ".cfm";
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "cannot read " << path;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
#endif

// One pulse of `amplitude` (the value of the model's `bind stimulus` variable) over
// [stimOn, stimOff) samples, i.e. [stimOn dt, stimOff dt) ms; 0 elsewhere. Sample k is at
// t = k dt; the run ends at sample `samples`.
struct Pulse {
    long stimOn = 0, stimOff = 0, samples = 0;
    double dt = 0, amplitude = 0;
    double stimulusAt(long k) const { return k >= stimOn && k < stimOff ? amplitude : 0.0; }
};

inline Pulse makePulse(double dt, double tStim, double duration, double amplitude, double tEnd) {
    Pulse p;
    p.dt = dt;
    p.amplitude = amplitude;
    p.stimOn = std::lround(tStim / dt);
    p.stimOff = std::lround((tStim + duration) / dt);
    p.samples = std::lround(tEnd / dt);
    return p;
}

// V and its rate at each sample. The rate is the model's own dV/dt (CellProgram::potentialRate)
// at the sampled state with the stimulus of that sample: the instantaneous upstroke velocity,
// the same function of the state for every trajectory and independent of the sample spacing.
struct Trace {
    std::vector<double> t, v, dvdt;
    bool finite = true;
    double failedAt = NAN;  // the first time a state was not finite
};

inline void record(const CellProgram& p, const double* y, long k, const Pulse& pulse,
                   CellProgram::Workspace& w, Trace& out) {
    const double t = static_cast<double>(k) * pulse.dt;
    const double stim = pulse.stimulusAt(k);
    for (std::size_t s = 0; s < p.stateCount(); ++s)
        if (!std::isfinite(y[s]) && out.finite) {
            out.finite = false;
            out.failedAt = t;
        }
    const int iv = p.model().stateOf(p.model().potential);
    out.t.push_back(t);
    out.v.push_back(y[static_cast<std::size_t>(iv)]);
    out.dvdt.push_back(p.potentialRate(y, t, &stim, w));
}

// The integrator under test: every state with its method in p.model() (steps of pulse.dt, the
// stimulus of the step's start sample held over the step).
inline Trace runFixedStep(const CellProgram& p, const Pulse& pulse) {
    Trace out;
    CellProgram::Workspace w;
    std::vector<double> y = p.initialStates();
    for (long k = 0; k <= pulse.samples; ++k) {
        record(p, y.data(), k, pulse, w, out);
        if (!out.finite) break;
        if (k < pulse.samples) {
            const double stim = pulse.stimulusAt(k);
            p.step(y.data(), static_cast<double>(k) * pulse.dt, pulse.dt, &stim, w);
        }
    }
    return out;
}

// Resting potential (V at the last sample before the pulse), peak (largest V from the pulse
// on), upstroke (largest dV/dt from the pulse on, and its sample time), APD90 (from that time
// to the first crossing of V_rest + 0.1 (V_peak - V_rest) after the peak, interpolated
// linearly between the bracketing samples; NaN when V does not come back down).
struct ApMetrics {
    double rest = NAN, peak = NAN, tPeak = NAN, dvdtMax = NAN, tUp = NAN, apd90 = NAN;
};

inline ApMetrics measure(const Trace& tr, const Pulse& pulse) {
    ApMetrics m;
    const auto on = static_cast<std::size_t>(pulse.stimOn);
    if (on == 0 || tr.v.size() <= on) return m;
    m.rest = tr.v[on - 1];
    std::size_t iPeak = on, iUp = on;
    for (std::size_t i = on; i < tr.v.size(); ++i) {
        if (tr.v[i] > tr.v[iPeak]) iPeak = i;
        if (tr.dvdt[i] > tr.dvdt[iUp]) iUp = i;
    }
    m.peak = tr.v[iPeak];
    m.tPeak = tr.t[iPeak];
    m.dvdtMax = tr.dvdt[iUp];
    m.tUp = tr.t[iUp];
    const double v90 = m.rest + 0.1 * (m.peak - m.rest);
    for (std::size_t i = iPeak + 1; i < tr.v.size(); ++i)
        if (tr.v[i] < v90) {
            const double a = (tr.v[i - 1] - v90) / (tr.v[i - 1] - tr.v[i]);
            m.apd90 = tr.t[i - 1] + a * (tr.t[i] - tr.t[i - 1]) - m.tUp;
            break;
        }
    return m;
}

}  // namespace cf::cardiac::validation
