// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/legend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "render/render_error.hpp"

namespace cf::render {
namespace {

// step = mantissa x 10^exponent, mantissa 1, 2 or 5.
struct Step {
    int mantissa;
    int exponent;
    double value() const { return mantissa * std::pow(10.0, exponent); }
    // k steps, rounded once: dividing by an exact power of ten keeps 3 x 0.2 at 0.6.
    double times(double k) const {
        const double v = exponent < 0 ? k * mantissa / std::pow(10.0, -exponent)
                                      : k * mantissa * std::pow(10.0, exponent);
        return v == 0.0 ? 0.0 : v;  // no -0
    }
};

struct TickRange {
    double first, last;  // multiples of the step: first * step .. last * step
};

// Multiples of `step` inside [lo, hi], with a relative slack so that bounds which are
// multiples up to rounding (1e-6 / 1e-6 = 0.99999...) count as inside.
TickRange multiplesInside(double lo, double hi, const Step& step) {
    const double s = step.value(), slack = 1e-9;
    return {std::ceil(lo / s - slack), std::floor(hi / s + slack)};
}

Step niceStep(double lo, double hi, int maxTicks) {
    // Divided first: hi - lo overflows for bounds near the largest doubles.
    const double perTick = hi / maxTicks - lo / maxTicks;
    const double smallest = std::max(perTick, std::numeric_limits<double>::min());
    const int start = static_cast<int>(std::floor(std::log10(smallest))) - 1;
    for (int e = start;; ++e)
        for (int m : {1, 2, 5}) {
            const Step step{m, e};
            const TickRange r = multiplesInside(lo, hi, step);
            if (r.last - r.first + 1.0 <= maxTicks) return step;
        }
}

void checkRange(double lo, double hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi))
        throw RenderError("legend: range " + std::to_string(lo) + " .. " + std::to_string(hi) +
                          " is not finite");
    if (lo > hi)
        throw RenderError("legend: range lower end " + std::to_string(lo) +
                          " is above the upper end " + std::to_string(hi));
}

std::string formatNumber(const char* format, int precision, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, precision, v);
    return buf;
}

// "2.5e-06" -> "2.5e-6", "1e+05" -> "1e+5".
std::string scientific(double v, int digits) {
    std::string s = formatNumber("%.*e", digits, v);
    const std::size_t e = s.find('e');
    std::size_t firstDigit = e + 2;
    while (firstDigit + 1 < s.size() && s[firstDigit] == '0')
        ++firstDigit;
    return s.substr(0, e + 2) + s.substr(firstDigit);
}

}  // namespace

std::string legendTitle(const std::string& label, const std::string& unit) {
    if (unit.empty()) return label;
    return label.empty() ? "[" + unit + "]" : label + " [" + unit + "]";
}

std::vector<double> niceTicks(double lo, double hi, int maxTicks) {
    checkRange(lo, hi);
    if (lo == hi) return {lo};
    maxTicks = std::max(maxTicks, 2);
    const Step step = niceStep(lo, hi, maxTicks);
    const TickRange r = multiplesInside(lo, hi, step);
    std::vector<double> out;
    for (double k = r.first; k <= r.last; k += 1.0)
        out.push_back(step.times(k));
    return out;
}

std::vector<std::string> formatTicks(const std::vector<double>& values, double step) {
    double largest = 0.0;
    for (double v : values)
        largest = std::max(largest, std::abs(v));
    // Decimals the step needs: 0.2 -> 1, 5e-4 -> 4, 20 -> 0.
    const int stepExponent = step > 0.0 && std::isfinite(step)
                                 ? static_cast<int>(std::floor(std::log10(step) + 1e-9))
                                 : 0;
    const bool sci = largest >= 1e5 || (largest > 0.0 && largest < 1e-3);
    std::vector<std::string> out;
    if (!(step > 0.0 && std::isfinite(step))) {  // a single tick: no step to match
        for (double v : values)
            out.push_back(formatNumber("%.*g", 6, v == 0.0 ? 0.0 : v));
        return out;
    }
    for (double v : values) {
        if (v == 0.0 && sci) {
            out.emplace_back("0");
            continue;
        }
        if (sci) {
            const int e = static_cast<int>(std::floor(std::log10(std::abs(v)) + 1e-9));
            out.push_back(scientific(v, std::max(0, e - stepExponent)));
        } else {
            std::string s = formatNumber("%.*f", std::max(0, -stepExponent), v);
            if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);
            out.push_back(s);
        }
    }
    return out;
}

