// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A framebuffer object of any size (independent of a window): colour RGBA8 + 24-bit depth.
#include <cstdint>
#include <vector>

#include "render/gl_program.hpp"

namespace cf::render {

class OffscreenTarget {
public:
    OffscreenTarget(int width, int height);
    void bind() const;  // also sets the viewport
    void clear(float r, float g, float b, float a) const;
    // RGBA8, rows top to bottom (image order, not GL's bottom-up order).
    std::vector<std::uint8_t> readPixels() const;
    int width() const { return width_; }
    int height() const { return height_; }

private:
    int width_, height_;
    Framebuffer fbo_;
    Texture color_;
    Texture depth_;
};

}  // namespace cf::render
