// SPDX-License-Identifier: GPL-3.0-or-later
// Content MathML (MathML 2.0, chapter 4, the subset CellML 1.0 uses) to model-language text.
// Every operand is parenthesized by the grammar's precedence only where needed, and n-ary
// sums and products keep MathML's left-to-right order, so the text evaluates in the same
// order as the MathML.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/models/cardiac/cellml/cellml_internal.hpp"

namespace cf::cardiac::cellml {

namespace {

std::string wrap(const Printed& p, int need) {
    return p.level >= need ? p.text : "(" + p.text + ")";
}

class Translator {
public:
    explicit Translator(const MathContext& c) : c_(c) {}

    Printed expr(const xmlNode* n) {
        if (!isMathml(n))
            fail(c_.file, n, "<" + nameOf(n) + "> is not a MathML element inside <math>");
        const std::string tag = nameOf(n);
        if (tag == "ci") return {c_.reference(trimmedText(n), n), kPrimary};
        if (tag == "cn") return number(n);
        if (tag == "apply") return apply(n);
        if (tag == "piecewise") return piecewise(n);
        if (tag == "semantics") {
            for (const xmlNode* k : elementChildren(n))
                if (nameOf(k) != "annotation" && nameOf(k) != "annotation-xml") return expr(k);
            fail(c_.file, n, "<semantics> without an expression");
        }
        if (tag == "pi") return {formatNumber(3.141592653589793), kPrimary};
        if (tag == "exponentiale") return {"exp(1)", kPrimary};
        if (tag == "true") return {"(0 == 0)", kPrimary};
        if (tag == "false") return {"(0 != 0)", kPrimary};
        if (tag == "notanumber" || tag == "infinity")
            fail(c_.file, n,
                 "<" + tag +
                     "/> is not supported (the model language has no such "
                     "constant)");
        fail(c_.file, n, "unknown MathML element <" + tag + ">");
    }

private:
    Printed number(const xmlNode* n) {
        const std::string type = attribute(n, "type");
        const std::string base = attribute(n, "base");
        if (!base.empty() && base != "10")
            fail(c_.file, n, "<cn base=\"" + base + "\"> is not supported (only base 10)");
        double v = 0;
        if (type == "e-notation") {
            // <cn type="e-notation">mantissa<sep/>exponent</cn>
            std::string parts[2];
            int k = 0;
            for (const xmlNode* t = n->children; t; t = t->next) {
                if (t->type == XML_ELEMENT_NODE && nameOf(t) == "sep") {
                    k = 1;
                } else if (t->type == XML_TEXT_NODE && t->content) {
                    parts[k] += reinterpret_cast<const char*>(t->content);
                }
            }
            if (k != 1) fail(c_.file, n, "<cn type=\"e-notation\"> without <sep/>");
            v = parse(n, trim(parts[0]) + "e" + trim(parts[1]));  // one rounding, as strtod
        } else if (type.empty() || type == "real" || type == "integer" || type == "double") {
            v = parse(n, trimmedText(n));
        } else {
            fail(c_.file, n, "<cn type=\"" + type + "\"> is not supported");
        }
        const std::string text = formatNumber(v);
        return {text, text[0] == '-' ? kUnary : kPrimary};
    }

    double parse(const xmlNode* n, std::string s) {
        const auto b = s.find_first_not_of(" \t\r\n");
        const auto e = s.find_last_not_of(" \t\r\n");
        s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || *end != '\0' || !std::isfinite(v))
            fail(c_.file, n, "<cn> '" + s + "' is not a number");
        return v;
    }

    // Operands of an <apply> after its operator, with qualifiers (bvar, degree, logbase)
    // collected separately.
    struct Operands {
        std::vector<const xmlNode*> args;
        const xmlNode* degree = nullptr;
        const xmlNode* logbase = nullptr;
        const xmlNode* bvar = nullptr;
    };

    Operands operands(const std::vector<const xmlNode*>& kids) {
        Operands o;
        for (std::size_t i = 1; i < kids.size(); ++i) {
            const std::string tag = nameOf(kids[i]);
            if (tag == "degree") {
                o.degree = kids[i];
            } else if (tag == "logbase") {
                o.logbase = kids[i];
            } else if (tag == "bvar") {
                o.bvar = kids[i];
            } else {
                o.args.push_back(kids[i]);
            }
        }
        return o;
    }

    const xmlNode* qualifierValue(const xmlNode* q) {
        const auto k = elementChildren(q);
        if (k.size() != 1) fail(c_.file, q, "<" + nameOf(q) + "> needs exactly one element");
        return k[0];
    }

    void arity(const xmlNode* at, const std::string& op, const Operands& o, std::size_t lo,
               std::size_t hi) {
        if (o.args.size() < lo || o.args.size() > hi)
            fail(c_.file, at,
                 "<" + op + "/> with " + std::to_string(o.args.size()) + " operand(s)");
    }