LegendSpec buildLegend(Colormap map, double lo, double hi, std::string label, std::string unit,
                       int maxTicks) {
    LegendSpec spec;
    spec.kind = LegendSpec::Kind::Continuous;
    spec.title = legendTitle(label, unit);
    spec.colormap = map;
    spec.lo = lo;
    spec.hi = hi;
    const std::vector<double> values = niceTicks(lo, hi, maxTicks);
    const double step = values.size() > 1 ? values[1] - values[0] : 0.0;
    const std::vector<std::string> labels = formatTicks(values, step);
    for (std::size_t i = 0; i < values.size(); ++i)
        spec.ticks.push_back({values[i], labels[i]});
    return spec;
}

LegendSpec buildCategoricalLegend(const std::vector<std::string>& names, std::string label,
                                  const CategoryPalette& palette, bool firstSeeThrough) {
    LegendSpec spec;
    spec.kind = LegendSpec::Kind::Categorical;
    spec.title = std::move(label);
    if (firstSeeThrough && !names.empty()) spec.title += " (" + names.front() + ": see-through)";
    for (std::size_t i = firstSeeThrough ? 1 : 0; i < names.size(); ++i)
        spec.entries.push_back({names[i], palette[i % palette.size()]});
    return spec;
}

std::array<std::uint8_t, 3> legendBarColor(Colormap map, int row, int rows) {
    const std::vector<std::uint8_t> table = colormapTable(map, rows);
    const auto i = static_cast<std::size_t>(std::clamp(row, 0, std::max(rows, 2) - 1)) * 3;
    return {table[i], table[i + 1], table[i + 2]};
}

bool legendHasContent(const LegendSpec& spec) {
    return spec.kind == LegendSpec::Kind::Continuous ? !spec.ticks.empty() : !spec.entries.empty();
}

namespace {
int scaled(double factor, int textPx) {
    return std::max(1, static_cast<int>(std::lround(factor * textPx)));
}
constexpr std::size_t kMaxListedEntries = 24;  // as the window's overlay lists
}  // namespace

LegendLayout layoutLegend(const LegendSpec& spec, int viewportWidth, int viewportHeight,
                          const LegendStyle& style, const Font& font) {
    const int t = style.textPx > 0 ? style.textPx : relativeTextPx(viewportHeight);
    const Font::LineMetrics fm = font.metrics(t);
    const int lineH = fm.height();
    const int pad = scaled(0.5, t);
    const int m = style.marginPx >= 0 ? style.marginPx : scaled(0.6, t);
    const int maxWidth =
        style.maxWidthPx > 0 ? style.maxWidthPx : static_cast<int>(0.45 * viewportWidth);
    const int maxContent = std::max(1, maxWidth - 2 * pad);
    const bool right =
        style.corner == LegendCorner::TopRight || style.corner == LegendCorner::BottomRight;
    const bool bottom =
        style.corner == LegendCorner::BottomLeft || style.corner == LegendCorner::BottomRight;
    // Height the panel may take: from its edge (margin and offset) to the opposite limit.
    const int limitTop = bottom ? std::max(m, style.topLimitPx) : m + style.offsetPx;
    const int limitBottom = bottom ? viewportHeight - m - style.offsetPx : viewportHeight - m;
    const int room = limitBottom - limitTop - 2 * pad;

    LegendLayout l;
    l.textPx = t;
    // Content laid out from (0, 0); moved into its corner at the end.
    int width = 0, y = 0;
    if (!spec.title.empty()) {
        l.titleText = font.elide(spec.title, t, maxContent);
        l.title = {0, 0, font.textWidth(l.titleText, t), lineH};
        width = l.title.width;
        y = lineH + scaled(0.3, t);
    }
    if (spec.kind == LegendSpec::Kind::Continuous) {
        const int barWidth = scaled(0.9, t), tickLength = scaled(0.3, t);
        const int tick = scaled(1.0 / 12.0, t);  // tick mark thickness
        // A label's digits are centred on its tick mark: its box reaches `above` over the
        // mark's top row and `below` under it.
        const int above = std::max(0, fm.ascender - (fm.capHeight + tick) / 2);
        const int below = std::max(0, lineH - above - tick);
        int length = style.barLengthPx;
        if (length <= 0)
            length = std::max(2 * tick, std::min({10 * t, static_cast<int>(0.4 * viewportHeight),
                                                  room - y - above - below}));
        y += above;
        l.bar = {0, y, barWidth, length};
        // A gap wider than a glyph's side bearing, so that a tick never reads as a minus sign.
        const int labelX = barWidth + tickLength + scaled(0.3, t);
        // Halved first: hi - lo overflows for bounds near the largest doubles.
        const double halfSpan = 0.5 * spec.hi - 0.5 * spec.lo;
        for (const LegendTick& tk : spec.ticks) {
            const double f = halfSpan > 0.0 ? (0.5 * tk.value - 0.5 * spec.lo) / halfSpan : 0.5;
            const int ty = y + static_cast<int>(std::lround((1.0 - f) * (length - tick)));
            l.tickMarks.push_back({barWidth, ty, tickLength, tick});
            const int w = font.textWidth(tk.label, t);
            l.labels.push_back({labelX, ty - above, w, lineH});
            l.labelTexts.push_back(tk.label);
            width = std::max(width, labelX + w);
        }
        width = std::max(width, barWidth + tickLength);
        y += length + tick + below;  // room for the bottom label
    } else {
        const int swatch = scaled(0.8, t), pitch = lineH + scaled(0.15, t);
        const int labelX = swatch + scaled(0.4, t);
        // Rows that fit under the title; one of them says how many are left out.
        const auto fitting =
            static_cast<std::size_t>(std::max(1, (room - y + pitch - lineH) / pitch));
        std::size_t shown = std::min({spec.entries.size(), kMaxListedEntries, fitting});
        if (shown < spec.entries.size()) shown = shown > 0 ? shown - 1 : 0;
        for (std::size_t i = 0; i < shown; ++i) {
            const int centre = y + fm.ascender - fm.capHeight / 2;  // the name's middle
            l.swatches.push_back({0, centre - swatch / 2, swatch, swatch});
            std::string name = font.elide(spec.entries[i].name, t, maxContent - labelX);
            const int w = font.textWidth(name, t);
            l.labels.push_back({labelX, y, w, lineH});
            l.labelTexts.push_back(std::move(name));
            width = std::max(width, labelX + w);
            y += pitch;
        }
        l.hiddenEntries = static_cast<int>(spec.entries.size() - shown);
        if (l.hiddenEntries > 0) {
            l.moreText =
                font.elide("\u2026 " + std::to_string(l.hiddenEntries) + " more", t, maxContent);
            l.more = {0, y, font.textWidth(l.moreText, t), lineH};
            width = std::max(width, l.more.width);
            y += pitch;
        }
        y -= pitch - lineH;  // no gap under the last row
    }
    const int panelW = width + 2 * pad, panelH = y + 2 * pad;
    const int px = right ? viewportWidth - m - panelW : m;
    const int py = bottom ? limitBottom - panelH : limitTop;
    l.panel = {px, py, panelW, panelH};
    const auto move = [&](PixelRect& r) {
        r.x += px + pad;
        r.y += py + pad;
    };
    move(l.title);
    move(l.bar);
    move(l.more);
    for (auto* list : {&l.tickMarks, &l.labels, &l.swatches})
        for (PixelRect& r : *list)
            move(r);
    return l;
}

