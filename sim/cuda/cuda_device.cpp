// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/cuda/cuda_device.hpp"

#include <string>

#include "sim/core/backend.hpp"
#include "sim/core/errors.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace cf {

int cudaDeviceCount() {
#if CELLFORGE_HAVE_CUDA
    if (!isAvailable(Backend::Cuda)) return 0;  // no driver: do not ask again
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
#else
    return 0;
#endif
}

void useCudaDevice(int device) {
    if (device < 0) return;
    const int count = cudaDeviceCount();
    if (device >= count)
        throw ParameterError(
            "CUDA device " + std::to_string(device) + " does not exist (" +
            (count == 0 ? cudaStatus()
                        : std::to_string(count) + " device(s): 0.." + std::to_string(count - 1)) +
            ")");
#if CELLFORGE_HAVE_CUDA
    const cudaError_t err = cudaSetDevice(device);
    if (err != cudaSuccess) {
        cudaGetLastError();
        throw ParameterError("cannot use CUDA device " + std::to_string(device) + ": " +
                             cudaGetErrorString(err));
    }
#endif
}

}  // namespace cf
