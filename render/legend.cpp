// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/legend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/type_ptr.hpp>
#include <limits>

#include "render/embedded_shaders.hpp"
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

LegendSpec buildCategoricalLegend(const std::vector<std::string>& names, std::string label) {
    LegendSpec spec;
    spec.kind = LegendSpec::Kind::Categorical;
    spec.title = std::move(label);
    const auto& palette = categoricalPalette();
    for (std::size_t i = 0; i < names.size(); ++i)
        spec.entries.push_back({names[i], palette[i % palette.size()]});
    return spec;
}

std::array<std::uint8_t, 3> legendBarColor(Colormap map, int row, int rows) {
    const std::vector<std::uint8_t> table = colormapTable(map, rows);
    const auto i = static_cast<std::size_t>(std::clamp(row, 0, std::max(rows, 2) - 1)) * 3;
    return {table[i], table[i + 1], table[i + 2]};
}

LegendLayout layoutLegend(const LegendSpec& spec, int viewportWidth, int viewportHeight,
                          const LegendStyle& style) {
    const int s = std::max(style.pixelSize, 1);
    const int pad = 3 * s;  // panel padding
    const int textH = font::textHeight(s);
    // A label's cap height (7 font pixels) is centred on its tick mark.
    const int labelAbove = 3 * s;
    LegendLayout l;
    // Content laid out from (0, 0); moved into its corner at the end.
    int width = 0, y = 0;
    if (!spec.title.empty()) {
        l.title = {0, 0, font::textWidth(spec.title, s), textH};
        width = l.title.width;
        y = textH + 2 * s;
    }
    if (spec.kind == LegendSpec::Kind::Continuous) {
        const int barWidth = 8 * s, tickLength = 2 * s;
        const int length = style.barLengthPx > 0
                               ? style.barLengthPx
                               : std::max(12 * s, static_cast<int>(0.45 * viewportHeight));
        y += labelAbove;  // the top label reaches above the bar
        l.bar = {0, y, barWidth, length};
        // A gap wider than a glyph's side bearing, so that a tick never reads as a minus sign.
        const int labelX = barWidth + tickLength + 3 * s;
        // Halved first: hi - lo overflows for bounds near the largest doubles.
        const double halfSpan = 0.5 * spec.hi - 0.5 * spec.lo;
        for (const LegendTick& t : spec.ticks) {
            const double f = halfSpan > 0.0 ? (0.5 * t.value - 0.5 * spec.lo) / halfSpan : 0.5;
            const int ty = y + static_cast<int>(std::lround((1.0 - f) * (length - s)));
            l.tickMarks.push_back({barWidth, ty, tickLength, s});
            const int w = font::textWidth(t.label, s);
            l.labels.push_back({labelX, ty - labelAbove, w, textH});
            width = std::max(width, labelX + w);
        }
        width = std::max(width, barWidth + tickLength);
        y += length + (textH - labelAbove);  // room for the bottom label
    } else {
        const int swatch = 7 * s, pitch = font::kLineHeight * s + s;
        for (const LegendEntry& e : spec.entries) {
            l.swatches.push_back({0, y, swatch, swatch});
            const int w = font::textWidth(e.name, s);
            l.labels.push_back({swatch + 3 * s, y, w, textH});
            width = std::max(width, swatch + 3 * s + w);
            y += pitch;
        }
    }
    const int panelW = width + 2 * pad, panelH = y + 2 * pad;
    const int m = style.marginPx;
    const bool right =
        style.corner == LegendCorner::TopRight || style.corner == LegendCorner::BottomRight;
    const bool bottom =
        style.corner == LegendCorner::BottomLeft || style.corner == LegendCorner::BottomRight;
    const int px = right ? viewportWidth - m - panelW : m;
    const int py = bottom ? viewportHeight - m - panelH : m;
    l.panel = {px, py, panelW, panelH};
    const auto move = [&](font::PixelRect& r) {
        r.x += px + pad;
        r.y += py + pad;
    };
    move(l.title);
    move(l.bar);
    for (auto* list : {&l.tickMarks, &l.labels, &l.swatches})
        for (font::PixelRect& r : *list)
            move(r);
    return l;
}

