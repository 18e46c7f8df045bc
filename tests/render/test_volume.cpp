// SPDX-License-Identifier: GPL-3.0-or-later
// VolumeGrid slices and ray-march, and Heatmap2D, against closed forms (colormap positions,
// exact palette colours, depth order, Beer-Lambert) and a golden image. Runs under Mesa
// (llvmpipe) and on the NVIDIA EGL device.
// Most views look straight down -z (tests/support/top_view.hpp), where a pixel's footprint on
// a plane is known in closed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "render/bench/volume_bench.hpp"
#include "render/camera.hpp"
#include "render/colormap.hpp"
#include "render/heatmap.hpp"
#include "render/offscreen_target.hpp"
#include "render/png_io.hpp"
#include "render/point_cloud.hpp"
#include "render/render_error.hpp"
#include "render/volume_grid.hpp"
#include "tests/support/gl_fixture.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/top_view.hpp"

namespace cf::render {
namespace {

using test_support::colormapAt;
using test_support::expectColour;
using test_support::onlySlice;
using test_support::paletteColour;
using test_support::pixel;
using test_support::renderTop;
using test_support::Rgb;
using test_support::TopView;

using VolumeTest = test::GlTest;

// f = x at the cell centres, trilinear sampling: on the z-slice the value is exactly the
// world x between the first and last cell centres and the end value beyond, so every
// pixel shows the colormap at u = (clamp(x) + 1) / 2. Tolerance 3 levels: 8-bit colormap
// texels interpolated with the GPU's reduced-precision filter weights (1 level), the
// 8-bit output rounding (0.5), and the pixel-centre interpolation of the world position.
// Viridis' green channel rises monotonically, so the row must not fall along x.
TEST_F(VolumeTest, ScalarRampSliceFollowsTheColormapAlongX) {
    const int nx = 32;
    std::vector<float> values(nx * 4 * 4);
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 4; ++j)
            for (int i = 0; i < nx; ++i)
                values[static_cast<std::size_t>((k * 4 + j) * nx + i)] =
                    -1.0f + (i + 0.5f) * 2.0f / nx;
    VolumeGrid volume;
    volume.setBox({-1, -1, -1}, {1, 1, 1});
    volume.setScalars(values.data(), nx, 4, 4);
    volume.colorByScalar(Colormap::Viridis, -1.0f, 1.0f);
    onlySlice(volume, 2);
    volume.setSlice(2, 0.1f);
    const TopView v{200, 100, 3.0f};
    const Image im = renderTop(v, [&](auto view, auto proj) { volume.drawSlices(view, proj); });
    const int row = 50;
    const float xFirst = -1.0f + 1.0f / nx, xLast = 1.0f - 1.0f / nx;
    int inside = 0, previousGreen = -1;
    for (int col = 0; col < v.width; ++col) {
        const float x = v.worldOfPixel(col, row, 0.1f).x;
        const std::uint8_t* c = pixel(im, col, row);
        const float pixelWidth = v.worldOfPixel(col + 1, row, 0.1f).x - x;
        if (std::abs(std::abs(x) - 1.0f) < pixelWidth) continue;  // the box edge itself
        if (std::abs(x) > 1.0f) {
            EXPECT_EQ(c[0] + c[1] + c[2], 0) << "outside the box at column " << col;
            continue;
        }
        ++inside;
        const double u = (std::clamp(x, xFirst, xLast) + 1.0) / 2.0;
        expectColour(c, colormapAt(Colormap::Viridis, u), 3, "column " + std::to_string(col));
        EXPECT_GE(c[1], previousGreen) << "green falls at column " << col;
        previousGreen = c[1];
    }
    EXPECT_GT(inside, 90) << "the box spans about half the image width";
}

// Nearest sampling of six cells valued 0..5 over the range [0, 5]: every pixel shows
// exactly one of the colormap entries 0, 51, ..., 255 (tolerance 1 level: the colormap
// texel centre is hit up to float rounding), the one of the cell under it. Pixels within
// one pixel of a cell face are skipped (either neighbour is right there).
TEST_F(VolumeTest, NearestScalarsArePiecewiseConstantCells) {
    const float values[6] = {0, 1, 2, 3, 4, 5};
    VolumeGrid volume;
    volume.setBox({-1, -1, -1}, {1, 1, 1});
    volume.setScalars(values, 6, 1, 1);
    volume.colorByScalar(Colormap::Viridis, 0.0f, 5.0f);
    volume.setLinearScalars(false);
    onlySlice(volume, 2);
    volume.setSlice(2, 0.0f);
    const TopView v{200, 100, 3.0f};
    const Image im = renderTop(v, [&](auto view, auto proj) { volume.drawSlices(view, proj); });
    int checked = 0;
    for (int col = 0; col < v.width; ++col) {
        const float x = v.worldOfPixel(col, 50, 0.0f).x;
        const float pixelWidth = v.worldOfPixel(col + 1, 50, 0.0f).x - x;
        const float cellCoordinate = (x + 1.0f) * 3.0f;  // cells are 1/3 wide
        if (x <= -1.0f || x >= 1.0f ||
            std::abs(cellCoordinate - std::round(cellCoordinate)) < 3.0f * pixelWidth)
            continue;
        const int cell = static_cast<int>(std::floor(cellCoordinate));
        expectColour(pixel(im, col, 50), colormapAt(Colormap::Viridis, cell / 5.0), 1,
                     "column " + std::to_string(col) + ", cell " + std::to_string(cell));
        ++checked;
    }
    EXPECT_GT(checked, 60);
}

// Categories are drawn in the palette colour exactly (nearest sampling, no filtering, an
// 8-bit colour of a /255 float round-trips exactly); category 0 is an empty site showing
// the background, or palette colour 0 when empty sites are not transparent.
TEST_F(VolumeTest, CategorySliceShowsExactPaletteColoursAndEmptySites) {
    const int n = 5;
    std::vector<std::uint8_t> sites(n * n * 2);
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                sites[static_cast<std::size_t>((k * n + j) * n + i)] =
                    static_cast<std::uint8_t>((i + 2 * j + 7 * k) % 6);  // 0..5, 0 = empty
    VolumeGrid volume;
    volume.setBox({-1, -1, -1}, {1, 1, 1});
    volume.setCategories(sites.data(), n, n, 2);
    EXPECT_EQ(volume.valueFormat(), VolumeGrid::ValueFormat::Category);
    onlySlice(volume, 2);
    volume.setSlice(2, -0.5f);  // the lower layer, k = 0
    const TopView v{160, 160, 4.0f};
    const glm::vec4 background{0.0f, 1.0f, 0.0f, 0.0f};  // green, transparent: no palette entry
    for (bool emptyTransparent : {true, false}) {
        volume.setEmptyCategoryTransparent(emptyTransparent);
        const Image im = renderTop(
            v, [&](auto view, auto proj) { volume.drawSlices(view, proj); }, background);
        int empties = 0;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const glm::vec3 centre(-1.0f + (i + 0.5f) * 2.0f / n, -1.0f + (j + 0.5f) * 2.0f / n,
                                       -0.5f);
                const glm::ivec2 px = v.pixelOf(centre);
                const std::uint8_t* c = pixel(im, px.x, px.y);
                const int category = (i + 2 * j) % 6;
                const std::string where = "cell " + std::to_string(i) + "," + std::to_string(j);
                if (category == 0 && emptyTransparent) {
                    ++empties;
                    EXPECT_EQ(c[0], 0) << where;
                    EXPECT_EQ(c[1], 255) << where;
                    EXPECT_EQ(c[3], 0) << where << ": an empty site leaves the coverage alone";
                    continue;
                }
                const Rgb want = paletteColour(category);
                EXPECT_EQ(c[0], want.r) << where;
                EXPECT_EQ(c[1], want.g) << where;
                EXPECT_EQ(c[2], want.b) << where;
                EXPECT_EQ(c[3], 255) << where;
            }
        if (emptyTransparent) {
            EXPECT_EQ(empties, 5) << "i + 2j in {0, 6, 12} five times in 5 x 5";
        }
    }
}

