// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA-GL texture interop: values CUDA writes into the renderer's 3D and 2D textures (a
// kernel through a surface object, or a pitched device-to-array copy) are what GL reads
// back and what the slices draw; registrations follow a resize. Runs on the GPU machine
// (EGL device context); skips elsewhere.
#include <gtest/gtest.h>

#include <cstdio>
#include <cuda_runtime_api.h>
#include <string>
#include <vector>

#include "render/cuda/cuda_gl_texture.hpp"
#include "render/cuda/surface_write.hpp"
#include "render/heatmap.hpp"
#include "render/render_error.hpp"
#include "render/volume_grid.hpp"
#include "tests/support/interop_fixture.hpp"
#include "tests/support/top_view.hpp"

namespace cf::render {
namespace {

using test_support::colormapAt;
using test_support::expectColour;
using test_support::onlySlice;
using test_support::paletteColour;
using test_support::pixel;
using test_support::renderTop;
using test_support::TopView;

using VolumeInteropCuda = test::CudaGlInteropTest;

// Device memory holding a host vector, freed at scope end.
template <typename T>
struct DeviceCopy {
    explicit DeviceCopy(const std::vector<T>& host) {
        void* raw = nullptr;
        EXPECT_EQ(cudaMalloc(&raw, host.size() * sizeof(T)), cudaSuccess);
        data = static_cast<T*>(raw);
        EXPECT_EQ(cudaMemcpy(data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
                  cudaSuccess);
    }
    ~DeviceCopy() { cudaFree(data); }
    DeviceCopy(const DeviceCopy&) = delete;
    DeviceCopy& operator=(const DeviceCopy&) = delete;
    T* data = nullptr;
};

cudaExtent extentOf(int width, int height, int depth) {
    return {static_cast<std::size_t>(width), static_cast<std::size_t>(height),
            static_cast<std::size_t>(depth)};
}

std::vector<float> readScalars(GLuint texture, std::size_t count) {
    std::vector<float> back(count, -1.0f);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTextureImage(texture, 0, GL_RED, GL_FLOAT, static_cast<GLsizei>(count * sizeof(float)),
                      back.data());
    return back;
}

std::vector<std::uint8_t> readCategories(GLuint texture, std::size_t count) {
    std::vector<std::uint8_t> back(count, 255);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(texture, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, static_cast<GLsizei>(count),
                      back.data());
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    return back;
}

// f(i, j, k) = (i + nx j + nx ny k) / (cells - 1): every cell distinct, in [0, 1].
std::vector<float> distinctValues(int nx, int ny, int nz) {
    const int cells = nx * ny * nz;
    std::vector<float> v(static_cast<std::size_t>(cells));
    for (int c = 0; c < cells; ++c)
        v[static_cast<std::size_t>(c)] = static_cast<float>(c) / static_cast<float>(cells - 1);
    return v;
}

// A kernel writes every cell through a surface object on the mapped 3D texture; GL reads
// the same floats back (bit-exact: no conversion on the way) and the z-slice through cell
// layer k = 2, nearest-sampled, shows each cell's colormap colour (tolerance 2 levels:
// values fall between two colormap texels, filtered with 8-bit weights).
TEST_F(VolumeInteropCuda, SurfaceKernelWritesWhatGlReadsAndDraws) {
    const int nx = 16, ny = 8, nz = 4;
    VolumeGrid volume;
    volume.setBox({-1, -1, -1}, {1, 1, 1});
    volume.resize(nx, ny, nz, VolumeGrid::ValueFormat::Scalar);
    volume.colorByScalar(Colormap::Viridis, 0.0f, 1.0f);
    volume.setLinearScalars(false);
    const std::vector<float> values = distinctValues(nx, ny, nz);
    DeviceCopy<float> device(values);

    CudaGlTexture interop;
    interop.attach(volume.texture(), GL_TEXTURE_3D, CudaGlTexture::Access::SurfaceLoadStore,
                   volume.textureGeneration());
    {
        const CudaGlTexture::Mapping m = interop.map(nullptr);
        EXPECT_EQ(m.extent().width, static_cast<std::size_t>(nx));
        EXPECT_EQ(m.extent().height, static_cast<std::size_t>(ny));
        EXPECT_EQ(m.extent().depth, static_cast<std::size_t>(nz));
        writeSurfaceFromDevice(m.array(), device.data, nx, ny, nz, nullptr);
        // A uint8 write into a float array is refused, not reinterpreted.
        EXPECT_THROW(
            writeSurfaceFromDevice(m.array(), reinterpret_cast<const std::uint8_t*>(device.data),
                                   nx, ny, nz, nullptr),
            RenderError);
        EXPECT_THROW(writeSurfaceFromDevice(m.array(), device.data, nx + 1, ny, nz, nullptr),
                     RenderError);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<float> back = readScalars(volume.texture(), values.size());
    for (std::size_t c = 0; c < values.size(); ++c)
        ASSERT_EQ(back[c], values[c]) << "cell " << c;

    onlySlice(volume, 2);
    const float zSlice = -1.0f + 2.5f * 2.0f / nz;  // the middle of layer k = 2
    volume.setSlice(2, zSlice);
    const TopView v{200, 160, 4.0f};
    const Image im = renderTop(v, [&](auto view, auto proj) { volume.drawSlices(view, proj); });
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const glm::vec3 centre(-1.0f + (i + 0.5f) * 2.0f / nx, -1.0f + (j + 0.5f) * 2.0f / ny,
                                   zSlice);
            const glm::ivec2 px = v.pixelOf(centre);
            const float value = values[static_cast<std::size_t>((2 * ny + j) * nx + i)];
            expectColour(pixel(im, px.x, px.y), colormapAt(Colormap::Viridis, value), 2,
                         "cell " + std::to_string(i) + "," + std::to_string(j));
        }
    std::printf("interop context: %s\n", context_->description().c_str());
}

// Categories by a pitched device-to-array copy (rows padded to 32 bytes, as
// cudaMallocPitch would), registered write-discard: GL reads the bytes back and the slice
// shows exact palette colours. A copy larger than the texture is refused before mapping,
// so the contents survive it even under write-discard.
TEST_F(VolumeInteropCuda, PitchedCopyOfCategoriesIsWhatGlReadsAndDraws) {
    const int nx = 5, ny = 4, nz = 3;
    const std::size_t pitch = 32;
    std::vector<std::uint8_t> padded(pitch * ny * nz, 99);
    std::vector<std::uint8_t> sites(static_cast<std::size_t>(nx * ny * nz));
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const auto c = static_cast<std::uint8_t>(1 + (i + j + k) % 5);
                sites[static_cast<std::size_t>((k * ny + j) * nx + i)] = c;
                padded[(static_cast<std::size_t>(k) * ny + static_cast<std::size_t>(j)) * pitch +
                       static_cast<std::size_t>(i)] = c;
            }
    DeviceCopy<std::uint8_t> device(padded);
    VolumeGrid volume;
    volume.setBox({-1, -1, -1}, {1, 1, 1});
    volume.resize(nx, ny, nz, VolumeGrid::ValueFormat::Category);
    CudaGlTexture interop;
    interop.attach(volume.texture(), GL_TEXTURE_3D, CudaGlTexture::Access::WriteDiscard,
                   volume.textureGeneration());
    interop.copyFromDevice(device.data, pitch, extentOf(nx, ny, nz), nullptr);
    EXPECT_THROW(interop.copyFromDevice(device.data, pitch, extentOf(nx, ny, nz + 1), nullptr),
                 RenderError);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(readCategories(volume.texture(), sites.size()), sites);

