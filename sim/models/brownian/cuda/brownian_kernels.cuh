// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers for the `brownian` CUDA kernels (defined in brownian_kernels.cu). Host-compiled
// code includes this; it declares no kernels and pulls in no CUDA device headers.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/cuda/device_buffer.hpp"
#include "sim/grid/uniform_grid.hpp"
#include "sim/models/brownian/brownian_params.hpp"

namespace cf::brownian::cuda {

struct StepArgs {
    grid::GridView grid;  // built on the current positions
    const float* x;
    const float* y;
    const float* z;
    float* nextX;
    float* nextY;
    float* nextZ;
    float* dispX;  // unwrapped displacement since reset, updated in place
    float* dispY;
    float* dispZ;
    std::int32_t* overlaps;
    int count;
    std::uint32_t seed;
    std::uint64_t step;
};
static_assert(std::is_trivially_copyable_v<StepArgs>);

// Copies the parameters into the kernels' __constant__ struct, ordered on `stream`.
// `owner` is the model instance (see sim/cuda/constant_owner.hpp): bindParams uploads
// only when another instance's struct is in the symbol; releaseParams when it goes.
void uploadParams(const BrownianParams& params, const void* owner, cudaStream_t stream);
void bindParams(const BrownianParams& params, const void* owner, cudaStream_t stream);
void releaseParams(const void* owner);
// Reads the constant-memory copy back, ordered after the work queued on `stream`.
void downloadParams(BrownianParams& params, cudaStream_t stream);

void launchStep(const StepArgs& args, cudaStream_t stream);

// The drawing views on the device: xyzr[i] = (x, y, z, radius), displacement[i] = |d|.
void launchPackViews(const float* x, const float* y, const float* z, const float* dx,
                     const float* dy, const float* dz, float radius, int n, float* xyzr,
                     float* displacement, cudaStream_t stream);

// Writes per particle |displacement|^2 into squared[0..n) and the overlap count into
// squared[n..2n), as doubles, for the reductions below.
void launchMetricTerms(const float* dx, const float* dy, const float* dz,
                       const std::int32_t* overlaps, int n, double* terms, cudaStream_t stream);

// out[0] = sum of in[0..n): deterministic for a given n and device (CUB reduction).
void sumDoubles(const double* in, int n, double* out,
                cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream);

// firstBad[0] = smallest index i with a non-finite value in any of the arrays (left as is
// when all are finite); firstBad[1] = which array (0..arrays-1).
void launchFindNonFinite(const float* const* arrays, int arrayCount, int n, int* firstBad,
                         cudaStream_t stream);

}  // namespace cf::brownian::cuda