// A slice writes its depth: a sphere below the z-slice (seen from above) is hidden, one
// above it is not, whichever is drawn first.
TEST_F(VolumeTest, SliceDepthHidesSpheresBehindAndNotInFront) {
    const std::vector<std::uint8_t> sites(8, 1);  // all category 1 (blue)
    VolumeGrid volume;
    volume.setBox({-1, -1, -1}, {1, 1, 1});
    volume.setCategories(sites.data(), 2, 2, 2);
    onlySlice(volume, 2);
    volume.setSlice(2, 0.0f);
    PointCloud spheres;
    const float xyzr[8] = {-0.5f, 0.0f, -0.5f, 0.3f, 0.5f, 0.0f, 0.5f, 0.3f};
    spheres.setPoints(xyzr, 2);
    spheres.colorUniform({1.0f, 1.0f, 1.0f});
    const TopView v{160, 120, 4.0f};
    const Rgb blue = paletteColour(1);
    for (int order = 0; order < 2; ++order) {
        const Image im = renderTop(v, [&](auto view, auto proj) {
            if (order == 0) volume.drawSlices(view, proj);
            spheres.draw(view, proj);
            if (order == 1) volume.drawSlices(view, proj);
        });
        const glm::ivec2 behind = v.pixelOf({-0.5f, 0.0f, -0.5f});
        const glm::ivec2 front = v.pixelOf({0.5f, 0.0f, 0.5f});
        const std::uint8_t* b = pixel(im, behind.x, behind.y);
        EXPECT_EQ(b[0], blue.r) << "order " << order << ": the sphere below the slice is hidden";
        EXPECT_EQ(b[2], blue.b) << "order " << order;
        const std::uint8_t* f = pixel(im, front.x, front.y);
        for (int ch = 0; ch < 3; ++ch)
            EXPECT_GT(f[ch], 200) << "order " << order << ": the sphere above the slice shows";
    }
}

