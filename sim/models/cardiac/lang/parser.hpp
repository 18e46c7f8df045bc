// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Parser of the cardiac model language: source text -> ModelAst (grammar in
// docs/design/cardiac.md section 1.1). Every syntax error of the file is collected (E100
// "expected X, found Y", lexer errors E101/E102; the parser resumes at the next line) and
// thrown as one ModelError.
#include <string>

#include "sim/models/cardiac/lang/ast.hpp"

namespace cf::cardiac {

// `file` names the source in messages ("aliev_panfilov.cfm").
ModelAst parseModel(const std::string& source, const std::string& file);

}  // namespace cf::cardiac
