// SPDX-License-Identifier: GPL-3.0-or-later
// packViews of `gliding` (docs/design/gliding.md 3.2, 5): the views of gliding_views.hpp
// written on the device, so that a frame never takes Psi, the motors or the flow through host
// memory. The formulas are hostViews' (gliding_views.cpp) term for term, in double, rounded to
// float at the end. The file is compiled with --fmad=false (sources.cmake) although views are
// float: the moments then round exactly as the host's (-ffp-contract=off), which matters where
// they cancel. In a nearly isotropic cell D11 - D22 and D12 are round-off, and the director's
// angle atan2(2 D12, D11 - D22) / 2 would otherwise point anywhere; only the library functions
// (hypot, atan2, cos, sin: a few ulp in double) differ from the host's.
#include "sim/core/cuda_check.hpp"
#include "sim/models/gliding/cuda/view_kernels.cuh"
#include "sim/models/gliding/smoluchowski_physics.hpp"

namespace cf::gliding::cuda {

namespace {

constexpr int kBlock = 256;
// std::numbers::pi, spelled out for device code.
constexpr double kPi = 3.141592653589793238462643383279502884;

__host__ __device__ long long cellsOf(std::int32_t n) {
    return static_cast<long long>(n) * n;
}

int blocksFor(long long items) {
    return static_cast<int>((items + kBlock - 1) / kBlock);
}

__device__ long long cellIndex() {
    return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

// c of one cell, summed in theta order as hostViews does.
__device__ double cellDensity(const double* psi, int ntheta) {
    double c = 0;
    for (int j = 0; j < ntheta; ++j)
        c += psi[j];
    return c;
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
    if (cell < cellsOf(a.n)) c = maxOf(0.0, cellDensity(a.psi + cell * a.ntheta, a.ntheta));
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
    const int nt = a.ntheta;
    const double* psi = a.psi + cell * nt;
    double c = 0, px = 0, py = 0, d11 = 0, d12 = 0, d22 = 0;
    int best = 0;
    for (int j = 0; j < nt; ++j) {
        const double co = a.cosT[j], si = a.sinT[j];
        c += psi[j];
        px += co * psi[j];
        py += si * psi[j];
        d11 += co * co * psi[j];
        d12 += co * si * psi[j];
        d22 += si * si * psi[j];
        if (psi[j] > psi[best]) best = j;
    }
    const double cmax = a.blockMax[blocks];
    const DeviceViewArrays& o = a.out;
    // Polar order |P|/c and nematic order: the largest eigenvalue of Q = 2D/c - I.
    const double inv = c > 0 ? 1.0 / c : 0.0;
    o.density[cell] = static_cast<float>(c * a.dtheta);
    o.polar[cell] = static_cast<float>(hypot(px, py) * inv);
    const float nematic = static_cast<float>(hypot(d11 - d22, 2.0 * d12) * inv);
    o.nematic[cell] = nematic;
    o.orientation[cell] = static_cast<float>((best + 0.5) * a.dtheta * 180.0 / kPi);
    o.bound[cell] = static_cast<float>(motorValue(a.bound, a.motorsDouble, cell));
    o.free[cell] = static_cast<float>(motorValue(a.free, a.motorsDouble, cell));
    const double u = a.u[cell], v = a.v[cell];
    o.u[cell] = static_cast<float>(u);
    o.v[cell] = static_cast<float>(v);
    o.speed[cell] = static_cast<float>(hypot(u, v));
    // Arrow lengths: the dominant orientation by c / max c (Fig. 6), the director by the
    // nematic order, the flow by itself; z = 0 on the plane.
    const double weight = cmax > 0 ? c / cmax : 0.0;
    float* xyz = o.orientationXyz + 3 * cell;
    xyz[0] = static_cast<float>(weight * a.cosT[best]);
    xyz[1] = static_cast<float>(weight * a.sinT[best]);
    xyz[2] = 0.0f;
    const double phi = 0.5 * atan2(2.0 * d12, d11 - d22);
    xyz = o.directorXyz + 3 * cell;
    xyz[0] = nematic * static_cast<float>(cos(phi));
    xyz[1] = nematic * static_cast<float>(sin(phi));
    xyz[2] = 0.0f;
    xyz = o.flowXyz + 3 * cell;
    xyz[0] = static_cast<float>(u);
    xyz[1] = static_cast<float>(v);
    xyz[2] = 0.0f;
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
