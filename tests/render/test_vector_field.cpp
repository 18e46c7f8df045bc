// SPDX-License-Identifier: GPL-3.0-or-later
// VectorField against known geometry: arrows of a uniform field seen straight from above
// (orthographic, so world lengths map to pixels exactly), zero and non-finite vectors,
// colormap ends, LIC streak statistics for a uniform and a rotational field, and a golden
// image. Runs under Mesa (llvmpipe) and on the NVIDIA EGL device.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <vector>

#include "render/bench/vector_bench.hpp"
#include "render/camera.hpp"
#include "render/offscreen_target.hpp"
#include "render/png_io.hpp"
#include "render/render_error.hpp"
#include "render/vector_field.hpp"
#include "tests/support/gl_fixture.hpp"
#include "tests/support/golden.hpp"

namespace cf::render {
namespace {

using VectorFieldTest = test::GlTest;
using test::pixel;

// Looking straight down -z with an orthographic projection: `ppu` pixels per world unit, the
// image's left edge at x = left and its top edge at y = top. gridView() places integer y on
// pixel-row centres and integer x on pixel-column boundaries, so arrow axes along x cover
// whole pixels from base to tip.
struct TopView {
    int width, height;
    float ppu;
    float left = -0.5f;
    float top = 0.0f;  // world y of the image's top edge

