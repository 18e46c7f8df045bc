// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a grid test reads back from either backend: the sort, the cell ranges and, per
// point, the neighbors forEachNeighbor found (CSR, in visiting order).
#include <cstdint>
#include <vector>

#include "sim/grid/uniform_grid.hpp"

namespace cf::test {

struct GridPoints {
    std::vector<float> x, y, z;
    int count() const { return static_cast<int>(x.size()); }
};

struct GridQueryResult {
    std::vector<std::int32_t> sortedIndex;
    std::vector<std::uint32_t> sortedKeys;
    std::vector<std::int32_t> cellStart;
    std::vector<std::int32_t> cellEnd;
    std::vector<std::int32_t> neighborOffset;  // count + 1
    std::vector<std::int32_t> neighbors;
    std::vector<long long> neighborIndexSum;  // per point, from the counting pass
};

#if CELLFORGE_HAVE_CUDA
// Defined in test_grid_cuda.cu: builds a CudaUniformGrid (twice when `rebuildFrom` is given,
// first with those points, to exercise buffer reuse) and queries every point on the device.
GridQueryResult buildAndQueryCuda(const grid::GridGeometry& geometry, const GridPoints& points,
                                  float cutoff, const GridPoints* rebuildFrom = nullptr);
#endif

}  // namespace cf::test
