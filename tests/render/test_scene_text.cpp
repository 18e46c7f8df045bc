// SPDX-License-Identifier: GPL-3.0-or-later
// Text in images: the FreeType font (metrics, widths, elision, the missing-font error), text
// drawn through the glyph atlas (ink where the layout says, scaled with the size), and what
// exported images show over the scene: captions (title, time stamp) top left and legends in
// the window's corners, sized relative to the image and inside it at every size.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "render/legend.hpp"
#include "render/offscreen_target.hpp"
#include "render/text_annotations.hpp"
#include "render/text_renderer.hpp"
#include "tests/render/scene_test_support.hpp"
#include "tests/support/golden.hpp"

namespace cf::render {
namespace {

using test::GlTest;
using test::pixel;

TEST(Font, MissingFileNamesThePathAndThePackage) {
    try {
        Font font("/nonexistent/DejaVuSans.ttf");
        FAIL() << "no error for a missing font";
    } catch (const RenderError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("/nonexistent/DejaVuSans.ttf"), std::string::npos) << what;
        EXPECT_NE(what.find("fonts-dejavu-core"), std::string::npos) << what;
    }
    // A file that is not a font: FreeType's refusal, naming the file.
    EXPECT_THROW(Font(std::string(CELLFORGE_TEST_DATA) + "/render/meshes/cube.obj"), RenderError);
}

// DejaVu Sans: ascender 0.928 em, descender 0.236 em, digits 0.729 em tall. Sizes and
// widths scale with the pixel size (to a pixel of hinting and rounding per glyph).
TEST(Font, MetricsAndWidthsScaleWithTheSize) {
    const Font font;
    EXPECT_EQ(font.familyName(), "DejaVu Sans");
    for (int px : {11, 16, 24, 48}) {
        const Font::LineMetrics m = font.metrics(px);
        EXPECT_EQ(m.ascender, static_cast<int>(std::ceil(0.928 * px))) << px;
        EXPECT_EQ(m.descender, static_cast<int>(std::ceil(0.236 * px))) << px;
        EXPECT_NEAR(m.capHeight, 0.729 * px, 1.5) << px;  // the 0's overshoot, hinted
    }
    const std::string text = "t = 41.9 s \u00B7 step 3200";
    const int w24 = font.textWidth(text, 24), w48 = font.textWidth(text, 48);
    EXPECT_GT(w24, 200);
    EXPECT_NEAR(w48, 2.0 * w24, 0.02 * w48);  // advances unhinted: near-exact scaling
    EXPECT_EQ(font.textWidth("", 24), 0);
    EXPECT_THROW((void)font.metrics(0), RenderError);

    EXPECT_EQ(font.elide("short", 16, 1000), "short");
    const std::string cut = font.elide("a rather long title for a small image", 16, 120);
    EXPECT_LE(font.textWidth(cut, 16), 120);
    EXPECT_EQ(cut.substr(cut.size() - 3), "\u2026");
    EXPECT_EQ(font.elide("abc", 16, 1), "");
}

TEST(Captions, TextSizeTimestampAndTitleRules) {
    EXPECT_EQ(relativeTextPx(1080), 24);
    EXPECT_EQ(relativeTextPx(720), 16);
    EXPECT_EQ(relativeTextPx(2160), 48);
    EXPECT_EQ(relativeTextPx(360), 11);  // 7.9 px would not be legible
    EXPECT_EQ(relativeTextPx(100), 11);
    // The time through cf::formatQuantity: rescaled, no other formatter.
    EXPECT_EQ(formatTimestamp(4.19e7, "us", 3200), "t = 41.9 s \u00B7 step 3200");
    EXPECT_EQ(formatTimestamp(12.5, "s", 50), "t = 12.5 s \u00B7 step 50");
    EXPECT_EQ(formatTimestamp(11.3, "1", 7), "t = 11.3 \u00B7 step 7");
    EXPECT_EQ(titleProblem("Spheroid growth, 37 \u00B0C"), "");
    EXPECT_NE(titleProblem("two\nlines"), "");
    EXPECT_NE(titleProblem("bad \xFF byte"), "");
    EXPECT_NE(titleProblem(std::string(201, 'x')), "");
}

// Bounding box of the pixels brighter than `level` (red channel) inside `box`.
PixelRect ink(const Image& im, const PixelRect& box, int level = 100) {
    int x0 = im.width, y0 = im.height, x1 = -1, y1 = -1;
    for (int y = std::max(0, box.y); y < std::min(im.height, box.bottom()); ++y)
        for (int x = std::max(0, box.x); x < std::min(im.width, box.right()); ++x)
            if (pixel(im, x, y)[0] > level) {
                x0 = std::min(x0, x);
                y0 = std::min(y0, y);
                x1 = std::max(x1, x);
                y1 = std::max(y1, y);
            }
    return x1 < 0 ? PixelRect{} : PixelRect{x0, y0, x1 - x0 + 1, y1 - y0 + 1};
}

// Digits drawn through the atlas: their ink lies inside the layout's box, its top at the
// baseline minus the digits' height, and twice the size draws twice as tall and wide
// (within 2 px: each size is hinted on its own pixel grid).
TEST_F(GlTest, TextInkWhereTheLayoutSays) {
    TextRenderer text;
    const int w = 400, h = 200;
    PixelRect small, large;
    for (int px : {24, 48}) {
        OffscreenTarget target(w, h);
        target.bind();
        target.clear(0.0f, 0.0f, 0.0f, 1.0f);
        TextBatch batch;
        batch.text("2048", 10, 20, px, {1.0f, 1.0f, 1.0f, 1.0f});
        text.draw(batch, w, h);
        const Image im{w, h, target.readPixels()};
        const Font::LineMetrics m = text.font().metrics(px);
        const PixelRect box{10, 20, text.font().textWidth("2048", px), m.height()};
        const PixelRect in = ink(im, {0, 0, w, h});
        EXPECT_TRUE(contains(box, in)) << px;
        EXPECT_NEAR(in.y, 20 + m.ascender - m.capHeight, 1) << px;
        EXPECT_NEAR(in.height, m.capHeight, 1) << px;
        // Fully covered stem pixels are pure white: coverage 255 reaches the image.
        int white = 0;
        for (int y = in.y; y < in.bottom(); ++y)
            for (int x = in.x; x < in.right(); ++x)
                white += pixel(im, x, y)[0] == 255 ? 1 : 0;
        EXPECT_GT(white, px) << px;
        (px == 24 ? small : large) = in;
    }
    EXPECT_NEAR(large.height, 2 * small.height, 2);
    EXPECT_NEAR(large.width, 2 * small.width, 2 + 0.02 * large.width);
}

// Many sizes in one renderer: the atlas starts over or grows, and text drawn afterwards is
// the same pixels as before.
TEST_F(GlTest, AtlasKeepsTextExactWhenItFillsUp) {
    TextRenderer text;
    const int w = 300, h = 80;
    const auto draw = [&](int px) {
        OffscreenTarget target(w, h);
        target.bind();
        target.clear(0.0f, 0.0f, 0.0f, 1.0f);
        TextBatch batch;
        batch.text("Atlas 123", 4, 4, px, {1.0f, 1.0f, 1.0f, 1.0f});
        text.draw(batch, w, h);
        return target.readPixels();
    };
    const std::vector<std::uint8_t> before = draw(30);
    for (int px = 40; px <= 400; px += 40)
        (void)draw(px);
    EXPECT_GE(text.atlasSize(), 1024);
    EXPECT_EQ(draw(30), before);
}

ImageOverlayContent fullOverlay(const LegendSpec& cloud, const LegendSpec& volume,
                                const LegendSpec& vectors) {
    ImageOverlayContent c;
    c.cloud = &cloud;
    c.volume = &volume;
    c.vectors = &vectors;
    c.title = "Spheroid growth under confinement";
    c.timestamp = formatTimestamp(4.19e7, "us", 3200);
    return c;
}

// Every panel inside the image at a small and a 4K size, none overlapping another, the
// cloud's legend bottom right and the volume's bottom left (the window's corners), captions
// top left; and text sized relative to the image: the time stamp's digits are 2.2 % x 0.73
// of the height tall (never below the 11 px minimum's; tolerance 10 % + 1 px for hinting
// and antialiased edges). Nothing is drawn outside the panels.
TEST_F(GlTest, OverlayInsideTheImageAndScaledToIt) {
    LegendOverlay overlay;
    const LegendSpec cloud = buildLegend(Colormap::Viridis, 0.0, 2198.0, "cells", "1");
    std::vector<std::string> names;
    for (int i = 0; i < 30; ++i)
        names.push_back("site type " + std::to_string(i));
    const LegendSpec volume = buildCategoricalLegend(names, "site type");
    const LegendSpec vectors = buildLegend(Colormap::Magma, 0.0, 3.5, "|flow|", "µm/s");
    const ImageOverlayContent content = fullOverlay(cloud, volume, vectors);
    for (const auto& [w, h] : {std::pair{640, 360}, std::pair{1280, 720}, std::pair{1920, 1080},
                               std::pair{3840, 2160}}) {
        const ImageOverlayLayout l = layoutImageOverlay(overlay.text().font(), content, w, h);
        ASSERT_TRUE(l.cloud && l.volume && l.vectors && l.captions);
        const PixelRect image{0, 0, w, h};
        const std::vector<PixelRect> panels = {l.cloud->panel, l.volume->panel, l.vectors->panel,
                                               l.captions->panel};
        for (std::size_t i = 0; i < panels.size(); ++i) {
            EXPECT_TRUE(contains(image, panels[i])) << w << "x" << h << " panel " << i;
            for (std::size_t j = i + 1; j < panels.size(); ++j)
                EXPECT_FALSE(overlaps(panels[i], panels[j])) << w << "x" << h << " " << i << j;
        }
        for (const LegendLayout* legend : {&*l.cloud, &*l.volume, &*l.vectors})
            for (const PixelRect& r : legend->labels)
                EXPECT_TRUE(contains(legend->panel, r)) << w << "x" << h;
        EXPECT_GT(l.cloud->panel.x, w / 2);  // bottom right
        EXPECT_GT(l.cloud->panel.y, h / 2);
        EXPECT_LT(l.volume->panel.right(), w / 2);               // bottom left
        EXPECT_LT(l.vectors->panel.bottom(), l.cloud->panel.y);  // stacked above the cloud's
        EXPECT_LT(l.captions->panel.bottom(), h / 3);            // top left
        EXPECT_EQ(l.captions->panel.x, l.volume->panel.x);

        OffscreenTarget target(w, h);
        target.bind();
        target.clear(0.0f, 0.0f, 0.0f, 1.0f);
        drawImageOverlay(overlay, content, w, h);
        const Image im{w, h, target.readPixels()};
        // Above the baseline only: the time stamp's "p" has a descender.
        PixelRect aboveBaseline = l.captions->timestamp;
        aboveBaseline.height = overlay.text().font().metrics(l.captions->textPx).ascender;
        const PixelRect digits = ink(im, aboveBaseline, 100);
        const double want = 0.729 * relativeTextPx(h);
        EXPECT_NEAR(digits.height, want, 0.1 * want + 1.0) << w << "x" << h;
        if (h >= 720) {
            EXPECT_NEAR(digits.height, 0.022 * 0.729 * h, 0.1 * want + 1.0);
        }
        int outside = 0;
        for (int y = 0; y < h; y += 2)
            for (int x = 0; x < w; x += 2)
                if (std::none_of(panels.begin(), panels.end(), [&](const PixelRect& p) {
                        return contains(p, {x, y, 1, 1});
                    }))
                    outside += pixel(im, x, y)[0] + pixel(im, x, y)[1] + pixel(im, x, y)[2];
        EXPECT_EQ(outside, 0) << w << "x" << h;
    }
}

// The title and the time stamp appear where promised, and not when turned off: with only a
// time stamp, the title's place is background; with neither, nothing is drawn at all.
TEST_F(GlTest, TitleAndTimestampOnlyWhenAsked) {
    LegendOverlay overlay;
    const int w = 1280, h = 720;
    const auto render = [&](const ImageOverlayContent& c) {
        OffscreenTarget target(w, h);
        target.bind();
        target.clear(0.0f, 0.0f, 0.0f, 1.0f);
        drawImageOverlay(overlay, c, w, h);
        return Image{w, h, target.readPixels()};
    };
    ImageOverlayContent both;
    both.title = "Cardiac spiral wave";
    both.timestamp = formatTimestamp(1250.0, "ms", 12500);
    const Image im = render(both);
    const auto l = layoutCaptions(overlay.text().font(), both.title, both.timestamp, w, h);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->titlePx, static_cast<int>(std::lround(1.4 * 16)));
    EXPECT_EQ(l->timestampText, "t = 1.25 s \u00B7 step 12500");
    const PixelRect titleInk = ink(im, l->title), stampInk = ink(im, l->timestamp);
    EXPECT_GT(titleInk.width, l->title.width * 3 / 4);
    EXPECT_GT(stampInk.width, l->timestamp.width * 3 / 4);
    EXPECT_LT(titleInk.bottom(), stampInk.y + 2);  // title over the time stamp

