// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A GoogleTest fixture with one headless GL 4.5 context per test suite; every case skips,
// printing why, where no context can be made. Plus pixel access for the images read back.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "render/headless_context.hpp"
#include "render/png_io.hpp"
#include "render/render_error.hpp"

namespace cf::test {

class GlTest : public testing::Test {
protected:
    static void SetUpTestSuite() {
        try {
            context() = std::make_unique<render::HeadlessContext>();
        } catch (const render::RenderError& e) {
            reason() = e.what();
        }
    }
    static void TearDownTestSuite() { context().reset(); }
    void SetUp() override {
        if (!context()) GTEST_SKIP() << "no headless OpenGL here: " << reason();
    }
    static std::unique_ptr<render::HeadlessContext>& context() {
        static std::unique_ptr<render::HeadlessContext> c;
        return c;
    }
    static std::string& reason() {
        static std::string r;
        return r;
    }
};

// RGBA of pixel (x, y), rows top to bottom.
inline const std::uint8_t* pixel(const render::Image& im, int x, int y) {
    return &im.rgba[(static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) +
                     static_cast<std::size_t>(x)) *
                    4];
}

}  // namespace cf::test
