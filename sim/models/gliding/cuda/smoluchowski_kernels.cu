// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA kernels of the `gliding` filament step (docs/design/gliding.md 3.2): moments, smolFlux
// (A^n and per-block CFL partials), cflFinish (dt on the device), cnRhs and cnDivide around
// the cuFFT transforms. No atomics: the rate is a max (exact in any order), everything else
// is a per-item write, so results are deterministic. Compiled with --fmad=false (see
// sources.cmake) so that the shared arithmetic of smoluchowski_physics.hpp rounds as on the
// CPU, which is built with -ffp-contract=off. The live parameters come from cParams, this
// file's __constant__ GlidingParams (params_block.hpp), which the caller binds before launching.
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/gliding/cuda/smoluchowski_kernels.cuh"
#include "sim/models/gliding/periodic_grid.hpp"

namespace cf::gliding::cuda {

namespace {

// The parameters every kernel of this file reads (one symbol per .cu: no relocatable device
// code). Bound by SmoluchowskiCuda before each step.
__constant__ GlidingParams cParams;

constexpr int kBlock = 256;
constexpr int kFinishBlock = 1024;

int blocksFor(long long n) {
    return static_cast<int>((n + kBlock - 1) / kBlock);
}

__global__ void momentsKernel(const double* psi, DeviceTables t, DeviceMoments m) {
    const long long cell = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (cell >= static_cast<long long>(t.n) * t.n) return;
    const CellMoments cm = orbitMoments(psi + cell * t.ntheta, t.cosT, t.sinT, t.ntheta, t.dtheta);
    m.c[cell] = cm.c;
    m.px[cell] = cm.px;
    m.py[cell] = cm.py;
    m.d11[cell] = cm.d11;
    m.d12[cell] = cm.d12;
    m.d22[cell] = cm.d22;
}

// D:pp of cell `c` at angle (co, si), or 0 when U_t = 0 (the CPU leaves its table at 0 then).
__device__ double ppAt(const DeviceMoments& m, long long c, double co, double si, bool on) {
    return on ? dpp(m.d11[c], m.d12[c], m.d22[c], co, si) : 0.0;
}

// One thread per (cell, theta), theta fastest: A^n and the block's largest CFL rate.
__global__ void __launch_bounds__(kFluxBlock) smolFluxKernel(FluxArgs a) {
    __shared__ double partial[kFluxBlock];
    const int nt = a.t.ntheta, n = a.t.n;
    const long long total = static_cast<long long>(n) * n * nt;
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    double rate = 0;
    if (i < total) {
        const long long cell = i / nt;
        const int j = static_cast<int>(i % nt);
        const Neighbours nb = neighboursOf(cell, n);
        const int jm = wrapIndex(j - 1, nt), jp = wrapIndex(j + 1, nt);
        const double co = a.t.cosT[j], si = a.t.sinT[j];
        const AdvectionCoefficients k{cParams.vsp, cParams.ut, cParams.ur, a.invDx, a.invDth};
        const bool pp = k.ut != 0.0;
        const double* psi = a.psi;
        const AdvectionStencil st{psi[i],
                                  psi[nb.xm * nt + j],
                                  psi[nb.xp * nt + j],
                                  psi[nb.ym * nt + j],
                                  psi[nb.yp * nt + j],
                                  psi[cell * nt + jm],
                                  psi[cell * nt + jp],
                                  ppAt(a.m, cell, co, si, pp),
                                  ppAt(a.m, nb.xm, co, si, pp),
                                  ppAt(a.m, nb.xp, co, si, pp),
                                  ppAt(a.m, nb.ym, co, si, pp),
                                  ppAt(a.m, nb.yp, co, si, pp),
                                  co,
                                  si,
                                  a.t.faceCos[jm],
                                  a.t.faceSin[jm],
                                  a.t.faceCos[j],
                                  a.t.faceSin[j],
                                  a.m.d11[cell],
                                  a.m.d12[cell],
                                  a.m.d22[cell]};
        CellFlow around{};
        if (a.hasFlow) around = cellFlow(a.flow, cell, nb.xm, nb.xp, nb.ym, nb.yp);
        const AdvectionValue v = advectionAt(k, st, a.hasFlow ? &around : nullptr);
        a.a[i] = v.a;
        rate = v.rate;
    }
    partial[threadIdx.x] = rate;
    __syncthreads();
    for (int s = kFluxBlock / 2; s > 0; s >>= 1) {
        if (static_cast<int>(threadIdx.x) < s)
            partial[threadIdx.x] = maxOf(partial[threadIdx.x], partial[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) a.blockMax[blockIdx.x] = partial[0];
}

// One block: the rate (max of the partials, exact in any order) and the step's dt.
__global__ void __launch_bounds__(kFinishBlock) cflFinishKernel(CflArgs a) {
    __shared__ double partial[kFinishBlock];
    double r = 0;
    for (int b = static_cast<int>(threadIdx.x); b < a.blocks; b += kFinishBlock)
        r = maxOf(r, a.blockMax[b]);
    partial[threadIdx.x] = r;
    __syncthreads();
    for (int s = kFinishBlock / 2; s > 0; s >>= 1) {
        if (static_cast<int>(threadIdx.x) < s)
            partial[threadIdx.x] = maxOf(partial[threadIdx.x], partial[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x != 0) return;
    StepScalars& s = *a.scalars;
    const double rate = partial[0];
    const double dtPrev = s.dt;  // the step just taken becomes the previous one
    s.rate = rate;
    s.dtPrev = dtPrev;
    s.dt = a.useCfl
               ? cflDt(rate, cParams.courantOut, cParams.dt, cParams.growthLimit, dtPrev, a.history)
               : a.fixedDt;
}

// R = Psi + dt/2 L_h Psi + dt[(1 + w/2) A^n - (w/2) A^{n-1}], one thread per (cell, theta).
__global__ void cnRhsKernel(RhsArgs a) {
    const int nt = a.ntheta, n = a.n;
    const long long total = static_cast<long long>(n) * n * nt;
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const long long cell = i / nt;
    const int j = static_cast<int>(i % nt);
    const Neighbours nb = neighboursOf(cell, n);
    const double* psi = a.psi;
    const double here = psi[i];
    const double sx = psi[nb.xm * nt + j] + psi[nb.xp * nt + j];
    const double sy = psi[nb.ym * nt + j] + psi[nb.yp * nt + j];
    const double st = psi[cell * nt + wrapIndex(j - 1, nt)] + psi[cell * nt + wrapIndex(j + 1, nt)];
    // The CPU's expressions (SmoluchowskiCpu): D_t/(dx dx), D_r/(dtheta dtheta).
    const double cx = cParams.diffT / (a.dx * a.dx), ct = cParams.diffR / (a.dtheta * a.dtheta);
    const double lap = diffusionAt(cx, ct, here, sx, sy, st);
    const StepScalars s = *a.scalars;
    const CnWeights k = cnWeights(s.dt, s.dtPrev, a.history);
    a.r[i] = cnRhsAt(k, here, lap, a.a[i], a.history ? a.aPrev[i] : 0.0);
}

// R^ /= (1 - dt/2 Lambda) N^2 Ntheta, one thread per complex mode.
__global__ void cnDivideKernel(DivideArgs a) {
    const long long modes = static_cast<long long>(a.n) * a.n * a.nh;
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= modes) return;
    const long long row = i / a.nh;
    const int m = static_cast<int>(i % a.nh);
    const int kx = static_cast<int>(row % a.n), ky = static_cast<int>(row / a.n);
    const double half = cnWeights(a.scalars->dt, 0.0, false).half;
    const double f = cnFactor(cParams.diffT, cParams.diffR, a.sigmaX[kx], a.sigmaX[ky],
                              a.sigmaTheta[m], half, a.norm);
    a.spectrum[2 * i] *= f;
    a.spectrum[2 * i + 1] *= f;
}

}  // namespace

ParamsSymbol& smoluchowskiParamsSymbol() {
    static ParamsSymbol symbol(cParams);
    return symbol;
}

void launchMoments(const double* psi, const DeviceTables& t, const DeviceMoments& m,
                   cudaStream_t stream) {
    momentsKernel<<<blocksFor(static_cast<long long>(t.n) * t.n), kBlock, 0, stream>>>(psi, t, m);
    CF_CUDA_CHECK_LAUNCH("gliding moments", stream);
}

void launchSmolFlux(const FluxArgs& args, cudaStream_t stream) {
    const long long total = static_cast<long long>(args.t.n) * args.t.n * args.t.ntheta;
    smolFluxKernel<<<fluxBlocks(total), kFluxBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding smolFlux", stream);
}

void launchCflFinish(const CflArgs& args, cudaStream_t stream) {
    cflFinishKernel<<<1, kFinishBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding cflFinish", stream);
}

void launchCnRhs(const RhsArgs& args, cudaStream_t stream) {
    cnRhsKernel<<<blocksFor(static_cast<long long>(args.n) * args.n * args.ntheta), kBlock, 0,
                  stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding cnRhs", stream);
}

void launchCnDivide(const DivideArgs& args, cudaStream_t stream) {
    cnDivideKernel<<<blocksFor(static_cast<long long>(args.n) * args.n * args.nh), kBlock, 0,
                     stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding cnDivide", stream);
}

}  // namespace cf::gliding::cuda
