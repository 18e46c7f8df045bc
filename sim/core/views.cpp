// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/views.hpp"

#include <cstring>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/state_arrays.hpp"

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

int currentCudaDevice() {
#if CELLFORGE_HAVE_CUDA
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();  // clears the error this query left
        return -1;
    }
    return device;
#else
    return -1;
#endif
}

}  // namespace cf
