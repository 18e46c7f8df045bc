// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/unit_check.hpp"

#include <cmath>
#include <cstdlib>

namespace cf::cardiac {

namespace {

const char* opName(Op op) {
    switch (op) {
        case Op::Add:
            return "+";
        case Op::Sub:
            return "-";
        case Op::Lt:
            return "<";
        case Op::Le:
            return "<=";
        case Op::Gt:
            return ">";
        case Op::Ge:
            return ">=";
        case Op::Eq:
            return "==";
        case Op::Ne:
            return "!=";
        case Op::Min:
            return "min";
        case Op::Max:
            return "max";
        case Op::If:
            return "if";
        case Op::Piecewise:
            return "piecewise";
        case Op::Exp:
            return "exp";
        case Op::Expm1:
            return "expm1";
        case Op::Log:
            return "log";
        case Op::Log1p:
            return "log1p";
        case Op::Log10:
            return "log10";
        case Op::LogBase:
            return "log";
        default:
            return "function";
    }
}

std::string factorNote(const Unit& a, const Unit& b) {
    if (!a.sameDimension(b)) return "";
    const int d = std::abs(a.power10 - b.power10);
    std::string f = "1";
    for (int i = 0; i < d; ++i)
        f += "0";
    return d > 0 && d < 10 ? " (factor " + f + ")" : " (factor 1e" + std::to_string(d) + ")";
}

class UnitChecker {
public:
    UnitChecker(const CheckedModel& m, DiagnosticSink& sink) : m_(m), sink_(sink) {
        units_.assign(m.vars.size(), Unit::unknown());
    }

    void run() {
        for (std::size_t v = 0; v < m_.vars.size(); ++v) {
            const Variable& var = m_.vars[v];
            if (var.kind == VarKind::Time) {
                units_[v] = declared(m_.timeUnit, var.pos);
            } else if (var.kind != VarKind::Defined) {
                units_[v] = declared(var.unit, var.pos);
            }
        }
        for (int v : m_.order) {
            const Variable& var = m_.vars[static_cast<std::size_t>(v)];
            const Unit inferred = unitOf(*var.expr);
            const Unit wanted = declared(var.unit, var.pos);
            if (wanted.known && inferred.known && !(wanted == inferred))
                sink_.error(var.pos, "E132",
                            "'" + var.name + "' is declared in [" + formatUnit(wanted) +
                                "] but its expression is in [" + formatUnit(inferred) + "]" +
                                factorNote(wanted, inferred));
            units_[static_cast<std::size_t>(v)] = wanted.known ? wanted : inferred;
        }
        const Unit time = declared(m_.timeUnit, {});
        for (const StateInfo& s : m_.states) {
            const Unit rate = unitOf(*s.rate);
            const Unit state = units_[static_cast<std::size_t>(s.var)];
            if (!rate.known || !state.known || !time.known) continue;
            const Unit expected = divide(state, time);
            if (!(rate == expected)) {
                const std::string name = m_.vars[static_cast<std::size_t>(s.var)].name;
                const std::string shortName = name.substr(name.find('.') + 1);
                sink_.error(s.ratePos, "E133",
                            "dot(" + shortName + ") must be in [" + formatUnit(state) + "/" +
                                formatUnit(time) + "], found [" + formatUnit(rate) + "]" +
                                factorNote(expected, rate));
            }
        }
    }

private:
    Unit declared(const std::string& text, SourcePos pos) {
        if (text.empty()) return Unit::unknown();
        std::string bad;
        const std::optional<Unit> u = parseUnit(text, &bad);
        if (!u) {
            sink_.error(pos, "E130", "unknown unit '" + bad + "'");
            return Unit::unknown();
        }
        return *u;
    }