LegendOverlay::LegendOverlay()
    : program_(buildProgram("legend", shaders::kLegendVert, shaders::kLegendFrag)),
      vao_(createVertexArray()),
      vertices_(createBuffer()) {
    const GLuint vao = vao_.get();
    glEnableVertexArrayAttrib(vao, 0);
    glEnableVertexArrayAttrib(vao, 1);
    glVertexArrayAttribFormat(vao, 0, 2, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribFormat(vao, 1, 4, GL_FLOAT, GL_FALSE, 2 * sizeof(float));
    glVertexArrayAttribBinding(vao, 0, 0);
    glVertexArrayAttribBinding(vao, 1, 0);
}

void LegendOverlay::draw(const LegendSpec& spec, int viewportWidth, int viewportHeight,
                         const LegendStyle& style) const {
    const LegendLayout l = layoutLegend(spec, viewportWidth, viewportHeight, style);
    struct Vertex {
        float x, y, r, g, b, a;
    };
    std::vector<Vertex> v;
    const auto quad = [&v](const font::PixelRect& q, const glm::vec4& c) {
        const auto x0 = static_cast<float>(q.x), y0 = static_cast<float>(q.y);
        const auto x1 = static_cast<float>(q.x + q.width), y1 = static_cast<float>(q.y + q.height);
        for (const auto& [x, y] :
             {std::pair{x0, y0}, {x1, y0}, {x1, y1}, {x0, y0}, {x1, y1}, {x0, y1}})
            v.push_back({x, y, c.r, c.g, c.b, c.a});
    };
    if (style.panelRgba.a > 0.0f) quad(l.panel, style.panelRgba);
    std::vector<font::PixelRect> text;
    const int s = std::max(style.pixelSize, 1);
    if (!spec.title.empty()) font::layoutText(spec.title, l.title.x, l.title.y, s, text);
    if (spec.kind == LegendSpec::Kind::Continuous) {
        // One quad per pixel row, colours from the table: exact colormap colours, row 0 = lo.
        const int rows = l.bar.height;
        const std::vector<std::uint8_t> table = colormapTable(spec.colormap, rows);
        for (int r = 0; r < rows; ++r) {
            const auto* c = &table[static_cast<std::size_t>(r) * 3];
            quad({l.bar.x, l.bar.y + rows - 1 - r, l.bar.width, 1},
                 {c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, 1.0f});
        }
        for (const font::PixelRect& t : l.tickMarks)
            quad(t, style.textRgba);
        for (std::size_t i = 0; i < spec.ticks.size(); ++i)
            font::layoutText(spec.ticks[i].label, l.labels[i].x, l.labels[i].y, s, text);
    } else {
        for (std::size_t i = 0; i < spec.entries.size(); ++i) {
            const auto& c = spec.entries[i].rgb;
            quad(l.swatches[i], {c[0], c[1], c[2], 1.0f});
            font::layoutText(spec.entries[i].name, l.labels[i].x, l.labels[i].y, s, text);
        }
    }
    for (const font::PixelRect& t : text)
        quad(t, style.textRgba);
    if (v.empty()) return;

    glNamedBufferData(vertices_.get(), static_cast<GLsizeiptr>(v.size() * sizeof(Vertex)), v.data(),
                      GL_STREAM_DRAW);
    const GLuint p = program_.get();
    glUseProgram(p);
    glProgramUniform2f(p, glGetUniformLocation(p, "uViewport"), static_cast<float>(viewportWidth),
                       static_cast<float>(viewportHeight));
    glVertexArrayVertexBuffer(vao_.get(), 0, vertices_.get(), 0, sizeof(Vertex));
    glBindVertexArray(vao_.get());
    const GLboolean depthTest = glIsEnabled(GL_DEPTH_TEST), blend = glIsEnabled(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(v.size()));
    if (depthTest) glEnable(GL_DEPTH_TEST);
    if (!blend) glDisable(GL_BLEND);
    glBindVertexArray(0);
}

}  // namespace cf::render