    glm::mat4 view() const {
        const glm::vec2 c(left + 0.5f * static_cast<float>(width) / ppu,
                          top - 0.5f * static_cast<float>(height) / ppu);
        return glm::lookAt(glm::vec3(c, 10.0f), glm::vec3(c, 0.0f), glm::vec3(0, 1, 0));
    }
    glm::mat4 projection() const {
        const float hw = 0.5f * static_cast<float>(width) / ppu;
        const float hh = 0.5f * static_cast<float>(height) / ppu;
        return glm::ortho(-hw, hw, -hh, hh, 1.0f, 20.0f);
    }
    // World coordinates of a pixel centre (rows top to bottom).
    glm::vec2 world(int px, int py) const {
        return {left + (static_cast<float>(px) + 0.5f) / ppu,
                top - (static_cast<float>(py) + 0.5f) / ppu};
    }
};

Image render(VectorField& field, const glm::mat4& view, const glm::mat4& projection, int w, int h) {
    OffscreenTarget target(w, h);
    target.bind();
    target.clear(0.0f, 0.0f, 0.0f, 1.0f);
    field.draw(view, projection);
    return Image{w, h, target.readPixels()};
}

Image render(VectorField& field, const TopView& v) {
    return render(field, v.view(), v.projection(), v.width, v.height);
}

// Arrows are lit at >= 30% of a colour >= 0.3: far above 20 on a black background.
bool lit(const Image& im, int x, int y) {
    const std::uint8_t* p = pixel(im, x, y);
    return p[0] > 20 || p[1] > 20 || p[2] > 20;
}

// nx x ny vectors from f(i, j), plane z = 0 with unit node spacing.
template <class F>
std::vector<float> grid2d(int nx, int ny, F f) {
    std::vector<float> xyz;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const glm::vec3 v = f(i, j);
            xyz.insert(xyz.end(), {v.x, v.y, v.z});
        }
    return xyz;
}

// Pixel extent along x of the arrow based at node (i, j) (unit spacing), or -1 if none:
// the lit pixels within `halfWidth` of the row and between the node and the next one.
int arrowPixelLength(const Image& im, const TopView& v, int i, int j, float halfWidth,
                     float reach) {
    int lo = std::numeric_limits<int>::max(), hi = -1;
    for (int py = 0; py < im.height; ++py)
        for (int px = 0; px < im.width; ++px) {
            const glm::vec2 w = v.world(px, py);
            if (std::abs(w.y - static_cast<float>(j)) > halfWidth) continue;
            if (w.x < static_cast<float>(i) - 0.05f || w.x > static_cast<float>(i) + reach)
                continue;
            if (!lit(im, px, py)) continue;
            lo = std::min(lo, px);
            hi = std::max(hi, px);
        }
    return hi < 0 ? -1 : hi - lo + 1;
}

// The rotation (-y, x) about the origin, 33 x 33 nodes on the square [-1, 1]^2 of z = 0.
void setVortex(VectorField& field) {
    field.setPlaneZ({-1, -1}, {1, 1}, 0.0f);
    const int n = 33;
    const auto xyz = grid2d(n, n, [&](int i, int j) {
        const float x = -1.0f + 2.0f * static_cast<float>(i) / (n - 1);
        const float y = -1.0f + 2.0f * static_cast<float>(j) / (n - 1);
        return glm::vec3(-y, x, 0.0f);
    });
    field.setVectors(xyz.data(), n, n);
}

constexpr int kNx = 8, kNy = 6;
TopView gridView(float ppu) {
    // Nodes at x = 0..7, y = 0..5; arrows reach 0.9 (stride 1) or 1.8 (stride 2) to the right.
    TopView v{static_cast<int>(std::lround(9 * ppu)), static_cast<int>(std::lround(6 * ppu)), ppu};
    v.top = 5.5f + 0.5f / ppu;  // integer y on pixel-row centres
    return v;
}

// A uniform field along +x: every lit pixel belongs to the arrow of the node at its left,
// within the arrow's length (0.9 of the spacing: the automatic scale) along x and the head
// radius (0.12 of the length) across; tolerance one pixel (1/40 unit) for the rasteriser's
// pixel-centre rule. Every node gets an arrow 0.9 * 40 = 36 px long (+-1 px).
TEST_F(VectorFieldTest, UniformFieldArrowsLieInAStripToTheRightOfTheirNode) {
    VectorField field;
    field.setPlaneZ({0, 0}, {kNx - 1, kNy - 1}, 0.0f);
    const auto xyz = grid2d(kNx, kNy, [](int, int) { return glm::vec3(1, 0, 0); });
    field.setVectors(xyz.data(), kNx, kNy);
    const TopView v = gridView(40.0f);
    const Image im = render(field, v);
    const float px = 1.0f / v.ppu, length = 0.9f, headRadius = 0.12f * length;
    std::size_t count = 0;
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x) {
            if (!lit(im, x, y)) continue;
            ++count;
            const glm::vec2 w = v.world(x, y);
            const float i = std::floor(w.x + px), j = std::round(w.y);
            ASSERT_GE(w.x - i, -px) << x << "," << y;
            ASSERT_LE(w.x - i, length + px) << x << "," << y;
            ASSERT_LE(std::abs(w.y - j), headRadius + px) << x << "," << y;
            ASSERT_TRUE(i >= 0 && i < kNx && j >= 0 && j < kNy) << x << "," << y;
        }
    EXPECT_GT(count, 48u * 100u);  // each arrow covers well over 100 px (shaft 3 px x 23 px)
    for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; ++i)
            EXPECT_NEAR(arrowPixelLength(im, v, i, j, 0.15f, 0.95f), 36, 1) << i << "," << j;
}

// Length is proportional to magnitude: rows alternate |v| = 2 and 1, so with the automatic
// scale the long arrows are 0.9 units (54 px at 60 px/unit) and the short ones 27 px. Each
// measured length may be off by one pixel (pixel-centre coverage at the tip), which moves
// the ratio by at most 1/27 ~ 0.04 per arrow; tolerance 0.08 on the mean ratio.
TEST_F(VectorFieldTest, ArrowLengthIsProportionalToMagnitude) {
    VectorField field;
    field.setPlaneZ({0, 0}, {kNx - 1, kNy - 1}, 0.0f);
    const auto xyz =
        grid2d(kNx, kNy, [](int, int j) { return glm::vec3(j % 2 == 0 ? 2.0f : 1.0f, 0, 0); });
    field.setVectors(xyz.data(), kNx, kNy);
    const TopView v = gridView(60.0f);
    const Image im = render(field, v);
    double sum[2] = {0, 0};
    int n[2] = {0, 0};
    for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; ++i) {
            const int len = arrowPixelLength(im, v, i, j, 0.15f, 0.95f);
            ASSERT_GT(len, 0) << i << "," << j;
            EXPECT_NEAR(len, j % 2 == 0 ? 54 : 27, 1) << i << "," << j;
            sum[j % 2] += len;
            ++n[j % 2];
        }
    EXPECT_NEAR((sum[0] / n[0]) / (sum[1] / n[1]), 2.0, 0.08);
}

