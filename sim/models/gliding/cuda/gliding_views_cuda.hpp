// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The views of `gliding` on the CUDA backend (docs/design/gliding.md 5): the layout of
// viewLayout with every volume and vector view in device memory, written by packViews from the
// device state, so that CUDA-GL interop copies them into GL buffers without a trip through host
// memory. Include only in CUDA-enabled sources.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector>

#include "sim/core/views.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/gliding/cuda/view_kernels.cuh"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/state_pointers.hpp"

namespace cf::gliding::cuda {

// The device state the views read (state_pointers.hpp), all in device memory.
using DeviceViewInputs = StatePointers;

// Owns the device view arrays (the float arrays of ViewBuffers in one allocation), a device
// copy of the tables' cos/sin theta and the scratch of the max-c reduction. Empty until the
// first deviceViews; reallocated only when the grid changes.
class DeviceViewBuffers {
public:
    // Sizes the arrays for t's grid and uploads cos/sin theta when they differ from the last
    // upload (then waits for `stream`; otherwise nothing is copied).
    void prepare(const GlidingTables& t, cudaStream_t stream);

    DeviceViewArrays arrays();
    const double* cosT() const { return cosT_.data(); }
    const double* sinT() const { return sinT_.data(); }
    double* scratch() { return scratch_.data(); }

private:
    std::int32_t n_ = 0;
    std::vector<double> cosHost_, sinHost_;  // what cosT_, sinT_ hold
    cf::cuda::DeviceBuffer<float> data_;     // 9 scalar arrays, then 3 xyz arrays
    cf::cuda::DeviceBuffer<double> cosT_, sinT_, scratch_;
};

// Queues packViews on `stream` and returns viewLayout(p) pointing at b's device arrays
// (space = MemorySpace::Device on every volume and vector view). The arrays are valid until b
// is prepared for another grid or destroyed; read them after the stream (Model::synchronize).
ModelViews deviceViews(const GlidingParams& p, const GlidingTables& t, const DeviceViewInputs& in,
                       DeviceViewBuffers& b, cudaStream_t stream);

}  // namespace cf::gliding::cuda
