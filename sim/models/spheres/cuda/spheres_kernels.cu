// SPDX-License-Identifier: GPL-3.0-or-later
// `spheres` CUDA kernels and their launchers: the step of spheres_model.hpp with the CPU
// reference's per-cell code (spheres_physics.hpp), mechanics in Real (float, or double with
// mechanics.precision = double: one body per kernel, both instantiated at the end) and double
// volumes.
// Every result is written per cell, no atomics: the summation order of a cell's forces is
// fixed by the grid traversal, so runs are bitwise repeatable for any block size.
#include <cub/cub.cuh>

#include "sim/cuda/constant_owner.hpp"
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/spheres/cuda/cell_biology.cuh"
#include "sim/models/spheres/cuda/spheres_kernels.cuh"
#include "sim/models/spheres/spheres_physics.hpp"

namespace cf::spheres::cuda {

namespace {

__constant__ SpheresParams cParams;

int gBlockSize = 256;

unsigned blocksFor(std::size_t n) {
    return static_cast<unsigned>((n + static_cast<std::size_t>(gBlockSize) - 1) /
                                 static_cast<std::size_t>(gBlockSize));
}

template <typename Real>
__global__ void fixedRadiusKernel(Real* rc, Real radius) {
    *rc = radius;
}

template <typename Real>
__global__ void flagKernel(CellArrays<Real> c, std::size_t n, std::int32_t* flagById) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    // Every id 0..n-1 is written once (ids are a permutation): no memset needed.
    flagById[c.id[i]] = c.volume[i] > cParams.divisionVolume ? 1 : 0;
}

__global__ void summaryKernel(const std::int32_t* flagById, const std::int32_t* rankById,
                              std::size_t n, DivisionSummary* summary) {
    summary->dividing = rankById[n - 1] + flagById[n - 1];
}

// Growth, or division into the mother (in place) and a daughter at slot n + rank: the CPU's
// biology() line by line, volumes in double.
template <typename Real>
__global__ void biologyKernel(CellArrays<Real> c, std::size_t n, const std::int32_t* flagById,
                              const std::int32_t* rankById, bool checked, std::uint32_t seed,
                              std::uint64_t step) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const SpheresParams& p = cParams;
    const std::uint32_t id = c.id[i];
    if (!checked || flagById[id] == 0) {
        growCell(c, i, p);
        return;
    }
    const std::size_t k = n + static_cast<std::size_t>(rankById[id]);
    divideCell(c, i, k, static_cast<std::uint32_t>(k), p, seed, step);
}

// packed[t] = (x, y, z, D) of the cell in sorted slot t: the force loop then reads the
// candidates of a grid cell as one contiguous run of 16-byte (32 in double) loads, without
// indirection.
template <typename Real>
__global__ void packKernel(CellArrays<Real> c, std::size_t total, const std::int32_t* order,
                           Packed<Real>* packed) {
    const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (t >= total) return;
    const auto i = static_cast<std::size_t>(order[t]);
    packed[t] = Packed<Real>{c.x[i], c.y[i], c.z[i], c.diameter[i]};
}

// The random force between coincident centres (rare), with the ids it needs. Measured on the
// H100 (circles-1m / benchmark-a): inlined, 6 blocks of 256 per SM (40 registers) 0.960 /
// 2.50 ms; out of line 0.957 / 2.69; unbounded (57 registers) 1.003 / 2.42; 8 blocks (32
// registers, spills) 1.03 / 2.78.
template <typename Real>
__device__ __forceinline__ Vec<Real> coincidentPairForce(Vec<Real> d, Real di, Real dj,
                                                         const ForceCoefficients<Real>& k,
                                                         std::uint32_t seed, std::uint64_t step,
                                                         std::uint32_t idI, std::uint32_t idJ) {
    const rng::Philox contact(seed, kContactStream);
    return pairForce<Real>(d, di, dj, k, contact, step, idI, idJ);
}

