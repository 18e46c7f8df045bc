// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A tiny bitmap font for text drawn into images without a font library (legend labels in
// headless renders): printable ASCII, the degree and micro signs, 5 x 7 pixels above the
// baseline plus one descender row. No GL here: text becomes pixel rectangles.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cf::render::font {

inline constexpr int kGlyphColumns = 5;
inline constexpr int kGlyphRows = 8;   // rows 0-6 above the baseline, row 7 the descender
inline constexpr int kAdvance = 6;     // one blank column between characters
inline constexpr int kLineHeight = 9;  // one blank row between lines

// Rows top to bottom; bit 4 is the leftmost column.
using GlyphRows = std::array<std::uint8_t, kGlyphRows>;

// UTF-8 to code points; a malformed sequence becomes U+FFFD (drawn as the unknown box).
std::u32string decodeUtf8(std::string_view utf8);
bool hasGlyph(char32_t c);
// The glyph of `c`; Greek mu (U+03BC) shares the micro sign's; anything else unknown is a
// hollow box, so missing characters show rather than vanish.
const GlyphRows& glyph(char32_t c);

// Width and height in screen pixels of one line drawn `pixelSize` pixels per font pixel.
int textWidth(std::string_view utf8, int pixelSize);
inline int textHeight(int pixelSize) {
    return kGlyphRows * pixelSize;
}

struct PixelRect {
    int x, y, width, height;  // y down, as in images
};
// Appends rectangles covering the lit pixels of `utf8` with its top-left corner at (x, y)
// (horizontal runs of a glyph row merged into one rectangle).
void layoutText(std::string_view utf8, int x, int y, int pixelSize, std::vector<PixelRect>& out);

}  // namespace cf::render::font