// An explicit scale overrides the automatic one: 0.25 units per unit of magnitude, |v| = 2
// gives 0.5 units = 30 px at 60 px/unit (+-1 px).
TEST_F(VectorFieldTest, ExplicitScaleSetsTheLength) {
    VectorField field;
    field.setPlaneZ({0, 0}, {kNx - 1, kNy - 1}, 0.0f);
    const auto xyz = grid2d(kNx, kNy, [](int, int) { return glm::vec3(2, 0, 0); });
    field.setVectors(xyz.data(), kNx, kNy);
    field.setScale(0.25f);
    const TopView v = gridView(60.0f);
    const Image im = render(field, v);
    EXPECT_NEAR(arrowPixelLength(im, v, 3, 2, 0.15f, 0.95f), 30, 1);
}

// Stride 2 on the 8 x 6 grid: arrows only at even (i, j), 0.9 of the subsampled spacing
// (2 units) long = 72 px at 40 px/unit (+-1 px).
TEST_F(VectorFieldTest, StrideSubsamplesAndLengthensArrows) {
    VectorField field;
    field.setPlaneZ({0, 0}, {kNx - 1, kNy - 1}, 0.0f);
    const auto xyz = grid2d(kNx, kNy, [](int, int) { return glm::vec3(1, 0, 0); });
    field.setVectors(xyz.data(), kNx, kNy);
    field.setStride(2);
    const TopView v = gridView(40.0f);
    const Image im = render(field, v);
    for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; i += 2) {
            const int len = arrowPixelLength(im, v, i, j, 0.3f, 1.9f);
            if (j % 2 == 1)
                EXPECT_EQ(len, -1) << "no arrow at odd row " << j;
            else
                EXPECT_NEAR(len, 72, 1) << i << "," << j;
        }
    EXPECT_THROW(field.setStride(0), RenderError);
}

// Zero vectors draw nothing at all; NaN and infinite ones neither; a single non-zero vector
// among them draws only its own arrow.
TEST_F(VectorFieldTest, ZeroAndNonFiniteVectorsDrawNothing) {
    VectorField field;
    field.setPlaneZ({0, 0}, {kNx - 1, kNy - 1}, 0.0f);
    auto xyz = grid2d(kNx, kNy, [](int, int) { return glm::vec3(0.0f); });
    field.setVectors(xyz.data(), kNx, kNy);
    const TopView v = gridView(20.0f);
    Image im = render(field, v);
    std::size_t count = 0;
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x)
            count += lit(im, x, y) ? 1 : 0;
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(field.magnitudeRange(), glm::vec2(0.0f));

    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const int one = 2 + kNx * 3, bad1 = 5 + kNx * 1, bad2 = 6 + kNx * 4;
    xyz[3 * one] = 1.0f;
    xyz[3 * bad1] = nan;
    xyz[3 * bad2 + 1] = inf;
    field.setVectors(xyz.data(), kNx, kNy);
    im = render(field, v);
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x) {
            if (!lit(im, x, y)) continue;
            const glm::vec2 w = v.world(x, y);
            EXPECT_TRUE(w.x > 1.95f && w.x < 3.0f && std::abs(w.y - 3.0f) < 0.2f)
                << "pixel " << x << "," << y << " outside the one arrow";
        }
    EXPECT_NEAR(arrowPixelLength(im, v, 2, 3, 0.15f, 0.95f), 18, 1);
    EXPECT_EQ(field.magnitudeRange(), glm::vec2(0.0f, 1.0f));  // non-finite ones left out
}