// The force on the cell in slot t (`self`, cell i) from the one in slot s (`o`), added to f
// when they interact: the one body of forceKernel and voxelForceKernel, so both add the same
// terms in the same order.
template <typename Real>
__device__ __forceinline__ void addPair(Vec<Real>& f, const Packed<Real>& self,
                                        const Packed<Real>& o, std::int32_t s, std::size_t t,
                                        std::size_t i, Real rc2, const ForceCoefficients<Real>& k,
                                        const rng::Philox& noContact, const CellArrays<Real>& c,
                                        const grid::GridView& view, std::uint32_t seed,
                                        std::uint64_t step) {
    const Vec<Real> d{self.x - o.x, self.y - o.y, self.z - o.z};
    const Real r2 = squaredNorm(d);
    if (!(r2 < rc2)) return;
    if (static_cast<std::size_t>(s) == t || o.w < Real(0)) return;
    // Where pairForce may take the coincident branch (d < 1e-8, so r2 < 1e-16; a wider
    // margin here), the ids and the draw, out of line.
    const Vec<Real> fij =
        r2 < Real(1e-14)
            ? coincidentPairForce<Real>(d, self.w, o.w, k, seed, step, c.id[i],
                                        c.id[static_cast<std::size_t>(view.sortedIndex[s])])
            : pairForce<Real>(d, self.w, o.w, k, noContact, step, 0u, 0u);
    f.x += fij.x;
    f.y += fij.y;
    f.z += fij.z;
}

template <typename Real>
__device__ __forceinline__ ForceCoefficients<Real> forceCoefficients() {
    const SpheresParams& p = cParams;
    return {static_cast<Real>(p.radiusExtension), static_cast<Real>(p.repulsion),
            static_cast<Real>(p.attraction), static_cast<Real>(p.coincidentForce)};
}

// Cell i's move and |F| from its summed force f (and the chemotactic tractor).
// The substance field is float in both precisions: the tractor is its float gradient times
// chemotaxis, in Real.
template <typename Real>
__device__ __forceinline__ void finishForce(const CellArrays<Real>& c, std::size_t i,
                                            const Packed<Real>& self, const Vec<Real>& f,
                                            const ChemotaxisField& field, Real* moveX, Real* moveY,
                                            Real* moveZ) {
    const SpheresParams& p = cParams;
    const auto mass = static_cast<Real>(p.density * c.volume[i]);
    Vec<Real> tractor{Real(0), Real(0), Real(0)};
    if (field.c != nullptr) {
        const Vec<float> grad =
            sampleField<float>(field.c, field.grid, self.x, self.y, self.z).gradient;
        const auto chi = static_cast<Real>(field.chemotaxis);
        tractor = {chi * static_cast<Real>(grad.x), chi * static_cast<Real>(grad.y),
                   chi * static_cast<Real>(grad.z)};
    }
    const Vec<Real> move = displacementFromForce<Real>(
        f, mass, static_cast<Real>(p.dt), static_cast<Real>(p.adherence),
        static_cast<Real>(p.maxDisplacement), tractor);
    moveX[i] = move.x;
    moveY[i] = move.y;
    moveZ[i] = move.z;
    c.force[i] = static_cast<float>(rootOf(squaredNorm(f)));
}

// Occupancy of the per-cell force kernel: float measured on the H100 (coincidentPairForce's
// comment). Double holds its values in register pairs: ptxas (sm_90) gives it 80 registers
// and no spills at 3 blocks of 256 per SM, but spills 36 bytes at 4 (64 registers). Its
// speed is not measured yet.
template <typename Real>
inline constexpr int kForceMinBlocks = sizeof(Real) == 4 ? 6 : 3;

