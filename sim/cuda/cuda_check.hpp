// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CUDA error checks that throw cf::CudaError. Include only in CUDA-enabled sources.
#include <cuda_runtime_api.h>
#include <string>

#include "sim/core/errors.hpp"

namespace cf::cuda {

[[noreturn]] void throwCudaError(cudaError_t err, const char* expression, const char* file,
                                 int line);

// After a launch: picks up launch-configuration errors (and, when the environment
// variable CELLFORGE_CUDA_SYNC=1 is set, waits for the kernel so that faults are
// reported against the kernel that caused them).
void checkLaunch(const char* kernelName, cudaStream_t stream, const char* file, int line);

}  // namespace cf::cuda

#define CF_CUDA_CHECK(expr)                                                      \
    do {                                                                         \
        const cudaError_t cf_cuda_err_ = (expr);                                 \
        if (cf_cuda_err_ != cudaSuccess)                                         \
            ::cf::cuda::throwCudaError(cf_cuda_err_, #expr, __FILE__, __LINE__); \
    } while (0)

// Use right after every kernel launch: CF_CUDA_CHECK_LAUNCH("integrate", stream);
#define CF_CUDA_CHECK_LAUNCH(kernelName, stream) \
    ::cf::cuda::checkLaunch(kernelName, stream, __FILE__, __LINE__)