    // Left-to-right chain: the first operand at `level`, the rest above it.
    Printed chain(const Operands& o, const char* sep, int level) {
        std::string s = wrap(expr(o.args[0]), level);
        for (std::size_t i = 1; i < o.args.size(); ++i)
            s += std::string(" ") + sep + " " + wrap(expr(o.args[i]), level + 1);
        return {s, level};
    }

    Printed call(const char* f, const Operands& o) {
        std::string s = std::string(f) + "(";
        for (std::size_t i = 0; i < o.args.size(); ++i)
            s += (i ? ", " : "") + expr(o.args[i]).text;
        return {s + ")", kPrimary};
    }

    Printed call1(const std::string& f, const std::string& arg) {
        return {f + "(" + arg + ")", kPrimary};
    }

    Printed apply(const xmlNode* n) {
        const auto kids = elementChildren(n);
        if (kids.empty()) fail(c_.file, n, "empty <apply>");
        const xmlNode* opNode = kids[0];
        if (!isMathml(opNode)) fail(c_.file, opNode, "<apply> starts with a non-MathML element");
        const std::string op = nameOf(opNode);
        const Operands o = operands(kids);
        if (op == "plus") {
            arity(n, op, o, 1, 1000);
            if (o.args.size() == 1) return expr(o.args[0]);
            return chain(o, "+", kSum);
        }
        if (op == "minus") {
            arity(n, op, o, 1, 2);
            if (o.args.size() == 1) return {"-" + wrap(expr(o.args[0]), kUnary), kUnary};
            return chain(o, "-", kSum);
        }
        if (op == "times") {
            arity(n, op, o, 1, 1000);
            if (o.args.size() == 1) return expr(o.args[0]);
            return chain(o, "*", kProduct);
        }
        if (op == "divide") {
            arity(n, op, o, 2, 2);
            return chain(o, "/", kProduct);
        }
        if (op == "power") {
            arity(n, op, o, 2, 2);
            return {wrap(expr(o.args[0]), kPrimary) + " ^ " + wrap(expr(o.args[1]), kUnary),
                    kPower};
        }
        if (op == "root") {
            arity(n, op, o, 1, 1);
            const Printed x = expr(o.args[0]);
            if (!o.degree) return call1("sqrt", x.text);
            const Printed d = expr(qualifierValue(o.degree));
            if (d.text == "2") return call1("sqrt", x.text);
            return {wrap(x, kPrimary) + " ^ (1 / " + wrap(d, kProduct + 1) + ")", kPower};
        }
        if (op == "log") {
            arity(n, op, o, 1, 1);
            const Printed x = expr(o.args[0]);
            if (!o.logbase) return call1("log10", x.text);
            const Printed b = expr(qualifierValue(o.logbase));
            if (b.text == "10") return call1("log10", x.text);
            return {"log(" + x.text + ", " + b.text + ")", kPrimary};
        }
        if (op == "min" || op == "max") {
            arity(n, op, o, 1, 1000);
            Printed acc = expr(o.args[0]);
            for (std::size_t i = 1; i < o.args.size(); ++i)
                acc = {op + "(" + acc.text + ", " + expr(o.args[i]).text + ")", kPrimary};
            return acc;
        }
        if (const char* cmp = comparison(op)) {
            arity(n, op, o, 2, 2);
            return {wrap(expr(o.args[0]), kSum) + " " + cmp + " " + wrap(expr(o.args[1]), kSum),
                    kCompare};
        }
        if (op == "and" || op == "or") {
            arity(n, op, o, 1, 1000);
            const int level = op == "and" ? kAnd : kOr;
            std::string s;
            for (std::size_t i = 0; i < o.args.size(); ++i)
                s += (i ? " " + op + " " : "") + wrap(expr(o.args[i]), level + 1);
            return {s, level};
        }
        if (op == "xor") {
            arity(n, op, o, 2, 2);
            const std::string a = wrap(expr(o.args[0]), kNot), b = wrap(expr(o.args[1]), kNot);
            return {"(" + a + " or " + b + ") and not (" + a + " and " + b + ")", kAnd};
        }
        if (op == "not") {
            arity(n, op, o, 1, 1);
            return {"not " + wrap(expr(o.args[0]), kNot), kNot};
        }
        if (op == "diff") {
            // d(x)/d(time) inside an expression reads x's rate (the importer names it).
            arity(n, op, o, 1, 1);
            const auto b = o.bvar ? elementChildren(o.bvar) : std::vector<const xmlNode*>{};
            if (b.size() != 1 || nameOf(b[0]) != "ci" || nameOf(o.args[0]) != "ci")
                fail(c_.file, n,
                     "a derivative inside an expression must be d(x)/d(time) of a variable "
                     "(one <bvar><ci>, no <degree>)");
            if (o.degree) fail(c_.file, o.degree, "higher derivatives are not supported");
            return {c_.derivative(trimmedText(o.args[0]), trimmedText(b[0]), n), kPrimary};
        }
        if (const char* f = function(op)) {
            arity(n, op, o, 1, 1);
            return call1(f, expr(o.args[0]).text);
        }
        if (const char* f = reciprocal(op)) {  // sec = 1 / cos, ...
            arity(n, op, o, 1, 1);
            return {"1 / " + call1(f, expr(o.args[0]).text).text, kProduct};
        }
        if (op == "arcsec" || op == "arccsc" || op == "arccot") {  // arcsec(x) = acos(1/x)
            arity(n, op, o, 1, 1);
            const char* f = op == "arcsec" ? "acos" : op == "arccsc" ? "asin" : "atan";
            return call1(f, "1 / " + wrap(expr(o.args[0]), kUnary));
        }
        if (op == "arcsinh" || op == "arccosh" || op == "arctanh") {
            // log forms of the inverse hyperbolic functions (the language has none).
            arity(n, op, o, 1, 1);
            const std::string x = wrap(expr(o.args[0]), kPrimary);
            if (op == "arcsinh") return call1("log", x + " + sqrt(" + x + " ^ 2 + 1)");
            if (op == "arccosh") return call1("log", x + " + sqrt(" + x + " ^ 2 - 1)");
            return {"0.5 * log((1 + " + x + ") / (1 - " + x + "))", kProduct};
        }
        if (op == "rem" || op == "quotient") {
            // MathML's integer quotient truncates toward zero and rem takes the dividend's
            // sign (a = b quotient(a, b) + rem(a, b)); the language has floor and ceil only.
            arity(n, op, o, 2, 2);
            const std::string a = wrap(expr(o.args[0]), kPrimary);
            const std::string b = wrap(expr(o.args[1]), kPrimary);
            const std::string q = "piecewise(" + a + " / " + b + " < 0, ceil(" + a + " / " + b +
                                  "), floor(" + a + " / " + b + "))";
            if (op == "quotient") return {q, kPrimary};
            return {a + " - " + b + " * " + q, kSum};
        }
        if (op == "factorial" || op == "gcd" || op == "lcm")
            fail(c_.file, opNode, "MathML <" + op + "/> is not supported");
        fail(c_.file, opNode, "unknown MathML element <" + op + "> in <apply>");
    }

