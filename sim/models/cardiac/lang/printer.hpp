// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Canonical text of a parsed model (docs/design/cardiac.md section 1.3, round trip): the
// header, then sections and statements in source order, minimal parentheses by precedence,
// numbers in their shortest round-trip form, units as written. parseModel(printModel(m))
// gives the same tree as m, and printing is idempotent.
#include <string>

#include "sim/models/cardiac/lang/ast.hpp"

namespace cf::cardiac {

std::string printModel(const ModelAst& model);
std::string printExpr(const Expr& e);

}  // namespace cf::cardiac
