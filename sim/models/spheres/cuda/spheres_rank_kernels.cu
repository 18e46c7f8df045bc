// SPDX-License-Identifier: GPL-3.0-or-later
// `spheres` CUDA kernels for runs over ranks (spheres_rank_kernels.cuh): per-cell choices
// written by slot, compacted with cub (selections keep slot order, so every rank's traffic
// is a function of its state alone). Kernels and launchers are templates over the mechanics'
// real, both instantiated at the end.
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "sim/cuda/cuda_check.hpp"
#include "sim/models/spheres/cuda/cell_biology.cuh"
#include "sim/models/spheres/cuda/spheres_rank_kernels.cuh"
#include "sim/models/spheres/spheres_params.hpp"
#include "sim/models/spheres/spheres_physics.hpp"

namespace cf::spheres::cuda {

namespace {

constexpr int kThreads = 256;

unsigned blocksOf(std::size_t n) {
    return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

// The last rank whose cut is <= v, as SlabCuts::owner (the same double comparisons).
__device__ int ownerOf(const DeviceCuts& c, double v) {
    int r = 0;
    for (int k = 1; k < c.ranks; ++k)
        if (c.cut[k] <= v) r = k;
    return r;
}

template <typename Real>
__device__ Real axisOf(const CellArrays<Real>& c, int axis, std::size_t i) {
    return axis == 0 ? c.x[i] : axis == 1 ? c.y[i] : c.z[i];
}

template <typename Real>
__global__ void divisionFlagKernel(CellArrays<Real> c, std::size_t n, double divisionVolume,
                                   std::int32_t* flags) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    flags[i] = c.volume[i] > divisionVolume ? 1 : 0;
}

__global__ void countKernel(const std::int32_t* flags, const std::int32_t* slots, std::size_t n,
                            DivisionSummary* summary) {
    summary->dividing = slots[n - 1] + flags[n - 1];
}

// biologyKernel of spheres_kernels.cu with the daughter's slot by slot and its id global.
template <typename Real>
__global__ void biologyRanksKernel(CellArrays<Real> c, std::size_t n, const std::int32_t* flags,
                                   const std::int32_t* slots, bool checked,
                                   const std::uint32_t* all, std::uint32_t allCount,
                                   std::uint32_t idBase, SpheresParams p, std::uint32_t seed,
                                   std::uint64_t step) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const std::uint32_t id = c.id[i];
    if (!checked || flags[i] == 0) {
        growCell(c, i, p);
        return;
    }
    const std::size_t k = n + static_cast<std::size_t>(slots[i]);
    std::uint32_t lo = 0, hi = allCount;  // lower_bound of id in all
    while (lo < hi) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (all[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    divideCell(c, i, k, idBase + lo, p, seed, step);
}

template <typename Real>
__global__ void leaverKernel(CellArrays<Real> c, std::size_t n, DeviceCuts cuts,
                             std::int32_t* flags) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    flags[i] = ownerOf(cuts, static_cast<double>(axisOf(c, cuts.axis, i))) != cuts.me ? 1 : 0;
}

template <typename Real>
__global__ void ghostForKernel(CellArrays<Real> c, std::size_t n, DeviceCuts cuts, double depth,
                               int peer, std::int32_t* flags) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const double v = axisOf(c, cuts.axis, i);
    flags[i] = c.diameter[i] >= Real(0) && ownerOf(cuts, v - depth) <= peer &&
                       peer <= ownerOf(cuts, v + depth)
                   ? 1
                   : 0;
}

template <typename Real>
__global__ void packGhostKernel(CellArrays<Real> c, const std::int32_t* slots, std::size_t count,
                                GhostRecordOf<Real>* ghosts) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k >= count) return;
    const auto i = static_cast<std::size_t>(slots[k]);
    ghosts[k] = GhostRecordOf<Real>{c.x[i], c.y[i], c.z[i], c.diameter[i], c.id[i]};
}

template <typename Real>
__global__ void unpackGhostKernel(CellArrays<Real> c, std::size_t at,
                                  const GhostRecordOf<Real>* ghosts, std::size_t count) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k >= count) return;
    const GhostRecordOf<Real> g = ghosts[k];
    const std::size_t i = at + k;
    c.x[i] = g.x;
    c.y[i] = g.y;
    c.z[i] = g.z;
    c.diameter[i] = g.diameter;
    c.id[i] = g.id;
}

