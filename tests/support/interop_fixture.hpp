// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A GoogleTest fixture for CUDA-GL interop cases (CUDA builds only). Each case gets a
// headless GL context of its own, not one per suite, because a case may destroy it to check
// what outlives its context. Every case skips, printing why, where there is no CUDA device,
// no headless GL context, or no interop between the two (a Mesa context, say).
#include <gtest/gtest.h>

#include <memory>

#include "render/cuda/cuda_gl_buffer.hpp"
#include "render/headless_context.hpp"
#include "render/render_error.hpp"
#include "sim/core/backend.hpp"

namespace cf::test {

class CudaGlInteropTest : public testing::Test {
protected:
    void SetUp() override {
        if (!isAvailable(Backend::Cuda)) GTEST_SKIP() << "no CUDA device: " << cudaStatus();
        try {
            context_ = std::make_unique<render::HeadlessContext>();
        } catch (const render::RenderError& e) {
            GTEST_SKIP() << "no headless OpenGL here: " << e.what();
        }
        if (!render::cudaGlInteropAvailable())
            GTEST_SKIP() << "CUDA-GL interop unavailable with " << context_->description();
    }
    std::unique_ptr<render::HeadlessContext> context_;
};

}  // namespace cf::test
