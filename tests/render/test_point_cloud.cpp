// SPDX-License-Identifier: GPL-3.0-or-later
// PointCloud against closed forms (silhouette area, depth order, colormap endpoints) and a
// golden image. Runs under Mesa (llvmpipe) in CI and on the NVIDIA EGL device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <glm/glm.hpp>
#include <memory>

#include "render/camera.hpp"
#include "render/guides.hpp"
#include "render/headless_context.hpp"
#include "render/offscreen_target.hpp"
#include "render/png_io.hpp"
#include "render/point_cloud.hpp"
#include "render/render_error.hpp"
#include "tests/support/gl_fixture.hpp"
#include "tests/support/golden.hpp"

namespace cf::render {
namespace {

using RenderTest = test::GlTest;
using test::pixel;

Image render(PointCloud& cloud, const OrbitCamera& cam, int w, int h) {
    OffscreenTarget target(w, h);
    target.bind();
    target.clear(0.0f, 0.0f, 0.0f, 1.0f);
    cloud.draw(cam.view(), cam.projection(static_cast<float>(w) / static_cast<float>(h)));
    return Image{w, h, target.readPixels()};
}

// A sphere of radius r at distance d subtends a half-angle asin(r/d); its silhouette is a
// disc of pixel radius tan(asin(r/d)) / tan(fov/2) * H/2. Tolerance 3%: the rim pixels
// (about 2/R of the area at R ~ 110 px) are counted whole or not at all.
TEST_F(RenderTest, SphereSilhouetteHasTheProjectedArea) {
    PointCloud cloud;
    const float sphere[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    cloud.setPoints(sphere, 1);
    cloud.colorUniform({1.0f, 1.0f, 1.0f});
    OrbitCamera cam;
    cam.distance = 10.0f;
    const int size = 400;
    const Image im = render(cloud, cam, size, size);
    std::size_t lit = 0;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
            lit += pixel(im, x, y)[0] > 0 ? 1 : 0;
    const double fov = glm::radians(35.0);
    const double radiusPx = std::tan(std::asin(1.0 / 10.0)) / std::tan(fov / 2) * size / 2;
    const double expected = M_PI * radiusPx * radiusPx;
    EXPECT_NEAR(static_cast<double>(lit), expected, 0.03 * expected) << "radius " << radiusPx;
    // The disc is centred.
    EXPECT_GT(pixel(im, size / 2, size / 2)[0], 200);
    EXPECT_EQ(pixel(im, 2, 2)[0], 0);
}

// The nearer of two overlapping spheres wins the centre pixel, whatever the draw order:
// the impostors write the true sphere depth.
TEST_F(RenderTest, NearerSphereHidesFartherOneInEitherOrder) {
    OrbitCamera cam;
    cam.distance = 10.0f;
    const glm::vec3 toEye = glm::normalize(cam.eye() - cam.target);
    for (int order = 0; order < 2; ++order) {
        const glm::vec3 nearC = 1.5f * toEye, farC = -1.5f * toEye;
        float spheres[8] = {nearC.x, nearC.y, nearC.z, 1.0f, farC.x, farC.y, farC.z, 2.0f};
        std::uint8_t cats[2] = {0, 1};  // red near, blue far
        if (order == 1) {
            std::swap_ranges(spheres, spheres + 4, spheres + 4);
            std::swap(cats[0], cats[1]);
        }
        PointCloud cloud;
        cloud.setPoints(spheres, 2);
        cloud.setCategories(cats, 2);
        cloud.colorByCategory();
        const Image im = render(cloud, cam, 200, 200);
        const std::uint8_t* c = pixel(im, 100, 100);
        EXPECT_GT(c[0], c[2]) << "order " << order << ": red (near) must cover blue (far)";
        // The far, larger sphere shows around the near one.
        const std::uint8_t* edge = pixel(im, 100, 100 - 40);
        EXPECT_GT(edge[2], edge[0]) << "order " << order;
    }
}

// At the disc centre the normal faces the eye: diffuse 1 and specular 0.2 are added to the
// colormap colour (shader), so the endpoints of viridis appear as first/last colour + 51.
TEST_F(RenderTest, ScalarColoursFollowTheColormapEndpoints) {
    for (int end = 0; end < 2; ++end) {
        PointCloud cloud;
        const float sphere[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        const float value = end == 0 ? -5.0f : 5.0f;  // clamped to the range ends
        cloud.setPoints(sphere, 1);
        cloud.setScalars(&value, 1);
        cloud.colorByScalar(Colormap::Viridis, -1.0f, 1.0f);
        OrbitCamera cam;
        cam.distance = 6.0f;
        const Image im = render(cloud, cam, 101, 101);
        const std::uint8_t* c = pixel(im, 50, 50);
        const int expected[2][3] = {{0x44 + 51, 0x01 + 51, 0x54 + 51}, {255, 255, 0x25 + 51}};
        for (int ch = 0; ch < 3; ++ch)
            EXPECT_NEAR(c[ch], expected[end][ch], 8) << end << " " << ch;
    }
}

// A 3 x 3 x 3 block of spheres coloured by height, compared with the stored image: mean
// absolute difference below 1 level and under 0.5% of pixels off by more than 24 levels
// (rasterisation of rims differs slightly between GL drivers). CELLFORGE_UPDATE_GOLDEN=1
// rewrites the reference.
TEST_F(RenderTest, GoldenBlockOfSpheres) {
    std::vector<float> xyzr;
    std::vector<float> height;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) {
                xyzr.insert(xyzr.end(), {1.2f * static_cast<float>(i), 1.2f * static_cast<float>(j),
                                         1.2f * static_cast<float>(k), 0.5f});
                height.push_back(static_cast<float>(k));
            }
    PointCloud cloud;
    cloud.setPoints(xyzr.data(), 27);
    cloud.setScalars(height.data(), 27);
    cloud.colorByScalar(Colormap::Viridis, 0.0f, 2.0f);
    OrbitCamera cam;
    cam.fit({-0.5f, -0.5f, -0.5f}, {2.9f, 2.9f, 2.9f});
    const Image im = render(cloud, cam, 320, 240);
    test::expectMatchesGolden(im, "block_of_spheres",
                              {.maxMeanLevels = 1.0, .maxFractionOff = 0.005, .offLevels = 24});
}

// A translucent plane blends over the background by its alpha (0.4 here, within 2 levels
// of 8-bit rounding), and the box edges are drawn.
TEST_F(RenderTest, PlaneBlendsAndBoxEdgesAreDrawn) {
    OrbitCamera cam;
    cam.pitchDegrees = 89.0f;  // looking down on the plane z = 0
    cam.distance = 10.0f;
    Guides guides;
    guides.setBox({-2, -2, -1}, {2, 2, 1});
    guides.addPlane({0, 0, 0}, {0, 0, 1}, {20, 20}, {1.0f, 0.0f, 0.0f, 0.4f});
    OffscreenTarget target(100, 100);
    target.bind();
    target.clear(0.0f, 0.0f, 1.0f, 1.0f);
    const glm::mat4 vp = cam.projection(1.0f) * cam.view();
    guides.drawLines(vp);
    guides.drawPlanes(vp);
    const Image im{100, 100, target.readPixels()};
    const std::uint8_t* c = pixel(im, 50, 50);
    EXPECT_NEAR(c[0], 0.4 * 255, 2);
    EXPECT_NEAR(c[2], 0.6 * 255, 2);
    // Some pixels carry the grey box colour (0.55, 0.55, 0.6) blended under the plane.
    int grey = 0;
    for (int y = 0; y < 100; ++y)
        for (int x = 0; x < 100; ++x)
            grey += pixel(im, x, y)[1] > 40 ? 1 : 0;
    EXPECT_GT(grey, 50) << "box edges drawn";
}

// On a transparent background the sphere is opaque, the empty corner fully transparent and
// the plane as opaque as its alpha (0.4, within 8-bit rounding); the PNG keeps the alpha.
TEST_F(RenderTest, TransparentBackgroundKeepsCoverage) {
    OrbitCamera cam;
    cam.pitchDegrees = 89.0f;
    cam.distance = 10.0f;
    PointCloud cloud;
    const float sphere[4] = {0.0f, 0.0f, 0.5f, 1.0f};
    cloud.setPoints(sphere, 1);
    Guides guides;
    guides.addPlane({3, 0, 0}, {0, 0, 1}, {2, 8}, {1.0f, 1.0f, 1.0f, 0.4f});
    OffscreenTarget target(120, 120);
    target.bind();
    target.clear(0.0f, 0.0f, 0.0f, 0.0f);
    const glm::mat4 proj = cam.projection(1.0f);
    cloud.draw(cam.view(), proj);
    guides.drawPlanes(proj * cam.view());
    const Image im{120, 120, target.readPixels()};
    EXPECT_EQ(pixel(im, 60, 60)[3], 255);
    EXPECT_EQ(pixel(im, 1, 1)[3], 0);
    int planeAlpha = -1;
    for (int x = 60; x < 120 && planeAlpha < 0; ++x)
        if (pixel(im, x, 60)[3] > 0 && pixel(im, x, 60)[3] < 255) planeAlpha = pixel(im, x, 60)[3];
    EXPECT_NEAR(planeAlpha, 0.4 * 255, 2);
    const auto path = std::filesystem::temp_directory_path() / "cf_transparent.png";
    writePng(path, im, /*opaque=*/false);
    EXPECT_EQ(readPng(path).rgba[3], 0);  // corner pixel: still transparent in the file
}

TEST_F(RenderTest, BadSizesAndFilesAreReported) {
    EXPECT_THROW(OffscreenTarget(0, 10), RenderError);
    EXPECT_THROW(OffscreenTarget(1 << 20, 10), RenderError);
    EXPECT_THROW(readPng("/nonexistent/x.png"), RenderError);
    Image im{2, 2, std::vector<std::uint8_t>(16, 255)};
    EXPECT_THROW(writePng("/nonexistent/dir/x.png", im), RenderError);
    const auto p = std::filesystem::temp_directory_path() / "cf_png_roundtrip.png";
    im.rgba[0] = 7;
    writePng(p, im);
    const Image back = readPng(p);
    EXPECT_EQ(back.rgba[0], 7);
    EXPECT_EQ(back.width, 2);
}

}  // namespace
}  // namespace cf::render
