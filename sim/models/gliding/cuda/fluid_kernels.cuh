// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers for the fluid kernels of `gliding` (docs/design/gliding.md 2.8, 3.2), defined in
// fluid_kernels.cu: stressMoments (c, D, S per cell from Psi), stressForcing (in two passes:
// the extra stress per cell, then the motor force plus its centred divergence), stokesApply
// (u^ = M f^ per mode) and velocityGradient. Host-compiled code includes this; it declares no
// kernels. The arithmetic is fluid_physics.hpp, the CPU's, and the .cu is compiled with
// --fmad=false, so everything but the two cuFFT transforms rounds as FluidCpu does. The stress
// kernel reads the live parameters (sigma_f, sigma_t) from the file's __constant__ GlidingParams
// (fluidParamsSymbol(), params_block.hpp): bind it before launching.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/models/gliding/cuda/params_block.hpp"

namespace cf::gliding::cuda {

// The moments a fluid solve needs, per cell [iy * n + ix] (device pointers).
struct DeviceStressMoments {
    double *d11, *d12, *d22, *s1111, *s1112, *s1122, *s1222, *s2222;
};
static_assert(std::is_trivially_copyable_v<DeviceStressMoments>);

struct StressMomentsArgs {
    const double* psi;  // (y, x, theta), theta fastest
    const double *cosT, *sinT;
    DeviceStressMoments m;
    std::int32_t n, ntheta;
    double dtheta;
};
static_assert(std::is_trivially_copyable_v<StressMomentsArgs>);

// The combined extra stress per cell from the moments and the lagged gradient, with the live
// sigma_f and sigma_t (taken as 0 for steric_reading = strain).
struct StressArgs {
    DeviceStressMoments m;
    const double *dudx, *dudy, *dvdx, *dvdy;  // the lagged flow's gradient
    bool hasFlow;                             // false: the fluid was at rest (no S:E term)
    double *t11, *t12, *t22;
    std::int32_t n;
};
static_assert(std::is_trivially_copyable_v<StressArgs>);

// f = F2 + div(t), written as the two halves of the batch-2 D2Z input.
struct ForcingArgs {
    const double *t11, *t12, *t22;
    const double *fx, *fy;  // motor force; both null: none
    double *gx, *gy;
    double inv2;  // 1/(2 dx)
    std::int32_t n;
};
static_assert(std::is_trivially_copyable_v<ForcingArgs>);

// u^ = M f^ / n^2 in place on the batch-2 spectrum (interleaved complex, x then y component,
// each n (n/2 + 1) modes).
struct StokesArgs {
    double* spectrum;
    const double *mxx, *mxy, *myy;
    double norm;
    std::int64_t modes;
};
static_assert(std::is_trivially_copyable_v<StokesArgs>);

struct GradientArgs {
    const double *u, *v;
    double *dudx, *dudy, *dvdx, *dvdy;
    double inv2;
    std::int32_t n;
};
static_assert(std::is_trivially_copyable_v<GradientArgs>);

void launchStressMoments(const StressMomentsArgs& args, cudaStream_t stream);
void launchStress(const StressArgs& args, cudaStream_t stream);
void launchForcing(const ForcingArgs& args, cudaStream_t stream);
void launchStokesApply(const StokesArgs& args, cudaStream_t stream);
void launchVelocityGradient(const GradientArgs& args, cudaStream_t stream);

}  // namespace cf::gliding::cuda