template <typename Real>
__global__ void packKernel(CellArrays<Real> c, const std::int32_t* slots, std::size_t count,
                           CellRecord* records) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k >= count) return;
    const auto i = static_cast<std::size_t>(slots[k]);
    CellRecord r{};
    r.x = c.x[i];
    r.y = c.y[i];
    r.z = c.z[i];
    r.diameter = c.diameter[i];
    r.volume = c.volume[i];
    r.birthStep = c.birthStep[i];
    r.id = c.id[i];
    r.root = c.root[i];
    r.force = c.force[i];
    r.generation = c.generation[i];
    records[k] = r;
}

template <typename Real>
__global__ void unpackKernel(CellArrays<Real> c, std::size_t at, const CellRecord* records,
                             std::size_t count) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k >= count) return;
    const CellRecord r = records[k];
    const std::size_t i = at + k;
    c.x[i] = static_cast<Real>(r.x);
    c.y[i] = static_cast<Real>(r.y);
    c.z[i] = static_cast<Real>(r.z);
    c.diameter[i] = static_cast<Real>(r.diameter);
    c.volume[i] = r.volume;
    c.birthStep[i] = r.birthStep;
    c.id[i] = r.id;
    c.root[i] = r.root;
    c.force[i] = r.force;
    c.generation[i] = r.generation;
}

template <typename Real>
__global__ void histogramKernel(CellArrays<Real> c, std::size_t n, int axis, double lo, double inv,
                                int binCount, unsigned long long* bins) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const double f = floor((static_cast<double>(axisOf(c, axis, i)) - lo) * inv);
    const int b = f < 0.0 ? 0 : f >= binCount ? binCount - 1 : static_cast<int>(f);
    atomicAdd(&bins[b], 1ull);
}

struct Below {
    std::int32_t limit;
    __host__ __device__ bool operator()(std::int32_t v) const { return v < limit; }
};

// Compacts the slots 0..n-1 whose flag is set, in order.
void selectFlagged(const std::int32_t* flags, std::size_t n, std::int32_t* out, int* num,
                   cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream) {
    const thrust::counting_iterator<std::int32_t> slots(0);
    std::size_t bytes = 0;
    CF_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, slots, flags, out, num,
                                             static_cast<int>(n), stream));
    void* temp = cf::cuda::ensureScratch(scratch, bytes);
    CF_CUDA_CHECK(cub::DeviceSelect::Flagged(temp, bytes, slots, flags, out, num,
                                             static_cast<int>(n), stream));
}

__global__ void invertKernel(const std::int32_t* flags, std::size_t n, std::int32_t* out) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    out[i] = 1 - flags[i];
}

}  // namespace

template <typename Real>
void launchDividingSlots(const CellArrays<Real>& cells, std::size_t n, double divisionVolume,
                         std::int32_t* flags, std::int32_t* slots, std::uint32_t* ids,
                         DivisionSummary* summary, cf::cuda::DeviceBuffer<unsigned char>& scratch,
                         cudaStream_t stream) {
    if (n == 0) {
        CF_CUDA_CHECK(cudaMemsetAsync(summary, 0, sizeof(DivisionSummary), stream));
        return;
    }
    divisionFlagKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(cells, n, divisionVolume, flags);
    CF_CUDA_CHECK_LAUNCH("spheres::divisionFlagKernel", stream);
    const int count = static_cast<int>(n);
    std::size_t scanBytes = 0, maxBytes = 0, selectBytes = 0;
    CF_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scanBytes, flags, slots, count, stream));
    CF_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, maxBytes, cells.volume, &summary->maxVolume,
                                         count, stream));
    CF_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, selectBytes, cells.id, flags, ids,
                                             &summary->pad, count, stream));
    void* temp = cf::cuda::ensureScratch(scratch, std::max({scanBytes, maxBytes, selectBytes}));
    CF_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, scanBytes, flags, slots, count, stream));
    CF_CUDA_CHECK(
        cub::DeviceReduce::Max(temp, maxBytes, cells.volume, &summary->maxVolume, count, stream));
    CF_CUDA_CHECK(cub::DeviceSelect::Flagged(temp, selectBytes, cells.id, flags, ids, &summary->pad,
                                             count, stream));
    countKernel<<<1, 1, 0, stream>>>(flags, slots, n, summary);
    CF_CUDA_CHECK_LAUNCH("spheres::countKernel", stream);
}

