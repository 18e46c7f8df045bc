// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Model variants (docs/design/cardiac.md section 1.1): `variant NAME { section.p = value
// [unit], ... }` header lines name sets of parameter defaults. Every variant is checked
// (E111 a name used twice, E141 an override that names no parameter, E131 a unit other than
// the parameter's); the one named `variant` (none when empty) replaces the defaults it
// names, each within the parameter's range (E140 at the override), and an unknown name is
// E142 with the known variants listed. The names go to m.variants, the applied one to
// m.variant. Runs after the declarations and before anything reads a default.
#include <string>

#include "sim/models/cardiac/lang/ast.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/diagnostics.hpp"

namespace cf::cardiac {

void applyVariants(const ModelAst& ast, const std::string& variant, CheckedModel& m,
                   DiagnosticSink& sink);

}  // namespace cf::cardiac
