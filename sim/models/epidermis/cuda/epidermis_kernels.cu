// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA kernels of `epidermis`. One thread per element slot for the force stages (threads
// of a warp mostly share a cell, so they walk the same candidate cells and read the same
// element data), one thread per cell for centres, the network and growth. Sums are
// gathered per thread in a fixed order: no atomics, so results are reproducible.
#include <climits>
#include <cub/cub.cuh>

#include "sim/cuda/constant_owner.hpp"
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/epidermis/cuda/epidermis_kernels.cuh"
#include "sim/models/epidermis/epidermis_physics.hpp"

namespace cf::epidermis::cuda {

namespace {

__constant__ EpidermisParams cP;

constexpr int kBlock = 128;
int blocksFor(std::int64_t n) {
    return static_cast<int>((n + kBlock - 1) / kBlock);
}

__device__ __forceinline__ float minImage(float d, float L, bool periodic) {
    return wrapDelta(d, L, periodic);
}

// One warp per cell: lanes read consecutive element slots (coalesced) and reduce.
__global__ void centresKernel(StateView s, const float* __restrict__ x, const float* __restrict__ y,
                              const float* __restrict__ z, CentreView c, bool checkBound) {
    const int cell = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
    if (cell >= s.cells) return;  // whole warps leave together
    const EpidermisParams& p = cP;
    const int n = s.count[cell];
    const std::int64_t base = static_cast<std::int64_t>(cell) * s.slotsPerCell;
    const float x0 = x[base], y0 = y[base], z0 = z[base];
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int e = lane; e < n; e += 32) {
        sx += minImage(x[base + e] - x0, p.sizeX, p.periodic);
        sy += minImage(y[base + e] - y0, p.sizeY, p.periodic);
        sz += z[base + e] - z0;
    }
    for (int o = 16; o > 0; o >>= 1) {
        sx += __shfl_xor_sync(0xffffffffu, sx, o);
        sy += __shfl_xor_sync(0xffffffffu, sy, o);
        sz += __shfl_xor_sync(0xffffffffu, sz, o);
    }
    const float inv = 1.0f / static_cast<float>(n);
    const float cx = wrapPosition(x0 + sx * inv, p.sizeX, p.periodic);
    const float cy = wrapPosition(y0 + sy * inv, p.sizeY, p.periodic);
    const float cz = z0 + sz * inv;
    float r2max = 0.0f;
    for (int e = lane; e < n; e += 32) {
        const float dx = minImage(x[base + e] - cx, p.sizeX, p.periodic);
        const float dy = minImage(y[base + e] - cy, p.sizeY, p.periodic);
        const float dz = z[base + e] - cz;
        r2max = fmaxf(r2max, dx * dx + dy * dy + dz * dz);
    }
    for (int o = 16; o > 0; o >>= 1)
        r2max = fmaxf(r2max, __shfl_xor_sync(0xffffffffu, r2max, o));
    if (lane != 0) return;
    c.x[cell] = cx;
    c.y[cell] = cy;
    c.z[cell] = cz;
    c.radius[cell] = sqrtf(r2max);
    if (checkBound && sqrtf(r2max) > p.radiusBound) atomicMin(c.badCell, cell);
}

// Is the cell pair (a, b) searched for element pairs?
__device__ __forceinline__ bool keepCellPair(const CentreView& c, int a, int b) {
    const EpidermisParams& p = cP;
    const float dx = minImage(c.x[b] - c.x[a], p.sizeX, p.periodic);
    const float dy = minImage(c.y[b] - c.y[a], p.sizeY, p.periodic);
    const float dz = c.z[b] - c.z[a];
    const float d2 = dx * dx + dy * dy + dz * dz;
    const float reach = p.cullRule == static_cast<int>(CullRule::Exact)
                            ? p.interDist + (c.radius[a] + c.radius[b]) + p.skin
                            : p.interDist;
    return d2 <= reach * reach;
}

struct Accum {
    float x = 0.0f, y = 0.0f, z = 0.0f;
};

// Intercellular contribution of all elements of cell b on the element at (xi, yi, zi).
__device__ __forceinline__ void addCell(const ForceStageArgs& a, int b, float xi, float yi,
                                        float zi, Accum& f) {
    const EpidermisParams& p = cP;
    const float cut2 = p.interDist * p.interDist;
    const std::int64_t base = static_cast<std::int64_t>(b) * a.state.slotsPerCell;
    const int n = a.state.count[b];
    for (int k = 0; k < n; ++k) {
        const float dx = minImage(xi - a.evalX[base + k], p.sizeX, p.periodic);
        const float dy = minImage(yi - a.evalY[base + k], p.sizeY, p.periodic);
        const float dz = zi - a.evalZ[base + k];
        const float r2 = dx * dx + dy * dy + dz * dz;
        if (r2 > cut2) continue;
        const float v = interCoefficient(p, sqrtf(r2));
        f.x += v * dx;
        f.y += v * dy;
        f.z += v * dz;
    }
}

__global__ void cellListKernel(CellListArgs a) {
    const int cell = blockIdx.x * blockDim.x + threadIdx.x;
    if (cell >= a.state.cells) return;
    const EpidermisParams& p = cP;
    std::int32_t* out = a.list + static_cast<std::int64_t>(cell) * kMaxNeighbours;
    int n = 0;
    auto visit = [&](int b) {
        if (b == cell || !keepCellPair(a.centres, cell, b)) return;
        if (n < kMaxNeighbours) out[n] = b;
        ++n;
    };
    if (p.neighborMethod == static_cast<int>(NeighborMethod::Grid)) {
        const grid::Vec3 centre{a.centres.x[cell], a.centres.y[cell], a.centres.z[cell]};
        grid::forEachNeighbor(a.grid, centre, a.grid.geometry.cutoff,
                              [&](std::int32_t b, grid::Vec3, float) { visit(b); });
    } else {
        for (int b = 0; b < a.state.cells; ++b)
            visit(b);
    }
    a.listCount[cell] = n;
}

__global__ void forceStageKernel(ForceStageArgs a) {
    const std::int64_t slot = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int cell = static_cast<int>(slot / a.state.slotsPerCell);
    const int e = static_cast<int>(slot % a.state.slotsPerCell);
    if (cell >= a.state.cells || e >= a.state.count[cell]) return;
    const EpidermisParams& p = cP;
    const float xi = a.evalX[slot], yi = a.evalY[slot], zi = a.evalZ[slot];
    Accum f;
    // Intracellular: every other element of the same cell (no cut-off).
    const std::int64_t base = static_cast<std::int64_t>(cell) * a.state.slotsPerCell;
    const int n = a.state.count[cell];
    for (int k = 0; k < n; ++k) {
        if (k == e) continue;
        const float dx = minImage(xi - a.evalX[base + k], p.sizeX, p.periodic);
        const float dy = minImage(yi - a.evalY[base + k], p.sizeY, p.periodic);
        const float dz = zi - a.evalZ[base + k];
        const float v = intraCoefficient(p, sqrtf(dx * dx + dy * dy + dz * dz));
        f.x += v * dx;
        f.y += v * dy;
        f.z += v * dz;
    }
    // Basement membrane at z = 0, adhesive elements only, along z.
    if (a.state.type[slot] == 1) f.z += intraCoefficient(p, fabsf(zi)) * zi;
    // Intercellular.
    const int method = p.neighborMethod;
    const int listed = method == static_cast<int>(NeighborMethod::Naive) ? -1 : a.listCount[cell];
    if (listed >= 0 && listed <= kMaxNeighbours) {
        const std::int32_t* list = a.list + static_cast<std::int64_t>(cell) * kMaxNeighbours;
        for (int j = 0; j < listed; ++j)
            addCell(a, list[j], xi, yi, zi, f);
    } else if (method == static_cast<int>(NeighborMethod::Grid)) {
        const grid::Vec3 centre{a.centres.x[cell], a.centres.y[cell], a.centres.z[cell]};
        grid::forEachNeighbor(a.grid, centre, a.grid.geometry.cutoff,
                              [&](std::int32_t b, grid::Vec3, float) {
                                  if (b != cell && keepCellPair(a.centres, cell, b))
                                      addCell(a, b, xi, yi, zi, f);
                              });
    } else {
        const bool cull = method == static_cast<int>(NeighborMethod::Center);
        for (int b = 0; b < a.state.cells; ++b) {
            if (b == cell || (cull && !keepCellPair(a.centres, cell, b))) continue;
            addCell(a, b, xi, yi, zi, f);
        }
    }
    float ox = a.state.x[slot] + a.h * f.x;
    float oy = a.state.y[slot] + a.h * f.y;
    float oz = a.state.z[slot] + a.h * f.z;
    if (p.hardZ) oz = fmaxf(oz, 0.0f);
    if (a.checkSkin) {
        // The candidates found at the start of the step serve stage 2 only while every
        // element moves less than skin/2 in the half step.
        const float dx = ox - a.state.x[slot], dy = oy - a.state.y[slot], dz = oz - a.state.z[slot];
        const float half = 0.5f * p.skin;
        if (dx * dx + dy * dy + dz * dz > half * half)
            atomicMin(a.badSkin, static_cast<std::int32_t>(slot));
    }
    a.outX[slot] = wrapPosition(ox, p.sizeX, p.periodic);
    a.outY[slot] = wrapPosition(oy, p.sizeY, p.periodic);
    a.outZ[slot] = oz;
}

__device__ __forceinline__ float& speciesAt(const StateView& s, int k, int cell) {
    return s.species[static_cast<std::int64_t>(k) * s.capacity + cell];
}

__global__ void averagesKernel(NetworkArgs a) {
    const int cell = blockIdx.x * blockDim.x + threadIdx.x;
    if (cell >= a.state.cells) return;
    const EpidermisParams& p = cP;
    // A: sum of the heights of the cell's adhesive elements.
    const std::int64_t base = static_cast<std::int64_t>(cell) * a.state.slotsPerCell;
    float bma = 0.0f;
    for (int e = 0; e < a.state.count[cell]; ++e)
        if (a.state.type[base + e] == 1) bma += fabsf(a.state.z[base + e]);
    float sn = 0.0f, sd = 0.0f, sb = 0.0f;
    int neighbours = 0;
    const float reach2 = p.neighborDist * p.neighborDist;
    auto visit = [&](int b) {
        sn += speciesAt(a.state, kNotch, b);
        sd += speciesAt(a.state, kDelta, b);
        sb += speciesAt(a.state, kBound, b);
        ++neighbours;
    };
    if (p.neighborMethod == static_cast<int>(NeighborMethod::Grid)) {
        const grid::Vec3 centre{a.centres.x[cell], a.centres.y[cell], a.centres.z[cell]};
        grid::forEachNeighbor(a.grid, centre, p.neighborDist,
                              [&](std::int32_t b, grid::Vec3, float) {
                                  if (b != cell) visit(b);
                              });
    } else {
        for (int b = 0; b < a.state.cells; ++b) {
            if (b == cell) continue;
            const float dx = minImage(a.centres.x[b] - a.centres.x[cell], p.sizeX, p.periodic);
            const float dy = minImage(a.centres.y[b] - a.centres.y[cell], p.sizeY, p.periodic);
            const float dz = a.centres.z[b] - a.centres.z[cell];
            if (dx * dx + dy * dy + dz * dz <= reach2) visit(b);
        }
    }
    const float inv = neighbours > 0 ? 1.0f / static_cast<float>(neighbours) : 0.0f;
    a.avgN[cell] = sn * inv;
    a.avgD[cell] = sd * inv;
    a.avgB[cell] = sb * inv;
    speciesAt(a.state, kBma, cell) = bma;
}

__global__ void networkKernel(NetworkArgs a) {
    const int cell = blockIdx.x * blockDim.x + threadIdx.x;
    if (cell >= a.state.cells) return;
    float s[kSpeciesCount];
    for (int k = 0; k < kSpeciesCount; ++k)
        s[k] = speciesAt(a.state, k, cell);
    networkStep(cP, s, a.avgN[cell], a.avgD[cell], a.avgB[cell], a.dt);
    for (int k = 0; k < kSpeciesCount; ++k)
        speciesAt(a.state, k, cell) = s[k];
}

__global__ void growthKernel(GrowthArgs a) {
    const int cell = blockIdx.x * blockDim.x + threadIdx.x;
    if (cell >= a.state.cells) return;
    const EpidermisParams& p = cP;
    const float d = p.network ? speciesAt(a.state, kDelta, cell) : 0.0f;
    const float mean = p.network ? a.avgD[cell] : 0.0f;
    const bool grow = cellGrows(a.cut, d, mean, cell);
    int n = a.state.count[cell];
    if (grow && n < a.state.slotsPerCell) {
        const std::int64_t slot = static_cast<std::int64_t>(cell) * a.state.slotsPerCell + n;
        a.state.x[slot] = a.centres.x[cell];
        a.state.y[slot] = a.centres.y[cell];
        a.state.z[slot] = a.centres.z[cell];
        a.state.type[slot] = 0;
        a.state.count[cell] = ++n;
    }
    a.divides[cell] = n >= p.divisionElements ? 1 : 0;
}

__global__ void divisionKernel(GrowthArgs a) {
    const int cell = blockIdx.x * blockDim.x + threadIdx.x;
    if (cell >= a.state.cells || a.divides[cell] == 0) return;
    const int daughter = a.state.cells + a.offsets[cell];
    const int n = a.state.count[cell];
    const int half = n / 2;
    const std::int64_t from = static_cast<std::int64_t>(cell) * a.state.slotsPerCell;
    const std::int64_t to = static_cast<std::int64_t>(daughter) * a.state.slotsPerCell;
    for (int e = half; e < n; ++e) {
        a.state.x[to + e - half] = a.state.x[from + e];
        a.state.y[to + e - half] = a.state.y[from + e];
        a.state.z[to + e - half] = a.state.z[from + e];
        a.state.type[to + e - half] = a.state.type[from + e];
    }
    a.state.count[cell] = half;
    a.state.count[daughter] = n - half;
    for (int k = 0; k < kSpeciesCount; ++k) {
        const float v = 0.5f * speciesAt(a.state, k, cell);
        speciesAt(a.state, k, cell) = v;
        speciesAt(a.state, k, daughter) = v;
    }
}

__global__ void packViewsKernel(PackArgs a) {
    const std::int64_t slot = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int cell = static_cast<int>(slot / a.state.slotsPerCell);
    const int e = static_cast<int>(slot % a.state.slotsPerCell);
    if (cell >= a.state.cells) return;
    const int n = a.state.count[cell];
    const std::int64_t cells = a.state.cells;
    if (e == 0) {
        a.cells[4 * cell] = a.centres.x[cell];
        a.cells[4 * cell + 1] = a.centres.y[cell];
        a.cells[4 * cell + 2] = a.centres.z[cell];
        a.cells[4 * cell + 3] = a.centres.radius[cell];
        for (int k = 0; k < kSpeciesCount; ++k)
            a.cellSpecies[k * cells + cell] = speciesAt(a.state, k, cell);
    }
    if (e >= n) return;
    const std::int64_t base = static_cast<std::int64_t>(cell) * a.state.slotsPerCell;
    bool supra;
    if (cP.network) {
        supra = speciesAt(a.state, kOvol1, cell) > speciesAt(a.state, kOvol2, cell);
    } else {
        supra = true;
        for (int k = 0; k < n; ++k)
            supra = supra && a.state.type[base + k] != 1;
    }
    const std::int64_t i = a.elementOffset[cell] + e;
    a.elements[4 * i] = a.state.x[slot];
    a.elements[4 * i + 1] = a.state.y[slot];
    a.elements[4 * i + 2] = a.state.z[slot];
    a.elements[4 * i + 3] = a.drawRadius;
    a.elementState[i] = a.state.type[slot] == 1 ? 0 : (supra ? 2 : 1);
    for (int k = 0; k < kSpeciesCount; ++k)
        a.elementSpecies[k * a.elementCount + i] = speciesAt(a.state, k, cell);
}

__global__ void nonFiniteKernel(StateView s, std::int32_t* badElement, std::int32_t* badCell) {
    const std::int64_t slot = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int cell = static_cast<int>(slot / s.slotsPerCell);
    const int e = static_cast<int>(slot % s.slotsPerCell);
    if (cell >= s.cells) return;
    if (e < s.count[cell] && (!isfinite(s.x[slot]) || !isfinite(s.y[slot]) || !isfinite(s.z[slot])))
        atomicMin(badElement, static_cast<std::int32_t>(slot));
    if (e == 0)
        for (int k = 0; k < kSpeciesCount; ++k)
            if (!isfinite(speciesAt(s, k, cell))) atomicMin(badCell, cell * 8 + k);
}

}  // namespace

