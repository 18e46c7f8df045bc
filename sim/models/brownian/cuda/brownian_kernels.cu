// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA kernels of `brownian`: one thread per particle gathers forces over the uniform grid
// (no atomics, so results are deterministic), adds Philox noise and integrates.
#include <cub/cub.cuh>

#include "sim/core/rng.hpp"
#include "sim/cuda/constant_owner.hpp"
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/brownian/cuda/brownian_kernels.cuh"

namespace cf::brownian::cuda {

namespace {

__constant__ BrownianParams cParams;

constexpr int kBlock = 256;

int blocksFor(int n) {
    return (n + kBlock - 1) / kBlock;
}

__device__ float wrapIntoBox(float v, float box) {
    v -= box * floorf(v / box);
    return v >= box ? 0.0f : v;
}

__global__ void stepKernel(StepArgs a) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.count) return;
    const BrownianParams p = cParams;
    const float sigma = 2.0f * p.radius;
    const grid::Vec3 xi{a.x[i], a.y[i], a.z[i]};
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    std::int32_t overlaps = 0;
    grid::forEachNeighbor(a.grid, xi, sigma, [&](std::int32_t j, grid::Vec3 d, float r2) {
        if (j == i || r2 <= 0.0f) return;
        const float r = sqrtf(r2);
        const float f = p.stiffness * (sigma - r) / r;  // d points from i to j
        fx -= f * d.x;
        fy -= f * d.y;
        fz -= f * d.z;
        ++overlaps;
    });
    const rng::Philox gen(a.seed, kNoiseStream);
    const rng::Normal2 n01 = rng::normalPair(gen(a.step, static_cast<std::uint32_t>(i), 0));
    const rng::Normal2 n2 = rng::normalPair(gen(a.step, static_cast<std::uint32_t>(i), 1));
    const float noise = sqrtf(2.0f * p.diffusion * p.dt);
    const float mdt = p.mobility * p.dt;
    const float ddx = mdt * fx + noise * static_cast<float>(n01.a);
    const float ddy = mdt * fy + noise * static_cast<float>(n01.b);
    const float ddz = mdt * fz + noise * static_cast<float>(n2.a);
    a.nextX[i] = wrapIntoBox(xi.x + ddx, p.box);
    a.nextY[i] = wrapIntoBox(xi.y + ddy, p.box);
    a.nextZ[i] = wrapIntoBox(xi.z + ddz, p.box);
    a.dispX[i] += ddx;
    a.dispY[i] += ddy;
    a.dispZ[i] += ddz;
    a.overlaps[i] = overlaps;
}

__global__ void metricTermsKernel(const float* dx, const float* dy, const float* dz,
                                  const std::int32_t* overlaps, int n, double* terms) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double x = dx[i], y = dy[i], z = dz[i];
    terms[i] = x * x + y * y + z * z;
    terms[n + i] = static_cast<double>(overlaps[i]);
}

struct FloatArrays {
    const float* a[8];
};

__global__ void nonFiniteKernel(FloatArrays arrays, int arrayCount, int n, int* firstBad) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int k = 0; k < arrayCount; ++k) {
        if (!isfinite(arrays.a[k][i])) {
            // Smallest bad index wins; the array index rides in the low bits.
            atomicMin(firstBad, i * 8 + k);
            return;
        }
    }
}

__global__ void packViewsKernel(const float* x, const float* y, const float* z, const float* dx,
                                const float* dy, const float* dz, float radius, int n, float4* xyzr,
                                float* displacement) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    xyzr[i] = make_float4(x[i], y[i], z[i], radius);
    displacement[i] = sqrtf(dx[i] * dx[i] + dy[i] * dy[i] + dz[i] * dz[i]);
}

}  // namespace

// Whose BrownianParams the __constant__ symbol holds, and the copies to and from it
// (sim/cuda/constant_owner.hpp).
static cf::cuda::ConstantBlock<BrownianParams> gParamsBlock(cParams);

void uploadParams(const BrownianParams& value, const void* owner, cudaStream_t stream) {
    gParamsBlock.upload(value, owner, stream);
}

void bindParams(const BrownianParams& value, const void* owner, cudaStream_t stream) {
    gParamsBlock.bind(value, owner, stream);
}

void releaseParams(const void* owner) {
    gParamsBlock.release(owner);
}

void downloadParams(BrownianParams& params, cudaStream_t stream) {
    params = gParamsBlock.download(stream);
}

void launchPackViews(const float* x, const float* y, const float* z, const float* dx,
                     const float* dy, const float* dz, float radius, int n, float* xyzr,
                     float* displacement, cudaStream_t stream) {
    if (n == 0) return;
    packViewsKernel<<<blocksFor(n), kBlock, 0, stream>>>(
        x, y, z, dx, dy, dz, radius, n, reinterpret_cast<float4*>(xyzr), displacement);
    CF_CUDA_CHECK_LAUNCH("brownian::packViewsKernel", stream);
}

void launchStep(const StepArgs& args, cudaStream_t stream) {
    if (args.count == 0) return;
    stepKernel<<<blocksFor(args.count), kBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("brownian::stepKernel", stream);
}

void launchMetricTerms(const float* dx, const float* dy, const float* dz,
                       const std::int32_t* overlaps, int n, double* terms, cudaStream_t stream) {
    if (n == 0) return;
    metricTermsKernel<<<blocksFor(n), kBlock, 0, stream>>>(dx, dy, dz, overlaps, n, terms);
    CF_CUDA_CHECK_LAUNCH("brownian::metricTermsKernel", stream);
}

void sumDoubles(const double* in, int n, double* out,
                cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream) {
    std::size_t need = 0;
    CF_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, need, in, out, n, stream));
    void* temp = cf::cuda::ensureScratch(scratch, need);
    CF_CUDA_CHECK(cub::DeviceReduce::Sum(temp, need, in, out, n, stream));
}

void launchFindNonFinite(const float* const* arrays, int arrayCount, int n, int* firstBad,
                         cudaStream_t stream) {
    if (n == 0) return;
    if (arrayCount > 8) throw Error("launchFindNonFinite: at most 8 arrays");
    FloatArrays fa{};
    for (int k = 0; k < arrayCount; ++k)
        fa.a[k] = arrays[k];
    nonFiniteKernel<<<blocksFor(n), kBlock, 0, stream>>>(fa, arrayCount, n, firstBad);
    CF_CUDA_CHECK_LAUNCH("brownian::nonFiniteKernel", stream);
}

}  // namespace cf::brownian::cuda
