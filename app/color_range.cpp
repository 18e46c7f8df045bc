// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/color_range.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/errors.hpp"
#include "sim/core/quantity_format.hpp"

namespace cf::app {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The p-th percentile (0..100) of `v` (reordered in place) by nearest rank: the smallest
// value with at least p % of the values at or below it, always one of the values (a field of
// a few levels keeps its levels as the range's ends).
double percentile(std::vector<double>& v, double p) {
    const double rank = std::ceil(p / 100.0 * static_cast<double>(v.size()));
    const auto k =
        static_cast<std::size_t>(std::clamp(rank - 1.0, 0.0, static_cast<double>(v.size()) - 1.0));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

void checkFixed(const RangeSetting& s) {
    if (!(std::isfinite(s.lo) && std::isfinite(s.hi) && s.lo < s.hi))
        throw ParameterError("colour range " + formatQuantity(s.lo, "", 6) + " to " +
                             formatQuantity(s.hi, "", 6) +
                             ": needs two finite values, the first below the second");
}

// The automatic rule on a spread [a, b] (percentiles, or the extremes).
void automatic(ColorRange& r, double a, double b) {
    const double magnitude = std::max(std::fabs(a), std::fabs(b));
    const double spread = b - a;
    if (spread > 0.0 && spread >= kNearConstantRelative * magnitude) {
        r.lo = a;
        r.hi = b;
        return;
    }
    r.nearConstant = true;
    const double centre = 0.5 * (a + b);
    const double half = magnitude > 0.0 ? 0.5 * kNearConstantRelative * magnitude : 0.5;
    r.lo = centre - half;
    r.hi = centre + half;
}

// Fills mode, lo and hi from the setting; `a`, `b`: the spread the automatic rule uses
// (NaN: no finite data).
void applySetting(ColorRange& r, const RangeSetting& s, double a, double b,
                  const std::optional<std::pair<double, double>>& hint) {
    r.mode = s.mode;
    if (s.mode != RangeMode::Automatic) {
        checkFixed(s);
        r.lo = s.lo;
        r.hi = s.hi;
    } else if (hint && hint->first < hint->second) {
        r.hinted = true;
        r.lo = hint->first;
        r.hi = hint->second;
    } else if (std::isnan(a)) {
        r.lo = 0.0;
        r.hi = 1.0;
    } else {
        automatic(r, a, b);
    }
}

}  // namespace

ColorRange resolveRange(const RangeSetting& setting, const std::vector<float>& values,
                        std::optional<std::pair<double, double>> hint) {
    ColorRange r;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    std::size_t finite = 0;
    for (const float x : values)
        if (std::isfinite(x)) {
            lo = std::min(lo, static_cast<double>(x));
            hi = std::max(hi, static_cast<double>(x));
            ++finite;
        }
    r.count = finite;
    r.dataLo = finite ? lo : kNaN;
    r.dataHi = finite ? hi : kNaN;
    double a = kNaN, b = kNaN;
    if (finite > 0) {
        // An evenly strided sample keeps the percentiles cheap for large volumes.
        const std::size_t stride = std::max<std::size_t>(1, values.size() / kPercentileSample);
        std::vector<double> sample;
        sample.reserve(values.size() / stride + 1);
        for (std::size_t i = 0; i < values.size(); i += stride)
            if (std::isfinite(values[i])) sample.push_back(values[i]);
        if (sample.empty()) sample = {lo, hi};
        a = percentile(sample, kLowPercentile);
        b = percentile(sample, kHighPercentile);
    }
    applySetting(r, setting, a, b, hint);
    std::size_t below = 0, above = 0;
    for (const float x : values) {
        if (!std::isfinite(x)) continue;
        below += x < r.lo;
        above += x > r.hi;
    }
    r.below = below;
    r.above = above;
    return r;
}

ColorRange resolveRangeFromExtremes(const RangeSetting& setting, double dataLo, double dataHi,
                                    std::optional<std::pair<double, double>> hint) {
    ColorRange r;
    const bool any = dataLo <= dataHi && std::isfinite(dataLo) && std::isfinite(dataHi);
    r.dataLo = any ? dataLo : kNaN;
    r.dataHi = any ? dataHi : kNaN;
    applySetting(r, setting, r.dataLo, r.dataHi, hint);
    if (!any) {
        r.below = 0;
        r.above = 0;
    }
    return r;
}

std::string rangeModeText(const ColorRange& r) {
    switch (r.mode) {
        case RangeMode::Locked:
            return "locked";
        case RangeMode::Typed:
            return "typed";
        case RangeMode::Automatic:
            break;
    }
    if (r.hinted) return "auto (model's range)";
    if (r.nearConstant) return "auto (near-constant)";
    return "auto 1\u201399 %";
}

std::string outsideNote(const ColorRange& r, const std::string& unit) {
    if (std::isnan(r.dataLo)) return {};
    const bool low = r.dataLo<r.lo, high = r.dataHi> r.hi;
    if (!low && !high) return {};
    if (!r.below || !r.above) {  // extremes only
        std::string s = low && high ? "values below and above"
                        : low       ? "values below"
                                    : "values above";
        s += " the range (" + formatQuantity(r.dataLo, unit, 4) + " to " +
             formatQuantity(r.dataHi, unit, 4) + ")";
        return s;
    }
    const std::string of = " of " + std::to_string(r.count);
    std::string s;
    if (low)
        s = std::to_string(*r.below) + of + " below (min " + formatQuantity(r.dataLo, unit, 4) +
            ")";
    if (high) {
        if (!s.empty()) s += ", ";
        s += std::to_string(*r.above) + of + " above (max " + formatQuantity(r.dataHi, unit, 4) +
             ")";
    }
    return s;
}

}  // namespace cf::app
