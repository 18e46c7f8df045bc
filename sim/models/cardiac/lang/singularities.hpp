// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Removal of removable singularities (docs/design/cardiac.md section 3.3): rate expressions
// such as (V + 47) / (1 - exp(-0.1 (V + 47))) are 0/0 at one potential, where an upstroke
// can land in float or double. A division whose denominator is c (exp(g) - 1), c (1 - exp(g)),
// expm1(g) or exp(g) + b (b < 0), with g affine in the one state it reads, and whose
// numerator vanishes at the root u*, becomes: within delta of u* (|g| < 1e-4, at least
// 1e-6 max(1, |u*|)), the straight line between its values at u* -+ delta (chaste_codegen's
// method with a band wide enough for float), elsewhere the quotient with exp(g) - 1 computed
// as expm1(g). Each site gets a note (W210).
#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

// Rewrites the definitions and rates of `model` in place; returns the number of sites.
int removeSingularities(CheckedModel& model, DiagnosticSink& sink);

}  // namespace cf::cardiac