// Real 3D geometry: an arrow along x seen end-on (from +x and -x), from the side and from
// oblique directions still covers pixels (a flat glyph would vanish edge-on). End-on the
// silhouette is the head's disc: radius 0.12 of the length.
TEST_F(VectorFieldTest, ArrowIsVisibleFromEveryDirection) {
    VectorField field;
    field.setPlaneZ({0, 0}, {1, 1}, 0.0f);
    const float xyz[12] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // one arrow at the origin
    field.setVectors(xyz, 2, 2);
    const float length = 0.9f;
    const glm::vec3 centre(0.5f * length, 0, 0);
    const glm::vec3 dirs[] = {{1, 0, 0}, {-1, 0, 0},  {0, 1, 0},       {0, 0, 1},
                              {1, 1, 1}, {-1, 2, -1}, {0.2f, -1, 0.3f}};
    for (const glm::vec3& d : dirs) {
        const glm::vec3 up =
            std::abs(glm::normalize(d).z) > 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
        const glm::mat4 view = glm::lookAt(centre + 5.0f * glm::normalize(d), centre, up);
        const glm::mat4 proj = glm::ortho(-0.5f, 0.5f, -0.5f, 0.5f, 1.0f, 10.0f);
        const Image im = render(field, view, proj, 100, 100);  // 100 px per unit
        std::size_t count = 0;
        for (int y = 0; y < 100; ++y)
            for (int x = 0; x < 100; ++x)
                count += lit(im, x, y) ? 1 : 0;
        EXPECT_GT(count, 60u) << "direction " << d.x << "," << d.y << "," << d.z;
        if (std::abs(d.y) + std::abs(d.z) == 0.0f) {
            // End-on: the head's 12-gon, area 3 r^2 (r = 10.8 px); 8% for the ~68 rim pixels.
            const double r = 0.12 * length * 100.0;
            EXPECT_NEAR(static_cast<double>(count), 3.0 * r * r, 0.08 * 3.0 * r * r);
        }
    }
}

// A 4 x 1 x 3 grid in a box: arrows along +z where i + k is even, none elsewhere. From the
// side (looking along +y, orthographic) each lit pixel lies above a node with i + k even,
// within the arrow's length (0.9 units, the spacing being 1).
TEST_F(VectorFieldTest, BoxGridIndexesNodesXFastest) {
    VectorField field;
    field.setBox({0, 0, 0}, {3, 0, 2});
    std::vector<float> xyz;
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 4; ++i)
            xyz.insert(xyz.end(), {0.0f, 0.0f, (i + k) % 2 == 0 ? 1.0f : 0.0f});
    field.setVectors(xyz.data(), 4, 1, 3);
    const glm::mat4 view =
        glm::lookAt(glm::vec3(1.5f, -10, 1.5f), glm::vec3(1.5f, 0, 1.5f), glm::vec3(0, 0, 1));
    const glm::mat4 proj = glm::ortho(-2.0f, 2.0f, -2.0f, 2.0f, 1.0f, 20.0f);
    const Image im = render(field, view, proj, 160, 160);  // 40 px per unit
    int arrows[4][3] = {};
    for (int y = 0; y < 160; ++y)
        for (int x = 0; x < 160; ++x) {
            if (!lit(im, x, y)) continue;
            const float wx = -0.5f + (static_cast<float>(x) + 0.5f) / 40.0f;
            const float wz = 3.5f - (static_cast<float>(y) + 0.5f) / 40.0f;
            const int i = static_cast<int>(std::lround(wx));
            const int k = static_cast<int>(std::floor(wz + 0.03f));
            ASSERT_TRUE(i >= 0 && i < 4 && k >= 0 && k < 3) << x << "," << y;
            EXPECT_LE(std::abs(wx - static_cast<float>(i)), 0.14f);
            EXPECT_LE(wz - static_cast<float>(k), 0.93f);
            ++arrows[i][k];
        }
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 3; ++k)
            EXPECT_EQ(arrows[i][k] > 0, (i + k) % 2 == 0) << i << "," << k;
}

