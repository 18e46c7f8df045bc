// SPDX-License-Identifier: GPL-3.0-or-later
// Legends: nice ticks and labels (exact), and the legend drawn into an image (colour bar
// pixels against the colormap, label ink in the boxes the layout promises). Text itself:
// test_scene_text.cpp.
#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "render/legend.hpp"
#include "render/offscreen_target.hpp"
#include "tests/render/scene_test_support.hpp"

namespace cf::render {
namespace {

using test::GlTest;
using test::pixel;

std::vector<std::string> labelsOf(const LegendSpec& s) {
    std::vector<std::string> out;
    for (const LegendTick& t : s.ticks)
        out.push_back(t.label);
    return out;
}

std::vector<double> valuesOf(const LegendSpec& s) {
    std::vector<double> out;
    for (const LegendTick& t : s.ticks)
        out.push_back(t.value);
    return out;
}

using Strings = std::vector<std::string>;
using Values = std::vector<double>;

// Values compare exactly: ticks are k x mantissa / 10^n, rounded once.
TEST(Legend, TicksAndLabelsForTypicalRanges) {
    LegendSpec s = buildLegend(Colormap::Viridis, 0.0, 1.0, "fraction", "", 6);
    EXPECT_EQ(valuesOf(s), (Values{0.0, 0.2, 0.4, 0.6, 0.8, 1.0}));
    EXPECT_EQ(labelsOf(s), (Strings{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
    EXPECT_EQ(s.title, "fraction");

    s = buildLegend(Colormap::Magma, 0.0, 37.0, "cells", "", 6);
    EXPECT_EQ(valuesOf(s), (Values{0.0, 10.0, 20.0, 30.0}));
    EXPECT_EQ(labelsOf(s), (Strings{"0", "10", "20", "30"}));

    s = buildLegend(Colormap::Viridis, 1e-6, 5e-6, "rate", "1/s", 6);
    EXPECT_EQ(valuesOf(s), (Values{1e-6, 2e-6, 3e-6, 4e-6, 5e-6}));
    EXPECT_EQ(labelsOf(s), (Strings{"1e-6", "2e-6", "3e-6", "4e-6", "5e-6"}));
    EXPECT_EQ(s.title, "rate [1/s]");

    s = buildLegend(Colormap::Coolwarm, -1.0, 0.5, "potential", "mV", 6);
    EXPECT_EQ(valuesOf(s), (Values{-1.0, -0.5, 0.0, 0.5}));
    EXPECT_EQ(labelsOf(s), (Strings{"-1.0", "-0.5", "0.0", "0.5"}));

    s = buildLegend(Colormap::Viridis, -250.0, -40.0, "z", "µm", 6);
    EXPECT_EQ(valuesOf(s), (Values{-250.0, -200.0, -150.0, -100.0, -50.0}));
    EXPECT_EQ(labelsOf(s), (Strings{"-250", "-200", "-150", "-100", "-50"}));
    EXPECT_EQ(s.title, "z [µm]");

    s = buildLegend(Colormap::Viridis, 0.0, 3.2e6, "", "Pa", 6);
    EXPECT_EQ(labelsOf(s), (Strings{"0", "1e+6", "2e+6", "3e+6"}));
    EXPECT_EQ(s.title, "[Pa]");

    s = buildLegend(Colormap::Viridis, 1.0e5, 1.5e5, "n", "", 6);
    EXPECT_EQ(labelsOf(s), (Strings{"1.0e+5", "1.1e+5", "1.2e+5", "1.3e+5", "1.4e+5", "1.5e+5"}));

    s = buildLegend(Colormap::Viridis, -3e-4, 3e-4, "flux", "", 7);  // small, around zero
    EXPECT_EQ(labelsOf(s), (Strings{"-3e-4", "-2e-4", "-1e-4", "0", "1e-4", "2e-4", "3e-4"}));

    s = buildLegend(Colormap::Viridis, 2.5, 2.5, "constant", "", 6);
    EXPECT_EQ(valuesOf(s), (Values{2.5}));
    EXPECT_EQ(labelsOf(s), (Strings{"2.5"}));
    // Bounds at the ends of the double range: no overflow, still nice.
    const Values huge = niceTicks(-1e308, 1e308, 5);
    ASSERT_EQ(huge.size(), 5u);
    EXPECT_DOUBLE_EQ(huge.front(), -1e308);
    EXPECT_DOUBLE_EQ(huge[1], -5e307);
    EXPECT_EQ(huge[2], 0.0);

    EXPECT_THROW(buildLegend(Colormap::Viridis, 1.0, 0.0, "", "", 6), RenderError);
    EXPECT_THROW(buildLegend(Colormap::Viridis, 0.0, std::nan(""), "", "", 6), RenderError);
}

// Over random ranges: at most maxTicks ticks, inside the range, evenly spaced by
// {1, 2, 5} x 10^k, the smallest such step (half of it, or the next smaller nice step,
// would give too many), and labels distinct (precision enough to tell ticks apart).
TEST(Legend, TicksAreNiceForRandomRanges) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> mag(-8.0, 8.0), unit(-1.0, 1.0);
    for (int trial = 0; trial < 2000; ++trial) {
        const double scale = std::pow(10.0, mag(rng));
        double lo = unit(rng) * scale, hi = unit(rng) * scale;
        if (lo > hi) std::swap(lo, hi);
        if (lo == hi) continue;
        const int maxTicks = 2 + trial % 9;
        const std::vector<double> t = niceTicks(lo, hi, maxTicks);
        ASSERT_FALSE(t.empty());
        ASSERT_LE(static_cast<int>(t.size()), maxTicks);
        const double slack = 1e-9 * (hi - lo);
        EXPECT_GE(t.front(), lo - slack);
        EXPECT_LE(t.back(), hi + slack);
        if (t.size() < 2) continue;
        const double step = t[1] - t[0];
        const double e = std::floor(std::log10(step) + 1e-9);
        const double m = step / std::pow(10.0, e);
        EXPECT_TRUE(std::abs(m - 1) < 1e-6 || std::abs(m - 2) < 1e-6 || std::abs(m - 5) < 1e-6)
            << "step " << step;
        for (std::size_t i = 1; i < t.size(); ++i)
            EXPECT_NEAR(t[i] - t[i - 1], step, 1e-6 * step);
        // The next smaller nice step fits more than maxTicks.
        const double smaller = std::abs(m - 1) < 1e-6
                                   ? 0.5 * step
                                   : (std::abs(m - 2) < 1e-6 ? 0.5 * step : 0.4 * step);
        const double count = std::floor(hi / smaller + 1e-9) - std::ceil(lo / smaller - 1e-9) + 1;
        EXPECT_GT(count, maxTicks) << lo << " .. " << hi;
        const std::vector<std::string> labels = formatTicks(t, step);
        EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size())
            << lo << " .. " << hi << ": " << labels.front() << " " << labels.back();
    }
}

TEST(Legend, CategoricalEntriesUseThePalette) {
    const LegendSpec s = buildCategoricalLegend({"stem", "transit", "differentiated"}, "cell type");
    EXPECT_EQ(s.kind, LegendSpec::Kind::Categorical);
    EXPECT_EQ(s.title, "cell type");
    ASSERT_EQ(s.entries.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(s.entries[i].rgb, categoricalPalette()[i]);
    EXPECT_EQ(s.entries[2].name, "differentiated");
}

// A channel's own palette, and an empty category 0 that is drawn see-through: left out of
// the entries (the others keep their palette index) and named in the title.
TEST(Legend, CategoricalEntriesUseTheGivenPaletteAndLeaveOutASeeThroughFirst) {
    const CategoryPalette palette =
        categoryPalette({0x000000, 0xff0000, 0x00ff00}, 3);  // declared: empty, red, green
    const LegendSpec s = buildCategoricalLegend({"empty", "wall", "cell"}, "site", palette, true);
    EXPECT_EQ(s.title, "site (empty: see-through)");
    ASSERT_EQ(s.entries.size(), 2u);
    EXPECT_EQ(s.entries[0].name, "wall");
    EXPECT_EQ(s.entries[0].rgb, rgbOf(0xff0000));
    EXPECT_EQ(s.entries[1].rgb, rgbOf(0x00ff00));
    const LegendSpec all = buildCategoricalLegend({"empty", "wall", "cell"}, "site", palette);
    EXPECT_EQ(all.title, "site");
    ASSERT_EQ(all.entries.size(), 3u);
    EXPECT_EQ(all.entries[0].rgb, palette[0]);
}

bool inside(const PixelRect& outer, const PixelRect& r) {
    return contains(outer, r);
}

// Pixels of `box` brighter than `level` in red and green (white text on black).
int bright(const Image& im, const PixelRect& box, int level = 128) {
    int n = 0;
    for (int y = std::max(box.y, 0); y < std::min(box.bottom(), im.height); ++y)
        for (int x = std::max(box.x, 0); x < std::min(box.right(), im.width); ++x)
            n += pixel(im, x, y)[0] > level && pixel(im, x, y)[1] > level ? 1 : 0;
    return n;
}

// Drawn on black without a backing: every pixel row of the bar has its colormap colour
// exactly (row 0 = the first colour at the bottom); tick marks are white; each label's
// text box holds the label's ink (FreeType's antialiased glyphs: at least one bright
// pixel per character) and nothing bright lies outside the panel. Sizes follow the text
// size, which follows the image height.
TEST_F(GlTest, LegendDrawnIntoTheImage) {
    LegendOverlay overlay;
    const LegendSpec spec = buildLegend(Colormap::Magma, 0.0, 37.0, "count", "1/µm^2", 6);
    for (const auto& [w, h, corner] :
         {std::tuple{400, 300, LegendCorner::BottomRight}, {800, 600, LegendCorner::TopLeft}}) {
        LegendStyle style;
        style.panelRgba.a = 0.0f;
        style.corner = corner;
        OffscreenTarget target(w, h);
        target.bind();
        target.clear(0.0f, 0.0f, 0.0f, 1.0f);
        overlay.draw(spec, w, h, style);
        const Image im{w, h, target.readPixels()};
        const LegendLayout l = overlay.layout(spec, w, h, style);
        const int t = relativeTextPx(h), margin = static_cast<int>(std::lround(0.6 * t));
        EXPECT_EQ(l.textPx, t);
        // In its corner, one margin from both edges.
        if (corner == LegendCorner::BottomRight) {
            EXPECT_EQ(w - l.panel.right(), margin);
            EXPECT_EQ(h - l.panel.bottom(), margin);
        } else {
            EXPECT_EQ(l.panel.x, margin);
            EXPECT_EQ(l.panel.y, margin);
        }
        EXPECT_EQ(l.bar.width, static_cast<int>(std::lround(0.9 * t)));
        EXPECT_EQ(l.bar.height, std::min(10 * t, static_cast<int>(0.4 * h)));
        const std::vector<std::uint8_t> table = colormapTable(Colormap::Magma, l.bar.height);
        for (int r = 0; r < l.bar.height; ++r) {
            const int y = l.bar.y + l.bar.height - 1 - r;
            for (int x : {l.bar.x, l.bar.right() - 1}) {
                const std::uint8_t* c = pixel(im, x, y);
                for (int ch = 0; ch < 3; ++ch)
                    ASSERT_EQ(c[ch], table[static_cast<std::size_t>(3 * r + ch)]) << "row " << r;
            }
        }
        EXPECT_EQ(legendBarColor(Colormap::Magma, 0, l.bar.height)[0],
                  colormapTable(Colormap::Magma, 2)[0]);
        ASSERT_EQ(l.labels.size(), spec.ticks.size());
        for (std::size_t i = 0; i < spec.ticks.size(); ++i) {
            EXPECT_TRUE(inside(l.panel, l.labels[i]));
            EXPECT_EQ(l.labelTexts[i], spec.ticks[i].label);
            EXPECT_GE(bright(im, l.labels[i]), static_cast<int>(spec.ticks[i].label.size()))
                << spec.ticks[i].label;
            EXPECT_EQ(bright(im, l.tickMarks[i], 254),
                      l.tickMarks[i].width * l.tickMarks[i].height);
            // The digits are centred on the tick: the label's bright rows straddle it
            // (tolerance: one pixel of rounding either side).
            int top = h, bottom = -1;
            for (int y = l.labels[i].y; y < l.labels[i].bottom(); ++y)
                for (int x = l.labels[i].x; x < l.labels[i].right(); ++x)
                    if (pixel(im, x, y)[0] > 128) {
                        top = std::min(top, y);
                        bottom = std::max(bottom, y);
                    }
            const double mid = 0.5 * (top + bottom),
                         tick = l.tickMarks[i].y + 0.5 * (l.tickMarks[i].height - 1);
            EXPECT_NEAR(mid, tick, 1.5) << spec.ticks[i].label;
        }
        EXPECT_GE(bright(im, l.title), 5);
        // Nothing drawn outside the panel.
        int outside = 0;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                if (!contains(l.panel, {x, y, 1, 1}))
                    outside += pixel(im, x, y)[0] | pixel(im, x, y)[1] | pixel(im, x, y)[2];
        EXPECT_EQ(outside, 0);
        // Ticks ascend upwards: 0 at the bar's bottom, 30 at 30/37 of its height.
        EXPECT_EQ(l.tickMarks.front().bottom(), l.bar.bottom());
        EXPECT_LT(l.tickMarks.back().y, l.tickMarks.front().y);
    }
}

// Categorical: swatches in the palette colours, names beside them; a list longer than the
// room (or than the window's 24) ends in "… N more".
TEST_F(GlTest, CategoricalLegendDrawnIntoTheImage) {
    LegendOverlay overlay;
    const LegendSpec spec = buildCategoricalLegend({"stem", "TA", "diff."}, "type");
    LegendStyle style;
    style.corner = LegendCorner::TopLeft;
    OffscreenTarget target(320, 240);
    target.bind();
    target.clear(0.0f, 0.0f, 0.0f, 1.0f);
    overlay.draw(spec, 320, 240, style);
    const Image im{320, 240, target.readPixels()};
    const LegendLayout l = overlay.layout(spec, 320, 240, style);
    ASSERT_EQ(l.swatches.size(), 3u);
    EXPECT_EQ(l.hiddenEntries, 0);
    for (std::size_t i = 0; i < 3; ++i) {
        const PixelRect& s = l.swatches[i];
        const std::uint8_t* c = pixel(im, s.x + s.width / 2, s.y + s.height / 2);
        for (int ch = 0; ch < 3; ++ch)  // over a 55 % black backing: the swatch is opaque
            EXPECT_NEAR(c[ch], categoricalPalette()[i][static_cast<std::size_t>(ch)] * 255.0f,
                        1.0f);
        EXPECT_GT(l.labels[i].x, s.right());
        EXPECT_TRUE(inside(l.panel, l.labels[i]));
    }

    std::vector<std::string> many;
    for (int i = 0; i < 40; ++i)
        many.push_back("type " + std::to_string(i));
    const LegendSpec big = buildCategoricalLegend(many, "types");
    for (const auto& [w, h] : {std::pair{640, 360}, std::pair{3840, 2160}}) {
        const LegendLayout b = overlay.layout(big, w, h, style);
        EXPECT_LE(static_cast<int>(b.swatches.size()), 24);
        EXPECT_EQ(static_cast<int>(b.swatches.size()) + b.hiddenEntries, 40);
        EXPECT_EQ(b.moreText, "\u2026 " + std::to_string(b.hiddenEntries) + " more");
        EXPECT_TRUE(contains({0, 0, w, h}, b.panel)) << w << "x" << h;
    }
}

}  // namespace
}  // namespace cf::render
