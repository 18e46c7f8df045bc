// SPDX-License-Identifier: GPL-3.0-or-later
#include <cub/device/device_reduce.cuh>
#include <string>

#include "render/cuda/device_range.hpp"
#include "render/render_error.hpp"

namespace cf::render {

namespace {
void check(cudaError_t err, const char* what) {
    if (err != cudaSuccess)
        throw RenderError(std::string("device range: ") + what + ": " + cudaGetErrorString(err));
}
}  // namespace

std::pair<float, float> deviceRange(const float* values, std::size_t count, cudaStream_t stream) {
    if (count == 0) return {0.0f, 1.0f};
    const int n = static_cast<int>(count);
    // One allocation for both results and CUB's scratch (sized for the larger query).
    std::size_t minBytes = 0, maxBytes = 0;
    check(
        cub::DeviceReduce::Min(nullptr, minBytes, values, static_cast<float*>(nullptr), n, stream),
        "size query");
    check(
        cub::DeviceReduce::Max(nullptr, maxBytes, values, static_cast<float*>(nullptr), n, stream),
        "size query");
    const std::size_t scratch = std::max(minBytes, maxBytes);
    void* block = nullptr;
    check(cudaMallocAsync(&block, scratch + 2 * sizeof(float), stream), "allocation");
    auto* result = static_cast<float*>(block);
    void* temp = static_cast<char*>(block) + 2 * sizeof(float);
    std::size_t bytes = scratch;
    cudaError_t err = cub::DeviceReduce::Min(temp, bytes, values, result, n, stream);
    bytes = scratch;
    if (err == cudaSuccess)
        err = cub::DeviceReduce::Max(temp, bytes, values, result + 1, n, stream);
    float host[2] = {0.0f, 1.0f};
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(host, result, sizeof host, cudaMemcpyDeviceToHost, stream);
    cudaFreeAsync(block, stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    check(err, "reduction");
    return {host[0], host[1]};
}

}  // namespace cf::render