// Colour by magnitude: with the automatic range the |v| = 1 arrows take the colormap's first
// colour and the |v| = 2 ones its last. The brightest pixel of an arrow seen from above is
// the top of the shaft, lit head-on: colour * (0.3 + 0.7) + 0.15 * white (shaders/
// arrows.frag), i.e. the table colour + 38, clamped. Tolerance 12 levels: 12 facets make the
// brightest normal up to a few degrees off, and the 8-bit colormap texture.
TEST_F(VectorFieldTest, MagnitudeColoursUseTheColormapEnds) {
    VectorField field;
    field.setPlaneZ({0, 0}, {kNx - 1, kNy - 1}, 0.0f);
    const auto xyz =
        grid2d(kNx, kNy, [](int, int j) { return glm::vec3(j % 2 == 0 ? 2.0f : 1.0f, 0, 0); });
    field.setVectors(xyz.data(), kNx, kNy);
    const TopView v = gridView(40.0f);
    const std::vector<std::uint8_t> table = colormapTable(Colormap::Viridis, 256);
    auto brightest = [&](const Image& im, int i, int j) {
        const std::uint8_t* best = nullptr;
        for (int py = 0; py < im.height; ++py)
            for (int px = 0; px < im.width; ++px) {
                const glm::vec2 w = v.world(px, py);
                if (std::abs(w.y - static_cast<float>(j)) > 0.15f || w.x < static_cast<float>(i) ||
                    w.x > static_cast<float>(i) + 0.95f)
                    continue;
                const std::uint8_t* p = pixel(im, px, py);
                if (!best || p[0] + p[1] + p[2] > best[0] + best[1] + best[2]) best = p;
            }
        return best;
    };
    auto expectColour = [&](const std::uint8_t* p, int entry, const char* what) {
        ASSERT_NE(p, nullptr) << what;
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(p[c], std::min(255, table[3 * entry + c] + 38), 12) << what << " ch " << c;
    };
    field.colorByMagnitude(Colormap::Viridis);
    Image im = render(field, v);
    expectColour(brightest(im, 3, 2), 255, "|v| = 2, automatic range");
    expectColour(brightest(im, 3, 3), 0, "|v| = 1, automatic range");
    EXPECT_EQ(field.magnitudeRange(), glm::vec2(1.0f, 2.0f));
    // An explicit range [0, 4]: |v| = 2 is mid-way (entry 127.5), |v| = 1 a quarter.
    field.colorByMagnitude(Colormap::Viridis, 0.0f, 4.0f);
    im = render(field, v);
    expectColour(brightest(im, 3, 2), 128, "|v| = 2 of [0, 4]");
    expectColour(brightest(im, 3, 3), 64, "|v| = 1 of [0, 4]");
    field.colorUniform({1.0f, 0.0f, 0.0f});
    im = render(field, v);
    const std::uint8_t* p = brightest(im, 3, 2);
    ASSERT_NE(p, nullptr);
    EXPECT_GE(p[0], 250);
    EXPECT_NEAR(p[1], 38, 12);
    EXPECT_NEAR(p[2], 38, 12);
}

