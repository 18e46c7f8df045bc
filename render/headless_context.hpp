// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An OpenGL 4.5 core context without a window or X server, through EGL: the NVIDIA device
// platform on GPU servers, Mesa's surfaceless platform (llvmpipe) elsewhere. Drawing goes
// to framebuffer objects. One context per thread that draws.
#include <memory>
#include <string>

namespace cf::render {

class HeadlessContext {
public:
    // Creates and makes current a GL 4.5 core context; throws RenderError explaining
    // which EGL step failed (no display, no GL 4.5, ...).
    HeadlessContext();
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    void makeCurrent();
    // A robust context reports a GPU reset: lost() turns true and every GL object made in
    // it is gone. The owner then destroys its renderer objects and makes a new context
    // (the simulation's data live elsewhere and survive). Without robustness lost() stays
    // false.
    bool robust() const;
    bool lost() const;
    // "NVIDIA H100 80GB HBM3 (EGL device)" or "llvmpipe (LLVM 15.0.6, 256 bits) (Mesa
    // surfaceless)": GL_RENDERER and the EGL platform used.
    const std::string& description() const { return description_; }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::string description_;
};

}  // namespace cf::render
