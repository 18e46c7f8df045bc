// SPDX-License-Identifier: GPL-3.0-or-later
#include <cub/cub.cuh>
#include <span>

#include "sim/core/errors.hpp"
#include "sim/grid/cuda/uniform_grid_cuda.cuh"

namespace cf::grid {

namespace {

constexpr int kBlock = 256;

int blocksFor(int n) {
    return (n + kBlock - 1) / kBlock;
}

// Grow-only: a grid rebuilt every step with a fluctuating count must not hit cudaMalloc.
template <typename T>
void grow(cuda::DeviceBuffer<T>& buffer, std::size_t count) {
    if (buffer.size() < count) buffer.resize(count);
}

__global__ void computeKeys(GridGeometry g, PointsView p, const std::int32_t* __restrict__ rank,
                            std::uint32_t* __restrict__ keys, std::int32_t* __restrict__ index) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= p.count) return;
    const int cell = cellOf(g, p.x[i], p.y[i], p.z[i]);
    keys[i] = static_cast<std::uint32_t>(rank[cell]);
    index[i] = i;
}

// Each run of equal keys in the sorted array is one cell: its first slot writes the start,
// its last slot the end. Empty cells keep the memset marker.
__global__ void findCellBounds(const std::uint32_t* __restrict__ keys,
                               const std::int32_t* __restrict__ cellOfRank, int n,
                               std::int32_t* __restrict__ cellStart,
                               std::int32_t* __restrict__ cellEnd) {
    const int s = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (s >= n) return;
    const std::uint32_t k = keys[s];
    if (s == 0 || keys[s - 1] != k) cellStart[cellOfRank[k]] = s;
    if (s == n - 1 || keys[s + 1] != k) cellEnd[cellOfRank[k]] = s + 1;
}

// Small point sets (the cell centres of a tissue of a few thousand cells): one block does
// keys, a stable radix sort and the cell ranges, instead of ~6 launches of the device-wide
// sort whose fixed costs dominate at this size.
constexpr int kSmallThreads = 1024;
constexpr int kSmallItems = 8;
constexpr int kSmallMax = kSmallThreads * kSmallItems;

__global__ void __launch_bounds__(kSmallThreads)
    smallBuild(GridGeometry g, PointsView p, const std::int32_t* __restrict__ rank,
               const std::int32_t* __restrict__ cellOfRank, int endBit,
               std::uint32_t* __restrict__ keysOut, std::int32_t* __restrict__ indexOut,
               std::int32_t* __restrict__ cellStart, std::int32_t* __restrict__ cellEnd) {
    using Sort = cub::BlockRadixSort<std::uint32_t, kSmallThreads, kSmallItems, std::int32_t>;
    __shared__ typename Sort::TempStorage temp;
    std::uint32_t keys[kSmallItems];
    std::int32_t index[kSmallItems];
    // Blocked arrangement in index order, so equal keys keep their index order (stable).
    for (int k = 0; k < kSmallItems; ++k) {
        const int i = static_cast<int>(threadIdx.x) * kSmallItems + k;
        index[k] = i;
        keys[k] = i < p.count ? static_cast<std::uint32_t>(rank[cellOf(g, p.x[i], p.y[i], p.z[i])])
                              : 0xffffffffu;  // padding sorts last
    }
    // Padding has all key bits set: it ties at most with the largest real key and stays
    // behind it (stable, larger index).
    Sort(temp).Sort(keys, index, 0, endBit);
    for (int k = 0; k < kSmallItems; ++k) {
        const int s = static_cast<int>(threadIdx.x) * kSmallItems + k;
        if (s < p.count) {
            keysOut[s] = keys[k];
            indexOut[s] = index[k];
        }
    }
    __syncthreads();  // the block's global writes are visible to the block after this
    for (int s = static_cast<int>(threadIdx.x); s < p.count; s += kSmallThreads) {
        const std::uint32_t k = keysOut[s];
        if (s == 0 || keysOut[s - 1] != k) cellStart[cellOfRank[k]] = s;
        if (s == p.count - 1 || keysOut[s + 1] != k) cellEnd[cellOfRank[k]] = s + 1;
    }
}

template <typename T>
std::vector<T> download(const cuda::DeviceBuffer<T>& buffer, std::size_t count,
                        cudaStream_t stream) {
    std::vector<T> out(count);
    if (count == 0) return out;
    CF_CUDA_CHECK(cudaMemcpyAsync(out.data(), buffer.data(), count * sizeof(T),
                                  cudaMemcpyDeviceToHost, stream));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream));
    return out;
}

}  // namespace

