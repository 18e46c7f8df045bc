// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The range (min, max) of a device array, reduced on the device: colouring by a scalar
// needs the range every frame, and this costs two floats of traffic instead of the array.
#include <cstddef>
#include <cuda_runtime_api.h>
#include <utility>

namespace cf::render {

// Ordered on `stream`; returns when the result is on the host. An empty array gives
// (0, 1). Throws RenderError on a CUDA error.
std::pair<float, float> deviceRange(const float* values, std::size_t count, cudaStream_t stream);

}  // namespace cf::render
