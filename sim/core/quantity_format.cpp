// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/quantity_format.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace cf {
namespace {

struct UnitStep {
    std::string_view name;  // as parsed (ASCII)
    std::string_view shown;
    double factor;  // in the family's base unit
};

// Ascending; a family rescales only within itself.
constexpr std::array<UnitStep, 6> kTimes{{{"ns", "ns", 1e-9},
                                          {"us", "µs", 1e-6},
                                          {"ms", "ms", 1e-3},
                                          {"s", "s", 1.0},
                                          {"min", "min", 60.0},
                                          {"h", "h", 3600.0}}};
constexpr std::array<UnitStep, 4> kLengths{
    {{"nm", "nm", 1e-9}, {"um", "µm", 1e-6}, {"mm", "mm", 1e-3}, {"m", "m", 1.0}}};

std::string asciiMicro(std::string_view unit) {
    static constexpr std::string_view micro = "µ";
    if (unit.substr(0, micro.size()) == micro) return "u" + std::string(unit.substr(micro.size()));
    return std::string(unit);
}

template <std::size_t N>
bool rescale(const std::array<UnitStep, N>& family, double value, std::string_view unit,
             ScaledQuantity& out) {
    const UnitStep* from = nullptr;
    for (const UnitStep& u : family)
        if (u.name == unit) from = &u;
    if (!from) return false;
    const double base = value * from->factor;
    const double magnitude = std::fabs(base);
    // The largest unit in which the number is at least 1; the smallest unit for tiny values.
    // Minutes and hours only from 100 min / 100 h on would hide seconds' precision, so a
    // time moves up to min or h once it is at least 2 of them (90 s stays "90 s").
    const UnitStep* best = &family.front();
    for (const UnitStep& u : family) {
        const double threshold = (u.factor >= 60.0) ? 2.0 : 1.0;
        if (magnitude >= threshold * u.factor) best = &u;
    }
    if (magnitude == 0.0) best = from;  // zero keeps its declared unit
    out.value = base / best->factor;
    out.unit = std::string(best->shown);
    return true;
}

}  // namespace

ScaledQuantity scaleQuantity(double value, std::string_view unit) {
    ScaledQuantity out{value, std::string(unit)};
    if (!std::isfinite(value)) return out;
    const std::string ascii = asciiMicro(unit);
    if (rescale(kTimes, value, ascii, out) || rescale(kLengths, value, ascii, out)) return out;
    return out;
}

std::string formatQuantity(double value, std::string_view unit, int significant) {
    const bool dimensionless = unit.empty() || unit == "1";
    std::string number;
    ScaledQuantity q{value, std::string(unit)};
    if (std::isnan(value)) {
        number = "\u2014";
    } else if (std::isinf(value)) {
        number = value > 0 ? "\u221e" : "-\u221e";
    } else {
        q = scaleQuantity(value, unit);
        char text[64];
        std::snprintf(text, sizeof text, "%.*g", significant < 1 ? 1 : significant, q.value);
        number = text;
    }
    if (dimensionless || std::isnan(value)) return number;
    return number + " " + q.unit;
}

}  // namespace cf
