// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a parameter slider's integer positions map to values.
//   Linear        the default.
//   Logarithmic   min > 0 and max/min >= 1000: every decade gets the same length.
//   ZeroLog       min == 0 with a positive default at least 10x below max (diffusion
//                 1 in [0, 1000]): position 0 is exactly 0, the rest is logarithmic from
//                 default/100 to max, so the default is not squeezed against the left end.
// The values a slider produces are rounded to what its resolution can tell apart (3.16
// rather than 3.1622776601683795), and its two ends are exactly min and max.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <variant>

#include "sim/core/params.hpp"

namespace cf::gui {

class SliderScale {
public:
    enum class Mode { Linear, Logarithmic, ZeroLog };
    static constexpr int kSteps = 1000;  // positions of a real (or wide integer) slider
    static constexpr double kLogRatio = 1000.0;

    static SliderScale forSpec(const ParamSpec& spec) {
        SliderScale s;
        s.min_ = spec.min;
        s.max_ = std::max(spec.min, spec.max);
        s.integer_ = spec.type == ParamType::Integer;
        const double span = s.max_ - s.min_;
        double def = 0.0;
        if (const auto* d = std::get_if<double>(&spec.defaultValue)) def = *d;
        if (const auto* i = std::get_if<std::int64_t>(&spec.defaultValue))
            def = static_cast<double>(*i);
        if (s.min_ > 0.0 && s.max_ / s.min_ >= kLogRatio) {
            s.mode_ = Mode::Logarithmic;
            s.logLow_ = s.min_;
        } else if (s.min_ == 0.0 && def > 0.0 && s.max_ >= 10.0 * def &&
                   !(s.integer_ && span <= kSteps)) {
            s.mode_ = Mode::ZeroLog;
            s.logLow_ = s.integer_ ? std::max(1.0, def / 100.0) : def / 100.0;
        }
        if (span <= 0.0)
            s.steps_ = 0;
        else if (s.integer_ && s.mode_ == Mode::Linear && span <= kSteps)
            s.steps_ = static_cast<int>(span);  // one position per integer
        else
            s.steps_ = kSteps;
        return s;
    }

    int positions() const { return steps_; }  // the slider's range is [0, positions()]
    Mode mode() const { return mode_; }
    bool logarithmic() const { return mode_ == Mode::Logarithmic; }

    double valueAt(int position) const {
        if (steps_ == 0 || position <= 0) return min_;
        if (position >= steps_) return max_;
        double v = 0.0;
        if (mode_ == Mode::Linear) {
            const double t = static_cast<double>(position) / steps_;
            v = min_ + t * (max_ - min_);
            const double quantum = std::pow(10.0, std::floor(std::log10((max_ - min_) / steps_)));
            v = roundSignificant(std::round(v / quantum) * quantum, 12);  // drop FP noise
        } else {
            // Logarithmic over [logLow_, max_]; ZeroLog keeps position 0 for zero.
            const int first = mode_ == Mode::ZeroLog ? 1 : 0;
            const double t = static_cast<double>(position - first) / (steps_ - first);
            const double lo = std::log(logLow_), hi = std::log(max_);
            v = std::exp(lo + t * (hi - lo));
            // Relative change from one position to the next; keep one digit more.
            const double relStep = (hi - lo) / (steps_ - first);
            const int digits = std::max(2, static_cast<int>(std::ceil(-std::log10(relStep))) + 1);
            v = roundSignificant(v, digits);
        }
        if (integer_) v = std::round(v);
        return std::clamp(v, min_, max_);
    }

    int positionOf(double value) const {
        if (steps_ == 0) return 0;
        const double v = std::clamp(value, min_, max_);
        double t = 0.0;
        int first = 0;
        switch (mode_) {
            case Mode::Linear:
                t = (v - min_) / (max_ - min_);
                break;
            case Mode::ZeroLog:
                if (v < logLow_ / 2.0) return 0;
                first = 1;
                [[fallthrough]];
            case Mode::Logarithmic:
                t = (std::log(std::max(v, logLow_)) - std::log(logLow_)) /
                    (std::log(max_) - std::log(logLow_));
                break;
        }
        return std::clamp(first + static_cast<int>(std::lround(t * (steps_ - first))), 0, steps_);
    }

private:
    static double roundSignificant(double v, int digits) {
        char text[64];
        std::snprintf(text, sizeof text, "%.*g", digits, v);
        return std::strtod(text, nullptr);
    }

    double min_ = 0.0;
    double max_ = 0.0;
    double logLow_ = 0.0;  // lowest value of the logarithmic part
    bool integer_ = false;
    Mode mode_ = Mode::Linear;
    int steps_ = 0;
};

}  // namespace cf::gui
