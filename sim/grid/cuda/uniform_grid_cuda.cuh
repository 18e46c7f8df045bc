// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CUDA build of the uniform grid: Morton keys, a stable CUB radix sort of (key, index) and
// a boundary pass for the per-cell ranges. Host-includable (no kernels declared here), so
// CUDA-enabled .cpp files may own a grid; compile only when CELLFORGE_HAVE_CUDA.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector>

#include "sim/cuda/device_buffer.hpp"
#include "sim/grid/uniform_grid.hpp"

namespace cf::grid {

class CudaUniformGrid {
public:
    // Sorts device-resident points on `stream` (asynchronous: returns before the device is
    // done; work queued later on the same stream sees the result). The points must stay
    // valid while view() is used. Buffers only grow, so rebuilding every step allocates
    // nothing once the largest size has been seen; the Morton table is uploaded only when
    // the geometry changes.
    void build(const GridGeometry& geometry, PointsView devicePoints,
               cudaStream_t stream = nullptr);

    // Grows the per-point buffers (and the sort's scratch) for up to `points` points now,
    // so that a later build() of that many allocates nothing: a model that must not fail
    // half way through a step reserves before it changes anything.
    void reservePoints(std::size_t points, cudaStream_t stream = nullptr);

    const GridGeometry& geometry() const noexcept { return geometry_; }
    int count() const noexcept { return count_; }

    // Device pointers for kernels, valid until the next build.
    GridView view() const;

    // Downloads for tests and diagnostics (synchronize `stream`).
    std::vector<std::int32_t> sortedIndexToHost(cudaStream_t stream = nullptr) const;
    std::vector<std::uint32_t> sortedKeysToHost(cudaStream_t stream = nullptr) const;
    std::vector<std::int32_t> cellStartToHost(cudaStream_t stream = nullptr) const;
    std::vector<std::int32_t> cellEndToHost(cudaStream_t stream = nullptr) const;

    std::size_t tempStorageBytes() const noexcept { return temp_.size(); }

private:
    GridGeometry geometry_{};
    bool haveGeometry_ = false;
    int count_ = 0;
    PointsView points_{};
    cuda::DeviceBuffer<std::int32_t> rank_;        // linear cell -> key
    cuda::DeviceBuffer<std::int32_t> cellOfRank_;  // key -> linear cell
    cuda::DeviceBuffer<std::uint32_t> keysIn_, keysOut_;
    cuda::DeviceBuffer<std::int32_t> indexIn_, indexOut_;
    cuda::DeviceBuffer<std::int32_t> cellStart_, cellEnd_;
    cuda::DeviceBuffer<unsigned char> temp_;  // CUB scratch, grown on demand
};

// For the grid-build benchmark: uploads the host points, builds once to warm up, then times
// `repeats` builds with CUDA events. Returns seconds per build.
std::vector<double> timeCudaGridBuilds(const GridGeometry& geometry, const float* hostX,
                                       const float* hostY, const float* hostZ, int count,
                                       int repeats);

}  // namespace cf::grid