// The LIC texture as grey levels (channel 0), rows from the origin.
std::vector<float> licImage(VectorField& field) {
    field.updateLic();
    const glm::ivec2 size = field.licResolution();
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(size.x) * size.y * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(field.licTexture(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                      static_cast<GLsizei>(rgba.size()), rgba.data());
    std::vector<float> grey(rgba.size() / 4);
    for (std::size_t i = 0; i < grey.size(); ++i)
        grey[i] = rgba[4 * i];
    return grey;
}

// Mean |I(p + d) - I(p - d)| over the texels p of a square around `centre`. Whole-texel
// offsets only: interpolating between texels would mix neighbouring, uncorrelated
// streamlines into any direction that is not along the texel grid.
double meanDifference(const std::vector<float>& im, int w, glm::ivec2 centre, glm::ivec2 d,
                      int halfSize) {
    auto at = [&](glm::ivec2 p) {
        return im[static_cast<std::size_t>(p.y) * static_cast<std::size_t>(w) +
                  static_cast<std::size_t>(p.x)];
    };
    double sum = 0.0;
    int n = 0;
    for (int dy = -halfSize; dy <= halfSize; ++dy)
        for (int dx = -halfSize; dx <= halfSize; ++dx) {
            const glm::ivec2 p = centre + glm::ivec2(dx, dy);
            sum += std::abs(at(p + d) - at(p - d));
            ++n;
        }
    return sum / n;
}

// Mean |I(x + 1, y) - I(x, y)| (along x) and |I(x, y + 1) - I(x, y)| (along y) of a w x h
// image, over the texels at least `margin` from its edges.
glm::dvec2 meanNeighbourDifferences(const std::vector<float>& im, int w, int h, int margin) {
    auto at = [&](int x, int y) {
        return im[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) +
                  static_cast<std::size_t>(x)];
    };
    double gx = 0, gy = 0;
    int n = 0;
    for (int y = margin; y < h - margin; ++y)
        for (int x = margin; x < w - margin; ++x) {
            gx += std::abs(at(x + 1, y) - at(x, y));
            gy += std::abs(at(x, y + 1) - at(x, y));
            ++n;
        }
    return {gx / n, gy / n};
}

// A uniform field along x streaks the noise along x: neighbours along a streamline share
// 2 * 10 of their 21 noise samples, across they share none, so the mean neighbour difference
// along x is ~1/sqrt(21) ~ 0.22 of that along y. Asserted: below 0.35 (margin for the
// contrast clamp), and the image is not flat (y difference > 15 levels).
TEST_F(VectorFieldTest, LicOfAUniformFieldStreaksAlongIt) {
    VectorField field;
    field.setPlaneZ({0, 0}, {1, 1}, 0.0f);
    const auto xyz = grid2d(16, 16, [](int, int) { return glm::vec3(1, 0, 0); });
    field.setVectors(xyz.data(), 16, 16);
    field.setLicResolution(128, 128);
    field.setLicKernelSteps(10);
    const glm::dvec2 g = meanNeighbourDifferences(licImage(field), 128, 128, 12);
    EXPECT_GT(g.y, 15.0);
    EXPECT_LT(g.x, 0.35 * g.y) << "gx " << g.x << " gy " << g.y;
    // A field along y (and a rectangle 2 x 1 with square texels) flips it.
    field.setPlaneZ({0, 0}, {2, 1}, 0.0f);
    const auto along = grid2d(16, 16, [](int, int) { return glm::vec3(0, 3, 0); });
    field.setVectors(along.data(), 16, 16);
    field.setLicResolution(0, 0);
    EXPECT_EQ(field.licResolution(), glm::ivec2(512, 256));
    const glm::dvec2 g2 = meanNeighbourDifferences(licImage(field), 512, 256, 20);
    EXPECT_LT(g2.y, 0.35 * g2.x) << "gx " << g2.x << " gy " << g2.y;
}

