// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PNG files (libpng): RGBA8, rows top to bottom.
#include <cstdint>
#include <filesystem>
#include <vector>

namespace cf::render {

struct Image {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;
};

// Throws RenderError naming the file. `opaque`: drop alpha (RGB file).
void writePng(const std::filesystem::path& path, const Image& image, bool opaque = true);
Image readPng(const std::filesystem::path& path);

}  // namespace cf::render
