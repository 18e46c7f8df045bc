// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/term.hpp"

namespace cf::cardiac {

bool isCondition(const Term& t) {
    switch (t.op) {
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
        case Op::Eq:
        case Op::Ne:
        case Op::And:
        case Op::Or:
        case Op::Not:
            return true;
        default:
            return false;
    }
}

TermPtr constant(double v) {
    auto t = std::make_shared<Term>();
    t->op = Op::Const;
    t->value = v;
    return t;
}

TermPtr variable(int index) {
    auto t = std::make_shared<Term>();
    t->op = Op::Var;
    t->var = index;
    return t;
}

TermPtr make(Op op, std::vector<TermPtr> args, SourcePos pos) {
    auto t = std::make_shared<Term>();
    t->op = op;
    t->args = std::move(args);
    t->pos = pos;
    return t;
}

int smallIntegerExponent(const Term& t) {
    double v = 0;
    if (t.op == Op::Const) {
        v = t.value;
    } else if (t.op == Op::Neg && t.args[0]->op == Op::Const) {
        v = -t.args[0]->value;
    } else {
        return 0;
    }
    if (v != static_cast<double>(static_cast<int>(v)) || v == 0 || v > 4 || v < -4) return 0;
    return static_cast<int>(v);
}

bool mentions(const Term& t, int index) {
    if (t.op == Op::Var) return t.var == index;
    for (const TermPtr& a : t.args)
        if (mentions(*a, index)) return true;
    return false;
}

}  // namespace cf::cardiac