void appendLegend(TextBatch& batch, const LegendSpec& spec, const LegendLayout& l,
                  const LegendStyle& style) {
    if (style.panelRgba.a > 0.0f) batch.rect(l.panel, style.panelRgba);
    const int t = l.textPx;
    if (!l.titleText.empty()) batch.text(l.titleText, l.title.x, l.title.y, t, style.textRgba);
    if (spec.kind == LegendSpec::Kind::Continuous) {
        // One rectangle per pixel row, colours from the table: exact colormap colours, row 0
        // = lo.
        const int rows = l.bar.height;
        const std::vector<std::uint8_t> table = colormapTable(spec.colormap, rows);
        for (int r = 0; r < rows; ++r) {
            const auto* c = &table[static_cast<std::size_t>(r) * 3];
            batch.rect({l.bar.x, l.bar.y + rows - 1 - r, l.bar.width, 1},
                       {c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, 1.0f});
        }
        for (const PixelRect& tk : l.tickMarks)
            batch.rect(tk, style.textRgba);
    } else {
        for (std::size_t i = 0; i < l.swatches.size(); ++i) {
            const auto& c = spec.entries[i].rgb;
            batch.rect(l.swatches[i], {c[0], c[1], c[2], 1.0f});
        }
        if (!l.moreText.empty()) batch.text(l.moreText, l.more.x, l.more.y, t, style.textRgba);
    }
    for (std::size_t i = 0; i < l.labels.size(); ++i)
        batch.text(l.labelTexts[i], l.labels[i].x, l.labels[i].y, t, style.textRgba);
}

LegendOverlay::LegendOverlay() = default;

LegendLayout LegendOverlay::layout(const LegendSpec& spec, int viewportWidth, int viewportHeight,
                                   const LegendStyle& style) const {
    return layoutLegend(spec, viewportWidth, viewportHeight, style, text_.font());
}

void LegendOverlay::draw(const LegendSpec& spec, int viewportWidth, int viewportHeight,
                         const LegendStyle& style) {
    if (!legendHasContent(spec) && spec.title.empty()) return;
    TextBatch batch;
    appendLegend(batch, spec, layout(spec, viewportWidth, viewportHeight, style), style);
    text_.draw(batch, viewportWidth, viewportHeight);
}

}  // namespace cf::render
