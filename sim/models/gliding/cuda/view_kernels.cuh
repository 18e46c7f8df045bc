// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers for packViews of `gliding` (docs/design/gliding.md 3.2, 5), defined in
// view_kernels.cu: the float view arrays of gliding_views.hpp written on the device from Psi,
// the motor sums and the flow, at frame time only. Host-compiled code includes this; it
// declares no kernels.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/models/gliding/view_physics.hpp"

namespace cf::gliding::cuda {

// The float arrays of ViewBuffers on the device, [iy * n + ix] (xyz: 3 floats per cell).
using DeviceViewArrays = CellViewArrays;  // device pointers
static_assert(std::is_trivially_copyable_v<DeviceViewArrays>);

struct PackViewsArgs {
    const double* psi;          // (y, x, theta), theta fastest
    const double *cosT, *sinT;  // the tables' cos/sin of the cell-centred angles
    // Mb,coarse and Mf per anchor in the motor real (double when motorsDouble, else float).
    const void *bound, *free;
    bool motorsDouble;
    const double *u, *v;  // the flow at z0
    DeviceViewArrays out;
    double* blockMax;  // scratch: maxBlocks(n) doubles, then max c in blockMax[maxBlocks(n)]
    std::int32_t n, ntheta;
    double dtheta;
};
static_assert(std::is_trivially_copyable_v<PackViewsArgs>);

// The scratch packViews needs: the first pass's block maxima of c plus one for max c.
std::int64_t packViewsScratch(std::int32_t n);

// max c first (two passes, exact in any order: a max), then one thread per cell writes every
// array. Asynchronous on the stream.
void launchPackViews(const PackViewsArgs& args, cudaStream_t stream);

}  // namespace cf::gliding::cuda