// Whose EpidermisParams the __constant__ symbol holds, and the copies to and from it
// (sim/cuda/constant_owner.hpp).
static cf::cuda::ConstantBlock<EpidermisParams> gParamsBlock(cP);

void uploadParams(const EpidermisParams& value, const void* owner, cudaStream_t stream) {
    gParamsBlock.upload(value, owner, stream);
}

void bindParams(const EpidermisParams& value, const void* owner, cudaStream_t stream) {
    gParamsBlock.bind(value, owner, stream);
}

void releaseParams(const void* owner) {
    gParamsBlock.release(owner);
}

void downloadParams(EpidermisParams& params, cudaStream_t stream) {
    params = gParamsBlock.download(stream);
}

void launchCentres(const StateView& s, const float* x, const float* y, const float* z,
                   const CentreView& c, bool checkBound, cudaStream_t stream) {
    if (s.cells == 0) return;
    centresKernel<<<blocksFor(static_cast<std::int64_t>(s.cells) * 32), kBlock, 0, stream>>>(
        s, x, y, z, c, checkBound);
    CF_CUDA_CHECK_LAUNCH("epidermis::centresKernel", stream);
}

void launchCellLists(const CellListArgs& a, cudaStream_t stream) {
    if (a.state.cells == 0) return;
    cellListKernel<<<blocksFor(a.state.cells), kBlock, 0, stream>>>(a);
    CF_CUDA_CHECK_LAUNCH("epidermis::cellListKernel", stream);
}

