// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Single-cell traces of a cardiac model under a rectangular stimulus pulse, from the fixed-step
// CPU interpreter (CellProgram::step) and from an independent SUNDIALS CVODE reference (BDF,
// Newton, dense direct solver), sampled on the same grid and measured by one function. Used by
// test_cardiac_cvode (docs/CARDIAC.md, "Validation against CVODE").
//
// Only the CVODE part needs SUNDIALS; it is compiled when CELLFORGE_HAVE_SUNDIALS is defined.
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/cell_program.hpp"

#ifdef CELLFORGE_HAVE_SUNDIALS
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#endif

namespace cf::cardiac::validation {

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

#ifdef CELLFORGE_HAVE_SUNDIALS

// CVODE's failure, with the flag's name.
class CvodeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The reference: CVODE BDF (variable order 1-5) with Newton iterations and a dense direct
// linear solver (difference-quotient Jacobian), right-hand side CellProgram::rates with the
// stimulus held constant on each piece. The run is split at the pulse edges and CVODE is
// re-initialised there (CVodeReInit), with the edge as its stop time, so it never steps across
// the discontinuity; samples come from CVODE's dense output (CV_NORMAL returns the
// interpolant at each sample time, of the order and accuracy of the step).
class CvodeReference {
public:
    CvodeReference(const CellProgram& p, double rtol, double atol)
        : p_(p), rtol_(rtol), atol_(atol) {}

    Trace run(const Pulse& pulse) {
        Session s(p_.stateCount());
        std::vector<double> y0 = p_.initialStates();
        for (std::size_t i = 0; i < y0.size(); ++i)
            NV_Ith_S(s.y, static_cast<sunindextype>(i)) = y0[i];
        check(CVodeInit(s.mem, &CvodeReference::rhs, 0.0, s.y), "CVodeInit");
        check(CVodeSStolerances(s.mem, rtol_, atol_), "CVodeSStolerances");
        check(CVodeSetLinearSolver(s.mem, s.ls, s.a), "CVodeSetLinearSolver");
        check(CVodeSetUserData(s.mem, this), "CVodeSetUserData");
        check(CVodeSetMaxNumSteps(s.mem, 10000000), "CVodeSetMaxNumSteps");

        Trace out;
        CellProgram::Workspace w;
        long stepsBefore = 0;  // CVodeReInit restarts CVODE's step counter
        record(p_, NV_DATA_S(s.y), 0, pulse, w, out);
        // Pieces [0, on], [on, off], [off, end] in samples, each with its constant stimulus.
        const long edges[] = {0, pulse.stimOn, pulse.stimOff, pulse.samples};
        for (int piece = 0; piece < 3; ++piece) {
            const long k0 = edges[piece], k1 = edges[piece + 1];
            if (k1 <= k0) continue;
            const double t0 = static_cast<double>(k0) * pulse.dt;
            const double t1 = static_cast<double>(k1) * pulse.dt;
            stimulus_ = pulse.stimulusAt(k0);
            if (k0 > 0) {
                long n = 0;
                CVodeGetNumSteps(s.mem, &n);
                stepsBefore += n;
                check(CVodeReInit(s.mem, t0, s.y), "CVodeReInit");
            }
            check(CVodeSetStopTime(s.mem, t1), "CVodeSetStopTime");
            for (long k = k0 + 1; k <= k1; ++k) {
                const double tout = k == k1 ? t1 : static_cast<double>(k) * pulse.dt;
                sunrealtype treached = 0;
                const int flag = CVode(s.mem, tout, s.y, &treached, CV_NORMAL);
                if (flag < 0)
                    throw CvodeError(std::string("CVode: ") + CVodeGetReturnFlagName(flag) +
                                     " before t = " + std::to_string(tout) + " ms");
                record(p_, NV_DATA_S(s.y), k, pulse, w, out);
            }
        }
        long n = 0;
        CVodeGetNumSteps(s.mem, &n);
        steps_ = stepsBefore + n;
        return out;
    }

    long steps() const noexcept { return steps_; }  // CVODE's internal steps in the last run

private:
    // The CVODE objects of one run, released in reverse order.
    struct Session {
        explicit Session(std::size_t n) {
#if SUNDIALS_VERSION_MAJOR >= 7
            if (SUNContext_Create(SUN_COMM_NULL, &ctx) != 0) throw CvodeError("SUNContext_Create");
#else
            if (SUNContext_Create(nullptr, &ctx) != 0) throw CvodeError("SUNContext_Create");
#endif
            const auto m = static_cast<sunindextype>(n);
            y = N_VNew_Serial(m, ctx);
            a = SUNDenseMatrix(m, m, ctx);
            ls = SUNLinSol_Dense(y, a, ctx);
            mem = CVodeCreate(CV_BDF, ctx);
            if (y == nullptr || a == nullptr || ls == nullptr || mem == nullptr)
                throw CvodeError("cannot create the CVODE objects");
        }
        ~Session() {
            CVodeFree(&mem);
            SUNLinSolFree(ls);
            SUNMatDestroy(a);
            N_VDestroy(y);
            SUNContext_Free(&ctx);
        }
        Session(const Session&) = delete;
        Session& operator=(const Session&) = delete;
        SUNContext ctx = nullptr;
        N_Vector y = nullptr;
        SUNMatrix a = nullptr;
        SUNLinearSolver ls = nullptr;
        void* mem = nullptr;
    };

    static void check(int flag, const char* what) {
        if (flag != 0)
            throw CvodeError(std::string(what) + " failed (" + std::to_string(flag) + ")");
    }

    // dy/dt of the model; a non-finite rate asks CVODE for a smaller step (recoverable).
    static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user) {
        auto* self = static_cast<CvodeReference*>(user);
        const std::size_t n = self->p_.stateCount();
        self->y_.assign(NV_DATA_S(y), NV_DATA_S(y) + n);
        self->p_.rates(self->y_, t, self->f_, &self->stimulus_);
        for (std::size_t i = 0; i < n; ++i) {
            if (!std::isfinite(self->f_[i])) return 1;
            NV_Ith_S(ydot, static_cast<sunindextype>(i)) = self->f_[i];
        }
        return 0;
    }

    const CellProgram& p_;
    double rtol_, atol_;
    double stimulus_ = 0;
    std::vector<double> y_, f_;
    long steps_ = 0;
};

#endif  // CELLFORGE_HAVE_SUNDIALS

}  // namespace cf::cardiac::validation
