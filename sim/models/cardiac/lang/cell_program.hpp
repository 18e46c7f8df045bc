// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU reference evaluation of a checked cardiac model (docs/design/cardiac.md sections 2
// and 5): rates, slopes and one integration step of one cell, in double. Every state uses
// its method (forward Euler, or y + dt f phi1(B dt) for Rush-Larsen and GRL1 with B the
// symbolic slope; for a gate this equals y_inf + (y - y_inf) exp(-dt/tau) exactly), all
// rates taken at the start of the step. A tree-walking interpreter: fast enough for single
// cells and tests; the CUDA path will compile the same terms.
#include <vector>

#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

// phi1(z) = (e^z - 1)/z without cancellation near 0 (series below |z| < 1e-4, error z^3/24).
double phi1(double z);

// The value of `t` with every variable's value in `values` (by variable index).
double evaluate(const Term& t, const std::vector<double>& values);

class CellProgram {
public:
    explicit CellProgram(CheckedModel model);

    const CheckedModel& model() const noexcept { return m_; }
    std::size_t stateCount() const noexcept { return m_.states.size(); }
    // Initial state values, in the model's state order.
    std::vector<double> initialStates() const;
    // Parameter values in the model's parameter order (the defaults until changed).
    std::vector<double>& parameters() noexcept { return params_; }

    // Scratch of one evaluation (one per thread when cells are stepped in parallel).
    struct Workspace {
        std::vector<double> values;  // one per model variable
        std::vector<double> next;    // one per state
    };

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

private:
    void loadValues(const double* y, double t, const double* stimulus, Workspace& w) const;

    CheckedModel m_;
    std::vector<double> params_;
    int potentialState_ = -1;
    mutable Workspace scratch_;  // for the single-cell convenience overloads
};

}  // namespace cf::cardiac
