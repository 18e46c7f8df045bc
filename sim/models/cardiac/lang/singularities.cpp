// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/singularities.hpp"

#include <cmath>
#include <cstdio>

#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/derivative.hpp"

namespace cf::cardiac {

namespace {

// `t` with variable `var` replaced by `by`.
TermPtr substitute(const TermPtr& t, int var, const TermPtr& by) {
    if (t->op == Op::Var) return t->var == var ? by : t;
    if (t->args.empty()) return t;
    std::vector<TermPtr> args;
    bool changed = false;
    for (const TermPtr& a : t->args) {
        args.push_back(substitute(a, var, by));
        changed = changed || args.back() != a;
    }
    if (!changed) return t;
    auto copy = std::make_shared<Term>(*t);
    copy->args = std::move(args);
    return copy;
}

// The variables `t` reads directly.
void reads(const Term& t, std::vector<int>& out) {
    if (t.op == Op::Var) out.push_back(t.var);
    for (const TermPtr& a : t.args)
        reads(*a, out);
}

class Remover {
public:
    Remover(CheckedModel& m, DiagnosticSink& sink) : m_(m), sink_(sink) {
        defaults_.assign(m.vars.size(), 0.0);
        for (int p : m.params)
            defaults_[static_cast<std::size_t>(p)] = m.vars[static_cast<std::size_t>(p)].initial;
    }

    int run() {
        for (int v : m_.order) {
            Variable& var = m_.vars[static_cast<std::size_t>(v)];
            var.expr = rewrite(var.expr, var.name);
        }
        for (StateInfo& s : m_.states)
            s.rate = rewrite(s.rate, "dot(" + m_.vars[static_cast<std::size_t>(s.var)].name + ")");
        return count_;
    }

private:
    TermPtr rewrite(const TermPtr& t, const std::string& where) {
        if (!t || t->args.empty()) return t;
        std::vector<TermPtr> args;
        bool changed = false;
        for (const TermPtr& a : t->args) {
            args.push_back(rewrite(a, where));
            changed = changed || args.back() != a;
        }
        TermPtr self = t;
        if (changed) {
            auto copy = std::make_shared<Term>(*t);
            copy->args = std::move(args);
            self = copy;
        }
        if (self->op != Op::Div) return self;
        TermPtr fixed = removable(self, where);
        return fixed ? fixed : self;
    }

    // The one state or input variable n/d reads (other reads must be parameters); -1 if
    // there is none or more than one, or a defined variable (not looked through).
    int onlyInput(const Term& div) const {
        std::vector<int> vars;
        reads(div, vars);
        int input = -1;
        for (int v : vars) {
            const VarKind k = m_.vars[static_cast<std::size_t>(v)].kind;
            if (k == VarKind::Param) continue;
            if (k == VarKind::Defined) return -1;
            if (input >= 0 && input != v) return -1;
            input = v;
        }
        return input;
    }

    double at(const TermPtr& t, int var, double value) {
        std::vector<double> values = defaults_;
        values[static_cast<std::size_t>(var)] = value;
        return evaluate(*t, values);
    }

    // g* where the denominator vanishes: d = c (exp(g) - 1), c (1 - exp(g)), expm1(g), or
    // exp(g) + b with b a negative constant.
    TermPtr root(const Term& d, TermPtr& g) const {
        auto expArg = [](const Term& t) -> TermPtr {
            return t.op == Op::Exp ? t.args[0] : nullptr;
        };
        const Term* e = &d;
        if (e->op == Op::Mul) {  // c * (...) or (...) * c
            if (e->args[0]->op == Op::Const)
                e = e->args[1].get();
            else if (e->args[1]->op == Op::Const)
                e = e->args[0].get();
        }
        if (e->op == Op::Expm1) {
            g = e->args[0];
            return constant(0);
        }
        if (e->op == Op::Sub || e->op == Op::Add) {
            const Term& l = *e->args[0];
            const Term& r = *e->args[1];
            if (TermPtr a = expArg(l); a && r.op == Op::Const) {
                const double b = e->op == Op::Sub ? -r.value : r.value;  // exp(g) + b
                if (b < 0) {
                    g = a;
                    return constant(std::log(-b));
                }
            }
            if (TermPtr a = expArg(r); a && l.op == Op::Const && e->op == Op::Sub && l.value > 0) {
                g = a;  // c - exp(g)
                return constant(std::log(l.value));
            }
        }
        return nullptr;
    }

