// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The syntax tree of a .cfm model as written (docs/design/cardiac.md section 1.1), with the
// position of everything so that later passes can point at it. Names are not resolved here.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/models/cardiac/lang/diagnostics.hpp"

namespace cf::cardiac {

enum class ExprKind { Number, Name, Unary, Binary, Call };

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
    ExprKind kind = ExprKind::Number;
    SourcePos pos;
    double value = 0;  // Number
    std::string unit;  // Number: its unit as written ("mV", "1/mV/ms"), empty without
    std::string text;  // Name: "x" or "section.x"; Call: the function; Unary/Binary: operator
    std::vector<ExprPtr> args;
};

enum class StatementKind { State, Param, Define, Ode, Use, Method };

// BackwardEuler: one Newton iteration of the implicit Euler step on each state's own slope
// (the diagonal of the Jacobian), y + dt f / (1 - dt J): Lionetti et al.'s integrator.
enum class Method { ForwardEuler, RushLarsen, GeneralizedRushLarsen, BackwardEuler };
inline constexpr Method kMethods[] = {Method::ForwardEuler, Method::RushLarsen,
                                      Method::GeneralizedRushLarsen, Method::BackwardEuler};
// The method's word in `method` lines ("fe", "rl", "grl1", "be") and its name in messages and
// generated comments ("forward Euler", "Rush-Larsen", "GRL1", "backward Euler").
constexpr const char* methodKeyword(Method m) {
    return m == Method::ForwardEuler            ? "fe"
           : m == Method::RushLarsen            ? "rl"
           : m == Method::GeneralizedRushLarsen ? "grl1"
                                                : "be";
}
constexpr const char* methodTitle(Method m) {
    return m == Method::ForwardEuler            ? "forward Euler"
           : m == Method::RushLarsen            ? "Rush-Larsen"
           : m == Method::GeneralizedRushLarsen ? "GRL1"
                                                : "backward Euler";
}

struct Statement {
    StatementKind kind = StatementKind::Define;
    SourcePos pos;
    std::string name;  // state, param, defined variable, or the state of dot(name)
    // state / param
    double value = 0;
    std::string unit;
    bool bindPotential = false;  // state ... bind potential
    bool hasRange = false;       // param ... range(lo, hi)
    double rangeLo = 0, rangeHi = 0;
    bool structural = false;
    std::string description;
    // define / ode
    ExprPtr expr;
    std::string inUnit;   // define ... in [unit]
    std::string binding;  // define ... bind stimulus|time
    // use: (qualified name, alias or empty)
    std::vector<std::pair<std::string, std::string>> uses;
    // method
    Method method = Method::ForwardEuler;
    std::vector<std::string> targets;  // "*", "gates", or qualified names
};

struct Section {
    std::string name;
    SourcePos pos;
    std::vector<Statement> statements;
};

struct Override {
    std::string name;  // qualified parameter name
    double value = 0;
    std::string unit;
    SourcePos pos;
};

struct Variant {
    std::string name;
    SourcePos pos;
    std::vector<Override> overrides;
};

struct Lookup {
    std::string name;  // the keyed variable (the potential)
    double lo = 0, hi = 0, step = 0;
    SourcePos pos;
};

struct ModelAst {
    std::string file;
    std::string name;
    std::string title;
    std::string timeUnit = "ms";
    SourcePos pos;
    std::vector<Variant> variants;
    std::vector<Statement> methods;  // model-wide method lines
    std::vector<Lookup> lookups;
    std::vector<std::pair<std::string, std::string>> options;
    std::vector<Section> sections;
};

}  // namespace cf::cardiac
