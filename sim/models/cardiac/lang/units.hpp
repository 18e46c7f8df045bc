// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Units of the cardiac model language (docs/design/cardiac.md section 1.1): a unit is the
// exponents of the SI base units (m, kg, s, A, K, mol) and a decimal factor 10^k. Atoms
// s m g mol A K V S F C J L M Hz N W Ohm with prefixes f p n u µ m c d k, products,
// quotients and integer powers: "mV", "1/mV/ms", "A/F", "mM", "uA/cm^2". No offsets, no
// non-decimal factors. An unknown unit (a number written without one) adapts to its
// context, as in Myokit's tolerant mode.
#include <array>
#include <optional>
#include <string>

namespace cf::cardiac {

struct Unit {
    bool known = false;
    std::array<int, 6> exponent{};  // m, kg, s, A, K, mol
    int power10 = 0;
    std::string text;  // as written, when it was written; empty for derived units

    static Unit unknown() { return {}; }
    static Unit dimensionless() {
        Unit u;
        u.known = true;
        u.text = "1";
        return u;
    }
    bool sameDimension(const Unit& o) const { return exponent == o.exponent; }
    bool operator==(const Unit& o) const {
        return known == o.known && exponent == o.exponent && power10 == o.power10;
    }
    bool isDimensionless() const {
        return known && exponent == std::array<int, 6>{} && power10 == 0;
    }
};

// Parses a unit as written between the brackets; nullopt (and `error` set to the atom that
// is not a unit) when it is not one.
std::optional<Unit> parseUnit(const std::string& text, std::string* error = nullptr);

// "mV" when the unit was written so, else a product of SI base units with its factor
// ("1e-3 kg*m^2/(s^3*A)").
std::string formatUnit(const Unit& u);

Unit multiply(const Unit& a, const Unit& b);
Unit divide(const Unit& a, const Unit& b);
Unit power(const Unit& a, int n);

}  // namespace cf::cardiac
