// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Kernel launches for test_device_buffer.cpp, defined in test_device_buffer_cuda.cu.
#include <cstddef>

namespace cf::test {

// Launches a kernel with 2048 threads per block (more than any GPU allows), then
// CF_CUDA_CHECK_LAUNCH("tooManyThreads", default stream): must throw cf::CudaError.
void launchWithInvalidConfiguration();

// Adds 1 to each of `count` ints at the device pointer `data` (a valid launch).
void incrementOnDevice(int* data, std::size_t count);

}  // namespace cf::test
