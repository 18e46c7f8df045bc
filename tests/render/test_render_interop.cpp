// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA-GL interop: data written by CUDA into a renderer-owned GL buffer (device to
// device) is what GL reads back and draws. Runs on the GPU machine (EGL device context).
#include <gtest/gtest.h>

#include <cmath>
#include <cuda_runtime_api.h>
#include <memory>
#include <vector>

#include "render/camera.hpp"
#include "render/cuda/cuda_gl_buffer.hpp"
#include "render/cuda/device_range.hpp"
#include "render/offscreen_target.hpp"
#include "render/point_cloud.hpp"
#include "render/render_error.hpp"
#include "tests/support/interop_fixture.hpp"

namespace cf::render {
namespace {

using RenderInteropCuda = test::CudaGlInteropTest;

TEST_F(RenderInteropCuda, DeviceCopyIsWhatGlReadsAndDraws) {
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
    interop.attach(cloud.positionBuffer(), cloud.storageId());
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
    std::printf("interop context: %s\n", context_->description().c_str());
}

// The cloud's buffers are replaced when it grows; attach() then registers the new buffer
// (the old registration is released). A new cloud may get the very GL names of the one
// destroyed before it (drivers reuse names): its storage id tells them apart. 40
// grow/re-register/copy rounds: each copy lands, and device memory does not creep (a leaked
// registration or buffer of 40 rounds would hold > 200 MB; allowed 64 MB of driver slack).
TEST_F(RenderInteropCuda, ReRegistrationAfterGrowthLandsAndDoesNotLeak) {
    const std::size_t maxCount = 1 << 19;
    std::vector<float> values(4 * maxCount);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>(i % 1000);
    void* device = nullptr;
    ASSERT_EQ(cudaMalloc(&device, values.size() * sizeof(float)), cudaSuccess);
    ASSERT_EQ(
        cudaMemcpy(device, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice),
        cudaSuccess);
    std::size_t freeAfterWarmUp = 0, total = 0;
    CudaGlBuffer interop;
    for (int round = 0; round < 40; ++round) {
        PointCloud cloud;  // a new cloud each round: new buffers, new registration
        const std::size_t count = std::size_t{1} << (10 + round % 10);
        cloud.resize(count / 2);
        cloud.resize(count);  // grown: the buffer object changed
        interop.attach(cloud.positionBuffer(), cloud.storageId());
        ASSERT_EQ(interop.buffer(), cloud.positionBuffer());
        interop.copyFromDevice(device, 4 * count * sizeof(float), nullptr);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        float last[4] = {};
        glGetNamedBufferSubData(cloud.positionBuffer(),
                                static_cast<GLintptr>((count - 1) * 4 * sizeof(float)), sizeof last,
                                last);
        for (int c = 0; c < 4; ++c)
            ASSERT_EQ(last[c], values[4 * (count - 1) + static_cast<std::size_t>(c)]) << round;
        if (round == 9) cudaMemGetInfo(&freeAfterWarmUp, &total);
    }
    std::size_t freeNow = 0;
    cudaMemGetInfo(&freeNow, &total);
    EXPECT_LT(static_cast<double>(freeAfterWarmUp) - static_cast<double>(freeNow), 64.0 * 1048576);
    cudaFree(device);
}

// A registration whose GL context is gone first (window closed, context lost) is released
// without a crash, and interop works again in a new context.
TEST_F(RenderInteropCuda, RegistrationOutlivingItsContextIsReleasedQuietly) {
    auto cloud = std::make_unique<PointCloud>();
    cloud->resize(1024);
    auto interop = std::make_unique<CudaGlBuffer>();
    interop->attach(cloud->positionBuffer(), cloud->storageId());
    context_.reset();
    interop.reset();
    cloud.reset();
    cudaGetLastError();  // the failed unregister may leave an error behind; it is not ours
    HeadlessContext next;
    EXPECT_TRUE(cudaGlInteropAvailable());
}

// The colouring range reduced on the device equals the host's min/max, also for an array
// whose extremes sit at its ends and for a single value.
TEST_F(RenderInteropCuda, DeviceRangeIsTheArraysMinAndMax) {
    std::vector<float> values(1000003);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = std::sin(0.001f * static_cast<float>(i)) * 3.0f;
    values.front() = -7.5f;
    values.back() = 9.25f;
    void* memory = nullptr;
    ASSERT_EQ(cudaMalloc(&memory, values.size() * sizeof(float)), cudaSuccess);
    auto* device = static_cast<float*>(memory);
    ASSERT_EQ(
        cudaMemcpy(device, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice),
        cudaSuccess);
    const auto [lo, hi] = deviceRange(device, values.size(), nullptr);
    EXPECT_EQ(lo, -7.5f);
    EXPECT_EQ(hi, 9.25f);
    const auto [one, same] = deviceRange(device + 5, 1, nullptr);
    EXPECT_EQ(one, values[5]);
    EXPECT_EQ(same, values[5]);
    cudaFree(device);
}

}  // namespace
}  // namespace cf::render
