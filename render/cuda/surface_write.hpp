// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Kernels that write a dense device array (x fastest, then y, then z) into a CUDA array
// through a surface object: the way a simulation kernel fills a mapped GL texture
// (CudaGlTexture registered with Access::SurfaceLoadStore) without a staging copy. The
// array's element type must match (R32F <- float, R8UI <- uint8); nz is 1 for a 2D array.
// Ordered on `stream`, and returns once the kernel has finished (the surface object it
// creates may only be destroyed then). Throws RenderError on a mismatch or a CUDA error.
#include <cstdint>
#include <cuda_runtime_api.h>

namespace cf::render {

void writeSurfaceFromDevice(cudaArray_t array, const float* source, int nx, int ny, int nz,
                            cudaStream_t stream);
void writeSurfaceFromDevice(cudaArray_t array, const std::uint8_t* source, int nx, int ny, int nz,
                            cudaStream_t stream);

}  // namespace cf::render
