// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Test helpers for the field renderers: a camera looking straight down -z (x to the right,
// y up in the image) from a height, through a perspective of vertical field of view 35
// degrees, so a pixel's footprint on a plane z = c is known in closed form; images drawn
// through it; and the colour the shaders draw for a normalised value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <string>
#include <vector>

#include "render/colormap.hpp"
#include "render/offscreen_target.hpp"
#include "render/png_io.hpp"
#include "render/volume_grid.hpp"
#include "tests/support/gl_fixture.hpp"

namespace cf::render::test_support {

inline constexpr float kFovY = 35.0f;

// Looking down -z from (0, 0, height): x right, y up in the image.
struct TopView {
    int width, height;
    float eyeHeight;
    glm::mat4 view() const {
        return glm::lookAt(glm::vec3(0, 0, eyeHeight), glm::vec3(0), glm::vec3(0, 1, 0));
    }
    glm::mat4 projection() const {
        return glm::perspective(glm::radians(kFovY),
                                static_cast<float>(width) / static_cast<float>(height),
                                0.05f * eyeHeight, 10.0f * eyeHeight);
    }
    // World (x, y) on the plane z = c seen through the centre of image pixel (col, row).
    glm::vec2 worldOfPixel(int col, int row, float c) const {
        const double t = std::tan(glm::radians(static_cast<double>(kFovY)) / 2.0);
        const double ndcX = (col + 0.5) / width * 2.0 - 1.0;
        const double ndcY = 1.0 - (row + 0.5) / height * 2.0;
        const double aspect = static_cast<double>(width) / height;
        const double d = eyeHeight - c;
        return {static_cast<float>(ndcX * t * aspect * d), static_cast<float>(ndcY * t * d)};
    }
    // The image pixel (col, row) that shows world point p.
    glm::ivec2 pixelOf(const glm::vec3& p) const {
        const glm::vec4 clip = projection() * view() * glm::vec4(p, 1.0f);
        const float x = (clip.x / clip.w * 0.5f + 0.5f) * static_cast<float>(width);
        const float y = (clip.y / clip.w * 0.5f + 0.5f) * static_cast<float>(height);
        return {static_cast<int>(std::floor(x)), height - 1 - static_cast<int>(std::floor(y))};
    }
};

// The image of draw(view, projection) through `v` on the given background.
template <typename Draw>
Image renderTop(const TopView& v, Draw draw, glm::vec4 background = {0, 0, 0, 1}) {
    OffscreenTarget target(v.width, v.height);
    target.bind();
    target.clear(background.r, background.g, background.b, background.a);
    draw(v.view(), v.projection());
    return Image{v.width, v.height, target.readPixels()};
}

inline void onlySlice(VolumeGrid& volume, int axis) {
    for (int a = 0; a < 3; ++a)
        volume.enableSlice(a, a == axis);
}

struct Rgb {
    int r, g, b;
};

using cf::test::pixel;

// colormapTable(map, 256) interpolated at u * 255: what the shaders draw for normalised u.
inline Rgb colormapAt(Colormap map, double u) {
    const std::vector<std::uint8_t> table = colormapTable(map, 256);
    const double x = std::clamp(u, 0.0, 1.0) * 255.0;
    const auto i = std::min(static_cast<std::size_t>(x), std::size_t{254});
    const double f = x - static_cast<double>(i);
    int c[3];
    for (std::size_t ch = 0; ch < 3; ++ch)
        c[ch] = static_cast<int>(
            std::lround(table[3 * i + ch] + f * (table[3 * (i + 1) + ch] - table[3 * i + ch])));
    return {c[0], c[1], c[2]};
}

inline Rgb paletteColour(int category) {
    const auto& p = categoricalPalette()[static_cast<std::size_t>(category)];
    return {static_cast<int>(std::lround(p[0] * 255.0f)),
            static_cast<int>(std::lround(p[1] * 255.0f)),
            static_cast<int>(std::lround(p[2] * 255.0f))};
}

inline void expectColour(const std::uint8_t* c, Rgb want, int tolerance, const std::string& where) {
    EXPECT_NEAR(c[0], want.r, tolerance) << where << " (red)";
    EXPECT_NEAR(c[1], want.g, tolerance) << where << " (green)";
    EXPECT_NEAR(c[2], want.b, tolerance) << where << " (blue)";
}

}  // namespace cf::render::test_support