template <typename Real>
void launchBiologyRanks(const CellArrays<Real>& cells, std::size_t n, const SpheresParams& p,
                        const std::int32_t* flags, const std::int32_t* slots, bool checked,
                        const std::uint32_t* all, std::uint32_t allCount, std::uint32_t idBase,
                        std::uint32_t seed, std::uint64_t step, cudaStream_t stream) {
    if (n == 0) return;
    biologyRanksKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(
        cells, n, flags, slots, checked, all, allCount, idBase, p, seed, step);
    CF_CUDA_CHECK_LAUNCH("spheres::biologyRanksKernel", stream);
}

template <typename Real>
void launchSplitLeavers(const CellArrays<Real>& cells, std::size_t n, const DeviceCuts& cuts,
                        std::int32_t* flags, std::int32_t* leave, int* numLeave, std::int32_t* stay,
                        int* numStay, cf::cuda::DeviceBuffer<unsigned char>& scratch,
                        cudaStream_t stream) {
    if (n == 0) {
        CF_CUDA_CHECK(cudaMemsetAsync(numLeave, 0, sizeof(int), stream));
        CF_CUDA_CHECK(cudaMemsetAsync(numStay, 0, sizeof(int), stream));
        return;
    }
    leaverKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(cells, n, cuts, flags);
    CF_CUDA_CHECK_LAUNCH("spheres::leaverKernel", stream);
    selectFlagged(flags, n, leave, numLeave, scratch, stream);
    // The stayers' flags overwrite the leavers' (the selection above has read them).
    invertKernel<<<blocksOf(n), kThreads, 0, stream>>>(flags, n, flags);
    CF_CUDA_CHECK_LAUNCH("spheres::invertKernel", stream);
    selectFlagged(flags, n, stay, numStay, scratch, stream);
}

template <typename Real>
void launchSelectGhostsFor(const CellArrays<Real>& cells, std::size_t n, const DeviceCuts& cuts,
                           double depth, int peer, std::int32_t* flags, std::int32_t* out, int* num,
                           cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream) {
    if (n == 0) {
        CF_CUDA_CHECK(cudaMemsetAsync(num, 0, sizeof(int), stream));
        return;
    }
    ghostForKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(cells, n, cuts, depth, peer, flags);
    CF_CUDA_CHECK_LAUNCH("spheres::ghostForKernel", stream);
    selectFlagged(flags, n, out, num, scratch, stream);
}

template <typename Real>
void launchPackGhosts(const CellArrays<Real>& cells, const std::int32_t* slots, std::size_t count,
                      GhostRecordOf<Real>* ghosts, cudaStream_t stream) {
    if (count == 0) return;
    packGhostKernel<Real><<<blocksOf(count), kThreads, 0, stream>>>(cells, slots, count, ghosts);
    CF_CUDA_CHECK_LAUNCH("spheres::packGhostKernel", stream);
}

template <typename Real>
void launchUnpackGhosts(const CellArrays<Real>& cells, std::size_t at,
                        const GhostRecordOf<Real>* ghosts, std::size_t count, cudaStream_t stream) {
    if (count == 0) return;
    unpackGhostKernel<Real><<<blocksOf(count), kThreads, 0, stream>>>(cells, at, ghosts, count);
    CF_CUDA_CHECK_LAUNCH("spheres::unpackGhostKernel", stream);
}

template <typename Real>
void launchPackRecords(const CellArrays<Real>& cells, const std::int32_t* slots, std::size_t count,
                       CellRecord* records, cudaStream_t stream) {
    if (count == 0) return;
    packKernel<Real><<<blocksOf(count), kThreads, 0, stream>>>(cells, slots, count, records);
    CF_CUDA_CHECK_LAUNCH("spheres::packRecordsKernel", stream);
}

