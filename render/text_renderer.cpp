// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/text_renderer.hpp"

#include <ft2build.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "render/embedded_shaders.hpp"
#include "render/render_error.hpp"

namespace cf::render {

bool contains(const PixelRect& outer, const PixelRect& inner) {
    return inner.x >= outer.x && inner.y >= outer.y && inner.right() <= outer.right() &&
           inner.bottom() <= outer.bottom();
}

bool overlaps(const PixelRect& a, const PixelRect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

std::string defaultFontPath() {
    if (const char* env = std::getenv("CELLFORGE_FONT"); env != nullptr && *env != '\0') return env;
    return CELLFORGE_FONT_PATH;  // checked at configure time (render/CMakeLists.txt)
}

int relativeTextPx(int imageHeight) {
    return std::max(11, static_cast<int>(std::lround(0.022 * imageHeight)));
}

std::u32string decodeUtf8(std::string_view s) {
    std::u32string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t len = b < 0x80             ? 1
                                : (b & 0xE0) == 0xC0 ? 2
                                : (b & 0xF0) == 0xE0 ? 3
                                : (b & 0xF8) == 0xF0 ? 4
                                                     : 0;
        if (len == 0 || i + len > s.size()) {
            out.push_back(U'\uFFFD');
            ++i;
            continue;
        }
        char32_t c = len == 1 ? b : (b & (0x7Fu >> len));
        bool ok = true;
        for (std::size_t k = 1; k < len; ++k) {
            const auto cont = static_cast<unsigned char>(s[i + k]);
            ok = ok && (cont & 0xC0) == 0x80;
            c = (c << 6) | (cont & 0x3F);
        }
        if (!ok) {
            out.push_back(U'\uFFFD');
            ++i;
            continue;
        }
        out.push_back(c);
        i += len;
    }
    return out;
}

// ---- Font ----------------------------------------------------------------------------

struct Font::Impl {
    FT_Library library = nullptr;
    FT_Face face = nullptr;
    int size = 0;  // the pixel size FT_Set_Pixel_Sizes last set
    // Glyph index beside each image: kerning pairs are looked up by index.
    std::map<std::pair<char32_t, int>, std::pair<FT_UInt, GlyphImage>> glyphs;

