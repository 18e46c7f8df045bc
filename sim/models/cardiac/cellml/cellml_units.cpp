// SPDX-License-Identifier: GPL-3.0-or-later
// CellML units (CellML 1.0 specification, section 5): built-in units, prefixes (names or
// integers), exponents, multipliers; user-defined units of the model and of components.
#include <cmath>
#include <cstdlib>

#include "sim/models/cardiac/cellml/cellml_internal.hpp"

namespace cf::cardiac::cellml {

namespace {

struct Builtin {
    std::array<double, 7> dims;  // m, kg, s, A, K, mol, cd
    double factor;
    const char* atom;  // the language's atom, "" when it has none
};

const std::map<std::string, Builtin>& builtins() {
    //                                                m  kg   s   A  K mol cd
    static const std::map<std::string, Builtin> table = {
        {"ampere", {{0, 0, 0, 1, 0, 0, 0}, 1, "A"}},
        {"becquerel", {{0, 0, -1, 0, 0, 0, 0}, 1, ""}},
        {"candela", {{0, 0, 0, 0, 0, 0, 1}, 1, ""}},
        {"celsius", {{0, 0, 0, 0, 1, 0, 0}, 1, ""}},
        {"coulomb", {{0, 0, 1, 1, 0, 0, 0}, 1, "C"}},
        {"dimensionless", {{0, 0, 0, 0, 0, 0, 0}, 1, "1"}},
        {"farad", {{-2, -1, 4, 2, 0, 0, 0}, 1, "F"}},
        {"gram", {{0, 1, 0, 0, 0, 0, 0}, 1e-3, "g"}},
        {"gray", {{2, 0, -2, 0, 0, 0, 0}, 1, ""}},
        {"henry", {{2, 1, -2, -2, 0, 0, 0}, 1, ""}},
        {"hertz", {{0, 0, -1, 0, 0, 0, 0}, 1, "Hz"}},
        {"joule", {{2, 1, -2, 0, 0, 0, 0}, 1, "J"}},
        {"katal", {{0, 0, -1, 0, 0, 1, 0}, 1, ""}},
        {"kelvin", {{0, 0, 0, 0, 1, 0, 0}, 1, "K"}},
        {"kilogram", {{0, 1, 0, 0, 0, 0, 0}, 1, "kg"}},
        {"liter", {{3, 0, 0, 0, 0, 0, 0}, 1e-3, "L"}},
        {"litre", {{3, 0, 0, 0, 0, 0, 0}, 1e-3, "L"}},
        {"lumen", {{0, 0, 0, 0, 0, 0, 1}, 1, ""}},
        {"lux", {{-2, 0, 0, 0, 0, 0, 1}, 1, ""}},
        {"meter", {{1, 0, 0, 0, 0, 0, 0}, 1, "m"}},
        {"metre", {{1, 0, 0, 0, 0, 0, 0}, 1, "m"}},
        {"mole", {{0, 0, 0, 0, 0, 1, 0}, 1, "mol"}},
        {"newton", {{1, 1, -2, 0, 0, 0, 0}, 1, "N"}},
        {"ohm", {{2, 1, -3, -2, 0, 0, 0}, 1, "Ohm"}},
        {"pascal", {{-1, 1, -2, 0, 0, 0, 0}, 1, ""}},
        {"radian", {{0, 0, 0, 0, 0, 0, 0}, 1, ""}},
        {"second", {{0, 0, 1, 0, 0, 0, 0}, 1, "s"}},
        {"siemens", {{-2, -1, 3, 2, 0, 0, 0}, 1, "S"}},
        {"sievert", {{2, 0, -2, 0, 0, 0, 0}, 1, ""}},
        {"steradian", {{0, 0, 0, 0, 0, 0, 0}, 1, ""}},
        {"tesla", {{0, 1, -2, -1, 0, 0, 0}, 1, ""}},
        {"volt", {{2, 1, -3, -1, 0, 0, 0}, 1, "V"}},
        {"watt", {{2, 1, -3, 0, 0, 0, 0}, 1, "W"}},
        {"weber", {{2, 1, -2, -1, 0, 0, 0}, 1, ""}},
    };
    return table;
}

// The decimal exponent of a prefix given by name or as an integer; false when unknown.
bool prefixPower(const std::string& p, int& out) {
    static const std::map<std::string, int> names = {
        {"yotta", 24}, {"zetta", 21},  {"exa", 18},   {"peta", 15}, {"tera", 12},  {"giga", 9},
        {"mega", 6},   {"kilo", 3},    {"hecto", 2},  {"deka", 1},  {"deca", 1},   {"deci", -1},
        {"centi", -2}, {"milli", -3},  {"micro", -6}, {"nano", -9}, {"pico", -12}, {"femto", -15},
        {"atto", -18}, {"zepto", -21}, {"yocto", -24}};
    if (p.empty()) {
        out = 0;
        return true;
    }
    if (const auto it = names.find(p); it != names.end()) {
        out = it->second;
        return true;
    }
    char* end = nullptr;
    const long v = std::strtol(p.c_str(), &end, 10);
    if (end == p.c_str() || *end != '\0') return false;
    out = static_cast<int>(v);
    return true;
}

// The language's prefix letter for 10^p ("" for 1); nullptr when it has none.
const char* prefixLetter(int p) {
    switch (p) {
        case 0:
            return "";
        case -15:
            return "f";
        case -12:
            return "p";
        case -9:
            return "n";
        case -6:
            return "u";
        case -3:
            return "m";
        case -2:
            return "c";
        case -1:
            return "d";
        case 3:
            return "k";
        default:
            return nullptr;
    }
}

double numberAttribute(const std::string& file, const xmlNode* node, const char* name,
                       double fallback) {
    const std::string s = attribute(node, name);
    if (s.empty()) return fallback;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0' || !std::isfinite(v))
        fail(file, node,
             std::string("<unit> attribute ") + name + "=\"" + s + "\" is not a number");
    return v;
}

void addTerm(std::vector<std::pair<std::string, int>>& terms, const std::string& atom, int e) {
    if (atom == "1" || e == 0) return;
    for (auto& [a, x] : terms)
        if (a == atom) {
            x += e;
            return;
        }
    terms.emplace_back(atom, e);
}

std::string termsText(const std::vector<std::pair<std::string, int>>& terms) {
    std::string num, den;
    for (const auto& [atom, e] : terms) {
        if (e == 0) continue;
        std::string& side = e > 0 ? num : den;
        const int n = std::abs(e);
        if (e > 0 && !side.empty()) side += "*";
        if (e < 0) side += "/";
        side += atom;
        if (n != 1) side += "^" + std::to_string(n);
    }
    return (num.empty() ? "1" : num) + den;
}

}  // namespace

void UnitTable::define(const std::string& component, const xmlNode* units) {
    const std::string name = attribute(units, "name");
    if (name.empty()) fail(file_, units, "<units> without a name");
    if (builtins().count(name))
        fail(file_, units, "<units name=\"" + name + "\"> redefines a built-in CellML unit");
    if (!defs_.emplace(std::make_pair(component, name), units).second)
        fail(file_, units, "units '" + name + "' are defined twice");
}

UnitInfo UnitTable::resolve(const std::string& name, const std::string& component,
                            const xmlNode* at) {
    if (const auto b = builtins().find(name); b != builtins().end()) {
        UnitInfo u;
        u.known = true;
        u.dims = b->second.dims;
        u.factor = b->second.factor;
        u.exact = *b->second.atom != '\0';
        if (u.exact) addTerm(u.terms, b->second.atom, 1);
        u.text = u.exact ? termsText(u.terms) : "";
        return u;
    }
    for (const std::string& scope : {component, std::string()}) {
        const auto key = std::make_pair(scope, name);
        if (const auto c = cache_.find(key); c != cache_.end()) return c->second;
        if (const auto d = defs_.find(key); d != defs_.end()) {
            static thread_local int depth = 0;
            if (depth > 32) fail(file_, d->second, "units '" + name + "' are defined in a cycle");
            ++depth;
            UnitInfo u;
            try {
                u = build(d->second, scope, depth);
            } catch (...) {
                --depth;
                throw;
            }
            --depth;
            cache_[key] = u;
            return u;
        }
        if (scope.empty()) break;
    }
    fail(file_, at, "unknown units '" + name + "'");
}

UnitInfo UnitTable::build(const xmlNode* units, const std::string& component, int) {
    UnitInfo u;
    u.known = true;
    if (attribute(units, "base_units") == "yes") {
        // A new base unit: no relation to SI, so no conversions and no name in the language.
        u.known = false;
        u.exact = false;
        return u;
    }
    for (const xmlNode* c : elementChildren(units)) {
        if (!isCellml(c) || nameOf(c) != "unit") continue;
        const std::string ref = attribute(c, "units");
        if (ref.empty()) fail(file_, c, "<unit> without a units attribute");
        int p10 = 0;
        if (!prefixPower(attribute(c, "prefix"), p10))
            fail(file_, c, "unknown prefix '" + attribute(c, "prefix") + "'");
        const double e = numberAttribute(file_, c, "exponent", 1.0);
        const double mult = numberAttribute(file_, c, "multiplier", 1.0);
        if (numberAttribute(file_, c, "offset", 0.0) != 0.0)
            fail(file_, c, "units with an offset (like celsius) are not supported");
        const UnitInfo inner = resolve(ref, component, c);
        if (!inner.known) {
            u.known = false;
            u.exact = false;
            continue;
        }
        u.factor *= mult * std::pow(std::pow(10.0, p10) * inner.factor, e);
        for (std::size_t i = 0; i < 7; ++i)
            u.dims[i] += inner.dims[i] * e;
        const bool integerExponent = e == std::floor(e) && std::fabs(e) < 100;
        if (!inner.exact || mult != 1.0 || !integerExponent) {
            u.exact = false;
            continue;
        }
        // A prefix combines with a single prefix-free atom only ("milli" + "volt" = "mV";
        // not "milli" + "kilogram", nor "milli" + "mM").
        std::string atom;
        if (inner.terms.size() == 1 && inner.terms[0].second == 1 && builtins().count(ref)) {
            atom = inner.terms[0].first;
        } else if (p10 != 0) {
            u.exact = false;
            continue;
        }
        if (!atom.empty()) {
            const char* letter = prefixLetter(p10);
            if (!letter || (p10 != 0 && ref == "kilogram")) {
                u.exact = false;
                continue;
            }
            addTerm(u.terms, letter + atom, static_cast<int>(e));
        } else {
            for (const auto& [a, x] : inner.terms)
                addTerm(u.terms, a, x * static_cast<int>(e));
        }
    }
    u.text = u.exact ? termsText(u.terms) : "";
    return u;
}

}  // namespace cf::cardiac::cellml
