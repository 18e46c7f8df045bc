// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Legends: what a colour scale means. buildLegend() computes the content (nice ticks,
// labels, title) once for every front end: the window's ImGui overlay draws a LegendSpec
// with its own widgets; LegendOverlay draws it into the GL framebuffer for exported images
// and movies (colour bar, tick marks, text in DejaVu Sans through FreeType, sized relative
// to the image, on a translucent backing in a corner of the viewport).
#include <array>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "render/colormap.hpp"
#include "render/text_renderer.hpp"

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
// Entry i gets palette[i % 16]: the colours the categories are drawn in (a channel's declared
// ones, render::categoryPalette; by default those of PointCloud::colorByCategory()). With
// `firstSeeThrough` category 0 is drawn in no colour (empty space a volume's slices leave
// see-through): it is left out and the title says so ("label (name: see-through)").
LegendSpec buildCategoricalLegend(const std::vector<std::string>& names, std::string label,
                                  const CategoryPalette& palette = categoricalPalette(),
                                  bool firstSeeThrough = false);

enum class LegendCorner { TopLeft, TopRight, BottomLeft, BottomRight };

// Sizes follow the text size, and the text size follows the image (relativeTextPx), so a
// legend covers the same share of a 640x360 preview and of a 3840x2160 frame.
struct LegendStyle {
    // The window's overlay (gui/imgui_overlay_panels.cpp) puts a cloud's legend bottom right
    // and a volume's bottom left.
    LegendCorner corner = LegendCorner::BottomRight;
    int textPx = 0;       // text size (the font's em) in pixels; 0: relativeTextPx(height)
    int marginPx = -1;    // from the viewport's edges; -1: 0.6 text sizes
    int offsetPx = 0;     // further from the corner's top or bottom edge (stacked legends)
    int topLimitPx = 0;   // a bottom legend stays below this row (captions above it)
    int barLengthPx = 0;  // 0: 10 text sizes, at most 40 % of the height and what fits
    int maxWidthPx = 0;   // 0: 45 % of the viewport width; longer names end in "…"
    glm::vec4 textRgba{1.0f, 1.0f, 1.0f, 1.0f};
    glm::vec4 panelRgba{0.0f, 0.0f, 0.0f, 0.55f};  // translucent backing; alpha 0 for none
};

// Where everything goes, in viewport pixels with y down (image order), and the text drawn.
struct LegendLayout {
    int textPx = 0;
    PixelRect panel{};
    PixelRect title{};  // text box (Font::metrics(textPx).height() tall)
    std::string titleText;
    PixelRect bar{};                   // continuous only
    std::vector<PixelRect> tickMarks;  // one per tick
    std::vector<PixelRect> labels;     // text boxes: one per tick or shown entry
    std::vector<std::string> labelTexts;
    std::vector<PixelRect> swatches;  // categorical only, one per shown entry
    // Categorical entries left out for want of room (at most 24 are listed, as in the
    // window): a "… N more" line says how many.
    int hiddenEntries = 0;
    PixelRect more{};
    std::string moreText;
};
LegendLayout layoutLegend(const LegendSpec& spec, int viewportWidth, int viewportHeight,
                          const LegendStyle& style, const Font& font);
// Colour of the bar's pixel row `row` counted from the bottom (row 0 = lo, last row = hi),
// RGB8: what LegendOverlay draws there.
std::array<std::uint8_t, 3> legendBarColor(Colormap map, int row, int rows);
// Whether a legend has anything to show: ticks (continuous) or entries (categorical).
bool legendHasContent(const LegendSpec& spec);
// Adds the legend laid out as `layout` to `batch`: backing, bar, tick marks, swatches, text.
void appendLegend(TextBatch& batch, const LegendSpec& spec, const LegendLayout& layout,
                  const LegendStyle& style);

class LegendOverlay {
public:
    LegendOverlay();  // needs a current GL 4.5 context; loads the font (RenderError if missing)
    // Draws over the bound framebuffer's viewport (no depth test, blended).
    void draw(const LegendSpec& spec, int viewportWidth, int viewportHeight,
              const LegendStyle& style = {});
    LegendLayout layout(const LegendSpec& spec, int viewportWidth, int viewportHeight,
                        const LegendStyle& style = {}) const;
    // The text renderer legends are drawn with, shared by captions (one glyph atlas).
    TextRenderer& text() { return text_; }

private:
    TextRenderer text_;
};

}  // namespace cf::render