// One thread per sorted slot t (neighbouring threads hold neighbouring cells), for cell
// i = order[t] (Hesam et al.'s v2). A newborn (D < 0) neither feels nor exerts force. The 27
// grid cells around the cell are walked in a fixed order and each cell's run of slots in
// sorted order, so a cell's force sum has one order: bitwise repeatable for any block size.
// In double the cell is found from its position rounded to float, as the grid binned it.
template <typename Real>
__global__ void __launch_bounds__(256, kForceMinBlocks<Real>)
    forceKernel(CellArrays<Real> c, std::size_t total, grid::GridView view,
                const Packed<Real>* __restrict__ packed, const Real* rcPtr, ChemotaxisField field,
                Real* moveX, Real* moveY, Real* moveZ, std::uint32_t seed, std::uint64_t step,
                std::size_t feel) {
    const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (t >= total) return;
    const Packed<Real> self = packed[t];
    if (self.w < Real(0)) return;
    const auto i = static_cast<std::size_t>(view.sortedIndex[t]);
    if (i >= feel) return;  // a ghost (over ranks)
    const ForceCoefficients<Real> k = forceCoefficients<Real>();
    // pairForce's coincident branch is unreachable for r2 >= 1e-14 (d >= 1e-7 > 1e-8).
    const rng::Philox noContact(0u, kContactStream);
    const Real rc = *rcPtr;
    const Real rc2 = rc * rc;
    const grid::GridGeometry& g = view.geometry;
    int first[3], last[3];
    const float at[3] = {static_cast<float>(self.x), static_cast<float>(self.y),
                         static_cast<float>(self.z)};
    for (int a = 0; a < 3; ++a) {
        const int cell = grid::cellCoord(g, a, at[a]);
        first[a] = cell > 0 ? cell - 1 : 0;
        last[a] = cell + 1 < g.dims[a] ? cell + 1 : g.dims[a] - 1;
    }
    Vec<Real> f{Real(0), Real(0), Real(0)};
    for (int iz = first[2]; iz <= last[2]; ++iz)
        for (int iy = first[1]; iy <= last[1]; ++iy)
            for (int ix = first[0]; ix <= last[0]; ++ix) {
                const int cell = grid::linearCell(g, ix, iy, iz);
                const std::int32_t begin = __ldg(&view.cellStart[cell]);
                if (begin == grid::kEmptyCell) continue;
                const std::int32_t end = __ldg(&view.cellEnd[cell]);
                for (std::int32_t s = begin; s < end; ++s)
                    addPair<Real>(f, self, packed[s], s, t, i, rc2, k, noContact, c, view, seed,
                                  step);
            }
    finishForce(c, i, self, f, field, moveX, moveY, moveZ);
}

// Hesam et al.'s v3: one block per grid voxel. The cells of a voxel share their 27
// neighbouring voxels, so the block copies those voxels' cells (positions and slots, in the
// order forceKernel walks them) into shared memory, kVoxelChunk at a time, and each thread
// sums the forces on one cell of the voxel from there: the same pairs in the same order as
// forceKernel, so the same bits. No atomics (the grid's sorted runs give every copy its
// place).
constexpr int kVoxelThreads = 32;
constexpr int kVoxelChunk = 512;