    // Time stamp only: it moves up into the first line, nothing below it.
    ImageOverlayContent stampOnly = both;
    stampOnly.title.clear();
    const Image noTitle = render(stampOnly);
    const auto s = layoutCaptions(overlay.text().font(), "", stampOnly.timestamp, w, h);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->titleText.empty());
    EXPECT_GT(ink(noTitle, s->timestamp).width, s->timestamp.width * 3 / 4);
    EXPECT_EQ(ink(noTitle, {0, s->timestamp.bottom(), w, h}).width, 0) << "a second line";
    EXPECT_GT(ink(im, {0, s->timestamp.bottom(), w, h}).width, 0);  // with the title there is
    EXPECT_LT(s->panel.height, l->panel.height);

    // Title only: nothing under the title's line.
    ImageOverlayContent titleOnly = both;
    titleOnly.timestamp.clear();
    const Image noStamp = render(titleOnly);
    const auto t = layoutCaptions(overlay.text().font(), titleOnly.title, "", w, h);
    ASSERT_TRUE(t);
    EXPECT_GT(ink(noStamp, t->title).width, t->title.width * 3 / 4);
    EXPECT_EQ(ink(noStamp, {0, t->title.bottom(), w, h}).width, 0) << "time stamp pixels";

    const Image nothing = render(ImageOverlayContent{});
    EXPECT_TRUE(std::all_of(nothing.rgba.begin(), nothing.rgba.end(),
                            [](std::uint8_t v) { return v == 0 || v == 255; }));
    EXPECT_EQ(ink(nothing, {0, 0, w, h}, 0).width, 0);
}

