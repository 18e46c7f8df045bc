// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/printer.hpp"

#include <charconv>
#include <sstream>

namespace cf::cardiac {

namespace {

// Binding strength of an expression's outermost operator (higher binds tighter).
int precedence(const Expr& e) {
    switch (e.kind) {
        case ExprKind::Number:
        case ExprKind::Name:
        case ExprKind::Call:
            return 9;
        case ExprKind::Unary:
            return e.text == "not" ? 3 : 7;
        case ExprKind::Binary:
            if (e.text == "or") return 1;
            if (e.text == "and") return 2;
            if (e.text == "+" || e.text == "-") return 5;
            if (e.text == "*" || e.text == "/") return 6;
            if (e.text == "^") return 8;
            return 4;  // comparisons
    }
    return 9;
}

std::string number(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string wrap(const Expr& e, bool parens) {
    return parens ? "(" + printExpr(e) + ")" : printExpr(e);
}

std::string quoted(const std::string& s) {
    return "\"" + s + "\"";
}

void statement(std::ostringstream& out, const Statement& st) {
    switch (st.kind) {
        case StatementKind::State:
        case StatementKind::Param:
            out << (st.kind == StatementKind::State ? "state " : "param ") << st.name << " = "
                << number(st.value);
            if (!st.unit.empty()) out << " [" << st.unit << "]";
            if (st.bindPotential) out << " bind potential";
            if (st.hasRange)
                out << " range(" << number(st.rangeLo) << ", " << number(st.rangeHi) << ")";
            if (st.structural) out << " structural";
            if (!st.description.empty()) out << " " << quoted(st.description);
            break;
        case StatementKind::Define:
            out << st.name << " = " << printExpr(*st.expr);
            if (!st.inUnit.empty()) out << " in [" << st.inUnit << "]";
            if (!st.binding.empty()) out << " bind " << st.binding;
            break;
        case StatementKind::Ode:
            out << "dot(" << st.name << ") = " << printExpr(*st.expr);
            break;
        case StatementKind::Use:
            out << "use ";
            for (std::size_t k = 0; k < st.uses.size(); ++k) {
                if (k > 0) out << ", ";
                out << st.uses[k].first;
                if (!st.uses[k].second.empty()) out << " as " << st.uses[k].second;
            }
            break;
        case StatementKind::Method:
            out << "method " << methodKeyword(st.method) << ": ";
            for (std::size_t k = 0; k < st.targets.size(); ++k)
                out << (k > 0 ? ", " : "") << st.targets[k];
            break;
    }
    out << "\n";
}

}  // namespace

std::string printExpr(const Expr& e) {
    switch (e.kind) {
        case ExprKind::Number:
            return number(e.value) + (e.unit.empty() ? "" : " [" + e.unit + "]");
        case ExprKind::Name:
            return e.text;
        case ExprKind::Call: {
            std::string s = e.text + "(";
            for (std::size_t k = 0; k < e.args.size(); ++k)
                s += (k > 0 ? ", " : "") + printExpr(*e.args[k]);
            return s + ")";
        }
        case ExprKind::Unary: {
            const Expr& a = *e.args[0];
            if (e.text == "not") return "not " + wrap(a, precedence(a) < 3);
            return e.text + wrap(a, precedence(a) < 7);
        }
        case ExprKind::Binary: {
            const int p = precedence(e);
            const Expr& l = *e.args[0];
            const Expr& r = *e.args[1];
            if (e.text == "^")  // power = primary ^ unary
                return wrap(l, precedence(l) < 9) + "^" + wrap(r, precedence(r) < 7);
            if (p == 4)  // comparisons do not chain: both sides are sums or tighter
                return wrap(l, precedence(l) < 5) + " " + e.text + " " + wrap(r, precedence(r) < 5);
            // Left-associative: the right side needs parentheses at equal strength.
            return wrap(l, precedence(l) < p) + " " + e.text + " " + wrap(r, precedence(r) <= p);
        }
    }
    return "";
}

std::string printModel(const ModelAst& m) {
    std::ostringstream out;
    out << "model " << m.name;
    if (!m.title.empty()) out << " " << quoted(m.title);
    out << "\ntime [" << m.timeUnit << "]\n";
    for (const Variant& v : m.variants) {
        out << "variant " << v.name << " {";
        for (std::size_t k = 0; k < v.overrides.size(); ++k) {
            const Override& o = v.overrides[k];
            out << (k > 0 ? ", " : " ") << o.name << " = " << number(o.value);
            if (!o.unit.empty()) out << " [" << o.unit << "]";
        }
        out << " }\n";
    }
    for (const Statement& st : m.methods)
        statement(out, st);
    for (const Lookup& l : m.lookups)
        out << "lookup " << l.name << " (" << number(l.lo) << ", " << number(l.hi) << ", "
            << number(l.step) << ")\n";
    for (const auto& [key, value] : m.options)
        out << "option " << key << " = " << value << "\n";
    for (const Section& s : m.sections) {
        out << "\n[" << s.name << "]\n";
        for (const Statement& st : s.statements)
            statement(out, st);
    }
    return out.str();
}

}  // namespace cf::cardiac