template <typename Real>
__global__ void __launch_bounds__(kVoxelThreads)
    voxelForceKernel(CellArrays<Real> c, grid::GridView view,
                     const Packed<Real>* __restrict__ packed, const Real* rcPtr,
                     ChemotaxisField field, Real* moveX, Real* moveY, Real* moveZ,
                     std::uint32_t seed, std::uint64_t step, std::size_t feel) {
    __shared__ Packed<Real> sPos[kVoxelChunk];
    __shared__ std::int32_t sSlot[kVoxelChunk];
    __shared__ std::int32_t runBegin[27], runStart[28];
    __shared__ int runs;
    const grid::GridGeometry& g = view.geometry;
    const int v = static_cast<int>(blockIdx.x);
    const std::int32_t vBegin = view.cellStart[v];
    if (vBegin == grid::kEmptyCell) return;  // the whole block
    const std::int32_t vEnd = view.cellEnd[v];
    if (threadIdx.x == 0) {
        const int at[3] = {v % g.dims[0], (v / g.dims[0]) % g.dims[1], v / (g.dims[0] * g.dims[1])};
        int first[3], last[3];
        for (int a = 0; a < 3; ++a) {
            first[a] = at[a] > 0 ? at[a] - 1 : 0;
            last[a] = at[a] + 1 < g.dims[a] ? at[a] + 1 : g.dims[a] - 1;
        }
        int n = 0;
        runStart[0] = 0;
        for (int iz = first[2]; iz <= last[2]; ++iz)
            for (int iy = first[1]; iy <= last[1]; ++iy)
                for (int ix = first[0]; ix <= last[0]; ++ix) {
                    const int cell = grid::linearCell(g, ix, iy, iz);
                    const std::int32_t begin = view.cellStart[cell];
                    const std::int32_t length =
                        begin == grid::kEmptyCell ? 0 : view.cellEnd[cell] - begin;
                    runBegin[n] = begin;
                    runStart[n + 1] = runStart[n] + length;
                    ++n;
                }
        runs = n;
    }
    __syncthreads();
    const int candidates = runStart[runs];
    const ForceCoefficients<Real> k = forceCoefficients<Real>();
    const rng::Philox noContact(0u, kContactStream);
    const Real rc = *rcPtr;
    const Real rc2 = rc * rc;
    for (std::int32_t base = vBegin; base < vEnd; base += kVoxelThreads) {
        const std::int32_t slot = base + static_cast<std::int32_t>(threadIdx.x);
        const auto t = static_cast<std::size_t>(slot);
        bool active = slot < vEnd;
        Packed<Real> self{};
        std::size_t i = 0;
        if (active) {
            self = packed[t];
            i = static_cast<std::size_t>(view.sortedIndex[t]);
            active = self.w >= Real(0) && i < feel;
        }
        Vec<Real> f{Real(0), Real(0), Real(0)};
        for (int chunk = 0; chunk < candidates; chunk += kVoxelChunk) {
            const int length = min(kVoxelChunk, candidates - chunk);
            __syncthreads();  // the previous chunk is consumed
            for (int e = static_cast<int>(threadIdx.x); e < length; e += kVoxelThreads) {
                const int q = chunk + e;
                int r = 0;
                while (runStart[r + 1] <= q)
                    ++r;
                const std::int32_t s = runBegin[r] + (q - runStart[r]);
                sPos[e] = packed[s];
                sSlot[e] = s;
            }
            __syncthreads();
            if (active)
                for (int e = 0; e < length; ++e)
                    addPair<Real>(f, self, sPos[e], sSlot[e], t, i, rc2, k, noContact, c, view,
                                  seed, step);
        }
        if (active) finishForce(c, i, self, f, field, moveX, moveY, moveZ);
    }
}

template <typename Real>
__global__ void applyKernel(CellArrays<Real> c, std::size_t total, const Real* moveX,
                            const Real* moveY, const Real* moveZ) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= total) return;
    const Real d = c.diameter[i];
    if (d < Real(0)) {  // a newborn: it stays where it was placed
        c.diameter[i] = -d;
        return;
    }
    c.x[i] += moveX[i];
    c.y[i] += moveY[i];
    c.z[i] += moveZ[i];
}

__global__ void binKernel(CellArrays<double> c, std::size_t total, float* x, float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= total) return;
    x[i] = static_cast<float>(c.x[i]);
    y[i] = static_cast<float>(c.y[i]);
    z[i] = static_cast<float>(c.z[i]);
}

template <typename Real>
__global__ void gatherKernel(CellArrays<Real> src, CellArrays<Real> dst, const std::int32_t* order,
                             std::size_t count) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k >= count) return;
    const auto s = static_cast<std::size_t>(order[k]);
    dst.x[k] = src.x[s];
    dst.y[k] = src.y[s];
    dst.z[k] = src.z[s];
    dst.diameter[k] = src.diameter[s];
    dst.volume[k] = src.volume[s];
    dst.id[k] = src.id[s];
    dst.root[k] = src.root[s];
    dst.generation[k] = src.generation[s];
    dst.birthStep[k] = src.birthStep[s];
    dst.force[k] = src.force[s];
}

}  // namespace

