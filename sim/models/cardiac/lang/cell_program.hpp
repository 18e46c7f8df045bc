// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU reference evaluation of a checked cardiac model (docs/design/cardiac.md sections 2
// and 5): rates, slopes and one integration step of one cell, in double. Every state uses
// its method (forward Euler, or y + dt f phi1(B dt) for Rush-Larsen and GRL1 with B the
// symbolic slope; for a gate this equals y_inf + (y - y_inf) exp(-dt/tau) exactly), all
// rates taken at the start of the step. A tree-walking interpreter: fast enough for single
// cells and tests; the CUDA path will compile the same terms.
//
// Lookup tables (lookup_tables.hpp): when the model carries a plan and tables are on, each
// tabulated variable takes the value interpolated in a table over the potential instead of
// its expression. The table is built at construction and again whenever the parameters differ
// from those it was built with (checked at every step, so an edit through parameters() cannot
// leave it stale). Without a plan the evaluation is exactly the plain one.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

// A gate's step y_inf + (y - y_inf) e^(b dt), y_inf = -a / b, for a rate a + b y. Used where
// y + dt f phi1(b dt) is not finite: a rate constant that overflows makes f and b infinite and
// phi1(b dt) 0, so that form gives inf * 0, while this one gives y_inf (0 / inf = 0 for
// an infinite closing rate). Everywhere else the phi1 form is kept (it is exact for a gate
// and has no cancellation when b dt is small).
double rushLarsenForm(double a, double b, double y, double dt);

// phi1(z) = (e^z - 1)/z without cancellation near 0 (series below |z| < 1e-4, error z^3/24).
double phi1(double z);

// The value of `t` with every variable's value in `values` (by variable index).
double evaluate(const Term& t, const std::vector<double>& values);

// A built lookup table and the parameter values it was built with.
struct LookupTable {
    std::vector<double> params;
    std::vector<double> values;  // rows * cols, row-major
    std::size_t rows = 0, cols = 0;
};

class CellProgram {
public:
    // `tables`: use the model's lookup plan when it has one (no effect without a plan).
    explicit CellProgram(CheckedModel model, bool tables = true);

    const CheckedModel& model() const noexcept { return m_; }
    std::size_t stateCount() const noexcept { return m_.states.size(); }
    // Initial state values, in the model's state order.
    std::vector<double> initialStates() const;
    // Parameter values in the model's parameter order (the defaults until changed).
    std::vector<double>& parameters() noexcept { return params_; }

    // Scratch of one evaluation (one per thread when cells are stepped in parallel).
    struct Workspace {
        std::vector<double> values;                // one per model variable
        std::vector<double> next;                  // one per state
        std::shared_ptr<const LookupTable> table;  // the table this thread last used
        std::size_t lookupClamps = 0;  // evaluations with the potential outside the table
    };

    // Whether tabulated variables are interpolated (a plan, and tables on).
    bool tablesActive() const noexcept { return columnOf_.size() > 0; }
    // The current table (rebuilt first if the parameters changed); null without tables.
    std::shared_ptr<const LookupTable> table() const;

    // dy/dt at (y, t). `stimulus`: the value of the stimulus-bound variable (null: its own
    // expression).
    void rates(const std::vector<double>& y, double t, std::vector<double>& dydt,
               const double* stimulus = nullptr) const;
    // One step of dt from (y, t), in place.
    void step(std::vector<double>& y, double t, double dt, const double* stimulus = nullptr) const;
    // The same on stateCount() values at `y` with caller-owned scratch (thread-safe).
    void step(double* y, double t, double dt, const double* stimulus, Workspace& w) const;
    // The potential's rate at (y, t) (the upstroke velocity), with caller-owned scratch.
    double potentialRate(const double* y, double t, const double* stimulus, Workspace& w) const;

    // Why state `s` is not finite after a step() with workspace `w` (whose values still
    // hold the step's start): the first non-finite value the state's rate reads, named with
    // its model line ("membrane.i_K = inf (line 12), from finite inputs"), else the rate or
    // the update that is not finite. For error messages; "" when nothing there is amiss.
    std::string explainNonFinite(std::size_t s, double dt, const Workspace& w) const;

private:
    void loadValues(const double* y, double t, const double* stimulus, Workspace& w) const;
    void loadTabulated(std::vector<double>& v, const double* stimulus, Workspace& w) const;

    // The shared table, rebuilt under the lock; copies of a program share nothing mutable.
    struct TableSlot {
        mutable std::mutex mutex;
        std::shared_ptr<const LookupTable> table;
        TableSlot() = default;
        TableSlot(const TableSlot& o);
        TableSlot& operator=(const TableSlot& o);
    };

    CheckedModel m_;
    std::vector<double> params_;
    int potentialState_ = -1;
    std::vector<int> columnOf_;  // per variable: its column, -1; empty without tables
    std::size_t tableRows_ = 0;
    mutable TableSlot slot_;
    mutable Workspace scratch_;  // for the single-cell convenience overloads
};

// How much the potential's rate at the initial state rises, in its units per ms, when the
// stimulus-bound variable goes from 0 to -1 (1 A/F of depolarising amplitude): 1 where the
// stimulus enters as -i_stim / Cm in A/F, -1 where the model's stimulus depolarises when
// positive. 0 for a model without a stimulus.
double stimulusEffect(const CellProgram& program);

}  // namespace cf::cardiac