// f = k (the z cell index), nearest: the z-slice shows the value of the cell it cuts, so
// moving it moves the colour; a coordinate beyond the box is clamped to the top face.
// Values 0..5 over [0, 5] land on colormap entries 0, 51, ..., 255 (tolerance 1 level).
TEST_F(VolumeTest, MovingTheSliceChangesTheValuesShown) {
    std::vector<float> values(2 * 2 * 6);
    for (std::size_t s = 0; s < values.size(); ++s)
        values[s] = static_cast<float>(s / 4);
    VolumeGrid volume;
    volume.setBox({-1, -1, 0}, {1, 1, 6});
    volume.setScalars(values.data(), 2, 2, 6);
    volume.setLinearScalars(false);
    volume.colorByScalar(Colormap::Magma, 0.0f, 5.0f);
    onlySlice(volume, 2);
    const TopView v{101, 101, 20.0f};
    for (const auto& [coordinate, cell] :
         std::vector<std::pair<float, int>>{{1.5f, 1}, {4.2f, 4}, {0.0f, 0}, {100.0f, 5}}) {
        volume.setSlice(2, coordinate);
        const Image im = renderTop(v, [&](auto view, auto proj) { volume.drawSlices(view, proj); });
        expectColour(pixel(im, 50, 50), colormapAt(Colormap::Magma, cell / 5.0), 1,
                     "slice at z = " + std::to_string(coordinate));
    }
    EXPECT_FLOAT_EQ(volume.slice(2), 100.0f) << "the stored coordinate is not altered";
}