// Whose SpheresParams the __constant__ symbol holds, and the copies to and from it
// (sim/cuda/constant_owner.hpp).
static cf::cuda::ConstantBlock<SpheresParams> gParamsBlock(cParams);

void uploadParams(const SpheresParams& value, const void* owner, cudaStream_t stream) {
    gParamsBlock.upload(value, owner, stream);
}

void bindParams(const SpheresParams& value, const void* owner, cudaStream_t stream) {
    gParamsBlock.bind(value, owner, stream);
}

void releaseParams(const void* owner) {
    gParamsBlock.release(owner);
}

void downloadParams(SpheresParams& p, cudaStream_t stream) {
    p = gParamsBlock.download(stream);
}

template <typename Real>
void launchInteractionRadius(const Real* diameter, std::size_t n, Real* rc,
                             cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream) {
    std::size_t need = 0;
    CF_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, need, diameter, rc, static_cast<int>(n), stream));
    void* temp = cf::cuda::ensureScratch(scratch, need);
    CF_CUDA_CHECK(cub::DeviceReduce::Max(temp, need, diameter, rc, static_cast<int>(n), stream));
}

template <typename Real>
void launchFixedRadius(Real* rc, Real radius, cudaStream_t stream) {
    fixedRadiusKernel<Real><<<1, 1, 0, stream>>>(rc, radius);
    CF_CUDA_CHECK_LAUNCH("spheres::fixedRadiusKernel", stream);
}

template <typename Real>
void launchRankDivisions(const CellArrays<Real>& cells, std::size_t n, std::int32_t* flagById,
                         std::int32_t* rankById, DivisionSummary* summary,
                         cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream) {
    if (n == 0) return;
    flagKernel<Real><<<blocksFor(n), gBlockSize, 0, stream>>>(cells, n, flagById);
    CF_CUDA_CHECK_LAUNCH("spheres::flagKernel", stream);
    const int count = static_cast<int>(n);
    std::size_t scanBytes = 0, maxBytes = 0;
    CF_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(nullptr, scanBytes, flagById, rankById, count, stream));
    CF_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, maxBytes, cells.volume, &summary->maxVolume,
                                         count, stream));
    void* temp = cf::cuda::ensureScratch(scratch, scanBytes > maxBytes ? scanBytes : maxBytes);
    CF_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(temp, scanBytes, flagById, rankById, count, stream));
    CF_CUDA_CHECK(
        cub::DeviceReduce::Max(temp, maxBytes, cells.volume, &summary->maxVolume, count, stream));
    summaryKernel<<<1, 1, 0, stream>>>(flagById, rankById, n, summary);
    CF_CUDA_CHECK_LAUNCH("spheres::summaryKernel", stream);
}

template <typename Real>
void launchBiology(const CellArrays<Real>& cells, std::size_t n, const std::int32_t* flagById,
                   const std::int32_t* rankById, bool checked, std::uint32_t seed,
                   std::uint64_t step, cudaStream_t stream) {
    if (n == 0) return;
    biologyKernel<Real><<<blocksFor(n), gBlockSize, 0, stream>>>(cells, n, flagById, rankById,
                                                                 checked, seed, step);
    CF_CUDA_CHECK_LAUNCH("spheres::biologyKernel", stream);
}

