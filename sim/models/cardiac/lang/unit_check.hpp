// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The units pass of the cardiac model checker (docs/design/cardiac.md section 1.3): every
// variable's unit is its declaration, or the one inferred from its expression in dependency
// order; numbers written without a unit adapt to their context. Errors: E130 unknown unit,
// E131 mismatch in + - comparisons min max if-branches and function arguments that must be
// dimensionless, E132 a declared unit that differs from the expression's, E133 dot(s) not
// in [unit of s / time unit], E134 a non-integer power of a quantity with units.
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/units.hpp"

namespace cf::cardiac {

// Runs on a model whose definitions are sorted (m.order); reports to `sink`.
void checkUnits(const CheckedModel& m, DiagnosticSink& sink);

}  // namespace cf::cardiac
