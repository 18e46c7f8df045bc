// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Colour ranges: which values the two ends of a colormap stand for. The one rule for every
// continuous colouring the application draws (point clouds, volume slices, |v| of vector
// fields; window, headless images and geometry export), so that a legend always names the
// range its colours were computed with.
//
// Three modes, chosen per colour channel (the window's Quick panel):
//   Automatic  the 1st to 99th percentile of the finite values (nearest rank, so the ends
//              are values of the data; from an evenly strided sample of at most
//              kPercentileSample values for larger arrays), so that a few outliers do not
//              squeeze everything else into one colour. A spread that is tiny against the
//              values' magnitude is noise, not a pattern: when p99 - p1 is below
//              kNearConstantRelative (0.1 %) of max(|p1|, |p99|), the range becomes
//              centre +- 0.05 % of the magnitude, so the field shows as one middle colour
//              with its real small variations, instead of noise stretched over the whole
//              map. An all-zero field gets [-0.5, 0.5] (its middle colour too); no finite
//              values: [0, 1]. A model's range hint (VolumeScalarChannel) replaces the
//              automatic rule where it is given.
//   Locked     keeps the range that was shown when it was locked.
//   Typed      the range the user typed (lo < hi, both finite).
// Values outside the range are drawn in the end colours and counted, so the legend can
// say so (outsideNote).
// Device data (CUDA views) are reduced on the device to their minimum and maximum only;
// the automatic rule then uses those in place of the percentiles and the counts are not
// known (the note says whether any values fall outside).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cf::app {

enum class RangeMode { Automatic, Locked, Typed };

// What the user chose for one colour channel. lo and hi matter for Locked and Typed.
struct RangeSetting {
    RangeMode mode = RangeMode::Automatic;
    double lo = 0.0, hi = 1.0;
    bool operator==(const RangeSetting&) const = default;
};

constexpr double kLowPercentile = 1.0;
constexpr double kHighPercentile = 99.0;
constexpr double kNearConstantRelative = 1e-3;
constexpr std::size_t kPercentileSample = 65536;

// The range a colouring used, and how the data relate to it.
struct ColorRange {
    double lo = 0.0, hi = 1.0;  // the colormap's ends (lo < hi)
    RangeMode mode = RangeMode::Automatic;
    bool hinted = false;        // Automatic: the model's hint was used
    bool nearConstant = false;  // Automatic: the spread was below kNearConstantRelative
    std::size_t count = 0;      // finite values seen (0 for device data: not counted)
    // The finite minimum and maximum of the data (NaN when there were none).
    double dataLo = 0.0, dataHi = 0.0;
    // Finite values below lo and above hi; nullopt when only the extremes are known.
    std::optional<std::size_t> below, above;
};

// Host values: the setting applied to `values` (non-finite values are ignored). `hint`: a
// model's range for Automatic (used when lo < hi). Throws ParameterError for a Locked or
// Typed setting whose bounds are not finite with lo < hi.
ColorRange resolveRange(const RangeSetting& setting, const std::vector<float>& values,
                        std::optional<std::pair<double, double>> hint = std::nullopt);
// Data known only by their finite extremes (a device reduction; lo > hi: no finite value).
ColorRange resolveRangeFromExtremes(const RangeSetting& setting, double dataLo, double dataHi,
                                    std::optional<std::pair<double, double>> hint = std::nullopt);

// "auto 1–99 %", "auto (near-constant)", "auto (model's range)", "locked", "typed".
std::string rangeModeText(const ColorRange& range);
// What the legend says about values outside the range, e.g. "12 of 2198 above (max 31.2
// mV)", "values below and above the range"; empty when all lie inside.
std::string outsideNote(const ColorRange& range, const std::string& unit);

}  // namespace cf::app
