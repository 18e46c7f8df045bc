// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/sweep_grid.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace cf {

namespace {

[[noreturn]] void badAxis(std::string_view text, const std::string& why) {
    throw ParameterError("--vary '" + std::string(text) + "': " + why +
                         " (expected group.name=FROM:TO:COUNT, e.g. dynamics.dt=1e-4:1e-3:4)");
}

template <typename T>
bool readNumber(std::string_view s, T& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

// The i-th of n points from a to b; the ends are exact so that a range's bounds can be
// swept without rounding past them.
double pointAt(double a, double b, std::size_t i, std::size_t n, bool geometric) {
    if (i == 0) return a;
    if (i + 1 == n) return b;
    const double f = static_cast<double>(i) / static_cast<double>(n - 1);
    if (geometric) return std::exp(std::log(a) + f * (std::log(b) - std::log(a)));
    return a + f * (b - a);
}

}  // namespace

SweepAxisText parseSweepAxis(std::string_view text) {
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0) badAxis(text, "no 'group.name='");
    SweepAxisText axis;
    axis.key = std::string(text.substr(0, eq));
    std::string_view rest = text.substr(eq + 1);
    std::string_view parts[3];
    for (int i = 0; i < 3; ++i) {
        const auto colon = rest.find(':');
        if ((i < 2) != (colon != std::string_view::npos))
            badAxis(text, "the range needs exactly three fields");
        parts[i] = rest.substr(0, colon);
        if (i < 2) rest = rest.substr(colon + 1);
    }
    if (!readNumber(parts[0], axis.from) || !std::isfinite(axis.from))
        badAxis(text, "cannot read FROM '" + std::string(parts[0]) + "' as a number");
    if (!readNumber(parts[1], axis.to) || !std::isfinite(axis.to))
        badAxis(text, "cannot read TO '" + std::string(parts[1]) + "' as a number");
    if (!readNumber(parts[2], axis.count) || axis.count == 0)
        badAxis(text, "COUNT '" + std::string(parts[2]) + "' is not a positive integer");
    return axis;
}

SweepAxis expandSweepAxis(const ParamTable& table, const SweepAxisText& text) {
    const ParamSpec& spec = table.at(text.key);  // unknown key: names the closest known one
    const std::string key = spec.key();
    if (spec.type != ParamType::Real && spec.type != ParamType::Integer)
        throw ParameterError("parameter '" + key + "' cannot be swept: it is " + spec.rangeText() +
                             ", not a number");
    if (text.count == 0) throw ParameterError("--vary " + key + ": COUNT must be at least 1");
    if (text.count == 1 && text.from != text.to)
        throw ParameterError("--vary " + key + ": one value (COUNT 1) needs FROM = TO");
    if (text.geometric && !(text.from > 0 && text.to > 0) && !(text.from < 0 && text.to < 0))
        throw ParameterError("--log " + key +
                             ": a geometric range needs FROM and TO of the "
                             "same sign, neither zero");
    // Geometric ranges of negative numbers: the mirror image of the positive one.
    const double sign = text.geometric && text.from < 0 ? -1.0 : 1.0;

    auto checked = [&](double x) -> ParamValue {
        if (spec.type == ParamType::Real) return validateValue(spec, x);
        // Rounded before validation so the message names the value a run would get.
        if (!(std::abs(x) < 9.0e18))
            throw ParameterError("parameter '" + key + "' = " + formatValue(x) +
                                 " is out of range: allowed " + spec.rangeText());
        return validateValue(spec, static_cast<std::int64_t>(std::llround(x)));
    };
    // The ends first: if the typed numbers are out of range, the message names them rather
    // than some point in between (and with both ends in range, every point is).
    checked(text.from);
    checked(text.to);
    SweepAxis axis;
    axis.spec = &spec;
    for (std::size_t i = 0; i < text.count; ++i) {
        ParamValue v = checked(
            sign * pointAt(sign * text.from, sign * text.to, i, text.count, text.geometric));
        // The points are monotonic, so a repeat after rounding is always the previous one.
        if (axis.values.empty() || axis.values.back() != v) axis.values.push_back(std::move(v));
    }
    return axis;
}

std::vector<SweepAxis> expandSweepAxes(const ParamTable& table, std::vector<SweepAxisText> axes,
                                       const std::vector<std::string>& geometricKeys) {
    for (const std::string& key : geometricKeys) {
        auto it = std::find_if(axes.begin(), axes.end(),
                               [&](const SweepAxisText& a) { return a.key == key; });
        if (it == axes.end())
            throw ParameterError("--log " + key + ": no --vary " + key + "=... to apply it to");
        it->geometric = true;
    }
    std::vector<SweepAxis> out;
    for (const SweepAxisText& text : axes) {
        SweepAxis axis = expandSweepAxis(table, text);
        for (const SweepAxis& earlier : out)
            if (earlier.spec == axis.spec)
                throw ParameterError("--vary " + axis.spec->key() + " is given twice");
        out.push_back(std::move(axis));
    }
    return out;
}

std::vector<std::vector<ParamValue>> sweepGrid(const std::vector<SweepAxis>& axes) {
    std::vector<std::vector<ParamValue>> points;
    if (axes.empty()) return points;
    std::size_t total = 1;
    for (const SweepAxis& a : axes)
        total *= a.values.size();
    points.reserve(total);
    // Mixed-radix counting with the last axis as the lowest digit.
    std::vector<std::size_t> digit(axes.size(), 0);
    for (std::size_t n = 0; n < total; ++n) {
        std::vector<ParamValue> point;
        point.reserve(axes.size());
        for (std::size_t k = 0; k < axes.size(); ++k)
            point.push_back(axes[k].values[digit[k]]);
        points.push_back(std::move(point));
        for (std::size_t k = axes.size(); k-- > 0;) {
            if (++digit[k] < axes[k].values.size()) break;
            digit[k] = 0;
        }
    }
    return points;
}

}  // namespace cf
