// SPDX-License-Identifier: GPL-3.0-or-later
// packViews of `gliding` (docs/design/gliding.md 3.2, 5): the views of gliding_views.hpp
// written on the device, so that a frame never takes Psi, the motors or the flow through host
// memory. The formulas are hostViews' (gliding_views.cpp) term for term, in double, rounded to
// float at the end. The file is compiled with --fmad=false (sources.cmake) although views are
// float: the moments then round exactly as the host's (-ffp-contract=off), which matters where
// they cancel. In a nearly isotropic cell D11 - D22 and D12 are round-off, and the director's
// angle atan2(2 D12, D11 - D22) / 2 would otherwise point anywhere; only the library functions
// (hypot, atan2, cos, sin: a few ulp in double) differ from the host's.
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/gliding/cuda/view_kernels.cuh"
#include "sim/models/gliding/smoluchowski_physics.hpp"

namespace cf::gliding::cuda {

namespace {

constexpr int kBlock = 256;

__host__ __device__ long long cellsOf(std::int32_t n) {
    return static_cast<long long>(n) * n;
}

int blocksFor(long long items) {
    return static_cast<int>((items + kBlock - 1) / kBlock);
}

__device__ long long cellIndex() {
    return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

// The block's max of `value` into out (shared-memory tree; a max is exact in any order).
// maxOf is std::max's comparison: a NaN never wins, as in the host's running max from 0.
__device__ void blockMaxTo(double value, double* out) {
    __shared__ double m[kBlock];
    m[threadIdx.x] = value;
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half /= 2) {
        if (static_cast<int>(threadIdx.x) < half)
            m[threadIdx.x] = maxOf(m[threadIdx.x], m[threadIdx.x + half]);
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = m[0];
}

// Pass 1: max c over each block's cells (cells past the end count as 0, the host's start).
__global__ void densityMaxKernel(PackViewsArgs a) {
    const long long cell = cellIndex();
    double c = 0;
    if (cell < cellsOf(a.n)) c = maxOf(0.0, cellDensitySum(a.psi + cell * a.ntheta, a.ntheta));
    blockMaxTo(c, a.blockMax + blockIdx.x);
}

// Pass 2: one block folds the block maxima into blockMax[blocks].
__global__ void finishMaxKernel(PackViewsArgs a, int blocks) {
    double m = 0;
    for (int i = static_cast<int>(threadIdx.x); i < blocks; i += kBlock)
        m = maxOf(m, a.blockMax[i]);
    blockMaxTo(m, a.blockMax + blocks);
}

__device__ double motorValue(const void* base, bool isDouble, long long cell) {
    return isDouble ? static_cast<const double*>(base)[cell]
                    : static_cast<double>(static_cast<const float*>(base)[cell]);
}

__global__ void packViewsKernel(PackViewsArgs a, int blocks) {
    const long long cell = cellIndex();
    if (cell >= cellsOf(a.n)) return;
    packCellView(a.psi + cell * a.ntheta, a.cosT, a.sinT, a.ntheta, a.dtheta, a.blockMax[blocks],
                 motorValue(a.bound, a.motorsDouble, cell),
                 motorValue(a.free, a.motorsDouble, cell), a.u[cell], a.v[cell], a.out, cell);
}

}  // namespace

std::int64_t packViewsScratch(std::int32_t n) {
    return blocksFor(cellsOf(n)) + 1;
}

void launchPackViews(const PackViewsArgs& args, cudaStream_t stream) {
    const int blocks = blocksFor(cellsOf(args.n));
    densityMaxKernel<<<blocks, kBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding densityMax", stream);
    finishMaxKernel<<<1, kBlock, 0, stream>>>(args, blocks);
    CF_CUDA_CHECK_LAUNCH("gliding densityMax finish", stream);
    packViewsKernel<<<blocks, kBlock, 0, stream>>>(args, blocks);
    CF_CUDA_CHECK_LAUNCH("gliding packViews", stream);
}

}  // namespace cf::gliding::cuda