void launchForceStage(const ForceStageArgs& a, cudaStream_t stream) {
    const std::int64_t slots = static_cast<std::int64_t>(a.state.cells) * a.state.slotsPerCell;
    if (slots == 0) return;
    forceStageKernel<<<blocksFor(slots), kBlock, 0, stream>>>(a);
    CF_CUDA_CHECK_LAUNCH("epidermis::forceStageKernel", stream);
}

void launchNetwork(const NetworkArgs& a, cudaStream_t stream) {
    if (a.state.cells == 0) return;
    averagesKernel<<<blocksFor(a.state.cells), kBlock, 0, stream>>>(a);
    CF_CUDA_CHECK_LAUNCH("epidermis::averagesKernel", stream);
    networkKernel<<<blocksFor(a.state.cells), kBlock, 0, stream>>>(a);
    CF_CUDA_CHECK_LAUNCH("epidermis::networkKernel", stream);
}

void launchGrowth(const GrowthArgs& a, cudaStream_t stream) {
    if (a.state.cells == 0) return;
    growthKernel<<<blocksFor(a.state.cells), kBlock, 0, stream>>>(a);
    CF_CUDA_CHECK_LAUNCH("epidermis::growthKernel", stream);
}

// out = exclusive scan of in[0..n); returns the total (waits for the device).
std::int64_t exclusiveScanTotal(const std::int32_t* in, std::int32_t* out, int n,
                                cf::cuda::DeviceBuffer<unsigned char>& scratch,
                                cudaStream_t stream) {
    if (n == 0) return 0;
    std::size_t need = 0;
    CF_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, in, out, n, stream));
    void* temp = cf::cuda::ensureScratch(scratch, need);
    CF_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, need, in, out, n, stream));
    std::int32_t last[2] = {0, 0};
    CF_CUDA_CHECK(cudaMemcpyAsync(&last[0], out + n - 1, sizeof(std::int32_t),
                                  cudaMemcpyDeviceToHost, stream));
    CF_CUDA_CHECK(cudaMemcpyAsync(&last[1], in + n - 1, sizeof(std::int32_t),
                                  cudaMemcpyDeviceToHost, stream));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream));
    return static_cast<std::int64_t>(last[0]) + last[1];
}