template <typename Real>
void launchForces(const CellArrays<Real>& cells, std::size_t total, const grid::GridView& view,
                  Packed<Real>* packed, const Real* rc, const ChemotaxisField& field, Real* moveX,
                  Real* moveY, Real* moveZ, std::uint32_t seed, std::uint64_t step,
                  cudaStream_t stream, std::size_t feel, bool voxel) {
    if (total == 0) return;
    ChemotaxisField f = field;
    if (f.chemotaxis == 0.0f) f.c = nullptr;
    packKernel<Real>
        <<<blocksFor(total), gBlockSize, 0, stream>>>(cells, total, view.sortedIndex, packed);
    CF_CUDA_CHECK_LAUNCH("spheres::packKernel", stream);
    // The force kernel's launch bounds allow at most 256 threads per block.
    const int threads = gBlockSize < 256 ? gBlockSize : 256;
    const auto blocks = static_cast<unsigned>((total + threads - 1) / threads);
    if (voxel) {
        const grid::GridGeometry& g = view.geometry;
        const auto voxels = static_cast<unsigned>(g.dims[0]) * static_cast<unsigned>(g.dims[1]) *
                            static_cast<unsigned>(g.dims[2]);
        voxelForceKernel<Real><<<voxels, kVoxelThreads, 0, stream>>>(
            cells, view, packed, rc, f, moveX, moveY, moveZ, seed, step, feel);
        CF_CUDA_CHECK_LAUNCH("spheres::voxelForceKernel", stream);
        return;
    }
    forceKernel<Real><<<blocks, threads, 0, stream>>>(cells, total, view, packed, rc, f, moveX,
                                                      moveY, moveZ, seed, step, feel);
    CF_CUDA_CHECK_LAUNCH("spheres::forceKernel", stream);
}

template <typename Real>
void launchApply(const CellArrays<Real>& cells, std::size_t total, const Real* moveX,
                 const Real* moveY, const Real* moveZ, cudaStream_t stream) {
    if (total == 0) return;
    applyKernel<Real>
        <<<blocksFor(total), gBlockSize, 0, stream>>>(cells, total, moveX, moveY, moveZ);
    CF_CUDA_CHECK_LAUNCH("spheres::applyKernel", stream);
}

void launchBinPositions(const CellArrays<double>& cells, std::size_t total, float* x, float* y,
                        float* z, cudaStream_t stream) {
    if (total == 0) return;
    binKernel<<<blocksFor(total), gBlockSize, 0, stream>>>(cells, total, x, y, z);
    CF_CUDA_CHECK_LAUNCH("spheres::binKernel", stream);
}

template <typename Real>
void launchGather(const CellArrays<Real>& src, const CellArrays<Real>& dst,
                  const std::int32_t* order, std::size_t count, cudaStream_t stream) {
    if (count == 0) return;
    gatherKernel<Real><<<blocksFor(count), gBlockSize, 0, stream>>>(src, dst, order, count);
    CF_CUDA_CHECK_LAUNCH("spheres::gatherKernel", stream);
}

void setBlockSizeForTests(int threads) {
    gBlockSize = threads;
}

// Both precisions of every launcher (mechanics.precision).
#define CF_SPHERES_INSTANTIATE(Real)                                                               \
    template void launchInteractionRadius<Real>(                                                   \
        const Real*, std::size_t, Real*, cf::cuda::DeviceBuffer<unsigned char>&, cudaStream_t);    \
    template void launchFixedRadius<Real>(Real*, Real, cudaStream_t);                              \
    template void launchRankDivisions<Real>(const CellArrays<Real>&, std::size_t, std::int32_t*,   \
                                            std::int32_t*, DivisionSummary*,                       \
                                            cf::cuda::DeviceBuffer<unsigned char>&, cudaStream_t); \
    template void launchBiology<Real>(const CellArrays<Real>&, std::size_t, const std::int32_t*,   \
                                      const std::int32_t*, bool, std::uint32_t, std::uint64_t,     \
                                      cudaStream_t);                                               \
    template void launchForces<Real>(const CellArrays<Real>&, std::size_t, const grid::GridView&,  \
                                     Packed<Real>*, const Real*, const ChemotaxisField&, Real*,    \
                                     Real*, Real*, std::uint32_t, std::uint64_t, cudaStream_t,     \
                                     std::size_t, bool);                                           \
    template void launchApply<Real>(const CellArrays<Real>&, std::size_t, const Real*,             \
                                    const Real*, const Real*, cudaStream_t);                       \
    template void launchGather<Real>(const CellArrays<Real>&, const CellArrays<Real>&,             \
                                     const std::int32_t*, std::size_t, cudaStream_t);
CF_SPHERES_INSTANTIATE(float)
CF_SPHERES_INSTANTIATE(double)
#undef CF_SPHERES_INSTANTIATE

}  // namespace cf::spheres::cuda