// Three slices seen from the side: the x- and y-slices are visible, and disabling one
// removes exactly its pixels.
TEST_F(VolumeTest, EnabledSlicesAreTheOnesDrawn) {
    const std::vector<std::uint8_t> sites(27, 3);
    VolumeGrid volume;
    volume.setBox({-1, -1, -1}, {1, 1, 1});
    volume.setCategories(sites.data(), 3, 3, 3);
    OrbitCamera cam;
    cam.fit(volume.lo(), volume.hi());
    const auto count = [&] {
        OffscreenTarget target(120, 90);
        target.bind();
        target.clear(0, 0, 0, 1);
        volume.drawSlices(cam.view(), cam.projection(120.0f / 90.0f));
        const std::vector<std::uint8_t> px = target.readPixels();
        int lit = 0;
        for (std::size_t i = 0; i < px.size(); i += 4)
            lit += px[i] + px[i + 1] + px[i + 2] > 0 ? 1 : 0;
        return lit;
    };
    const int all = count();
    volume.enableSlice(0, false);
    const int withoutX = count();
    volume.enableSlice(1, false);
    volume.enableSlice(2, false);
    const int none = count();
    EXPECT_EQ(none, 0);
    EXPECT_GT(all, withoutX);
    EXPECT_GT(withoutX, 0);
    EXPECT_FALSE(volume.sliceEnabled(0));
    EXPECT_THROW(volume.enableSlice(3, true), RenderError);
    EXPECT_THROW(volume.setSlice(-1, 0.0f), RenderError);
}