    ~Impl() {
        if (face != nullptr) FT_Done_Face(face);
        if (library != nullptr) FT_Done_FreeType(library);
    }
    void setSize(int px) {
        if (px < 1) throw RenderError("font: pixel size " + std::to_string(px) + " is below 1");
        if (px == size) return;
        if (FT_Set_Pixel_Sizes(face, 0, static_cast<FT_UInt>(px)) != 0)
            throw RenderError("font: cannot set the pixel size " + std::to_string(px));
        size = px;
    }
    const std::pair<FT_UInt, GlyphImage>& glyph(char32_t c, int px) {
        const auto key = std::make_pair(c, px);
        if (auto it = glyphs.find(key); it != glyphs.end()) return it->second;
        setSize(px);
        const FT_UInt index = FT_Get_Char_Index(face, c);  // 0: the missing-glyph box
        // Light hinting: crisp horizontal stems, unhinted (scalable) advances.
        if (FT_Load_Glyph(face, index, FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT) != 0)
            throw RenderError("font: cannot render U+" + std::to_string(c));
        const FT_GlyphSlot slot = face->glyph;
        GlyphImage g;
        g.width = static_cast<int>(slot->bitmap.width);
        g.rows = static_cast<int>(slot->bitmap.rows);
        g.left = slot->bitmap_left;
        g.top = slot->bitmap_top;
        g.advance = slot->advance.x;
        g.coverage.resize(static_cast<std::size_t>(g.width) * static_cast<std::size_t>(g.rows));
        for (int r = 0; r < g.rows; ++r)
            std::copy_n(slot->bitmap.buffer + static_cast<std::ptrdiff_t>(r) * slot->bitmap.pitch,
                        g.width, g.coverage.begin() + static_cast<std::ptrdiff_t>(r) * g.width);
        return glyphs.emplace(key, std::make_pair(index, std::move(g))).first->second;
    }
    // Kerning is scaled to the face's current size: glyphs come from the cache without
    // setting it, so it is set here.
    long kerning(FT_UInt left, FT_UInt right, int px) {
        if (!FT_HAS_KERNING(face) || left == 0 || right == 0) return 0;
        setSize(px);
        FT_Vector k{};
        FT_Get_Kerning(face, left, right, FT_KERNING_UNFITTED, &k);
        return k.x;
    }
};

Font::Font(const std::string& path) : path_(path), impl_(std::make_unique<Impl>()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw RenderError("font file " + path + " does not exist: install the Debian package " +
                          kFontPackage + " (or set CELLFORGE_FONT to a TrueType font file)");
    if (FT_Init_FreeType(&impl_->library) != 0) throw RenderError("font: FreeType could not start");
    if (const FT_Error e = FT_New_Face(impl_->library, path.c_str(), 0, &impl_->face); e != 0)
        throw RenderError("font file " + path + " cannot be read by FreeType (error " +
                          std::to_string(e) + "): reinstall the Debian package " + kFontPackage +
                          " or set CELLFORGE_FONT to a TrueType font file");
    if (!FT_IS_SCALABLE(impl_->face))
        throw RenderError("font file " + path + " is not a scalable font");
}

Font::~Font() = default;
Font::Font(Font&&) noexcept = default;
Font& Font::operator=(Font&&) noexcept = default;

std::string Font::familyName() const {
    return impl_->face->family_name != nullptr ? impl_->face->family_name : "";
}

Font::LineMetrics Font::metrics(int pixelSize) const {
    if (pixelSize < 1)
        throw RenderError("font: pixel size " + std::to_string(pixelSize) + " is below 1");
    const FT_Face f = impl_->face;
    const double scale = static_cast<double>(pixelSize) / f->units_per_EM;
    LineMetrics m;
    m.ascender = static_cast<int>(std::ceil(f->ascender * scale));
    m.descender = static_cast<int>(std::ceil(-f->descender * scale));
    m.capHeight = impl_->glyph(U'0', pixelSize).second.top;
    return m;
}

const GlyphImage& Font::glyph(char32_t c, int pixelSize) const {
    return impl_->glyph(c, pixelSize).second;
}

std::vector<Font::PlacedGlyph> Font::layoutLine(std::string_view utf8, int x, int y,
                                                int pixelSize) const {
    const int ascender = metrics(pixelSize).ascender;
    std::vector<PlacedGlyph> out;
    long pen = 0;  // 1/64 pixels
    FT_UInt previous = 0;
    for (char32_t c : decodeUtf8(utf8)) {
        const auto& [index, g] = impl_->glyph(c, pixelSize);
        pen += impl_->kerning(previous, index, pixelSize);
        const int penX = static_cast<int>((pen + 32) >> 6);
        out.push_back({c, x + penX + g.left, y + ascender - g.top, &g});
        pen += g.advance;
        previous = index;
    }
    return out;
}

int Font::textWidth(std::string_view utf8, int pixelSize) const {
    long pen = 0;
    FT_UInt previous = 0;
    for (char32_t c : decodeUtf8(utf8)) {
        const auto& [index, g] = impl_->glyph(c, pixelSize);
        pen += impl_->kerning(previous, index, pixelSize) + g.advance;
        previous = index;
    }
    return static_cast<int>((pen + 32) >> 6);
}

namespace {
std::string encodeUtf8(const std::u32string& s) {
    std::string out;
    for (char32_t c : s) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return out;
}
}  // namespace

std::string Font::elide(std::string_view utf8, int pixelSize, int maxWidth) const {
    if (textWidth(utf8, pixelSize) <= maxWidth) return std::string(utf8);
    std::u32string s = decodeUtf8(utf8);
    while (!s.empty()) {
        s.pop_back();
        while (!s.empty() && s.back() == U' ')
            s.pop_back();
        const std::string candidate = encodeUtf8(s + U"\u2026");
        if (textWidth(candidate, pixelSize) <= maxWidth) return candidate;
    }
    return textWidth("\u2026", pixelSize) <= maxWidth ? "\u2026" : "";
}

// ---- TextBatch ------------------------------------------------------------------------

void TextBatch::rect(const PixelRect& r, const glm::vec4& rgba) {
    if (r.width > 0 && r.height > 0) items_.push_back({false, r, rgba, {}});
}

void TextBatch::text(std::string_view utf8, int x, int y, int pixelSize, const glm::vec4& rgba) {
    if (!utf8.empty()) items_.push_back({true, {x, y, pixelSize, 0}, rgba, std::string(utf8)});
}

// ---- TextRenderer ---------------------------------------------------------------------

namespace {
// The atlas's top-left kSolid x kSolid texels are fully covered: rectangles sample them.
constexpr int kSolid = 4;
constexpr int kGap = 1;  // empty texels between glyphs (nearest texel fetches only, but clear)
}  // namespace

TextRenderer::TextRenderer(Font font)
    : font_(std::move(font)),
      program_(buildProgram("text", shaders::kTextVert, shaders::kTextFrag)),
      vao_(createVertexArray()),
      vertices_(createBuffer()) {
    const GLuint vao = vao_.get();
    glEnableVertexArrayAttrib(vao, 0);
    glEnableVertexArrayAttrib(vao, 1);
    glEnableVertexArrayAttrib(vao, 2);
    glVertexArrayAttribFormat(vao, 0, 2, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribFormat(vao, 1, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float));
    glVertexArrayAttribFormat(vao, 2, 4, GL_FLOAT, GL_FALSE, 4 * sizeof(float));
    for (GLuint a = 0; a < 3; ++a)
        glVertexArrayAttribBinding(vao, a, 0);
    makeAtlas(1024);
}

void TextRenderer::makeAtlas(int size) {
    GLint largest = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &largest);
    if (size > largest)
        throw RenderError("text: the glyphs of one image need an atlas of " + std::to_string(size) +
                          " texels, above this GL's limit of " + std::to_string(largest));
    atlas_ = Texture(createTexture(GL_TEXTURE_2D));
    glTextureStorage2D(atlas_.get(), 1, GL_R8, size, size);
    const std::uint8_t zero = 0;
    glClearTexImage(atlas_.get(), 0, GL_RED, GL_UNSIGNED_BYTE, &zero);
    const std::vector<std::uint8_t> solid(kSolid * kSolid, 255);
    GLint alignment = 4;
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(atlas_.get(), 0, 0, 0, kSolid, kSolid, GL_RED, GL_UNSIGNED_BYTE,
                        solid.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
    atlasSize_ = size;
    slots_.clear();
    shelfX_ = kSolid + kGap;
    shelfY_ = 0;
    shelfHeight_ = kSolid;
}

bool TextRenderer::place(const Key& key) {
    if (slots_.count(key) != 0) return true;
    const GlyphImage& g = font_.glyph(key.first, key.second);
    if (g.width > atlasSize_ || g.rows > atlasSize_) return false;
    if (shelfX_ + g.width > atlasSize_) {  // next shelf
        shelfY_ += shelfHeight_ + kGap;
        shelfX_ = 0;
        shelfHeight_ = 0;
    }
    if (shelfY_ + g.rows > atlasSize_) return false;
    if (g.width > 0 && g.rows > 0) {
        GLint alignment = 4;
        glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTextureSubImage2D(atlas_.get(), 0, shelfX_, shelfY_, g.width, g.rows, GL_RED,
                            GL_UNSIGNED_BYTE, g.coverage.data());
        glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
    }
    slots_[key] = {shelfX_, shelfY_};
    shelfX_ += g.width + kGap;
    shelfHeight_ = std::max(shelfHeight_, g.rows);
    return true;
}

// Every glyph of one batch in the atlas at once: when they do not fit beside the glyphs of
// earlier batches the atlas starts empty, and grows when one batch alone overfills it.
void TextRenderer::ensure(const std::vector<Key>& keys) {
    const auto all = [&] {
        for (const Key& k : keys)
            if (!place(k)) return false;
        return true;
    };
    if (all()) return;
    for (int size = atlasSize_;; size *= 2) {
        makeAtlas(size);
        if (all()) return;
    }
}

void TextRenderer::draw(const TextBatch& batch, int viewportWidth, int viewportHeight) {
    if (batch.empty()) return;
    struct Placed {
        std::vector<Font::PlacedGlyph> glyphs;
    };
    std::vector<Placed> lines;
    std::vector<Key> keys;
    for (const TextBatch::Item& item : batch.items_) {
        if (!item.isText) continue;
        lines.push_back({font_.layoutLine(item.text, item.rect.x, item.rect.y, item.rect.width)});
        for (const Font::PlacedGlyph& g : lines.back().glyphs)
            keys.emplace_back(g.codePoint, item.rect.width);
    }
    ensure(keys);

    struct Vertex {
        float x, y, u, v, r, g, b, a;
    };
    std::vector<Vertex> v;
    const auto quad = [&v](const PixelRect& q, float u0, float v0, float u1, float v1,
                           const glm::vec4& c) {
        const auto x0 = static_cast<float>(q.x), y0 = static_cast<float>(q.y);
        const auto x1 = static_cast<float>(q.right()), y1 = static_cast<float>(q.bottom());
        for (const auto& [x, y, u, w] : {std::tuple{x0, y0, u0, v0},
                                         {x1, y0, u1, v0},
                                         {x1, y1, u1, v1},
                                         {x0, y0, u0, v0},
                                         {x1, y1, u1, v1},
                                         {x0, y1, u0, v1}})
            v.push_back({x, y, u, w, c.r, c.g, c.b, c.a});
    };
    const float solid = 0.5f * kSolid;  // a texel inside the covered block
    std::size_t line = 0;
    for (const TextBatch::Item& item : batch.items_) {
        if (!item.isText) {
            quad(item.rect, solid, solid, solid, solid, item.rgba);
            continue;
        }
        for (const Font::PlacedGlyph& g : lines[line].glyphs) {
            if (g.image->width == 0 || g.image->rows == 0) continue;
            const Slot s = slots_.at({g.codePoint, item.rect.width});
            // Texel coordinates: the fragment shader fetches texel floor(uv), so each screen
            // pixel shows exactly one coverage value.
            quad({g.x, g.y, g.image->width, g.image->rows}, static_cast<float>(s.x),
                 static_cast<float>(s.y), static_cast<float>(s.x + g.image->width),
                 static_cast<float>(s.y + g.image->rows), item.rgba);
        }
        ++line;
    }
    if (v.empty()) return;

    glNamedBufferData(vertices_.get(), static_cast<GLsizeiptr>(v.size() * sizeof(Vertex)), v.data(),
                      GL_STREAM_DRAW);
    const GLuint p = program_.get();
    glUseProgram(p);
    glProgramUniform2f(p, glGetUniformLocation(p, "uViewport"), static_cast<float>(viewportWidth),
                       static_cast<float>(viewportHeight));
    glProgramUniform1i(p, glGetUniformLocation(p, "uAtlas"), 0);
    glBindTextureUnit(0, atlas_.get());
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
    glBindTextureUnit(0, 0);
}

}  // namespace cf::render