std::int32_t scanDivisions(const GrowthArgs& a, cf::cuda::DeviceBuffer<unsigned char>& scratch,
                           cudaStream_t stream) {
    return static_cast<std::int32_t>(
        exclusiveScanTotal(a.divides, a.offsets, a.state.cells, scratch, stream));
}

void launchDivision(const GrowthArgs& a, cudaStream_t stream) {
    if (a.state.cells == 0) return;
    divisionKernel<<<blocksFor(a.state.cells), kBlock, 0, stream>>>(a);
    CF_CUDA_CHECK_LAUNCH("epidermis::divisionKernel", stream);
}

std::int64_t scanElementOffsets(const StateView& s, std::int32_t* offsets,
                                cf::cuda::DeviceBuffer<unsigned char>& scratch,
                                cudaStream_t stream) {
    return exclusiveScanTotal(s.count, offsets, s.cells, scratch, stream);
}

void launchPackViews(const PackArgs& a, cudaStream_t stream) {
    const std::int64_t slots = static_cast<std::int64_t>(a.state.cells) * a.state.slotsPerCell;
    if (slots == 0) return;
    packViewsKernel<<<blocksFor(slots), kBlock, 0, stream>>>(a);
    CF_CUDA_CHECK_LAUNCH("epidermis::packViewsKernel", stream);
}

void launchFindNonFinite(const StateView& s, std::int32_t* badElement, std::int32_t* badCell,
                         cudaStream_t stream) {
    const std::int64_t slots = static_cast<std::int64_t>(s.cells) * s.slotsPerCell;
    if (slots == 0) return;
    nonFiniteKernel<<<blocksFor(slots), kBlock, 0, stream>>>(s, badElement, badCell);
    CF_CUDA_CHECK_LAUNCH("epidermis::nonFiniteKernel", stream);
}

}  // namespace cf::epidermis::cuda
