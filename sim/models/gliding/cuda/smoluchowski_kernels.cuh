// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers for the filament-step kernels of `gliding` (docs/design/gliding.md 3.2), defined in
// smoluchowski_kernels.cu. Host-compiled code includes this; it declares no kernels. All the
// per-cell and per-face arithmetic is smoluchowski_physics.hpp, the same as the CPU's, and
// the .cu is compiled with --fmad=false, so moments, A^n, the CFL rate, R and the CN factor
// are the CPU's bits; only cuFFT differs from FFTW. The kernels read the live parameters (Vsp,
// Ut, Ur, Dt, Dr, cout, dt, growth_limit) from the file's __constant__ GlidingParams
// (smoluchowskiParamsSymbol(), params_block.hpp): bind it before launching.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/models/gliding/cuda/params_block.hpp"
#include "sim/models/gliding/smoluchowski_physics.hpp"

namespace cf::gliding::cuda {

// Per-step scalars that stay on the device between the kernels of one step (design 3.2:
// cflFinish writes them, cnRhs and cnDivide read them), so a CFL step needs no host sync.
struct StepScalars {
    double dt;      // the step being taken
    double dtPrev;  // the step before it (AB2 ratio)
    double rate;    // CFL rate of Psi^n
};
static_assert(std::is_trivially_copyable_v<StepScalars>);

// Device copies of the host tables the step needs (GlidingTables, design 2.1).
struct DeviceTables {
    const double *cosT, *sinT, *faceCos, *faceSin, *sigmaX, *sigmaTheta;
    std::int32_t n, ntheta;
    double dx, dtheta;
};
static_assert(std::is_trivially_copyable_v<DeviceTables>);

// The unnormalised moments per cell [iy * n + ix].
struct DeviceMoments {
    double *c, *px, *py, *d11, *d12, *d22;
};
static_assert(std::is_trivially_copyable_v<DeviceMoments>);

struct FluxArgs {
    const double* psi;
    DeviceMoments m;
    DeviceTables t;
    double invDx, invDth;  // 1/dx, 1/dtheta (AdvectionCoefficients with the live Vsp, Ut, Ur)
    FlowAtZ0 flow;         // device pointers; ignored unless hasFlow
    bool hasFlow;
    double* a;         // A^n, layout of psi
    double* blockMax;  // one CFL-rate partial per block
};
static_assert(std::is_trivially_copyable_v<FluxArgs>);

struct CflArgs {
    const double* blockMax;
    std::int32_t blocks;
    StepScalars* scalars;
    bool useCfl;     // true: dt from the CFL rule (time.cout, time.dt, time.growth_limit)
    double fixedDt;  // false: the step
    bool history;    // not the first step since a restart
};
static_assert(std::is_trivially_copyable_v<CflArgs>);

struct RhsArgs {
    const double *psi, *a, *aPrev;
    double* r;
    const StepScalars* scalars;
    double dx, dtheta;  // with the live D_t and D_r: cx = D_t/dx^2, ct = D_r/dtheta^2
    std::int32_t n, ntheta;
    bool history;
};
static_assert(std::is_trivially_copyable_v<RhsArgs>);

struct DivideArgs {
    double* spectrum;  // interleaved (re, im), cuFFT's D2Z layout [(ky * n + kx) * nh + m]
    const double *sigmaX, *sigmaTheta;
    const StepScalars* scalars;
    double norm;  // 1/(N^2 Ntheta); D_t and D_r are the live parameters
    std::int32_t n, nh;
};
static_assert(std::is_trivially_copyable_v<DivideArgs>);

// Threads per block of smolFlux; the number of CFL partials is fluxBlocks(total).
inline constexpr int kFluxBlock = 256;
inline int fluxBlocks(std::int64_t total) {
    return static_cast<int>((total + kFluxBlock - 1) / kFluxBlock);
}

void launchMoments(const double* psi, const DeviceTables& t, const DeviceMoments& m,
                   cudaStream_t stream);
void launchSmolFlux(const FluxArgs& args, cudaStream_t stream);
void launchCflFinish(const CflArgs& args, cudaStream_t stream);
void launchCnRhs(const RhsArgs& args, cudaStream_t stream);
void launchCnDivide(const DivideArgs& args, cudaStream_t stream);

}  // namespace cf::gliding::cuda
