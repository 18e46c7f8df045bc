// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Optional lookup tables over the membrane potential (docs/design/cardiac.md section 3.5).
//
// Columns: whole defined variables that depend on the potential and otherwise only on
// parameters and constants (no other state, no time, not the stimulus, nothing that reads
// one of those), and that contain an exp/expm1/log/log1p/log10/sqrt/pow (not a small integer
// power, which is a product)/trig or hyperbolic call, directly or through another such
// variable. A candidate is a column only when something other than a candidate reads it (a
// rate, a slope, another defined variable): a variable whose only uses are inside tabulated
// variables needs no column of its own. The singularity rewrite has run before, so no row
// is 0/0.
//
// Table: rows = floor((hi - lo)/step) + 1 (a 1e-9 guard absorbs the rounding of the
// quotient), row i at key = lo + i step, row-major (table[i * cols + c]), each entry the
// column's expression evaluated in double by the CPU evaluator with the given parameters.
// Lookup: x = (V - lo)/step clamped to [0, rows - 1] (V outside the table takes the edge
// value: no extrapolation), i = min(floor(x), rows - 2), w = x - i,
// value = t[i] + w (t[i+1] - t[i]). Linear interpolation error <= h^2/8 max|f''|.
#include <cstddef>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/ast.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/diagnostics.hpp"

namespace cf::cardiac {

inline constexpr std::size_t kMaxLookupRows = 10'000'000;

// The table's plan for `m` over [lo, hi] with `step`. Throws ModelError E162 (at the model's
// header) when lo < hi, step > 0 (all finite) and 2 <= rows <= kMaxLookupRows do not hold.
LookupPlan planLookup(const CheckedModel& m, double lo, double hi, double step);

// Attaches planLookup(m, lo, hi, step) to `m` (replacing any plan): tables for a model
// whose file has no lookup line (bundled models).
void applyLookup(CheckedModel& m, double lo, double hi, double step);

// checkModel's pass: the file's `lookup NAME (lo, hi, step)` lines. NAME is qualified or a
// short name one section declares; E110 when it names nothing, E161 when it names anything
// but the potential state, E162 for a bad range, E111 for a second lookup line.
void attachLookups(const ModelAst& ast, CheckedModel& m, DiagnosticSink& sink);

std::size_t lookupRows(const LookupPlan& plan);

// The table for `plan` with the parameter values `params` (in the model's parameter order):
// lookupRows(plan) * plan.columns.size() values, row-major.
std::vector<double> buildTable(const CheckedModel& m, const LookupPlan& plan,
                               const std::vector<double>& params);

// Where `v` falls in the table: the lower row and the weight of the upper one.
struct LookupPoint {
    std::size_t row = 0;
    double weight = 0;
    bool clamped = false;  // v was outside [lo, lo + (rows - 1) step] (or NaN)
};
LookupPoint lookupPoint(const LookupPlan& plan, std::size_t rows, double v);

}  // namespace cf::cardiac
