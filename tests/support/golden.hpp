// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Comparison of a rendered image with its stored reference, tests/render/golden/NAME.png.
// References are compared by statistics, not bit for bit: GL drivers (Mesa llvmpipe here,
// the NVIDIA driver on the GPU machine) rasterise edges and weight filters slightly
// differently, so each test states how far its image may stray and why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "render/png_io.hpp"

#ifndef CELLFORGE_TEST_DATA
#error "golden.hpp needs CELLFORGE_TEST_DATA (the tests/ folder) from the test target"
#endif

namespace cf::test {

struct GoldenTolerance {
    double maxMeanLevels;   // mean absolute difference over all RGB channels, in 8-bit levels
    double maxFractionOff;  // fraction of pixels allowed to have a channel off by > offLevels
    int offLevels;
};

// Compares `im` with tests/<folder>/<name>.png and writes it to <temp>/<name>.png to be
// looked at. With CELLFORGE_UPDATE_GOLDEN=1 it rewrites the reference and skips the test
// instead. Call it last: its skip and its fatal size check return from this function only.
inline void expectMatchesGolden(const render::Image& im, const std::string& name,
                                const GoldenTolerance& tolerance,
                                const std::string& folder = "render/golden") {
    const std::filesystem::path golden =
        std::filesystem::path(CELLFORGE_TEST_DATA) / folder / (name + ".png");
    if (const char* update = std::getenv("CELLFORGE_UPDATE_GOLDEN"); update && *update == '1') {
        render::writePng(golden, im);
        GTEST_SKIP() << "golden image rewritten: " << golden;
    }
    const render::Image ref = render::readPng(golden);
    ASSERT_EQ(ref.width, im.width);
    ASSERT_EQ(ref.height, im.height);
    double sum = 0.0;
    std::size_t off = 0;
    const std::size_t n = static_cast<std::size_t>(im.width) * static_cast<std::size_t>(im.height);
    for (std::size_t i = 0; i < n; ++i) {
        int worst = 0;
        for (std::size_t c = 0; c < 3; ++c) {
            const int d = std::abs(static_cast<int>(im.rgba[4 * i + c]) - ref.rgba[4 * i + c]);
            sum += d;
            worst = std::max(worst, d);
        }
        off += worst > tolerance.offLevels ? 1 : 0;
    }
    const std::filesystem::path actual = std::filesystem::temp_directory_path() /
                                         (std::filesystem::path(name).filename().string() + ".png");
    render::writePng(actual, im);
    EXPECT_LT(sum / (3.0 * static_cast<double>(n)), tolerance.maxMeanLevels)
        << "actual image: " << actual;
    EXPECT_LT(static_cast<double>(off), tolerance.maxFractionOff * static_cast<double>(n))
        << "actual image: " << actual;
}

}  // namespace cf::test
