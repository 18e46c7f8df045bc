// SPDX-License-Identifier: GPL-3.0-or-later
// The compute splat path for spheres (render/sphere_splat.hpp) draws what the raster path
// draws: same silhouettes, colours, depth order and compositing with earlier geometry.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "render/camera.hpp"
#include "render/offscreen_target.hpp"
#include "render/point_cloud.hpp"
#include "tests/support/gl_fixture.hpp"

namespace cf::render {
namespace {

using SplatTest = test::GlTest;
using test::pixel;

Image draw(const std::vector<const PointCloud*>& clouds, const OrbitCamera& cam, int w, int h) {
    OffscreenTarget target(w, h);
    target.bind();
    target.clear(0.0f, 0.0f, 0.0f, 1.0f);
    const glm::mat4 proj = cam.projection(static_cast<float>(w) / static_cast<float>(h));
    for (const PointCloud* c : clouds)
        c->draw(cam.view(), proj);
    return Image{w, h, target.readPixels()};
}

struct Difference {
    double meanLevels;    // mean absolute difference per channel
    double fractionOff;   // pixels with a channel off by more than 24 levels
    std::size_t covered;  // non-background pixels in the first image
};

Difference compare(const Image& a, const Image& b) {
    Difference d{0.0, 0.0, 0};
    const std::size_t n = a.rgba.size() / 4;
    std::size_t off = 0;
    for (std::size_t i = 0; i < n; ++i) {
        int worst = 0;
        for (int c = 0; c < 3; ++c) {
            const int diff = std::abs(int(a.rgba[4 * i + c]) - int(b.rgba[4 * i + c]));
            d.meanLevels += diff;
            worst = std::max(worst, diff);
        }
        off += worst > 24 ? 1 : 0;
        d.covered += (a.rgba[4 * i] | a.rgba[4 * i + 1] | a.rgba[4 * i + 2]) != 0 ? 1 : 0;
    }
    d.meanLevels /= 3.0 * static_cast<double>(n);
    d.fractionOff = static_cast<double>(off) / static_cast<double>(n);
    return d;
}

// A dense random cloud with radii from half a pixel to 8 pixels (splatted) and some of
// 24 pixels (rasterised from the large-sphere list), overlapping: exercises both and the
// depth contest between them. The two paths cast rays through pixel centres built
// differently (interpolated quad corners vs the inverse projection), so rim pixels may
// flip: tolerance 0.5% of pixels off by more than 24 levels, mean difference < 1 level.
TEST_F(SplatTest, SplatDrawsWhatTheRasterPathDraws) {
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> u(-4.0f, 4.0f);
    std::uniform_real_distribution<float> logR(std::log(0.03f), std::log(0.5f));
    const std::size_t n = 3000;
    std::vector<float> xyzr(4 * n), scalar(n);
    std::vector<std::uint8_t> category(n);
    for (std::size_t i = 0; i < n; ++i) {
        xyzr[4 * i] = u(gen);
        xyzr[4 * i + 1] = u(gen);
        xyzr[4 * i + 2] = u(gen);
        xyzr[4 * i + 3] = i % 150 == 0 ? 1.5f : std::exp(logR(gen));  // 1 in 150 large
        scalar[i] = xyzr[4 * i + 2];
        category[i] = static_cast<std::uint8_t>(i % 7);
    }
    OrbitCamera cam;
    cam.fit({-4, -4, -4}, {4, 4, 4});
    for (int mode = 0; mode < 2; ++mode) {
        PointCloud raster, splat;
        for (PointCloud* c : {&raster, &splat}) {
            c->setPoints(xyzr.data(), n);
            c->setScalars(scalar.data(), n);
            c->setCategories(category.data(), n);
            if (mode == 0)
                c->colorByScalar(Colormap::Magma, -4.0f, 4.0f);
            else
                c->colorByCategory();
        }
        raster.setDrawPath(PointCloud::DrawPath::Raster);
        splat.setDrawPath(PointCloud::DrawPath::Splat);
        const Image a = draw({&raster}, cam, 320, 240);
        const Image b = draw({&splat}, cam, 320, 240);
        const Difference d = compare(a, b);
        EXPECT_GT(d.covered, 320u * 240u / 4) << "the scene must fill the image";
        EXPECT_LT(d.meanLevels, 1.0) << "mode " << mode;
        EXPECT_LT(d.fractionOff, 0.005) << "mode " << mode;
    }
}

// Silhouette of one sphere through the splat path, against the closed form (as for the
// raster path: a disc of radius tan(asin(r/d)) / tan(fov/2) * H/2 pixels, 3%), once
// splatted (small on screen) and once handed to the raster list (large on screen).
TEST_F(SplatTest, SplattedSilhouetteHasTheProjectedArea) {
    for (float distance : {150.0f, 10.0f}) {  // 4 px radius: splatted; 45 px: rasterised
        PointCloud cloud;
        const float sphere[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        cloud.setPoints(sphere, 1);
        cloud.colorUniform({1.0f, 1.0f, 1.0f});
        cloud.setDrawPath(PointCloud::DrawPath::Splat);
        OrbitCamera cam;
        cam.distance = distance;
        const int size = 400;
        const Image im = draw({&cloud}, cam, size, size);
        std::size_t lit = 0;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x)
                lit += pixel(im, x, y)[0] > 0 ? 1 : 0;
        const double fov = glm::radians(35.0);
        const double radiusPx = std::tan(std::asin(1.0 / distance)) / std::tan(fov / 2) * size / 2;
        const double expected = M_PI * radiusPx * radiusPx;
        // Rim pixels count whole or not at all: about 2/R of the area, at most 3 pixels'
        // worth of circumference for the small disc.
        const double tolerance = std::max(0.03 * expected, 2.0 * M_PI * radiusPx * 0.5);
        EXPECT_NEAR(static_cast<double>(lit), expected, tolerance) << "distance " << distance;
        EXPECT_GT(pixel(im, size / 2, size / 2)[0], 200);
    }
}

// Splatted spheres are depth-tested against what was drawn before them (here a large
// sphere through the raster path): the nearer one wins whichever is drawn first.
TEST_F(SplatTest, SplatCompositesWithEarlierDepth) {
    OrbitCamera cam;
    cam.distance = 10.0f;
    const glm::vec3 toEye = glm::normalize(cam.eye() - cam.target);
    for (int nearIsSplat = 0; nearIsSplat < 2; ++nearIsSplat) {
        const glm::vec3 nearC = 1.5f * toEye, farC = -1.5f * toEye;
        const float nearSphere[4] = {nearC.x, nearC.y, nearC.z, 0.2f};
        const float farSphere[4] = {farC.x, farC.y, farC.z, 2.0f};
        PointCloud small, large;
        small.setPoints(nearIsSplat ? nearSphere : farSphere, 1);
        large.setPoints(nearIsSplat ? farSphere : nearSphere, 1);
        small.colorUniform({1.0f, 0.0f, 0.0f});
        large.colorUniform({0.0f, 0.0f, 1.0f});
        small.setDrawPath(PointCloud::DrawPath::Splat);
        large.setDrawPath(PointCloud::DrawPath::Raster);
        const Image im = draw({&large, &small}, cam, 200, 200);
        const std::uint8_t* c = pixel(im, 100, 100);
        if (nearIsSplat)
            EXPECT_GT(c[0], c[2]) << "the near splatted sphere must show";
        else
            EXPECT_GT(c[2], c[0]) << "the far splatted sphere must stay hidden";
    }
}

// A cloud drawn again after its buffers grow (new GL buffer objects) and into a target of
// another size (new splat images) still matches the raster path.
TEST_F(SplatTest, SplatFollowsResizedBuffersAndTargets) {
    PointCloud raster, splat;
    raster.setDrawPath(PointCloud::DrawPath::Raster);
    splat.setDrawPath(PointCloud::DrawPath::Splat);
    OrbitCamera cam;
    cam.fit({-1, -1, -1}, {1, 1, 1});
    for (std::size_t n : {10u, 5000u}) {
        std::vector<float> xyzr;
        std::mt19937 gen(static_cast<unsigned>(n));
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (std::size_t i = 0; i < n; ++i)
            xyzr.insert(xyzr.end(), {u(gen), u(gen), u(gen), 0.05f});
        for (PointCloud* c : {&raster, &splat}) {
            c->setPoints(xyzr.data(), n);
            c->colorUniform({0.9f, 0.9f, 0.9f});
        }
        for (int size : {96, 250}) {
            const Difference d =
                compare(draw({&raster}, cam, size, size), draw({&splat}, cam, size, size));
            EXPECT_GT(d.covered, 0u);
            EXPECT_LT(d.fractionOff, 0.005) << n << " spheres, " << size << " px";
        }
    }
}

}  // namespace
}  // namespace cf::render
