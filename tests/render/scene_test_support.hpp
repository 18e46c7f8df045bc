// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the test_render_scene sources: the GL fixture and pixel access of
// tests/support/gl_fixture.hpp, test data paths and projection of world points to pixels.
#include <gtest/gtest.h>

#include <filesystem>
#include <glm/glm.hpp>
#include <string>

#include "render/camera.hpp"
#include "render/png_io.hpp"
#include "tests/support/gl_fixture.hpp"

namespace cf::render::test {

using cf::test::GlTest;
using cf::test::pixel;

inline std::filesystem::path testData(const std::string& relative) {
    return std::filesystem::path(CELLFORGE_TEST_DATA) / relative;
}

// Image coordinates (x right, y down, pixel centres at +0.5) of a world point.
inline glm::dvec2 project(const OrbitCamera& cam, int w, int h, const glm::vec3& p) {
    const glm::vec4 clip = cam.projection(static_cast<float>(w) / static_cast<float>(h)) *
                           cam.view() * glm::vec4(p, 1.0f);
    const glm::dvec2 ndc(clip.x / clip.w, clip.y / clip.w);
    return {(ndc.x + 1.0) * 0.5 * w, (1.0 - ndc.y) * 0.5 * h};
}

}  // namespace cf::render::test