// A rotation (-y, x) streaks along circles. At eight points on the circle of radius 0.5
// (64 texels), at multiples of 45 degrees so that tangent and radius run along texel rows,
// columns or diagonals, compare central differences along the tangent and along the radius
// (7 x 7 texels around each point). Two points 2 (or 2.8) texels apart on a streamline share
// all but 2 (3) of their 31 noise samples, points across streamlines none, so the ratio is
// ~sqrt(2/31) = 0.25 (0.31 on diagonals); asserted < 0.5 at each point.
TEST_F(VectorFieldTest, LicOfARotationStreaksAlongCircles) {
    VectorField field;
    setVortex(field);
    field.setLicResolution(256, 256);
    field.setLicKernelSteps(15);
    const std::vector<float> im = licImage(field);
    for (int a = 0; a < 8; ++a) {
        const double phi = a * M_PI / 4.0;
        const glm::ivec2 radial(static_cast<int>(std::lround(std::cos(phi))),
                                static_cast<int>(std::lround(std::sin(phi))));
        const glm::ivec2 tangent(-radial.y, radial.x);
        // Texel (x, y) has its centre at x + 0.5; the vortex centre is at 128.
        const glm::ivec2 centre(static_cast<int>(std::lround(127.5 + 64.0 * std::cos(phi))),
                                static_cast<int>(std::lround(127.5 + 64.0 * std::sin(phi))));
        const double t = meanDifference(im, 256, centre, tangent, 3);
        const double r = meanDifference(im, 256, centre, radial, 3);
        EXPECT_GT(r, 15.0) << "not flat";
        EXPECT_LT(t, 0.5 * r) << "angle " << a * 45 << ": tangential " << t << " radial " << r;
    }
}

// The LIC image is computed once per change of the vectors: cleared by hand, it stays
// cleared through further draws, and comes back after notifyVectorsChanged().
TEST_F(VectorFieldTest, LicIsRecomputedOnlyWhenVectorsChange) {
    VectorField field;
    field.setPlaneZ({0, 0}, {1, 1}, 0.0f);
    const auto xyz = grid2d(8, 8, [](int, int) { return glm::vec3(1, 1, 0); });
    field.setVectors(xyz.data(), 8, 8);
    field.setLicResolution(64, 64);
    field.showLic(true);
    auto sum = [&] {
        const std::vector<float> im = licImage(field);
        double s = 0;
        for (float v : im)
            s += v;
        return s;
    };
    EXPECT_GT(sum(), 0.0);
    const std::uint8_t zero[4] = {0, 0, 0, 0};
    glClearTexImage(field.licTexture(), 0, GL_RGBA, GL_UNSIGNED_BYTE, zero);
    const TopView v{64, 64, 64.0f, 0.0f, 1.0f};
    render(field, v);
    EXPECT_EQ(sum(), 0.0) << "recomputed although nothing changed";
    field.notifyVectorsChanged();
    EXPECT_GT(sum(), 0.0);
    // And the drawn rectangle shows it: the top view of the unit square is LIC (grey
    // noise, black only where the contrast stretch clamps, a few percent) or arrows.
    const Image im = render(field, v);
    std::size_t black = 0;
    for (int i = 0; i < 64 * 64; ++i)
        black += im.rgba[4 * static_cast<std::size_t>(i)] == 0 ? 1 : 0;
    EXPECT_LT(black, 64u * 64u / 10u);
}

