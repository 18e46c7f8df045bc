// SPDX-License-Identifier: GPL-3.0-or-later
// Device side of the grid tests: kernels that run forEachNeighbor for every point.
#include <span>

#include "sim/cuda/device_buffer.hpp"
#include "sim/grid/cuda/uniform_grid_cuda.cuh"
#include "tests/sim/grid/grid_test_support.hpp"

namespace cf::test {

namespace {

constexpr int kBlock = 128;

__global__ void countNeighbors(grid::GridView view, float cutoff, std::int32_t* count,
                               long long* indexSum) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= view.points.count) return;
    const grid::Vec3 p{view.points.x[i], view.points.y[i], view.points.z[i]};
    std::int32_t n = 0;
    long long sum = 0;
    grid::forEachNeighbor(view, p, cutoff, [&](std::int32_t j, grid::Vec3, float) {
        ++n;
        sum += j;
    });
    count[i] = n;
    indexSum[i] = sum;
}

__global__ void listNeighbors(grid::GridView view, float cutoff, const std::int32_t* offset,
                              std::int32_t* neighbors) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= view.points.count) return;
    const grid::Vec3 p{view.points.x[i], view.points.y[i], view.points.z[i]};
    std::int32_t k = offset[i];
    grid::forEachNeighbor(view, p, cutoff,
                          [&](std::int32_t j, grid::Vec3, float) { neighbors[k++] = j; });
}

struct DevicePoints {
    cuda::DeviceBuffer<float> x, y, z;
    explicit DevicePoints(const GridPoints& p)
        : x(std::span<const float>(p.x)),
          y(std::span<const float>(p.y)),
          z(std::span<const float>(p.z)) {}
    grid::PointsView view(int count) const { return {x.data(), y.data(), z.data(), count}; }
};

}  // namespace

GridQueryResult buildAndQueryCuda(const grid::GridGeometry& geometry, const GridPoints& points,
                                  float cutoff, const GridPoints* rebuildFrom) {
    grid::CudaUniformGrid g;
    if (rebuildFrom != nullptr) {
        const DevicePoints first(*rebuildFrom);
        g.build(geometry, first.view(rebuildFrom->count()));
        CF_CUDA_CHECK(cudaDeviceSynchronize());
    }
    const DevicePoints d(points);
    const int n = points.count();
    g.build(geometry, d.view(n));

    GridQueryResult r;
    r.sortedIndex = g.sortedIndexToHost();
    r.sortedKeys = g.sortedKeysToHost();
    r.cellStart = g.cellStartToHost();
    r.cellEnd = g.cellEndToHost();
    r.neighborOffset.assign(static_cast<std::size_t>(n) + 1, 0);
    if (n == 0) return r;

    const int blocks = (n + kBlock - 1) / kBlock;
    cuda::DeviceBuffer<std::int32_t> count(static_cast<std::size_t>(n));
    cuda::DeviceBuffer<long long> sum(static_cast<std::size_t>(n));
    countNeighbors<<<blocks, kBlock>>>(g.view(), cutoff, count.data(), sum.data());
    CF_CUDA_CHECK_LAUNCH("countNeighbors", nullptr);
    const std::vector<std::int32_t> counts = count.toHost();
    r.neighborIndexSum = sum.toHost();
    for (int i = 0; i < n; ++i)
        r.neighborOffset[static_cast<std::size_t>(i) + 1] =
            r.neighborOffset[static_cast<std::size_t>(i)] + counts[static_cast<std::size_t>(i)];

    const cuda::DeviceBuffer<std::int32_t> offset(std::span<const std::int32_t>(r.neighborOffset));
    cuda::DeviceBuffer<std::int32_t> list(static_cast<std::size_t>(r.neighborOffset.back()));
    listNeighbors<<<blocks, kBlock>>>(g.view(), cutoff, offset.data(), list.data());
    CF_CUDA_CHECK_LAUNCH("listNeighbors", nullptr);
    r.neighbors = list.toHost();
    return r;
}

}  // namespace cf::test
