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
    ~OffscreenTarget();
    void bind() const;  // also sets the viewport
    void clear(float r, float g, float b, float a) const;
    // RGBA8, rows top to bottom (image order, not GL's bottom-up order).
    std::vector<std::uint8_t> readPixels() const;

    // Asynchronous readback for recording: queue a copy of the current image into a pixel
    // buffer (returns at once), and collect the oldest queued image later (waits only if
    // the GPU has not finished it). Two buffers in flight, so drawing frame k overlaps the
    // transfer of frame k-1.
    void queueReadback();
    bool readbackPending() const { return pending_ > 0; }
    std::vector<std::uint8_t> takeReadback();
    int width() const { return width_; }
    int height() const { return height_; }

private:
    int width_, height_;
    Framebuffer fbo_;
    Texture color_;
    Texture depth_;
    Buffer pbo_[2];
    GLsync fence_[2] = {nullptr, nullptr};
    int next_ = 0;     // buffer the next queueReadback() fills
    int pending_ = 0;  // queued and not yet taken
};

}  // namespace cf::render