    // Both known and different: E131 at the operator. Returns the known one.
    Unit same(const Term& at, const Unit& a, const Unit& b) {
        if (a.known && b.known && !(a == b)) {
            sink_.error(at.pos, "E131",
                        std::string("unit mismatch in '") + opName(at.op) + "': [" + formatUnit(a) +
                            "] vs [" + formatUnit(b) + "]" + factorNote(a, b));
            return a;
        }
        return a.known ? a : b;
    }

    Unit dimensionlessArgument(const Term& at, const Unit& a) {
        if (a.known && !a.isDimensionless())
            sink_.error(at.pos, "E131",
                        std::string("unit mismatch in '") + opName(at.op) + "': [" + formatUnit(a) +
                            "] vs [1]");
        return Unit::dimensionless();
    }

    Unit unitOf(const Term& t) {
        const auto& a = t.args;
        auto u = [&](std::size_t i) { return unitOf(*a[i]); };
        switch (t.op) {
            case Op::Const:
                return t.unit.empty() ? Unit::unknown() : declared(t.unit, t.pos);
            case Op::Var:
                return units_[static_cast<std::size_t>(t.var)];
            case Op::Neg:
            case Op::Abs:
            case Op::Floor:
            case Op::Ceil:
                return u(0);
            case Op::Add:
            case Op::Sub:
            case Op::Min:
            case Op::Max:
                return same(t, u(0), u(1));
            case Op::Lt:
            case Op::Le:
            case Op::Gt:
            case Op::Ge:
            case Op::Eq:
            case Op::Ne:
                same(t, u(0), u(1));
                return Unit::unknown();
            case Op::And:
            case Op::Or:
            case Op::Not:
                for (std::size_t i = 0; i < a.size(); ++i)
                    u(i);
                return Unit::unknown();
            case Op::Mul:
                return multiply(u(0), u(1));
            case Op::Div:
                return divide(u(0), u(1));
            case Op::Pow: {
                const Unit b = u(0);
                u(1);
                if (!b.known || b.isDimensionless()) return b;
                const Term& e = *a[1];
                const bool integer = e.op == Op::Const && std::floor(e.value) == e.value &&
                                     std::fabs(e.value) < 100.0;
                const bool negInteger = e.op == Op::Neg && e.args[0]->op == Op::Const &&
                                        std::floor(e.args[0]->value) == e.args[0]->value;
                if (integer) return power(b, static_cast<int>(e.value));
                if (negInteger) return power(b, -static_cast<int>(e.args[0]->value));
                sink_.error(t.pos, "E134",
                            "exponent of '^' must be dimensionless when the base has units, unless "
                            "it is an integer literal");
                return Unit::unknown();
            }
            case Op::Sqrt: {
                const Unit b = u(0);
                if (!b.known) return b;
                Unit r = Unit::dimensionless();
                r.text.clear();
                for (std::size_t i = 0; i < 6; ++i) {
                    if (b.exponent[i] % 2 != 0) return Unit::unknown();
                    r.exponent[i] = b.exponent[i] / 2;
                }
                if (b.power10 % 2 != 0) return Unit::unknown();
                r.power10 = b.power10 / 2;
                return r;
            }
            case Op::If: {
                u(0);
                return same(t, u(1), u(2));
            }
            case Op::Piecewise: {
                Unit r = Unit::unknown();
                for (std::size_t i = 0; i < a.size(); ++i) {
                    const bool value = i % 2 == 1 || i + 1 == a.size();
                    const Unit v = u(i);
                    if (value) r = same(t, r, v);
                }
                return r;
            }
            case Op::LogBase:
                dimensionlessArgument(t, u(1));
                return dimensionlessArgument(t, u(0));
            default:  // exp, log, trig, hyperbolic: a dimensionless argument and result
                return dimensionlessArgument(t, u(0));
        }
    }

    const CheckedModel& m_;
    DiagnosticSink& sink_;
    std::vector<Unit> units_;
};

}  // namespace

void checkUnits(const CheckedModel& m, DiagnosticSink& sink) {
    UnitChecker(m, sink).run();
}

}  // namespace cf::cardiac