    onlySlice(volume, 2);
    const float zSlice = -1.0f + 1.5f * 2.0f / nz;  // layer k = 1
    volume.setSlice(2, zSlice);
    const TopView v{160, 160, 4.0f};
    const Image im = renderTop(v, [&](auto view, auto proj) { volume.drawSlices(view, proj); });
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const glm::ivec2 px =
                v.pixelOf({-1.0f + (i + 0.5f) * 2.0f / nx, -1.0f + (j + 0.5f) * 2.0f / ny, zSlice});
            expectColour(pixel(im, px.x, px.y),
                         paletteColour(sites[static_cast<std::size_t>((nx * ny) + j * nx + i)]), 0,
                         "cell " + std::to_string(i) + "," + std::to_string(j));
        }
}

// After resize() the grid owns a new texture: attach() registers it (its name or its
// generation differ), writes land in the new texture with its new size, and attaching
// the same texture again keeps the registration.
TEST_F(VolumeInteropCuda, ResizeReRegistersTheTexture) {
    VolumeGrid volume;
    volume.resize(4, 4, 4, VolumeGrid::ValueFormat::Scalar);
    CudaGlTexture interop;
    interop.attach(volume.texture(), GL_TEXTURE_3D, CudaGlTexture::Access::SurfaceLoadStore,
                   volume.textureGeneration());
    const std::vector<float> small = distinctValues(4, 4, 4);
    DeviceCopy<float> smallDevice(small);
    interop.copyFromDevice(smallDevice.data, 4 * sizeof(float), extentOf(4, 4, 4), nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(readScalars(volume.texture(), small.size()), small);

    // Names may be recycled by the later rounds; round 1 unregisters before the resize.
    for (int round = 0; round < 3; ++round) {
        const int nx = 6 + round, ny = 5, nz = 3 + round;
        if (round == 1) {
            interop.detach();
            EXPECT_FALSE(interop.attached());
        }
        volume.resize(nx, ny, nz);
        interop.attach(volume.texture(), GL_TEXTURE_3D, CudaGlTexture::Access::SurfaceLoadStore,
                       volume.textureGeneration());
        EXPECT_EQ(interop.texture(), volume.texture());
        EXPECT_EQ(interop.extent().width, static_cast<std::size_t>(nx));
        EXPECT_EQ(interop.extent().depth, static_cast<std::size_t>(nz));
        std::vector<float> values = distinctValues(nx, ny, nz);
        for (float& x : values)
            x += static_cast<float>(round);
        DeviceCopy<float> device(values);
        {
            const CudaGlTexture::Mapping m = interop.map(nullptr);
            ASSERT_EQ(m.extent().width, static_cast<std::size_t>(nx)) << "round " << round;
            ASSERT_EQ(m.extent().depth, static_cast<std::size_t>(nz)) << "round " << round;
            writeSurfaceFromDevice(m.array(), device.data, nx, ny, nz, nullptr);
        }
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        EXPECT_EQ(readScalars(volume.texture(), values.size()), values) << "round " << round;
    }
    const GLuint registered = interop.texture();
    interop.attach(volume.texture(), GL_TEXTURE_3D, CudaGlTexture::Access::SurfaceLoadStore,
                   volume.textureGeneration());  // unchanged: nothing to do
    EXPECT_EQ(interop.texture(), registered);
    EXPECT_THROW(interop.attach(volume.texture(), GL_TEXTURE_1D), RenderError);
}

// The 2D path: a heatmap's texture written by a surface kernel and by a pitched copy (depth
// 1), read back by GL.
TEST_F(VolumeInteropCuda, HeatmapTextureTakesSurfaceWritesAndCopies) {
    const int nx = 7, ny = 3;
    Heatmap2D heatmap;
    heatmap.resize(nx, ny);
    const std::vector<float> values = distinctValues(nx, ny, 1);
    DeviceCopy<float> device(values);
    CudaGlTexture interop;
    interop.attach(heatmap.texture(), GL_TEXTURE_2D, CudaGlTexture::Access::SurfaceLoadStore,
                   heatmap.textureGeneration());
    EXPECT_EQ(interop.extent().depth, 1u) << "GL reports depth 1 for a 2D texture";
    {
        const CudaGlTexture::Mapping m = interop.map(nullptr);
        EXPECT_EQ(m.extent().depth, 0u) << "2D arrays report depth 0";
        writeSurfaceFromDevice(m.array(), device.data, nx, ny, 1, nullptr);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(readScalars(heatmap.texture(), values.size()), values);

    std::vector<float> doubled(values);
    for (float& x : doubled)
        x *= 2.0f;
    DeviceCopy<float> doubledDevice(doubled);
    interop.copyFromDevice(doubledDevice.data, nx * sizeof(float), extentOf(nx, ny, 1), nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(readScalars(heatmap.texture(), doubled.size()), doubled);
}

}  // namespace
}  // namespace cf::render