void CudaUniformGrid::build(const GridGeometry& geometry, PointsView devicePoints,
                            cudaStream_t stream) {
    if (devicePoints.count < 0) throw Error("uniform grid: negative point count");
    const int ncells = geometry.cellCount();
    if (!haveGeometry_ || !sameGeometry(geometry, geometry_)) {
        const std::vector<std::int32_t> rank = mortonRankTable(geometry);
        const std::vector<std::int32_t> cells = cellsByMortonRank(rank);
        rank_.resize(rank.size());
        cellOfRank_.resize(cells.size());
        rank_.copyFromHost(rank, stream);  // synchronous: the host tables die here
        cellOfRank_.copyFromHost(cells, stream);
        geometry_ = geometry;
        haveGeometry_ = true;
    }
    count_ = devicePoints.count;
    points_ = devicePoints;
    const int n = count_;
    const auto un = static_cast<std::size_t>(n);

    grow(cellStart_, static_cast<std::size_t>(ncells));
    grow(cellEnd_, static_cast<std::size_t>(ncells));
    const std::size_t cellBytes = static_cast<std::size_t>(ncells) * sizeof(std::int32_t);
    CF_CUDA_CHECK(cudaMemsetAsync(cellStart_.data(), 0xff, cellBytes, stream));  // kEmptyCell
    CF_CUDA_CHECK(cudaMemsetAsync(cellEnd_.data(), 0xff, cellBytes, stream));
    if (n == 0) return;

    grow(keysIn_, un);
    grow(keysOut_, un);
    grow(indexIn_, un);
    grow(indexOut_, un);

    if (n <= kSmallMax) {
        smallBuild<<<1, kSmallThreads, 0, stream>>>(
            geometry, devicePoints, rank_.data(), cellOfRank_.data(), mortonKeyBits(geometry),
            keysOut_.data(), indexOut_.data(), cellStart_.data(), cellEnd_.data());
        CF_CUDA_CHECK_LAUNCH("smallBuild", stream);
        return;
    }

    computeKeys<<<blocksFor(n), kBlock, 0, stream>>>(geometry, devicePoints, rank_.data(),
                                                     keysIn_.data(), indexIn_.data());
    CF_CUDA_CHECK_LAUNCH("computeKeys", stream);

    // Radix sort is stable and the values enter in index order, so ties stay ordered by
    // original index: the same permutation as the host counting sort.
    const int endBit = mortonKeyBits(geometry);
    std::size_t tempBytes = 0;
    CF_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, keysIn_.data(),
                                                  keysOut_.data(), indexIn_.data(),
                                                  indexOut_.data(), n, 0, endBit, stream));
    grow(temp_, tempBytes);
    CF_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp_.data(), tempBytes, keysIn_.data(),
                                                  keysOut_.data(), indexIn_.data(),
                                                  indexOut_.data(), n, 0, endBit, stream));

    findCellBounds<<<blocksFor(n), kBlock, 0, stream>>>(keysOut_.data(), cellOfRank_.data(), n,
                                                        cellStart_.data(), cellEnd_.data());
    CF_CUDA_CHECK_LAUNCH("findCellBounds", stream);
}

void CudaUniformGrid::reservePoints(std::size_t points, cudaStream_t stream) {
    if (points == 0) return;
    grow(keysIn_, points);
    grow(keysOut_, points);
    grow(indexIn_, points);
    grow(indexOut_, points);
    if (points <= static_cast<std::size_t>(kSmallMax)) return;  // one block, no scratch
    std::size_t tempBytes = 0;  // for all 32 key bits: at least what any geometry needs
    CF_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, tempBytes, keysIn_.data(), keysOut_.data(), indexIn_.data(), indexOut_.data(),
        static_cast<int>(points), 0, 32, stream));
    grow(temp_, tempBytes);
}

GridView CudaUniformGrid::view() const {
    GridView v;
    v.geometry = geometry_;
    v.sortedIndex = indexOut_.data();
    v.cellStart = cellStart_.data();
    v.cellEnd = cellEnd_.data();
    v.mortonRank = rank_.data();
    v.points = points_;
    return v;
}

std::vector<std::int32_t> CudaUniformGrid::sortedIndexToHost(cudaStream_t stream) const {
    return download(indexOut_, static_cast<std::size_t>(count_), stream);
}
std::vector<std::uint32_t> CudaUniformGrid::sortedKeysToHost(cudaStream_t stream) const {
    return download(keysOut_, static_cast<std::size_t>(count_), stream);
}
std::vector<std::int32_t> CudaUniformGrid::cellStartToHost(cudaStream_t stream) const {
    return download(cellStart_, static_cast<std::size_t>(geometry_.cellCount()), stream);
}
std::vector<std::int32_t> CudaUniformGrid::cellEndToHost(cudaStream_t stream) const {
    return download(cellEnd_, static_cast<std::size_t>(geometry_.cellCount()), stream);
}

namespace {

// Owns a stream and two events so an exception does not leak them.
struct TimingResources {
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    TimingResources() {
        CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        CF_CUDA_CHECK(cudaEventCreate(&start));
        CF_CUDA_CHECK(cudaEventCreate(&stop));
    }
    ~TimingResources() {
        if (stop != nullptr) cudaEventDestroy(stop);
        if (start != nullptr) cudaEventDestroy(start);
        if (stream != nullptr) cudaStreamDestroy(stream);
    }
    TimingResources(const TimingResources&) = delete;
    TimingResources& operator=(const TimingResources&) = delete;
};

}  // namespace

std::vector<double> timeCudaGridBuilds(const GridGeometry& geometry, const float* hostX,
                                       const float* hostY, const float* hostZ, int count,
                                       int repeats) {
    const auto n = static_cast<std::size_t>(count);
    const cuda::DeviceBuffer<float> x(std::span<const float>(hostX, n));
    const cuda::DeviceBuffer<float> y(std::span<const float>(hostY, n));
    const cuda::DeviceBuffer<float> z(std::span<const float>(hostZ, n));
    const PointsView points{x.data(), y.data(), z.data(), count};
    TimingResources t;
    CudaUniformGrid grid;
    grid.build(geometry, points, t.stream);  // warm-up: allocations, Morton table upload
    CF_CUDA_CHECK(cudaStreamSynchronize(t.stream));
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
        CF_CUDA_CHECK(cudaEventRecord(t.start, t.stream));
        grid.build(geometry, points, t.stream);
        CF_CUDA_CHECK(cudaEventRecord(t.stop, t.stream));
        CF_CUDA_CHECK(cudaEventSynchronize(t.stop));
        float ms = 0.0f;
        CF_CUDA_CHECK(cudaEventElapsedTime(&ms, t.start, t.stop));
        seconds.push_back(1e-3 * static_cast<double>(ms));
    }
    return seconds;
}

}  // namespace cf::grid
