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

class CellProgram {
public:
    explicit CellProgram(CheckedModel model);

    const CheckedModel& model() const noexcept { return m_; }
    std::size_t stateCount() const noexcept { return m_.states.size(); }
    // Initial state values, in the model's state order.
    std::vector<double> initialStates() const;
    // Parameter values in the model's parameter order (the defaults until changed).
    std::vector<double>& parameters() noexcept { return params_; }

    // dy/dt at (y, t). `stimulus`: the value of the stimulus-bound variable (null: its own
    // expression).
    void rates(const std::vector<double>& y, double t, std::vector<double>& dydt,
               const double* stimulus = nullptr) const;
    // One step of dt from (y, t), in place.
    void step(std::vector<double>& y, double t, double dt, const double* stimulus = nullptr) const;

private:
    void evaluate(const std::vector<double>& y, double t, const double* stimulus) const;
    double eval(const Term& t) const;

    CheckedModel m_;
    std::vector<double> params_;
    mutable std::vector<double> values_;  // one per model variable, for the current evaluation
};

}  // namespace cf::cardiac
