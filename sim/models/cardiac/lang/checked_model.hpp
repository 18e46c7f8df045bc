// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A cardiac model after name resolution and the checks of docs/design/cardiac.md section
// 1.3: every name resolved (E110 undefined, with a suggestion; E111 defined twice), every
// state with exactly one equation (E113, E114, E115), known functions with the right number
// of arguments (E120, E121), numbers and conditions where each is expected (E122, E123), no
// circular definitions (E112), consistent units where they are given (E130-E134), one potential and
// at most one stimulus binding (E150, E151), parameter defaults within their ranges (E140), and
// warnings for states and variables nothing uses (W200, W201). Each state gets its integration
// method: gates (rates affine in the state, found by symbolic differentiation) default to
// Rush-Larsen, the rest to forward Euler; `method` lines override (E160 when rl names a non-gate).
// Units are checked where known (unit_check.hpp: E130-E134). A `variant` of the model
// replaces the defaults of the parameters it names (variants.hpp: E141, E142). A `lookup`
// line plans a table over the potential (lookup_tables.hpp: E161, E162).
#include <optional>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/ast.hpp"
#include "sim/models/cardiac/lang/term.hpp"

namespace cf::cardiac {

enum class VarKind { State, Param, Defined, Time };

struct Variable {
    std::string name;  // "section.x"; "time" for the time input
    VarKind kind = VarKind::Defined;
    SourcePos pos;
    double initial = 0;  // state: initial value; param: default
    std::string unit;
    bool hasRange = false;
    double lo = 0, hi = 0;
    bool structural = false;
    std::string description;
    TermPtr expr;           // Defined
    bool stimulus = false;  // bind stimulus: the protocol drives it
};

struct StateInfo {
    int var = -1;
    TermPtr rate;   // dot(state)
    TermPtr slope;  // d rate / d state (symbolic), for RL and GRL1
    // Gates: the rate at state 0 (atZero), so y_inf = -intercept / slope; null otherwise.
    TermPtr intercept;
    bool gate = false;  // rate affine in the state
    Method method = Method::ForwardEuler;
    SourcePos ratePos;
};

// A lookup table over the potential (docs/design/cardiac.md section 3.5; lookup_tables.hpp):
// rows at key = lo + i step for i = 0 .. rows - 1, one column per tabulated defined variable.
struct LookupPlan {
    int key = -1;  // the potential's variable index
    double lo = 0, hi = 0, step = 0;
    std::vector<int> columns;  // tabulated defined variables, in evaluation order
};

struct CheckedModel {
    std::string file, name, title, timeUnit;
    std::vector<Variable> vars;
    std::vector<int> order;         // defined variables, each after everything it reads
    std::vector<StateInfo> states;  // in declaration order
    std::vector<int> params;        // in declaration order
    int potential = -1;             // index into vars
    int stimulus = -1;
    int time = -1;
    std::vector<Diagnostic> warnings;
    std::vector<std::string> variants;  // the model's variant names, in file order
    std::string variant;                // the applied one; empty: the file's defaults
    std::optional<LookupPlan> lookup;   // from the file's lookup line, or applyLookup()

    int find(const std::string& qualifiedName) const;  // -1 when absent
    int stateOf(int var) const;                        // index into states, -1 if not a state
};

// `variant`: the name of one of the model's variants whose parameter values replace the
// defaults; empty for the defaults as written.
// "section.x" -> "x" (a name without a section is returned as it is).
inline std::string unqualifiedName(const std::string& q) {
    const auto dot = q.find('.');
    return dot == std::string::npos ? q : q.substr(dot + 1);
}

CheckedModel checkModel(const ModelAst& ast, const std::string& variant = {});
// parseModel + checkModel.
CheckedModel compileModel(const std::string& source, const std::string& file,
                          const std::string& variant = {});

}  // namespace cf::cardiac