// Colour by magnitude on the LIC: |v| rising along x, so the left columns carry viridis'
// first colour (blue > red > green) and the right ones its last (red, green >> blue).
TEST_F(VectorFieldTest, LicColourFollowsTheMagnitude) {
    VectorField field;
    field.setPlaneZ({0, 0}, {1, 1}, 0.0f);
    const auto xyz = grid2d(16, 16, [](int i, int) { return glm::vec3(0, 1.0f + i, 0); });
    field.setVectors(xyz.data(), 16, 16);
    field.setLicResolution(64, 64);
    field.colorByMagnitude(Colormap::Viridis);
    field.setLicColorByMagnitude(true);
    field.updateLic();
    std::vector<std::uint8_t> rgba(64 * 64 * 4);
    glGetTextureImage(field.licTexture(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                      static_cast<GLsizei>(rgba.size()), rgba.data());
    double left[3] = {}, right[3] = {};
    for (int y = 0; y < 64; ++y)
        for (int c = 0; c < 3; ++c) {
            left[c] += rgba[(static_cast<std::size_t>(y) * 64 + 0) * 4 + c];
            right[c] += rgba[(static_cast<std::size_t>(y) * 64 + 63) * 4 + c];
        }
    EXPECT_GT(left[2], left[0]);
    EXPECT_GT(left[0], 3 * left[1]);
    EXPECT_GT(right[0] + right[1], 4 * right[2]);
}

// Vectors written straight into vectorBuffer() (as the CUDA interop path does) count after
// notifyVectorsChanged(); growing the grid replaces the buffer object.
TEST_F(VectorFieldTest, ResizeAndDirectBufferWrites) {
    VectorField field;
    field.resize(4, 4, 1);
    const GLuint first = field.vectorBuffer();
    std::vector<float> xyz(48, 0.0f);
    xyz[3 * 5] = 3.0f;
    xyz[3 * 5 + 1] = 4.0f;  // |v| = 5
    glNamedBufferSubData(field.vectorBuffer(), 0, static_cast<GLsizeiptr>(xyz.size() * 4),
                         xyz.data());
    field.notifyVectorsChanged();
    EXPECT_EQ(field.magnitudeRange(), glm::vec2(0.0f, 5.0f));
    EXPECT_EQ(field.dimensions(), glm::ivec3(4, 4, 1));
    field.resize(64, 64, 4);  // 16384 nodes > the first capacity (1024)
    EXPECT_NE(field.vectorBuffer(), first);
    GLint64 bytes = 0;
    glGetNamedBufferParameteri64v(field.vectorBuffer(), GL_BUFFER_SIZE, &bytes);
    EXPECT_GE(bytes, 64 * 64 * 4 * 12);
    EXPECT_THROW(field.resize(-1, 2, 2), RenderError);
    EXPECT_THROW(field.updateLic(), RenderError) << "LIC of a 3D grid";
}

// 160 x 120: the LIC (64 x 64 texels, so magnified and independent of the drivers' mipmap
// level choice) of a vortex coloured by magnitude, with white arrows (stride 8), seen
// obliquely. Mean absolute difference below 1.5 levels and under 1% of pixels off by more
// than 32 levels: arrow rims rasterise differently between drivers, and texture filtering
// weights differ in their last bits (the LIC's own interpolation is done in the shader).
// CELLFORGE_UPDATE_GOLDEN=1 rewrites the reference.
TEST_F(VectorFieldTest, GoldenVortex) {
    VectorField field;
    setVortex(field);
    field.setStride(8);
    field.colorByMagnitude(Colormap::Viridis);
    field.colorUniform({0.95f, 0.95f, 0.95f});
    field.showLic(true);
    field.setLicColorByMagnitude(true);
    field.setLicResolution(64, 64);  // magnified on screen: no mip level choice involved
    field.setLicKernelSteps(8);
    OrbitCamera cam;
    cam.fit({-1.0f, -1.0f, -0.1f}, {1.0f, 1.0f, 0.1f});
    cam.pitchDegrees = 55.0f;
    const Image im = render(field, cam.view(), cam.projection(160.0f / 120.0f), 160, 120);
    test::expectMatchesGolden(im, "vector_field_vortex",
                              {.maxMeanLevels = 1.5, .maxFractionOff = 0.01, .offLevels = 32});
}

// The benchmark hook runs and reports a positive, finite time per frame.
TEST_F(VectorFieldTest, BenchmarkHookRuns) {
    for (bool lic : {false, true}) {
        const double ms = bench::benchVectorField(64, 96, 64, 2, lic);
        EXPECT_GT(ms, 0.0);
        EXPECT_TRUE(std::isfinite(ms));
    }
}

}  // namespace
}  // namespace cf::render
