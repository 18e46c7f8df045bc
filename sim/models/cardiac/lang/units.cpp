// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/units.hpp"

#include <cstdlib>
#include <map>
#include <vector>

namespace cf::cardiac {

namespace {

Unit base(std::array<int, 6> e, int p10) {
    Unit u;
    u.known = true;
    u.exponent = e;
    u.power10 = p10;
    return u;
}

//                                     m  kg   s   A  K mol
const std::map<std::string, Unit>& atoms() {
    static const std::map<std::string, Unit> table = {
        {"1", base({0, 0, 0, 0, 0, 0}, 0)},   {"s", base({0, 0, 1, 0, 0, 0}, 0)},
        {"m", base({1, 0, 0, 0, 0, 0}, 0)},   {"g", base({0, 1, 0, 0, 0, 0}, -3)},
        {"mol", base({0, 0, 0, 0, 0, 1}, 0)}, {"A", base({0, 0, 0, 1, 0, 0}, 0)},
        {"K", base({0, 0, 0, 0, 1, 0}, 0)},   {"V", base({2, 1, -3, -1, 0, 0}, 0)},
        {"S", base({-2, -1, 3, 2, 0, 0}, 0)}, {"F", base({-2, -1, 4, 2, 0, 0}, 0)},
        {"C", base({0, 0, 1, 1, 0, 0}, 0)},   {"J", base({2, 1, -2, 0, 0, 0}, 0)},
        {"L", base({3, 0, 0, 0, 0, 0}, -3)},  {"M", base({-3, 0, 0, 0, 0, 1}, 3)},
        {"Hz", base({0, 0, -1, 0, 0, 0}, 0)}, {"N", base({1, 1, -2, 0, 0, 0}, 0)},
        {"W", base({2, 1, -3, 0, 0, 0}, 0)},  {"Ohm", base({2, 1, -3, -2, 0, 0}, 0)}};
    return table;
}

const std::vector<std::pair<std::string, int>>& prefixes() {
    static const std::vector<std::pair<std::string, int>> table = {
        {"f", -15}, {"p", -12}, {"n", -9}, {"u", -6}, {"\xC2\xB5", -6},
        {"m", -3},  {"c", -2},  {"d", -1}, {"k", 3}};
    return table;
}

// An atom with an optional prefix: whole names first ("mol", "m"), then prefix + name.
std::optional<Unit> atom(const std::string& name) {
    if (const auto it = atoms().find(name); it != atoms().end()) return it->second;
    for (const auto& [prefix, p10] : prefixes())
        if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) {
            const auto it = atoms().find(name.substr(prefix.size()));
            if (it != atoms().end() && it->first != "1") {
                Unit u = it->second;
                u.power10 += p10;
                return u;
            }
        }
    return std::nullopt;
}

}  // namespace

Unit multiply(const Unit& a, const Unit& b) {
    if (!a.known || !b.known) return Unit::unknown();
    Unit u = base(a.exponent, a.power10 + b.power10);
    for (std::size_t i = 0; i < 6; ++i)
        u.exponent[i] += b.exponent[i];
    return u;
}

Unit divide(const Unit& a, const Unit& b) {
    return multiply(a, power(b, -1));
}

Unit power(const Unit& a, int n) {
    if (!a.known) return Unit::unknown();
    Unit u = base(a.exponent, a.power10 * n);
    for (int& e : u.exponent)
        e *= n;
    return u;
}

std::optional<Unit> parseUnit(const std::string& text, std::string* error) {
    Unit result = Unit::dimensionless();
    std::size_t i = 0;
    int sign = 1;  // the operator before the term: * or /
    while (i < text.size()) {
        std::size_t j = i;
        while (j < text.size() && text[j] != '*' && text[j] != '/' && text[j] != '^')
            ++j;
        const std::string name = text.substr(i, j - i);
        std::optional<Unit> term = atom(name);
        if (!term) {
            if (error != nullptr) *error = name;
            return std::nullopt;
        }
        int exponent = 1;
        if (j < text.size() && text[j] == '^') {
            std::size_t k = j + 1;
            const std::size_t start = k;
            if (k < text.size() && text[k] == '-') ++k;
            while (k < text.size() && text[k] >= '0' && text[k] <= '9')
                ++k;
            exponent = std::atoi(text.substr(start, k - start).c_str());
            j = k;
        }
        result = multiply(result, power(*term, sign * exponent));
        if (j < text.size()) sign = text[j] == '/' ? -1 : 1;
        i = j + 1;
    }
    result.text = text;
    return result;
}

std::string formatUnit(const Unit& u) {
    if (!u.known) return "?";
    if (!u.text.empty()) return u.text;
    static const char* names[6] = {"m", "kg", "s", "A", "K", "mol"};
    std::string num, den;
    for (int i = 0; i < 6; ++i) {
        const int e = u.exponent[static_cast<std::size_t>(i)];
        if (e == 0) continue;
        std::string& side = e > 0 ? num : den;
        if (!side.empty()) side += "*";
        side += names[i];
        if (std::abs(e) != 1) side += "^" + std::to_string(std::abs(e));
    }
    std::string out = num.empty() ? "1" : num;
    if (!den.empty()) out += den.find('*') == std::string::npos ? "/" + den : "/(" + den + ")";
    if (u.power10 != 0) out = "1e" + std::to_string(u.power10) + " " + out;
    return out;
}

}  // namespace cf::cardiac
