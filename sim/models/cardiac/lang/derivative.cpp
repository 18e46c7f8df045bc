// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/derivative.hpp"

#include <cmath>

namespace cf::cardiac {

namespace {

bool isConst(const TermPtr& t, double v) {
    return t->op == Op::Const && t->value == v;
}
bool isConst(const TermPtr& t) {
    return t->op == Op::Const;
}

TermPtr call(Op op, TermPtr a) {
    return make(op, {std::move(a)});
}

}  // namespace

TermPtr add(TermPtr a, TermPtr b) {
    if (isConst(a, 0)) return b;
    if (isConst(b, 0)) return a;
    if (isConst(a) && isConst(b)) return constant(a->value + b->value);
    return make(Op::Add, {std::move(a), std::move(b)});
}

TermPtr sub(TermPtr a, TermPtr b) {
    if (isConst(b, 0)) return a;
    if (isConst(a, 0)) return neg(std::move(b));
    if (isConst(a) && isConst(b)) return constant(a->value - b->value);
    return make(Op::Sub, {std::move(a), std::move(b)});
}

TermPtr mul(TermPtr a, TermPtr b) {
    if (isConst(a, 0) || isConst(b, 0)) return constant(0);
    if (isConst(a, 1)) return b;
    if (isConst(b, 1)) return a;
    if (isConst(a) && isConst(b)) return constant(a->value * b->value);
    return make(Op::Mul, {std::move(a), std::move(b)});
}

TermPtr div(TermPtr a, TermPtr b) {
    if (isConst(a, 0)) return constant(0);
    if (isConst(b, 1)) return a;
    return make(Op::Div, {std::move(a), std::move(b)});
}

TermPtr neg(TermPtr a) {
    if (isConst(a)) return constant(-a->value);
    if (a->op == Op::Neg) return a->args[0];
    return make(Op::Neg, {std::move(a)});
}

TermPtr Differentiator::derivative(const TermPtr& t) {
    const std::vector<TermPtr>& x = t->args;
    auto d = [&](std::size_t i) { return derivative(x[i]); };
    switch (t->op) {
        case Op::Const:
            return constant(0);
        case Op::Var: {
            if (t->var == wrt_) return constant(1);
            const TermPtr& def = definitions_[static_cast<std::size_t>(t->var)];
            if (!def) return constant(0);
            if (const auto it = memo_.find(t->var); it != memo_.end()) return it->second;
            TermPtr r = derivative(def);
            memo_[t->var] = r;
            return r;
        }
        case Op::Neg:
            return neg(d(0));
        case Op::Add:
            return add(d(0), d(1));
        case Op::Sub:
            return sub(d(0), d(1));
        case Op::Mul:
            return add(mul(d(0), x[1]), mul(x[0], d(1)));
        case Op::Div: {
            // (a/b)' = a'/b - a b' / b^2
            const TermPtr da = d(0), db = d(1);
            return sub(div(da, x[1]), div(mul(x[0], db), mul(x[1], x[1])));
        }
        case Op::Pow: {
            const TermPtr da = d(0), db = d(1);
            if (isConst(db, 0)) {
                if (isConst(x[1]))  // c x^(c-1) x'
                    return mul(mul(x[1], make(Op::Pow, {x[0], constant(x[1]->value - 1)})), da);
                return mul(mul(x[1], make(Op::Pow, {x[0], sub(x[1], constant(1))})), da);
            }
            // (a^b)' = a^b (b' ln a + b a'/a)
            return mul(t, add(mul(db, call(Op::Log, x[0])), div(mul(x[1], da), x[0])));
        }
        case Op::Exp:
            return mul(t, d(0));
        case Op::Expm1:
            return mul(call(Op::Exp, x[0]), d(0));
        case Op::Log:
            return div(d(0), x[0]);
        case Op::Log1p:
            return div(d(0), add(constant(1), x[0]));
        case Op::Log10:
            return div(d(0), mul(x[0], constant(std::log(10.0))));
        case Op::LogBase:
            return derivative(div(call(Op::Log, x[0]), call(Op::Log, x[1])));
        case Op::Sqrt:
            return div(d(0), mul(constant(2), t));
        case Op::Abs:
            return mul(make(Op::If, {make(Op::Lt, {x[0], constant(0)}), constant(-1), constant(1)}),
                       d(0));
        case Op::Floor:
        case Op::Ceil:
            return constant(0);
        case Op::Sin:
            return mul(call(Op::Cos, x[0]), d(0));
        case Op::Cos:
            return neg(mul(call(Op::Sin, x[0]), d(0)));
        case Op::Tan: {
            const TermPtr c = call(Op::Cos, x[0]);
            return div(d(0), mul(c, c));
        }
        case Op::Asin:
            return div(d(0), call(Op::Sqrt, sub(constant(1), mul(x[0], x[0]))));
        case Op::Acos:
            return neg(div(d(0), call(Op::Sqrt, sub(constant(1), mul(x[0], x[0])))));
        case Op::Atan:
            return div(d(0), add(constant(1), mul(x[0], x[0])));
        case Op::Sinh:
            return mul(call(Op::Cosh, x[0]), d(0));
        case Op::Cosh:
            return mul(call(Op::Sinh, x[0]), d(0));
        case Op::Tanh:
            return mul(sub(constant(1), mul(t, t)), d(0));
        case Op::Min:
            return make(Op::If, {make(Op::Le, {x[0], x[1]}), d(0), d(1)});
        case Op::Max:
            return make(Op::If, {make(Op::Ge, {x[0], x[1]}), d(0), d(1)});
        case Op::If: {
            const TermPtr a = d(1), b = d(2);
            if (isConst(a, 0) && isConst(b, 0)) return constant(0);
            return make(Op::If, {x[0], a, b});
        }
        case Op::Piecewise: {
            std::vector<TermPtr> args;
            bool allZero = true;
            for (std::size_t i = 0; i < x.size(); ++i) {
                const bool value = i % 2 == 1 || i + 1 == x.size();
                args.push_back(value ? derivative(x[i]) : x[i]);
                if (value && !isConst(args.back(), 0)) allZero = false;
            }
            if (allZero) return constant(0);
            return make(Op::Piecewise, std::move(args));
        }
        default:  // conditions are never differentiated as numbers
            return constant(0);
    }
}

TermPtr atZero(const TermPtr& t, const Definitions& definitions, int wrt, DependencyTest& deps) {
    if (t->op == Op::Var) {
        if (t->var == wrt) return constant(0);
        const TermPtr& def = definitions[static_cast<std::size_t>(t->var)];
        return def && deps.dependsOn(*def, wrt) ? atZero(def, definitions, wrt, deps) : t;
    }
    if (!deps.dependsOn(*t, wrt)) return t;
    std::vector<TermPtr> a;
    for (const TermPtr& x : t->args)
        a.push_back(atZero(x, definitions, wrt, deps));
    switch (t->op) {
        case Op::Neg:
            return neg(a[0]);
        case Op::Add:
            return add(a[0], a[1]);
        case Op::Sub:
            return sub(a[0], a[1]);
        case Op::Mul:
            return mul(a[0], a[1]);
        case Op::Div:
            return div(a[0], a[1]);
        default:
            return make(t->op, std::move(a), t->pos);
    }
}

bool DependencyTest::dependsOn(const Term& t, int index) {
    if (t.op == Op::Var) {
        if (t.var == index) return true;
        const TermPtr& def = definitions_[static_cast<std::size_t>(t.var)];
        if (!def) return false;
        const auto key = std::make_pair(t.var, index);
        if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
        memo_[key] = false;  // cycles were refused before; this only guards recursion
        const bool r = dependsOn(*def, index);
        memo_[key] = r;
        return r;
    }
    for (const TermPtr& a : t.args)
        if (dependsOn(*a, index)) return true;
    return false;
}

}  // namespace cf::cardiac
