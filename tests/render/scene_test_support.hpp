// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the test_render_scene sources: a GL context for the suite (cases skip when
// there is none), image access and projection of world points to pixels.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <memory>
#include <string>

#include "render/camera.hpp"
#include "render/headless_context.hpp"
#include "render/png_io.hpp"
#include "render/render_error.hpp"

namespace cf::render::test {

class GlTest : public testing::Test {
protected:
    static void SetUpTestSuite() {
        try {
            context_ = std::make_unique<HeadlessContext>();
        } catch (const RenderError& e) {
            reason_ = e.what();
        }
    }
    static void TearDownTestSuite() { context_.reset(); }
    void SetUp() override {
        if (!context_) GTEST_SKIP() << "no headless OpenGL here: " << reason_;
    }
    static inline std::unique_ptr<HeadlessContext> context_;
    static inline std::string reason_;
};

inline std::filesystem::path testData(const std::string& relative) {
    return std::filesystem::path(CELLFORGE_TEST_DATA) / relative;
}

inline const std::uint8_t* pixel(const Image& im, int x, int y) {
    return &im.rgba[(static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) +
                     static_cast<std::size_t>(x)) *
                    4];
}

// Image coordinates (x right, y down, pixel centres at +0.5) of a world point.
inline glm::dvec2 project(const OrbitCamera& cam, int w, int h, const glm::vec3& p) {
    const glm::vec4 clip = cam.projection(static_cast<float>(w) / static_cast<float>(h)) *
                           cam.view() * glm::vec4(p, 1.0f);
    const glm::dvec2 ndc(clip.x / clip.w, clip.y / clip.w);
    return {(ndc.x + 1.0) * 0.5 * w, (1.0 - ndc.y) * 0.5 * h};
}

}  // namespace cf::render::test