    TermPtr removable(const TermPtr& div, const std::string& where) {
        const int u = onlyInput(*div);
        if (u < 0) return nullptr;
        TermPtr g;
        const TermPtr gStar = root(*div->args[1], g);
        if (!gStar) return nullptr;
        // g must be affine in u: k = dg/du free of u; then u* = (g* - g(0)) / k.
        Definitions none(m_.vars.size());
        Differentiator diff(none, u);
        const TermPtr k = diff.derivative(g);
        if (mentions(*k, u)) return nullptr;
        const TermPtr g0 = substitute(g, u, constant(0));
        const TermPtr uStar = div_(sub(gStar, g0), k);
        const double star = evaluate(*uStar, defaults_);
        if (!std::isfinite(star)) return nullptr;
        // The numerator must vanish there (a removable 0/0, not a pole).
        const TermPtr& n = div->args[0];
        const double scale =
            1.0 + std::fabs(at(n, u, star - 1.0)) + std::fabs(at(n, u, star + 1.0));
        if (std::fabs(at(n, u, star)) > 1e-9 * scale) return nullptr;
        // The quotient itself, with c (exp(g) - 1) and c (1 - exp(g)) computed through
        // expm1: near the root, exp(g) - 1 in float keeps only a few correct bits, and the
        // symbolic slope (N'D - N D') / D^2 cancels to rubbish (Rush-Larsen slopes of
        // thousands per ms that overflow exp; seen with ten Tusscher's L-type current).
        const TermPtr accurate = withExpm1(div);
        // Within delta of u*, the straight line between the values at u* -+ delta (chaste's
        // method; the values are expressions, so parameters stay live). delta keeps |g| at
        // least 1e-4 (1e-6 max(1, |u*|) at the least): there expm1 and the quotient rule lose
        // at most about eps / |g| = 1e-3 of their value in float, and the line differs from
        // the function by f'' delta^2 / 2, about 1e-9 relative for these rate expressions.
        const double slope = std::fabs(evaluate(*k, defaults_));
        const double delta =
            std::fmax(1e-6 * std::fmax(1.0, std::fabs(star)), slope > 0.0 ? 1e-4 / slope : 0.0);
        const TermPtr d = constant(delta);
        const TermPtr lo = substitute(accurate, u, sub(uStar, d));
        const TermPtr hi = substitute(accurate, u, add(uStar, d));
        const TermPtr x = variable(u);
        const TermPtr line =
            div_(add(mul(sub(add(uStar, d), x), lo), mul(sub(x, sub(uStar, d)), hi)),
                 constant(2 * delta));
        const TermPtr near = make(Op::Lt, {make(Op::Abs, {sub(x, uStar)}), d});
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.6g", star);
        const Variable& uv = m_.vars[static_cast<std::size_t>(u)];
        sink_.note(div->pos, "W210",
                   "removable singularity at " + uv.name + " = " + buf +
                       (uv.unit.empty() ? "" : " [" + uv.unit + "]") + " in '" + where +
                       "' replaced by a straight line across +-" +
                       std::to_string(delta).substr(0, 8));
        ++count_;
        return make(Op::If, {near, line, accurate}, div->pos);
    }

    // n / (c (exp(g) - 1)) as n / (c expm1(g)), and c (1 - exp(g)) as -c expm1(g); other
    // denominators unchanged.
    static TermPtr withExpm1(const TermPtr& div) {
        const TermPtr& den = div->args[1];
        TermPtr c;
        const Term* e = den.get();
        if (e->op == Op::Mul) {
            if (e->args[0]->op == Op::Const) {
                c = e->args[0];
                e = e->args[1].get();
            } else if (e->args[1]->op == Op::Const) {
                c = e->args[1];
                e = e->args[0].get();
            }
        }
        if (e->op != Op::Sub) return div;
        const Term& l = *e->args[0];
        const Term& r = *e->args[1];
        TermPtr accurate;
        if (l.op == Op::Exp && r.op == Op::Const && r.value == 1.0)
            accurate = make(Op::Expm1, {l.args[0]});
        else if (r.op == Op::Exp && l.op == Op::Const && l.value == 1.0)
            accurate = make(Op::Neg, {make(Op::Expm1, {r.args[0]})});
        else
            return div;
        if (c) accurate = mul(c, accurate);
        auto copy = std::make_shared<Term>(*div);
        copy->args = {div->args[0], accurate};
        return copy;
    }

    static TermPtr div_(TermPtr a, TermPtr b) {
        return cf::cardiac::div(std::move(a), std::move(b));
    }

    CheckedModel& m_;
    DiagnosticSink& sink_;
    std::vector<double> defaults_;
    int count_ = 0;
};

}  // namespace

int removeSingularities(CheckedModel& model, DiagnosticSink& sink) {
    return Remover(model, sink).run();
}

}  // namespace cf::cardiac
