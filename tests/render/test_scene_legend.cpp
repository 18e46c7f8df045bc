// SPDX-License-Identifier: GPL-3.0-or-later
// Legends: nice ticks and labels (exact), the bitmap font, and the legend drawn into an
// image (colour bar pixels against the colormap, text pixels against the font).
#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "render/bitmap_font.hpp"
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

TEST(BitmapFont, CoversAsciiAndUnits) {
    for (char32_t c = 0x20; c < 0x7F; ++c)
        EXPECT_TRUE(font::hasGlyph(c)) << static_cast<int>(c);
    EXPECT_TRUE(font::hasGlyph(U'\u00B5'));
    EXPECT_EQ(font::glyph(U'\u03BC'), font::glyph(U'\u00B5'));  // Greek mu = micro sign
    EXPECT_FALSE(font::hasGlyph(U'\u4E00'));
    // Distinct glyphs for the characters of numbers and units.
    const std::u32string chars =
        U"0123456789.-+[]/^\u00B5abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::set<font::GlyphRows> shapes;
    for (char32_t c : chars)
        shapes.insert(font::glyph(c));
    EXPECT_EQ(shapes.size(), chars.size());
    EXPECT_EQ(font::decodeUtf8("\xC2\xB5m"), U"\u00B5m");
    EXPECT_EQ(font::decodeUtf8("a\xFF"), U"a\uFFFD");
    EXPECT_EQ(font::textWidth("1e-6", 1), 4 * 6 - 1);
    EXPECT_EQ(font::textWidth("\xC2\xB5m", 3), (2 * 6 - 1) * 3);
    EXPECT_EQ(font::textWidth("", 2), 0);
}

int litFontPixels(const std::string& text) {
    int n = 0;
    for (char32_t c : font::decodeUtf8(text))
        for (std::uint8_t row : font::glyph(c))
            n += std::popcount(row);
    return n;
}

bool inside(const font::PixelRect& outer, const font::PixelRect& r) {
    return r.x >= outer.x && r.y >= outer.y && r.x + r.width <= outer.x + outer.width &&
           r.y + r.height <= outer.y + outer.height;
}

// Drawn on black without a backdrop: every pixel row of the bar has its colormap colour
// (row 0 = the first colour at the bottom, the last row the last colour) exactly; each
// label's box holds exactly as many white pixels as its glyphs have lit font pixels
// (pixel size 1: one screen pixel each; size 2: four); tick marks are white.
TEST_F(GlTest, LegendDrawnIntoTheImage) {
    LegendOverlay overlay;
    const LegendSpec spec = buildLegend(Colormap::Magma, 0.0, 37.0, "count", "1/µm^2", 6);
    for (int size : {1, 2}) {
        LegendStyle style;
        style.pixelSize = size;
        style.panelRgba.a = 0.0f;
        style.corner = size == 1 ? LegendCorner::TopRight : LegendCorner::BottomLeft;
        const int w = 200 * size, h = 140 * size;
        OffscreenTarget target(w, h);
        target.bind();
        target.clear(0.0f, 0.0f, 0.0f, 1.0f);
        overlay.draw(spec, w, h, style);
        const Image im{w, h, target.readPixels()};
        const LegendLayout l = layoutLegend(spec, w, h, style);
        // In its corner, margin 6 from both edges.
        EXPECT_EQ(size == 1 ? w - (l.panel.x + l.panel.width) : l.panel.x, style.marginPx);
        EXPECT_EQ(size == 1 ? l.panel.y : h - (l.panel.y + l.panel.height), style.marginPx);
        EXPECT_EQ(l.bar.width, 8 * size);
        EXPECT_EQ(l.bar.height, static_cast<int>(0.45 * h));
        const std::vector<std::uint8_t> table = colormapTable(Colormap::Magma, l.bar.height);
        for (int r = 0; r < l.bar.height; ++r) {
            const int y = l.bar.y + l.bar.height - 1 - r;
            for (int x : {l.bar.x, l.bar.x + l.bar.width - 1}) {
                const std::uint8_t* c = pixel(im, x, y);
                for (int ch = 0; ch < 3; ++ch)
                    ASSERT_EQ(c[ch], table[static_cast<std::size_t>(3 * r + ch)]) << "row " << r;
            }
        }
        EXPECT_EQ(legendBarColor(Colormap::Magma, 0, l.bar.height)[0],
                  colormapTable(Colormap::Magma, 2)[0]);
        const auto white = [&](const font::PixelRect& box) {
            int n = 0;
            for (int y = box.y; y < box.y + box.height; ++y)
                for (int x = box.x; x < box.x + box.width; ++x)
                    n += pixel(im, x, y)[0] == 255 && pixel(im, x, y)[1] == 255 ? 1 : 0;
            return n;
        };
        ASSERT_EQ(l.labels.size(), spec.ticks.size());
        for (std::size_t i = 0; i < spec.ticks.size(); ++i) {
            EXPECT_TRUE(inside(l.panel, l.labels[i]));
            EXPECT_EQ(white(l.labels[i]), litFontPixels(spec.ticks[i].label) * size * size)
                << spec.ticks[i].label;
            EXPECT_EQ(white(l.tickMarks[i]), l.tickMarks[i].width * l.tickMarks[i].height);
        }
        EXPECT_EQ(white(l.title), litFontPixels(spec.title) * size * size);
        // Ticks ascend upwards: 0 at the bar's bottom row, 30 at 30/37 of its height.
        EXPECT_EQ(l.tickMarks.front().y, l.bar.y + l.bar.height - size);
        EXPECT_LT(l.tickMarks.back().y, l.tickMarks.front().y);
    }
}

// Categorical: swatches in the palette colours, names beside them.
TEST_F(GlTest, CategoricalLegendDrawnIntoTheImage) {
    LegendOverlay overlay;
    const LegendSpec spec = buildCategoricalLegend({"stem", "TA", "diff."}, "type");
    LegendStyle style;
    style.corner = LegendCorner::TopLeft;
    OffscreenTarget target(120, 90);
    target.bind();
    target.clear(0.0f, 0.0f, 0.0f, 1.0f);
    overlay.draw(spec, 120, 90, style);
    const Image im{120, 90, target.readPixels()};
    const LegendLayout l = layoutLegend(spec, 120, 90, style);
    ASSERT_EQ(l.swatches.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        const font::PixelRect& s = l.swatches[i];
        const std::uint8_t* c = pixel(im, s.x + s.width / 2, s.y + s.height / 2);
        for (int ch = 0; ch < 3; ++ch)
            EXPECT_NEAR(c[ch], categoricalPalette()[i][static_cast<std::size_t>(ch)] * 255.0f,
                        1.0f);
        EXPECT_GT(l.labels[i].x, s.x + s.width);
    }
}

}  // namespace
}  // namespace cf::render
