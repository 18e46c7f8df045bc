// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/views.hpp"

#include <cstring>
#include <string>

#include "sim/core/errors.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace cf {

void copyViewToHost(const void* source, void* destination, std::size_t bytes, MemorySpace space) {
    if (bytes == 0) return;
    if (space == MemorySpace::Host) {
        std::memcpy(destination, source, bytes);
        return;
    }
#if CELLFORGE_HAVE_CUDA
    const cudaError_t err = cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess)
        throw Error(std::string("copying a device view to the host failed: ") +
                    cudaGetErrorString(err));
#else
    throw Error("a device view in a build without CUDA");
#endif
}

}  // namespace cf
