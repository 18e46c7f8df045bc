// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/cuda_check.hpp"
#include "sim/models/cardiac/cuda/tissue_kernels.cuh"

namespace cf::cardiac::cuda {

namespace {

constexpr int kThreads = 256;

unsigned blocksOf(std::size_t n) {
    return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

template <typename Real>
__global__ void diffuseKernel(const Real* in, Real* out, TissueShape s, Real h) {
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t nx = static_cast<std::size_t>(s.n[0]), ny = static_cast<std::size_t>(s.n[1]);
    const std::size_t total = nx * ny * static_cast<std::size_t>(s.n[2]);
    if (m >= total) return;
    const std::size_t at[3] = {m % nx, (m / nx) % ny, m / (nx * ny)};
    const std::size_t stride[3] = {1, nx, nx * ny};
    const Real here = in[m];
    Real lap = 0;
    for (int a = 0; a < 3; ++a) {
        if (s.coeff[a] == 0.0) continue;
        // Mirror: the ghost beyond a boundary node equals its inner neighbour.
        const std::size_t lower = at[a] > 0 ? m - stride[a] : m + stride[a];
        const std::size_t upper =
            at[a] + 1 < static_cast<std::size_t>(s.n[a]) ? m + stride[a] : m - stride[a];
        lap += static_cast<Real>(s.coeff[a]) * (in[lower] + in[upper] - Real(2) * here);
    }
    out[m] = here + h * lap;
}

template <typename Real>
__global__ void activationKernel(const Real* before, const Real* after, double* activation,
                                 std::size_t n, double t, double dt, double theta) {
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (m >= n || activation[m] >= 0.0) return;
    const double b = before[m], a = after[m];
    if (b < theta && a >= theta) activation[m] = t + dt * (theta - b) / (a - b);
}

__global__ void stampFailureKernel(const int* fail, unsigned n, long long* failStep,
                                   long long step) {
    if (*fail < static_cast<int>(n) && *failStep < 0) *failStep = step;
}

template <typename Real>
__global__ void packViewsKernel(const Real* potential, const double* activation, float* v,
                                float* act, std::size_t n) {
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (m >= n) return;
    v[m] = static_cast<float>(potential[m]);
    act[m] = static_cast<float>(activation[m]);
}

}  // namespace

template <typename Real>
void launchDiffuse(const Real* in, Real* out, const TissueShape& shape, double h,
                   cudaStream_t stream) {
    const std::size_t n = static_cast<std::size_t>(shape.n[0]) * shape.n[1] * shape.n[2];
    diffuseKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(in, out, shape, static_cast<Real>(h));
    CF_CUDA_CHECK_LAUNCH("cardiac::diffuseKernel", stream);
}

template <typename Real>
void launchActivation(const Real* before, const Real* after, double* activation, std::size_t n,
                      double t, double dt, double theta, cudaStream_t stream) {
    activationKernel<Real>
        <<<blocksOf(n), kThreads, 0, stream>>>(before, after, activation, n, t, dt, theta);
    CF_CUDA_CHECK_LAUNCH("cardiac::activationKernel", stream);
}

void launchStampFailure(const int* fail, unsigned n, long long* failStep, long long step,
                        cudaStream_t stream) {
    stampFailureKernel<<<1, 1, 0, stream>>>(fail, n, failStep, step);
    CF_CUDA_CHECK_LAUNCH("cardiac::stampFailureKernel", stream);
}

template <typename Real>
void launchPackViews(const Real* potential, const double* activation, float* v, float* act,
                     std::size_t n, cudaStream_t stream) {
    packViewsKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(potential, activation, v, act, n);
    CF_CUDA_CHECK_LAUNCH("cardiac::packViewsKernel", stream);
}

template void launchDiffuse<float>(const float*, float*, const TissueShape&, double, cudaStream_t);
template void launchDiffuse<double>(const double*, double*, const TissueShape&, double,
                                    cudaStream_t);
template void launchActivation<float>(const float*, const float*, double*, std::size_t, double,
                                      double, double, cudaStream_t);
template void launchActivation<double>(const double*, const double*, double*, std::size_t, double,
                                       double, double, cudaStream_t);
template void launchPackViews<float>(const float*, const double*, float*, float*, std::size_t,
                                     cudaStream_t);
template void launchPackViews<double>(const double*, const double*, float*, float*, std::size_t,
                                      cudaStream_t);

}  // namespace cf::cardiac::cuda
