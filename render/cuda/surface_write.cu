// SPDX-License-Identifier: GPL-3.0-or-later
#include <string>

#include "render/cuda/surface_write.hpp"
#include "render/render_error.hpp"

namespace cf::render {

namespace {

void check(cudaError_t err, const char* what) {
    if (err != cudaSuccess)
        throw RenderError(std::string("surface write: ") + what + " failed: " +
                          cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

// Surface x coordinates are in bytes, y and z in elements.
template <typename T>
__global__ void writeSurface3D(cudaSurfaceObject_t surface, const T* __restrict__ source, int nx,
                               int ny, int nz) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    const int z = static_cast<int>(blockIdx.z * blockDim.z + threadIdx.z);
    if (x >= nx || y >= ny || z >= nz) return;
    const T v = source[(static_cast<std::size_t>(z) * ny + y) * nx + x];
    surf3Dwrite(v, surface, x * static_cast<int>(sizeof(T)), y, z);
}

template <typename T>
__global__ void writeSurface2D(cudaSurfaceObject_t surface, const T* __restrict__ source, int nx,
                               int ny) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= nx || y >= ny) return;
    surf2Dwrite(source[static_cast<std::size_t>(y) * nx + x], surface,
                x * static_cast<int>(sizeof(T)), y);
}

template <typename T>
void write(cudaArray_t array, const T* source, int nx, int ny, int nz, cudaStream_t stream,
           cudaChannelFormatKind kind, const char* typeName) {
    cudaChannelFormatDesc desc{};
    cudaExtent extent{};
    unsigned int flags = 0;
    check(cudaArrayGetInfo(&desc, &extent, &flags, array), "cudaArrayGetInfo");
    if (desc.f != kind || desc.x != 8 * static_cast<int>(sizeof(T)) || desc.y != 0)
        throw RenderError(std::string("surface write: the array does not hold one ") + typeName +
                          " per element");
    const bool is2D = extent.depth == 0;
    if (nx < 1 || ny < 1 || nz < 1 || static_cast<std::size_t>(nx) > extent.width ||
        static_cast<std::size_t>(ny) > extent.height ||
        static_cast<std::size_t>(nz) > (is2D ? 1 : extent.depth))
        throw RenderError("surface write: " + std::to_string(nx) + "x" + std::to_string(ny) + "x" +
                          std::to_string(nz) + " does not fit the array of " +
                          std::to_string(extent.width) + "x" + std::to_string(extent.height) + "x" +
                          std::to_string(extent.depth));
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    cudaSurfaceObject_t surface = 0;
    check(cudaCreateSurfaceObject(&surface, &resource), "cudaCreateSurfaceObject");
    if (is2D) {
        const dim3 block(16, 16);
        const dim3 grid((nx + 15) / 16, (ny + 15) / 16);
        writeSurface2D<<<grid, block, 0, stream>>>(surface, source, nx, ny);
    } else {
        const dim3 block(8, 8, 4);
        const dim3 grid((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4);
        writeSurface3D<<<grid, block, 0, stream>>>(surface, source, nx, ny, nz);
    }
    cudaError_t err = cudaGetLastError();
    // CUDA does not promise that a surface object may be destroyed while a queued kernel
    // still uses it: wait for the kernel first.
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    cudaDestroySurfaceObject(surface);
    check(err, "surface write kernel");
}

}  // namespace

void writeSurfaceFromDevice(cudaArray_t array, const float* source, int nx, int ny, int nz,
                            cudaStream_t stream) {
    write(array, source, nx, ny, nz, stream, cudaChannelFormatKindFloat, "float");
}

void writeSurfaceFromDevice(cudaArray_t array, const std::uint8_t* source, int nx, int ny, int nz,
                            cudaStream_t stream) {
    write(array, source, nx, ny, nz, stream, cudaChannelFormatKindUnsigned, "uint8");
}

}  // namespace cf::render
