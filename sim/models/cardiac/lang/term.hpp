// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Resolved expressions of a checked cardiac model: every name is an index into the model's
// variables, every call a known function. Shared by the CPU interpreter, the symbolic
// derivative (for gate detection, Rush-Larsen and GRL1) and, later, the CUDA emitter.
#include <memory>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/diagnostics.hpp"

namespace cf::cardiac {

enum class Op {
    Const,
    Var,  // a model variable (state, parameter, defined variable, time)
    Neg,
    Not,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    Exp,
    Expm1,
    Log,
    Log1p,
    Log10,
    Sqrt,
    Abs,
    Floor,
    Ceil,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    LogBase,  // log(x, b)
    Min,
    Max,
    If,         // if(c, a, b)
    Piecewise,  // piecewise(c1, a1, c2, a2, ..., otherwise)
};

struct Term;
using TermPtr = std::shared_ptr<const Term>;

struct Term {
    Op op = Op::Const;
    double value = 0;  // Const
    std::string unit;  // Const: as written ("mV"), empty when the number has none
    int var = -1;      // Var
    std::vector<TermPtr> args;
    SourcePos pos;
};

// Whether the term is a condition (comparison, and/or/not) rather than a number.
bool isCondition(const Term& t);

TermPtr constant(double v);
TermPtr variable(int index);
TermPtr make(Op op, std::vector<TermPtr> args, SourcePos pos = {});

// n when `t` is the literal n with 1 <= |n| <= 4 (an exponent worth a product), else 0.
int smallIntegerExponent(const Term& t);

// Does `t` (not looking through defined variables) mention variable `index`?
bool mentions(const Term& t, int index);

}  // namespace cf::cardiac