template <typename Real>
void launchUnpackRecords(const CellArrays<Real>& cells, std::size_t at, const CellRecord* records,
                         std::size_t count, cudaStream_t stream) {
    if (count == 0) return;
    unpackKernel<Real><<<blocksOf(count), kThreads, 0, stream>>>(cells, at, records, count);
    CF_CUDA_CHECK_LAUNCH("spheres::unpackRecordsKernel", stream);
}

template <typename Real>
void launchHistogram(const CellArrays<Real>& cells, std::size_t n, int axis, double lo,
                     double extent, int binCount, unsigned long long* bins, cudaStream_t stream) {
    CF_CUDA_CHECK(
        cudaMemsetAsync(bins, 0, static_cast<std::size_t>(binCount) * sizeof(*bins), stream));
    if (n == 0) return;
    const double inv = extent > 0.0 ? binCount / extent : 0.0;
    histogramKernel<Real>
        <<<blocksOf(n), kThreads, 0, stream>>>(cells, n, axis, lo, inv, binCount, bins);
    CF_CUDA_CHECK_LAUNCH("spheres::histogramKernel", stream);
}

void launchKeepBelow(const std::int32_t* order, std::size_t total, std::int32_t limit,
                     std::int32_t* out, int* num, cf::cuda::DeviceBuffer<unsigned char>& scratch,
                     cudaStream_t stream) {
    if (total == 0) {
        CF_CUDA_CHECK(cudaMemsetAsync(num, 0, sizeof(int), stream));
        return;
    }
    std::size_t bytes = 0;
    CF_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, order, out, num, static_cast<int>(total),
                                        Below{limit}, stream));
    void* temp = cf::cuda::ensureScratch(scratch, bytes);
    CF_CUDA_CHECK(cub::DeviceSelect::If(temp, bytes, order, out, num, static_cast<int>(total),
                                        Below{limit}, stream));
}

// Both precisions of every launcher (mechanics.precision).
#define CF_SPHERES_RANK_INSTANTIATE(Real)                                                          \
    template void launchDividingSlots<Real>(                                                       \
        const CellArrays<Real>&, std::size_t, double, std::int32_t*, std::int32_t*,                \
        std::uint32_t*, DivisionSummary*, cf::cuda::DeviceBuffer<unsigned char>&, cudaStream_t);   \
    template void launchBiologyRanks<Real>(                                                        \
        const CellArrays<Real>&, std::size_t, const SpheresParams&, const std::int32_t*,           \
        const std::int32_t*, bool, const std::uint32_t*, std::uint32_t, std::uint32_t,             \
        std::uint32_t, std::uint64_t, cudaStream_t);                                               \
    template void launchSplitLeavers<Real>(                                                        \
        const CellArrays<Real>&, std::size_t, const DeviceCuts&, std::int32_t*, std::int32_t*,     \
        int*, std::int32_t*, int*, cf::cuda::DeviceBuffer<unsigned char>&, cudaStream_t);          \
    template void launchSelectGhostsFor<Real>(                                                     \
        const CellArrays<Real>&, std::size_t, const DeviceCuts&, double, int, std::int32_t*,       \
        std::int32_t*, int*, cf::cuda::DeviceBuffer<unsigned char>&, cudaStream_t);                \
    template void launchPackGhosts<Real>(const CellArrays<Real>&, const std::int32_t*,             \
                                         std::size_t, GhostRecordOf<Real>*, cudaStream_t);         \
    template void launchUnpackGhosts<Real>(const CellArrays<Real>&, std::size_t,                   \
                                           const GhostRecordOf<Real>*, std::size_t, cudaStream_t); \
    template void launchPackRecords<Real>(const CellArrays<Real>&, const std::int32_t*,            \
                                          std::size_t, CellRecord*, cudaStream_t);                 \
    template void launchUnpackRecords<Real>(const CellArrays<Real>&, std::size_t,                  \
                                            const CellRecord*, std::size_t, cudaStream_t);         \
    template void launchHistogram<Real>(const CellArrays<Real>&, std::size_t, int, double, double, \
                                        int, unsigned long long*, cudaStream_t);
CF_SPHERES_RANK_INSTANTIATE(float)
CF_SPHERES_RANK_INSTANTIATE(double)
#undef CF_SPHERES_RANK_INSTANTIATE

}  // namespace cf::spheres::cuda
