// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/cuda/cuda_check.hpp"

#include <cstdlib>
#include <cstring>

namespace cf::cuda {

namespace {
std::string location(const char* file, int line) {
    return std::string(file) + ":" + std::to_string(line);
}
bool syncAfterLaunch() {
    static const bool sync = [] {
        const char* v = std::getenv("CELLFORGE_CUDA_SYNC");
        return v != nullptr && std::strcmp(v, "0") != 0 && *v != '\0';
    }();
    return sync;
}
}  // namespace

void throwCudaError(cudaError_t err, const char* expression, const char* file, int line) {
    const std::string where = location(file, line);
    std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                      cudaGetErrorString(err) + ") in " + expression + " at " + where;
    throw CudaError(static_cast<int>(err), std::move(msg), expression, where);
}

void checkLaunch(const char* kernelName, cudaStream_t stream, const char* file, int line) {
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess && syncAfterLaunch()) {
        // A stream being captured into a CUDA graph cannot be synchronized.
        cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
        err = cudaStreamIsCapturing(stream, &capture);
        if (err == cudaSuccess && capture == cudaStreamCaptureStatusNone)
            err = cudaStreamSynchronize(stream);
    }
    if (err == cudaSuccess) return;
    const std::string where = location(file, line);
    std::string expr = std::string("kernel ") + kernelName;
    std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                      cudaGetErrorString(err) + ") in kernel '" + kernelName + "' launched at " +
                      where;
    throw CudaError(static_cast<int>(err), std::move(msg), std::move(expr), where);
}

}  // namespace cf::cuda