// Uploads read back unchanged; the texture is replaced (new name, next generation) exactly
// when the size or the format changes; bad sizes and boxes are refused.
TEST_F(VolumeTest, TextureFollowsSizeAndFormat) {
    VolumeGrid volume;
    const float values[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    volume.setScalars(values, 3, 2, 2);
    const GLuint first = volume.texture();
    const std::uint64_t generation = volume.textureGeneration();
    float back[12] = {};
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTextureImage(first, 0, GL_RED, GL_FLOAT, sizeof back, back);
    for (int i = 0; i < 12; ++i)
        EXPECT_EQ(back[i], values[i]);
    volume.setScalars(values, 3, 2, 2);  // same size: same texture
    EXPECT_EQ(volume.texture(), first);
    EXPECT_EQ(volume.textureGeneration(), generation);
    volume.resize(2, 3, 2);
    EXPECT_NE(volume.texture(), first) << "made before the old one goes: a different name";
    EXPECT_EQ(volume.textureGeneration(), generation + 1);
    EXPECT_EQ(volume.size(), glm::ivec3(2, 3, 2));
    EXPECT_EQ(volume.valueFormat(), VolumeGrid::ValueFormat::Scalar);
    const std::uint8_t sites[3] = {7, 8, 9};  // rows of 3 bytes: unpack alignment matters
    volume.setCategories(sites, 3, 1, 1);
    EXPECT_EQ(volume.valueFormat(), VolumeGrid::ValueFormat::Category);
    EXPECT_EQ(volume.textureGeneration(), generation + 2);
    std::uint8_t sitesBack[3] = {};
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(volume.texture(), 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, 3, sitesBack);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    EXPECT_EQ(sitesBack[0], 7);
    EXPECT_EQ(sitesBack[2], 9);
    EXPECT_THROW(volume.resize(0, 1, 1), RenderError);
    EXPECT_THROW(volume.resize(1, 1, 1 << 20), RenderError);
    EXPECT_THROW(volume.setBox({0, 0, 0}, {1, 0, 1}), RenderError);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// A heatmap of f = i + j on 8 x 6 cells over [0, 12]: within half a cell of a corner the
// field is clamped to that corner's value, so the (0, 0) corner shows the colormap's first
// colour and the (7, 5) corner its last (tolerance 1 level); the other two corners show
// u = 7/12 and 5/12 (tolerance 2: between two colormap texels). Checks that edgeU runs
// along i and edgeV along j.
TEST_F(VolumeTest, HeatmapCornersHaveTheColormapEnds) {
    const int nx = 8, ny = 6;
    std::vector<float> values(nx * ny);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
            values[static_cast<std::size_t>(j * nx + i)] = static_cast<float>(i + j);
    Heatmap2D heatmap;
    heatmap.setValues(values.data(), nx, ny);
    const glm::vec3 origin(-1.0f, -0.75f, 0.0f), edgeU(2.0f, 0.0f, 0.0f), edgeV(0.0f, 1.5f, 0.0f);
    heatmap.setRectangle(origin, edgeU, edgeV);
    heatmap.colorByScalar(Colormap::Cividis, 0.0f, 12.0f);
    const TopView v{160, 120, 4.0f};
    for (bool linear : {true, false}) {
        heatmap.setLinear(linear);
        const Image im = renderTop(v, [&](auto view, auto proj) { heatmap.draw(view, proj); });
        const auto at = [&](float s, float t) {
            const glm::ivec2 px = v.pixelOf(origin + s * edgeU + t * edgeV);
            return pixel(im, px.x, px.y);
        };
        // 0.04 of the rectangle is within a third of a cell from the corner on both axes.
        expectColour(at(0.04f, 0.04f), colormapAt(Colormap::Cividis, 0.0), 1, "corner (0, 0)");
        expectColour(at(0.96f, 0.96f), colormapAt(Colormap::Cividis, 1.0), 1, "corner (7, 5)");
        expectColour(at(0.96f, 0.04f), colormapAt(Colormap::Cividis, 7.0 / 12.0), 2,
                     "corner (7, 0)");
        expectColour(at(0.04f, 0.96f), colormapAt(Colormap::Cividis, 5.0 / 12.0), 2,
                     "corner (0, 5)");
        EXPECT_EQ(pixel(im, 0, 0)[0] + pixel(im, 0, 0)[1] + pixel(im, 0, 0)[2], 0)
            << "outside the rectangle";
    }
    const GLuint before = heatmap.texture();
    heatmap.setValues(values.data(), ny, nx);  // 6 x 8: a new texture
    EXPECT_NE(heatmap.texture(), before);
    EXPECT_EQ(heatmap.size(), glm::ivec2(ny, nx));
    EXPECT_THROW(heatmap.resize(0, 4), RenderError);
}

// A uniform medium at the top of the colour range with extinction s per unit, crossed
// along the axis through the centre pixel (odd image: its centre ray is the axis), path
// length L = 2: alpha = 1 - exp(-s L) exactly (even steps), colour = last colormap entry
// times alpha over black; on a transparent background the coverage is alpha. Tolerance 2
// levels (8-bit rounding, exp in single precision). A sphere in front of the box hides it;
// an empty categorical volume changes nothing.
TEST_F(VolumeTest, RaymarchedUniformMediumFollowsBeerLambert) {
    const std::vector<float> ones(4 * 4 * 4, 1.0f);
    VolumeGrid volume;
    volume.setBox({-1, -1, -1}, {1, 1, 1});
    volume.setScalars(ones.data(), 4, 4, 4);
    volume.colorByScalar(Colormap::Viridis, 0.0f, 1.0f);
    const float s = 0.5f;
    volume.setOpacityScale(s);
    const TopView v{101, 101, 5.0f};
    const double alpha = 1.0 - std::exp(-s * 2.0);
    const Rgb top = colormapAt(Colormap::Viridis, 1.0);
    const Rgb want{static_cast<int>(std::lround(top.r * alpha)),
                   static_cast<int>(std::lround(top.g * alpha)),
                   static_cast<int>(std::lround(top.b * alpha))};
    Image im = renderTop(v, [&](auto view, auto proj) { volume.drawVolume(view, proj); });
    expectColour(pixel(im, 50, 50), want, 2, "centre over black");
    EXPECT_EQ(pixel(im, 50, 50)[3], 255);
    EXPECT_EQ(pixel(im, 1, 1)[0] + pixel(im, 1, 1)[1] + pixel(im, 1, 1)[2], 0) << "outside";
    im = renderTop(v, [&](auto view, auto proj) { volume.drawVolume(view, proj); }, {0, 0, 0, 0});
    EXPECT_NEAR(pixel(im, 50, 50)[3], alpha * 255.0, 2) << "coverage on a transparent image";

    // Seen from inside the box (eye at z = 0.5 looking down): path 1.5 from the eye.
    const TopView inside{101, 101, 0.5f};
    im = renderTop(inside, [&](auto view, auto proj) { volume.drawVolume(view, proj); });
    EXPECT_NEAR(pixel(im, 50, 50)[1], top.g * (1.0 - std::exp(-s * 1.5)), 2) << "eye inside";

    PointCloud sphere;
    const float xyzr[4] = {0.0f, 0.0f, 1.5f, 0.3f};
    sphere.setPoints(xyzr, 1);
    sphere.colorUniform({1.0f, 0.0f, 0.0f});
    im = renderTop(v, [&](auto view, auto proj) {
        sphere.draw(view, proj);
        volume.drawVolume(view, proj);
    });
    EXPECT_GT(pixel(im, 50, 50)[0], 200) << "the sphere in front hides the volume";
    EXPECT_LT(pixel(im, 50, 50)[1], 60) << "(its highlight adds 51 to every channel)";

    const std::vector<std::uint8_t> empty(8, 0);
    volume.setCategories(empty.data(), 2, 2, 2);
    im = renderTop(v, [&](auto view, auto proj) { volume.drawVolume(view, proj); },
                   {0.2f, 0.4f, 0.6f, 1});
    expectColour(pixel(im, 50, 50), {51, 102, 153}, 0, "empty sites are vacuum");
}

// Golden image: a categorical "tissue" (three layers of site types over empty space,
// seen through its x- and y-slices) and a scalar blob (seen through a z-slice) in one box,
// with a sphere. Same comparison as the sphere golden: mean absolute difference below 1
// level and under 0.5% of pixels off by more than 24 levels (edge rasterisation differs
// between GL drivers). CELLFORGE_UPDATE_GOLDEN=1 rewrites the reference.
TEST_F(VolumeTest, GoldenThreeSlices) {
    const int n = 20;
    std::vector<std::uint8_t> sites(n * n * n);
    std::vector<float> blob(n * n * n);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const auto idx = static_cast<std::size_t>((k * n + j) * n + i);
                // A wavy surface: below it three layers of types 1, 2, 3; above it empty.
                const float surface = 12.0f + 3.0f * std::sin(0.5f * static_cast<float>(i)) *
                                                  std::cos(0.3f * static_cast<float>(j));
                const float depth = surface - static_cast<float>(k);
                sites[idx] = depth < 0.0f ? 0 : depth < 3.0f ? 3 : depth < 7.0f ? 2 : 1;
                const float dx = static_cast<float>(i) - 12.0f, dy = static_cast<float>(j) - 8.0f;
                blob[idx] = std::exp(-(dx * dx + dy * dy) / 30.0f) + 0.02f * static_cast<float>(k);
            }
    const glm::vec3 lo(0.0f), hi(2.0f, 2.0f, 2.0f);
    VolumeGrid tissue, field;
    tissue.setBox(lo, hi);
    tissue.setCategories(sites.data(), n, n, n);
    tissue.enableSlice(2, false);
    tissue.setSlice(0, 0.7f);
    tissue.setSlice(1, 1.3f);
    field.setBox(lo, hi);
    field.setScalars(blob.data(), n, n, n);
    field.colorByScalar(Colormap::Magma, 0.0f, 1.2f);
    onlySlice(field, 2);
    field.setSlice(2, 0.5f);
    PointCloud sphere;
    const float xyzr[4] = {1.5f, 0.5f, 1.2f, 0.25f};
    sphere.setPoints(xyzr, 1);
    sphere.colorUniform({0.9f, 0.9f, 0.9f});
    OrbitCamera cam;
    cam.fit(lo, hi);
    cam.distance *= 0.7f;  // the fit allows for any orientation; this one can come closer
    const int w = 160, h = 120;
    OffscreenTarget target(w, h);
    target.bind();
    target.clear(0.08f, 0.08f, 0.1f, 1.0f);
    const glm::mat4 proj = cam.projection(static_cast<float>(w) / static_cast<float>(h));
    field.drawSlices(cam.view(), proj);
    tissue.drawSlices(cam.view(), proj);
    sphere.draw(cam.view(), proj);
    const Image im{w, h, target.readPixels()};
    test::expectMatchesGolden(im, "volume_three_slices",
                              {.maxMeanLevels = 1.0, .maxFractionOff = 0.005, .offLevels = 24});
}

// The benchmark hook runs and reports a positive time (its speed is measured on the GPU).
TEST_F(VolumeTest, SliceBenchmarkRuns) {
    const double ms = bench::benchVolumeSlices(16, 64, 48, 2);
    EXPECT_GT(ms, 0.0);
    EXPECT_TRUE(std::isfinite(ms));
}

}  // namespace
}  // namespace cf::render
