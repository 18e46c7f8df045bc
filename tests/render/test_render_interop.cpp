// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA-GL interop: data written by CUDA into a renderer-owned GL buffer (device to
// device) is what GL reads back and draws. Runs on the GPU machine (EGL device context).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>
#include <memory>

#include "render/camera.hpp"
#include "render/cuda/cuda_gl_buffer.hpp"
#include "render/headless_context.hpp"
#include "render/offscreen_target.hpp"
#include "render/point_cloud.hpp"
#include "render/render_error.hpp"
#include "sim/core/backend.hpp"

namespace cf::render {
namespace {

TEST(RenderInteropCuda, DeviceCopyIsWhatGlReadsAndDraws) {
    if (!isAvailable(Backend::Cuda)) GTEST_SKIP() << "no CUDA device: " << cudaStatus();
    std::unique_ptr<HeadlessContext> context;
    try {
        context = std::make_unique<HeadlessContext>();
    } catch (const RenderError& e) {
        GTEST_SKIP() << "no headless OpenGL here: " << e.what();
    }
    if (!cudaGlInteropAvailable())
        GTEST_SKIP() << "CUDA-GL interop unavailable with " << context->description();

    // Two frames: the second moves the sphere, so a stale copy would show.
    PointCloud cloud;
    const float initial[4] = {100.0f, 100.0f, 100.0f, 1.0f};  // off screen
    cloud.setPoints(initial, 1);
    cloud.colorUniform({1.0f, 1.0f, 1.0f});
    const float wanted[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    void* device = nullptr;
    ASSERT_EQ(cudaMalloc(&device, sizeof wanted), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(device, wanted, sizeof wanted, cudaMemcpyHostToDevice), cudaSuccess);
    CudaGlBuffer interop;
    interop.attach(cloud.positionBuffer());
    interop.copyFromDevice(device, sizeof wanted, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    float back[4] = {};
    glGetNamedBufferSubData(cloud.positionBuffer(), 0, sizeof back, back);
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(back[i], wanted[i]);

    OrbitCamera cam;
    cam.distance = 10.0f;
    OffscreenTarget target(200, 200);
    target.bind();
    target.clear(0, 0, 0, 1);
    cloud.draw(cam.view(), cam.projection(1.0f));
    const auto px = target.readPixels();
    EXPECT_GT(px[(100 * 200 + 100) * 4], 200) << "the sphere CUDA placed at the origin is drawn";
    EXPECT_THROW(interop.copyFromDevice(device, 1 << 30, nullptr), RenderError);
    cudaFree(device);
    std::printf("interop context: %s\n", context->description().c_str());
}

}  // namespace
}  // namespace cf::render
