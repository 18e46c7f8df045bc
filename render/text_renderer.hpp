// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text drawn into images (legends, titles, time stamps) with a real scalable font: Font
// reads a TrueType file with FreeType and rasterises glyphs at any pixel size (no GL);
// TextRenderer keeps the glyphs it has drawn in a GL texture atlas and draws TextBatches
// (text and solid rectangles, in order, blended over the bound framebuffer). The font is
// DejaVu Sans from Debian's fonts-dejavu-core, read at run time from its installed path
// (fixed at configure time, CELLFORGE_FONT overrides it), so headless builds need no Qt.
#include <cstdint>
#include <glm/glm.hpp>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/gl_program.hpp"

namespace cf::render {

struct PixelRect {
    int x = 0, y = 0, width = 0, height = 0;  // y down, as in images
    int right() const { return x + width; }
    int bottom() const { return y + height; }
};
bool contains(const PixelRect& outer, const PixelRect& inner);
bool overlaps(const PixelRect& a, const PixelRect& b);

// The font file drawn with: $CELLFORGE_FONT when set, else the path configure found
// (/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf on Debian).
std::string defaultFontPath();
// The Debian package that installs the default font, for messages.
inline constexpr const char* kFontPackage = "fonts-dejavu-core";

// Text size (the font's em, in pixels) for text in an image `imageHeight` pixels tall:
// 2.2 % of the height, so a 1080-line projection shows 24 px text, never below 11 px (the
// smallest size DejaVu Sans stays legible at).
int relativeTextPx(int imageHeight);

// UTF-8 to code points; a malformed sequence becomes U+FFFD.
std::u32string decodeUtf8(std::string_view utf8);

// One rasterised glyph: an 8-bit coverage bitmap placed relative to the pen on the baseline.
struct GlyphImage {
    int width = 0, rows = 0;
    int left = 0, top = 0;               // bitmap origin: right of and above the pen position
    long advance = 0;                    // pen advance in 1/64 pixels
    std::vector<std::uint8_t> coverage;  // rows x width, top row first
};

class Font {
public:
    // Throws RenderError naming the file (and, when it does not exist, the Debian package
    // that installs it) when FreeType cannot read it.
    explicit Font(const std::string& path = defaultFontPath());
    ~Font();
    Font(Font&&) noexcept;
    Font& operator=(Font&&) noexcept;
    Font(const Font&) = delete;
    Font& operator=(const Font&) = delete;

    const std::string& path() const { return path_; }
    std::string familyName() const;

    // Vertical metrics of a line at `pixelSize` (>= 1), in whole pixels.
    struct LineMetrics {
        int ascender = 0;   // baseline below the line box's top
        int descender = 0;  // line box bottom below the baseline (positive)
        int capHeight = 0;  // height of the digits above the baseline
        int height() const { return ascender + descender; }
    };
    LineMetrics metrics(int pixelSize) const;
    // Glyph of code point `c` (the font's missing-glyph box when it has none); cached.
    const GlyphImage& glyph(char32_t c, int pixelSize) const;
    // Advance width of one line of text in pixels (kerning included).
    int textWidth(std::string_view utf8, int pixelSize) const;
    // `utf8` shortened with a trailing ellipsis ("…") to at most `maxWidth` pixels; unchanged
    // when it fits. Empty when not even the ellipsis fits.
    std::string elide(std::string_view utf8, int pixelSize, int maxWidth) const;

    // Where each glyph's bitmap goes for a line whose box has its top-left corner at (x, y).
    struct PlacedGlyph {
        char32_t codePoint;
        int x, y;  // bitmap top-left in pixels
        const GlyphImage* image;
    };
    std::vector<PlacedGlyph> layoutLine(std::string_view utf8, int x, int y, int pixelSize) const;

private:
    struct Impl;
    std::string path_;
    std::unique_ptr<Impl> impl_;
};

// What to draw, in order: solid rectangles and lines of text in viewport pixels (y down).
class TextBatch {
public:
    void rect(const PixelRect& r, const glm::vec4& rgba);
    // A line of text whose box (Font::metrics(pixelSize).height() tall) has its top-left
    // corner at (x, y).
    void text(std::string_view utf8, int x, int y, int pixelSize, const glm::vec4& rgba);
    bool empty() const { return items_.empty(); }

private:
    friend class TextRenderer;
    struct Item {
        bool isText;
        PixelRect rect;  // text: x, y of the box; width = pixel size
        glm::vec4 rgba;
        std::string text;
    };
    std::vector<Item> items_;
};

class TextRenderer {
public:
    explicit TextRenderer(Font font = Font());  // needs a current GL 4.5 context
    const Font& font() const { return font_; }
    // Draws over the bound framebuffer's viewport (no depth test, blended); restores the
    // depth-test and blend enables it found.
    void draw(const TextBatch& batch, int viewportWidth, int viewportHeight);
    int atlasSize() const { return atlasSize_; }

private:
    struct Slot {
        int x, y;
    };
    using Key = std::pair<char32_t, int>;  // code point, pixel size
    void makeAtlas(int size);
    bool place(const Key& key);  // false: the atlas is full
    void ensure(const std::vector<Key>& keys);

    Font font_;
    Program program_;
    VertexArray vao_;
    Buffer vertices_;
    Texture atlas_;
    int atlasSize_ = 0;
    std::map<Key, Slot> slots_;
    int shelfX_ = 0, shelfY_ = 0, shelfHeight_ = 0;
};

}  // namespace cf::render
