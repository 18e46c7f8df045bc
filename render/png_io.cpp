// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/png_io.hpp"

#include <png.h>

#include <cstdio>
#include <memory>
#include <string>

#include "render/render_error.hpp"

namespace cf::render {

namespace {
struct FileCloser {
    void operator()(std::FILE* f) const {
        if (f != nullptr) std::fclose(f);
    }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

[[noreturn]] void fail(const std::filesystem::path& p, const std::string& what) {
    throw RenderError(p.string() + ": " + what);
}
}  // namespace

void writePng(const std::filesystem::path& path, const Image& image, bool opaque) {
    const auto expected =
        static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4;
    if (image.width < 1 || image.height < 1 || image.rgba.size() != expected)
        fail(path, "image has no pixels or the wrong size");
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        File f(std::fopen(tmp.c_str(), "wb"));
        if (!f) fail(path, "cannot open for writing");
        png_image png{};
        png.version = PNG_IMAGE_VERSION;
        png.width = static_cast<png_uint_32>(image.width);
        png.height = static_cast<png_uint_32>(image.height);
        png.format = PNG_FORMAT_RGBA;
        std::vector<std::uint8_t> rgb;
        const void* pixels = image.rgba.data();
        if (opaque) {
            png.format = PNG_FORMAT_RGB;
            rgb.resize(expected / 4 * 3);
            for (std::size_t i = 0; i < expected / 4; ++i)
                for (int c = 0; c < 3; ++c)
                    rgb[3 * i + c] = image.rgba[4 * i + c];
            pixels = rgb.data();
        }
        if (png_image_write_to_stdio(&png, f.get(), 0, pixels, 0, nullptr) == 0)
            fail(path, std::string("PNG encoding failed: ") + png.message);
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) fail(path, "cannot move the finished file into place: " + ec.message());
}

Image readPng(const std::filesystem::path& path) {
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    if (png_image_begin_read_from_file(&png, path.c_str()) == 0)
        fail(path, std::string("cannot read PNG: ") + png.message);
    png.format = PNG_FORMAT_RGBA;
    Image image;
    image.width = static_cast<int>(png.width);
    image.height = static_cast<int>(png.height);
    image.rgba.resize(PNG_IMAGE_SIZE(png));
    if (png_image_finish_read(&png, nullptr, image.rgba.data(), 0, nullptr) == 0)
        fail(path, std::string("cannot decode PNG: ") + png.message);
    return image;
}

}  // namespace cf::render
