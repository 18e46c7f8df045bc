// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/offscreen_target.hpp"

#include <cstring>
#include <string>

#include "render/render_error.hpp"

namespace cf::render {

OffscreenTarget::OffscreenTarget(int width, int height)
    : width_(width),
      height_(height),
      fbo_(createFramebuffer()),
      color_(createTexture(GL_TEXTURE_2D)),
      depth_(createTexture(GL_TEXTURE_2D)) {
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
    if (width < 1 || height < 1 || width > maxSize || height > maxSize)
        throw RenderError("image size " + std::to_string(width) + "x" + std::to_string(height) +
                          " is outside 1.." + std::to_string(maxSize) + " pixels per side");
    glTextureStorage2D(color_.get(), 1, GL_RGBA8, width, height);
    glTextureStorage2D(depth_.get(), 1, GL_DEPTH_COMPONENT24, width, height);
    glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0);
    glNamedFramebufferTexture(fbo_.get(), GL_DEPTH_ATTACHMENT, depth_.get(), 0);
    if (glCheckNamedFramebufferStatus(fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw RenderError("offscreen framebuffer " + std::to_string(width) + "x" +
                          std::to_string(height) + " is incomplete");
}

OffscreenTarget::~OffscreenTarget() {
    for (GLsync f : fence_)
        if (f != nullptr) glDeleteSync(f);
}

void OffscreenTarget::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
    glViewport(0, 0, width_, height_);
}

void OffscreenTarget::clear(float r, float g, float b, float a) const {
    const float color[4] = {r, g, b, a};
    const float depth = 1.0f;
    glClearNamedFramebufferfv(fbo_.get(), GL_COLOR, 0, color);
    glClearNamedFramebufferfv(fbo_.get(), GL_DEPTH, 0, &depth);
}

void OffscreenTarget::queueReadback() {
    if (pending_ == 2) throw RenderError("two readbacks in flight: take one before queueing");
    const auto bytes = static_cast<GLsizeiptr>(width_) * height_ * 4;
    Buffer& pbo = pbo_[next_];
    if (pbo.get() == 0) {
        pbo = Buffer(createBuffer());
        glNamedBufferStorage(pbo.get(), bytes, nullptr, GL_MAP_READ_BIT | GL_CLIENT_STORAGE_BIT);
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_.get());
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo.get());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);  // into the PBO
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    fence_[next_] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();  // start the transfer now
    next_ = 1 - next_;
    ++pending_;
}

std::vector<std::uint8_t> OffscreenTarget::takeReadback() {
    if (pending_ == 0) throw RenderError("no readback queued");
    const int oldest = pending_ == 2 ? next_ : 1 - next_;
    glClientWaitSync(fence_[oldest], GL_SYNC_FLUSH_COMMANDS_BIT,
                     static_cast<GLuint64>(10'000'000'000));
    glDeleteSync(fence_[oldest]);
    fence_[oldest] = nullptr;
    const auto w = static_cast<std::size_t>(width_), h = static_cast<std::size_t>(height_);
    std::vector<std::uint8_t> image(w * h * 4);
    const auto* src = static_cast<const std::uint8_t*>(glMapNamedBufferRange(
        pbo_[oldest].get(), 0, static_cast<GLsizeiptr>(w * h * 4), GL_MAP_READ_BIT));
    if (src == nullptr) throw RenderError("cannot map the readback buffer");
    for (std::size_t y = 0; y < h; ++y)
        std::memcpy(&image[y * w * 4], &src[(h - 1 - y) * w * 4], w * 4);
    glUnmapNamedBuffer(pbo_[oldest].get());
    --pending_;
    return image;
}

std::vector<std::uint8_t> OffscreenTarget::readPixels() const {
    const auto w = static_cast<std::size_t>(width_), h = static_cast<std::size_t>(height_);
    std::vector<std::uint8_t> bottomUp(w * h * 4), image(w * h * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_.get());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
    for (std::size_t y = 0; y < h; ++y)
        std::memcpy(&image[y * w * 4], &bottomUp[(h - 1 - y) * w * 4], w * 4);
    return image;
}

}  // namespace cf::render
