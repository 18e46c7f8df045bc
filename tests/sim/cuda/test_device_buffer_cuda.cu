// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/cuda/cuda_check.hpp"
#include "tests/sim/cuda/device_buffer_test_cuda.hpp"

namespace cf::test {

namespace {

__global__ void tooManyThreads(int* out) {
    if (out != nullptr) out[threadIdx.x] = 0;
}

__global__ void increment(int* data, std::size_t count) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < count) data[i] += 1;
}

}  // namespace

void launchWithInvalidConfiguration() {
    tooManyThreads<<<1, 2048>>>(nullptr);
    CF_CUDA_CHECK_LAUNCH("tooManyThreads", nullptr);
}

void incrementOnDevice(int* data, std::size_t count) {
    if (count == 0) return;
    constexpr unsigned kBlock = 256;
    const auto blocks = static_cast<unsigned>((count + kBlock - 1) / kBlock);
    increment<<<blocks, kBlock>>>(data, count);
    CF_CUDA_CHECK_LAUNCH("increment", nullptr);
}

}  // namespace cf::test