    static const char* comparison(const std::string& op) {
        if (op == "lt") return "<";
        if (op == "leq") return "<=";
        if (op == "gt") return ">";
        if (op == "geq") return ">=";
        if (op == "eq") return "==";
        if (op == "neq") return "!=";
        return nullptr;
    }

    static const char* function(const std::string& op) {
        static const std::map<std::string, const char*> f = {
            {"exp", "exp"},      {"ln", "log"},      {"abs", "abs"},     {"floor", "floor"},
            {"ceiling", "ceil"}, {"sin", "sin"},     {"cos", "cos"},     {"tan", "tan"},
            {"arcsin", "asin"},  {"arccos", "acos"}, {"arctan", "atan"}, {"sinh", "sinh"},
            {"cosh", "cosh"},    {"tanh", "tanh"}};
        const auto it = f.find(op);
        return it == f.end() ? nullptr : it->second;
    }

    static const char* reciprocal(const std::string& op) {
        static const std::map<std::string, const char*> f = {{"sec", "cos"},   {"csc", "sin"},
                                                             {"cot", "tan"},   {"sech", "cosh"},
                                                             {"csch", "sinh"}, {"coth", "tanh"}};
        const auto it = f.find(op);
        return it == f.end() ? nullptr : it->second;
    }

    Printed piecewise(const xmlNode* n) {
        std::string s = "piecewise(";
        bool otherwise = false, first = true;
        for (const xmlNode* k : elementChildren(n)) {
            const std::string tag = nameOf(k);
            const auto parts = elementChildren(k);
            if (otherwise) fail(c_.file, k, "<" + tag + "> after <otherwise> in <piecewise>");
            if (tag == "piece") {
                if (parts.size() != 2) fail(c_.file, k, "<piece> needs a value and a condition");
                s += (first ? "" : ", ") + expr(parts[1]).text + ", " + expr(parts[0]).text;
            } else if (tag == "otherwise") {
                if (parts.size() != 1) fail(c_.file, k, "<otherwise> needs one value");
                s += (first ? "" : ", ") + expr(parts[0]).text;
                otherwise = true;
            } else {
                fail(c_.file, k, "<" + tag + "> inside <piecewise>");
            }
            first = false;
        }
        if (first) fail(c_.file, n, "empty <piecewise>");
        if (!otherwise) {
            // MathML leaves the value undefined where no piece applies; the language needs
            // one, and 0 is what such pieces (mostly stimulus pulses) mean.
            s += ", 0";
            if (c_.notes)
                c_.notes->push_back("<piecewise> without <otherwise> at line " +
                                    std::to_string(lineOf(n)) +
                                    ": 0 is used where no piece applies");
        }
        return {s + ")", kPrimary};
    }

    const MathContext& c_;
};

}  // namespace

Printed translateMath(const xmlNode* node, const MathContext& context) {
    Translator t(context);
    return t.expr(node);
}

std::string formatNumber(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string formatSignificant(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

}  // namespace cf::cardiac::cellml
