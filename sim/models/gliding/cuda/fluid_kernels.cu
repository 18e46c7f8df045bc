// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA kernels of the `gliding` fluid solve (docs/design/gliding.md 2.8, 3.2): stressMoments,
// the stress and forcing passes of stressForcing, stokesApply and velocityGradient around the
// batch-2 cuFFT transforms. Every kernel writes its own items only (no reductions, no atomics),
// so results are deterministic. Compiled with --fmad=false (see sources.cmake) so that the
// shared arithmetic of fluid_physics.hpp rounds as on the CPU (-ffp-contract=off). The live
// parameters come from cParams, this file's __constant__ GlidingParams (params_block.hpp), which
// FluidCuda binds before each solve.
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/gliding/cuda/fluid_kernels.cuh"
#include "sim/models/gliding/fluid_physics.hpp"
#include "sim/models/gliding/periodic_grid.hpp"
#include "sim/models/gliding/smoluchowski_physics.hpp"

namespace cf::gliding::cuda {

namespace {

// The parameters the kernels of this file read (one symbol per .cu: no relocatable device code).
__constant__ GlidingParams cParams;

constexpr int kBlock = 256;

int blocksFor(long long n) {
    return static_cast<int>((n + kBlock - 1) / kBlock);
}

__device__ long long cellIndex() {
    return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__global__ void stressMomentsKernel(StressMomentsArgs a) {
    const long long cell = cellIndex();
    if (cell >= static_cast<long long>(a.n) * a.n) return;
    const CellStress s =
        orbitStressMoments(a.psi + cell * a.ntheta, a.cosT, a.sinT, a.ntheta, a.dtheta);
    a.m.d11[cell] = s.d11;
    a.m.d12[cell] = s.d12;
    a.m.d22[cell] = s.d22;
    a.m.s1111[cell] = s.s1111;
    a.m.s1112[cell] = s.s1112;
    a.m.s1122[cell] = s.s1122;
    a.m.s1222[cell] = s.s1222;
    a.m.s2222[cell] = s.s2222;
}

__global__ void stressKernel(StressArgs a) {
    const long long i = cellIndex();
    if (i >= static_cast<long long>(a.n) * a.n) return;
    // c is not used by the stress (only by the iteration count, which the caller supplies).
    const CellStress s{0.0,          a.m.d11[i],   a.m.d12[i],   a.m.d22[i],  a.m.s1111[i],
                       a.m.s1112[i], a.m.s1122[i], a.m.s1222[i], a.m.s2222[i]};
    const double sigmaF = cParams.sigmaF;
    // The strain reading has no steric stress (as FluidCpu).
    const double sigmaT = cParams.stericReading == static_cast<std::int32_t>(StericReading::Strain)
                              ? 0.0
                              : cParams.sigmaT;
    const Sym2 r =
        a.hasFlow ? extraStress(s, true, a.dudx[i], a.dudy[i], a.dvdx[i], a.dvdy[i], sigmaF, sigmaT)
                  : extraStress(s, false, 0, 0, 0, 0, sigmaF, sigmaT);
    a.t11[i] = r.t11;
    a.t12[i] = r.t12;
    a.t22[i] = r.t22;
}

__global__ void forcingKernel(ForcingArgs a) {
    const long long i = cellIndex();
    if (i >= static_cast<long long>(a.n) * a.n) return;
    const Neighbours nb = neighboursOf(i, a.n);
    const bool force = a.fx != nullptr;
    a.gx[i] = forcingAt(force ? a.fx[i] : 0.0, a.t11[nb.xm], a.t11[nb.xp], a.t12[nb.ym],
                        a.t12[nb.yp], a.inv2);
    a.gy[i] = forcingAt(force ? a.fy[i] : 0.0, a.t12[nb.xm], a.t12[nb.xp], a.t22[nb.ym],
                        a.t22[nb.yp], a.inv2);
}

// One thread per mode: reads both components of f^ and overwrites them with u^ (in place).
__global__ void stokesApplyKernel(StokesArgs a) {
    const long long k = cellIndex();
    if (k >= a.modes) return;
    const Sym2 m{a.mxx[k], a.mxy[k], a.myy[k]};
    double* fx = a.spectrum + 2 * k;
    double* fy = a.spectrum + 2 * (a.modes + k);
    for (int part = 0; part < 2; ++part) {
        const ModeVelocity w = stokesAt(m, a.norm, fx[part], fy[part]);
        fx[part] = w.ux;
        fy[part] = w.uy;
    }
}

__global__ void velocityGradientKernel(GradientArgs a) {
    const long long i = cellIndex();
    if (i >= static_cast<long long>(a.n) * a.n) return;
    const Neighbours nb = neighboursOf(i, a.n);
    a.dudx[i] = centred(a.u[nb.xm], a.u[nb.xp], a.inv2);
    a.dudy[i] = centred(a.u[nb.ym], a.u[nb.yp], a.inv2);
    a.dvdx[i] = centred(a.v[nb.xm], a.v[nb.xp], a.inv2);
    a.dvdy[i] = centred(a.v[nb.ym], a.v[nb.yp], a.inv2);
}

long long cellsOf(std::int32_t n) {
    return static_cast<long long>(n) * n;
}

}  // namespace

ParamsSymbol& fluidParamsSymbol() {
    static ParamsSymbol symbol(cParams);
    return symbol;
}

void launchStressMoments(const StressMomentsArgs& args, cudaStream_t stream) {
    stressMomentsKernel<<<blocksFor(cellsOf(args.n)), kBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding stressMoments", stream);
}

void launchStress(const StressArgs& args, cudaStream_t stream) {
    stressKernel<<<blocksFor(cellsOf(args.n)), kBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding stress", stream);
}

void launchForcing(const ForcingArgs& args, cudaStream_t stream) {
    forcingKernel<<<blocksFor(cellsOf(args.n)), kBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding forcing", stream);
}

void launchStokesApply(const StokesArgs& args, cudaStream_t stream) {
    stokesApplyKernel<<<blocksFor(args.modes), kBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding stokesApply", stream);
}

void launchVelocityGradient(const GradientArgs& args, cudaStream_t stream) {
    velocityGradientKernel<<<blocksFor(cellsOf(args.n)), kBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("gliding velocityGradient", stream);
}

}  // namespace cf::gliding::cuda
