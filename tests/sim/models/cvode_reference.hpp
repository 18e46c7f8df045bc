// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The independent SUNDIALS CVODE reference (BDF, Newton, dense direct solver) of a cardiac
// cell under a rectangular stimulus pulse, sampled on the fixed-step run's grid
// (cardiac_single_cell.hpp) and measured by the same function. Used by test_cardiac_cvode
// (docs/CARDIAC.md, "Validation against CVODE").
//
// Only the CVODE part needs SUNDIALS; it is compiled when CELLFORGE_HAVE_SUNDIALS is defined.
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/cell_program.hpp"
#include "tests/sim/models/cardiac_single_cell.hpp"

#ifdef CELLFORGE_HAVE_SUNDIALS
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#endif

namespace cf::cardiac::validation {

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
