// SPDX-License-Identifier: GPL-3.0-or-later
// Renderer objects across resizes and contexts: targets and clouds resized many times do
// not accumulate memory; a context torn down (as after a GPU reset or a closed window) and
// made again draws the same image; objects outliving their context are destroyed quietly.
#include <epoxy/gl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <vector>

#include "render/camera.hpp"
#include "render/headless_context.hpp"
#include "render/offscreen_target.hpp"
#include "render/point_cloud.hpp"
#include "tests/support/gl_fixture.hpp"

namespace cf::render {
namespace {

using LifecycleTest = test::GlTest;

// Resident memory of this process (llvmpipe keeps GL objects in host memory).
double residentMiB() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1048576.0;
}

// Free video memory where the driver reports it (NVIDIA), else -1.
double freeVideoMiB() {
    if (!epoxy_has_gl_extension("GL_NVX_gpu_memory_info")) return -1.0;
    GLint kib = 0;
    glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, &kib);
    return kib / 1024.0;
}

std::vector<float> grid(int side, float radius) {
    std::vector<float> xyzr;
    for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j)
            for (int k = 0; k < side; ++k)
                xyzr.insert(xyzr.end(), {static_cast<float>(i), static_cast<float>(j),
                                         static_cast<float>(k), radius});
    return xyzr;
}

// Each round makes a target of a new size and clouds that grow their buffers (new GL
// buffer objects, new splat images); 60 rounds allocate about 1.5 GB in total. A leak of
// one round's objects would grow memory by > 25 MB per round; allowed: 64 MB over the
// last 50 rounds (driver caches and allocator slack settle in the first 10).
TEST_F(LifecycleTest, RepeatedResizeDoesNotAccumulateMemory) {
    const std::vector<float> small = grid(10, 0.3f), large = grid(60, 0.3f);  // 1k, 216k
    double rssAfterWarmUp = 0.0, videoAfterWarmUp = 0.0;
    for (int round = 0; round < 60; ++round) {
        const int w = 256 + 64 * (round % 7), h = 192 + 48 * (round % 5);
        OffscreenTarget target(w, h);
        target.bind();
        target.clear(0, 0, 0, 1);
        PointCloud cloud;
        cloud.setPoints(large.data(), large.size() / 4);  // grows: new buffer objects
        cloud.setPoints(small.data(), small.size() / 4);  // and draws few (llvmpipe is slow)
        cloud.setDrawPath(round % 2 == 0 ? PointCloud::DrawPath::Splat
                                         : PointCloud::DrawPath::Raster);
        OrbitCamera cam;
        cam.fit({0, 0, 0}, {10, 10, 10});
        cloud.draw(cam.view(), cam.projection(static_cast<float>(w) / static_cast<float>(h)));
        const std::vector<std::uint8_t> pixels = target.readPixels();
        ASSERT_EQ(pixels.size(), static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
        glFinish();
        if (round == 9) {
            rssAfterWarmUp = residentMiB();
            videoAfterWarmUp = freeVideoMiB();
        }
    }
    EXPECT_LT(residentMiB() - rssAfterWarmUp, 64.0);
    if (videoAfterWarmUp >= 0.0) {
        EXPECT_LT(videoAfterWarmUp - freeVideoMiB(), 64.0);
    }
}

std::vector<std::uint8_t> drawOneSphere() {
    PointCloud cloud;
    const float sphere[4] = {0, 0, 0, 1};
    cloud.setPoints(sphere, 1);
    cloud.colorUniform({0.2f, 0.6f, 1.0f});
    OrbitCamera cam;
    cam.distance = 6.0f;
    OffscreenTarget target(64, 64);
    target.bind();
    target.clear(0, 0, 0, 1);
    cloud.draw(cam.view(), cam.projection(1.0f));
    return target.readPixels();
}

// Outside the fixture: this case makes and destroys contexts itself.
TEST(RenderContextLifecycle, ContextMadeAgainDrawsTheSameImage) {
    std::vector<std::uint8_t> first;
    try {
        HeadlessContext context;
        EXPECT_FALSE(context.lost());
        first = drawOneSphere();
    } catch (const RenderError& e) {
        GTEST_SKIP() << "no headless OpenGL here: " << e.what();
    }
    for (int again = 0; again < 3; ++again) {
        HeadlessContext context;
        EXPECT_EQ(drawOneSphere(), first) << "context " << again + 2;
    }
}

// Objects whose context went away first (a window closed under them) are destroyed
// without a crash: GL calls without a current context are ignored by the drivers.
TEST(RenderContextLifecycle, ObjectsOutlivingTheirContextAreDestroyedQuietly) {
    std::unique_ptr<HeadlessContext> context;
    try {
        context = std::make_unique<HeadlessContext>();
    } catch (const RenderError& e) {
        GTEST_SKIP() << "no headless OpenGL here: " << e.what();
    }
    auto cloud = std::make_unique<PointCloud>();
    auto target = std::make_unique<OffscreenTarget>(32, 32);
    const float sphere[4] = {0, 0, 0, 1};
    cloud->setPoints(sphere, 1);
    context.reset();
    cloud.reset();
    target.reset();
    HeadlessContext next;  // and a new context works afterwards
    EXPECT_FALSE(drawOneSphere().empty());
}

}  // namespace
}  // namespace cf::render