// An exported frame's overlay at 480x270 against the stored image: mean absolute difference
// below 1 level, under 0.5 % of pixels off by more than 24 (glyphs are rasterised by
// FreeType on the CPU and fetched texel for texel, so drivers should agree exactly; the
// tolerance covers blending rounding). CELLFORGE_UPDATE_GOLDEN=1 rewrites the reference.
TEST_F(GlTest, GoldenCaptionsAndLegends) {
    LegendOverlay overlay;
    const LegendSpec cloud = buildLegend(Colormap::Viridis, 0.0, 1.0, "phase", "");
    const LegendSpec volume = buildCategoricalLegend({"cytoplasm", "membrane", "obstacle"}, "site");
    ImageOverlayContent c;
    c.cloud = &cloud;
    c.volume = &volume;
    c.title = "Crowded cell";
    c.timestamp = formatTimestamp(4.19e7, "us", 3200);
    const int w = 480, h = 270;
    OffscreenTarget target(w, h);
    target.bind();
    target.clear(0.25f, 0.35f, 0.45f, 1.0f);  // a scene colour: the backing must read over it
    drawImageOverlay(overlay, c, w, h);
    const Image im{w, h, target.readPixels()};
    cf::test::expectMatchesGolden(im, "captions_and_legends",
                                  {.maxMeanLevels = 1.0, .maxFractionOff = 0.005, .offLevels = 24});
}

}  // namespace
}  // namespace cf::render
