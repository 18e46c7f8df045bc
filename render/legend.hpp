// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Legends: what a colour scale means. buildLegend() computes the content (nice ticks,
// labels, title) once for every front end: the Qt GUI draws a LegendSpec with its own
// widgets; LegendOverlay draws it into the GL framebuffer for headless images (colour bar,
// tick marks, bitmap-font text in a corner of the viewport).
#include <array>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "render/bitmap_font.hpp"
#include "render/colormap.hpp"
#include "render/gl_program.hpp"

namespace cf::render {

struct LegendTick {
    double value;
    std::string label;
};

struct LegendEntry {
    std::string name;
    std::array<float, 3> rgb;
};

struct LegendSpec {
    enum class Kind { Continuous, Categorical };
    Kind kind = Kind::Continuous;
    std::string title;  // "label [unit]"
    // Continuous: the colormap spans [lo, hi]; ticks ascending, all inside it.
    Colormap colormap = Colormap::Viridis;
    double lo = 0.0, hi = 1.0;
    std::vector<LegendTick> ticks;
    // Categorical: one swatch per entry.
    std::vector<LegendEntry> entries;
};

// "label [unit]", "label" without a unit, "[unit]" without a label.
std::string legendTitle(const std::string& label, const std::string& unit);

// At most `maxTicks` (>= 2 used) multiples of the smallest step of the form {1, 2, 5} x 10^k
// inside [lo, hi]. lo == hi gives that one value. Throws RenderError for non-finite bounds
// or lo > hi.
std::vector<double> niceTicks(double lo, double hi, int maxTicks);
// Labels of ticks `step` apart with one precision for all: fixed point with the step's
// decimals ("0.0", "0.2", ...), or scientific ("2e-6", "1.5e+5") when the largest
// magnitude is at least 1e5 or below 1e-3. Zero is always "0" in scientific, never "-0".
// No step (a single tick, step <= 0): six significant digits ("2.5").
std::vector<std::string> formatTicks(const std::vector<double>& values, double step);

LegendSpec buildLegend(Colormap map, double lo, double hi, std::string label, std::string unit,
                       int maxTicks = 6);
// Entry i gets categoricalPalette()[i % 16], the colours of PointCloud::colorByCategory().
LegendSpec buildCategoricalLegend(const std::vector<std::string>& names, std::string label);

enum class LegendCorner { TopLeft, TopRight, BottomLeft, BottomRight };

struct LegendStyle {
    LegendCorner corner = LegendCorner::TopRight;
    int marginPx = 6;     // from the viewport's edges
    int pixelSize = 1;    // screen pixels per font pixel; bar, ticks and padding scale too
    int barLengthPx = 0;  // colour bar length; 0: 45% of the viewport height
    glm::vec4 textRgba{1.0f, 1.0f, 1.0f, 1.0f};
    glm::vec4 panelRgba{0.0f, 0.0f, 0.0f, 0.45f};  // backdrop; alpha 0 for none
};

// Where everything goes, in viewport pixels with y down (image order).
struct LegendLayout {
    font::PixelRect panel{};
    font::PixelRect title{};
    font::PixelRect bar{};                   // continuous only
    std::vector<font::PixelRect> tickMarks;  // one per tick
    std::vector<font::PixelRect> labels;     // text boxes: one per tick or entry
    std::vector<font::PixelRect> swatches;   // categorical only
};
LegendLayout layoutLegend(const LegendSpec& spec, int viewportWidth, int viewportHeight,
                          const LegendStyle& style);
// Colour of the bar's pixel row `row` counted from the bottom (row 0 = lo, last row = hi),
// RGB8: what LegendOverlay draws there.
std::array<std::uint8_t, 3> legendBarColor(Colormap map, int row, int rows);

class LegendOverlay {
public:
    LegendOverlay();  // needs a current GL 4.5 context
    // Draws over the bound framebuffer's viewport (no depth test, blended).
    void draw(const LegendSpec& spec, int viewportWidth, int viewportHeight,
              const LegendStyle& style = {}) const;

private:
    Program program_;
    VertexArray vao_;
    Buffer vertices_;
};

}  // namespace cf::render
