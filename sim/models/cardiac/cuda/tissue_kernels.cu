// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/cuda/constant_owner.hpp"
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/cardiac/cuda/tissue_kernels.cuh"
#include "sim/models/cardiac/tissue_stencil.hpp"

namespace cf::cardiac::cuda {

namespace {

__constant__ TissueLive cLive;

constexpr int kThreads = 256;

unsigned blocksOf(std::size_t n) {
    return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

template <typename Real>
__global__ void diffuseKernel(const Real* in, Real* out, TissueShape s) {
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t total = static_cast<std::size_t>(s.n[0]) * static_cast<std::size_t>(s.n[1]) *
                              static_cast<std::size_t>(s.n[2]);
    if (m >= total) return;
    const double coeff[3] = {cLive.coeff[0], cLive.coeff[1], cLive.coeff[2]};
    const Real h = static_cast<Real>(cLive.h);
    out[m] = in[m] + h * mirroredLaplacian(in, m, s.n, coeff, s.tissue);
}

template <typename Real>
__global__ void endOfStepKernel(const Real* before, const Real* after, double* activation,
                                std::size_t n, double t, StepEnd end, Real* trace) {
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (m >= n) return;
    // The activation time is read only where the potential crosses the threshold this step,
    // and written only when it changes (once per node and run); activationAfter leaves it
    // unchanged everywhere else.
    const double b = before[m], a = after[m];
    if (crossesUpward(b, a, cLive.threshold)) {
        const double was = activation[m];
        const double now = activationAfter(was, b, a, cLive.threshold, t, cLive.dt);
        if (now != was) activation[m] = now;
    }
    if (m == end.probe && trace != nullptr) *trace = after[m];
    if (m == 0 && *end.fail < static_cast<int>(n) && *end.failStep < 0) *end.failStep = end.step;
}

template <typename Real>
__global__ void packViewsKernel(const Real* potential, const double* activation, float* v,
                                float* act, std::size_t n) {
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (m >= n) return;
    v[m] = static_cast<float>(potential[m]);
    // NaN: not yet activated (drawn grey, not in the colour of 0 ms).
    act[m] = activation[m] < 0.0 ? __int_as_float(0x7fc00000) : static_cast<float>(activation[m]);
}

template <typename Real>
__global__ void toFloatKernel(const Real* in, float* out, std::size_t n) {
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (m < n) out[m] = static_cast<float>(in[m]);
}

// Slab kernels (SlabShape): a thread per node of a box of the slab, x fastest.
__device__ inline std::size_t boxNodes(const int n[3]) {
    return static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1]) *
           static_cast<std::size_t>(n[2]);
}

__device__ inline std::size_t indexIn(const int n[3], const int c[3]) {
    return static_cast<std::size_t>(c[0]) +
           static_cast<std::size_t>(n[0]) *
               (static_cast<std::size_t>(c[1]) + static_cast<std::size_t>(n[1]) * c[2]);
}

__device__ inline void coordsIn(const int n[3], std::size_t m, int c[3]) {
    c[0] = static_cast<int>(m % static_cast<std::size_t>(n[0]));
    c[1] = static_cast<int>((m / static_cast<std::size_t>(n[0])) % static_cast<std::size_t>(n[1]));
    c[2] = static_cast<int>(m / (static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1])));
}

template <typename Real>
__global__ void extendedCopyKernel(const Real* from, Real* to, SlabShape s, bool toExtended) {
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (m >= boxNodes(s.owned)) return;
    int c[3];
    coordsIn(s.owned, m, c);
    c[s.axis] += s.haloBelow;
    const std::size_t e = indexIn(s.extended, c);
    if (toExtended)
        to[e] = from[m];
    else
        to[m] = from[e];
}

// Owned planes [lo, hi): the box of those planes, each node at its extended index.
template <typename Real>
__global__ void diffusePlanesKernel(const Real* in, Real* out, SlabShape s,
                                    const unsigned char* tissue, int lo, int hi) {
    int box[3] = {s.owned[0], s.owned[1], s.owned[2]};
    box[s.axis] = hi - lo;
    const std::size_t m = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (m >= boxNodes(box)) return;
    int c[3];
    coordsIn(box, m, c);
    c[s.axis] += lo + s.haloBelow;
    const std::size_t e = indexIn(s.extended, c);
    const double coeff[3] = {cLive.coeff[0], cLive.coeff[1], cLive.coeff[2]};
    const Real h = static_cast<Real>(cLive.h);
    out[e] = in[e] + h * mirroredLaplacian(in, e, s.extended, coeff, tissue);
}

template <typename Real>
__global__ void planeCopyKernel(const Real* from, Real* to, SlabShape s, int plane, bool pack) {
    int box[3] = {s.extended[0], s.extended[1], s.extended[2]};
    box[s.axis] = 1;
    const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (b >= boxNodes(box)) return;
    int c[3];
    coordsIn(box, b, c);
    c[s.axis] = plane;
    const std::size_t e = indexIn(s.extended, c);
    if (pack)
        to[b] = from[e];
    else
        to[e] = from[b];
}

std::size_t planeNodes(const SlabShape& s) {
    return static_cast<std::size_t>(s.extended[0]) * s.extended[1] * s.extended[2] /
           static_cast<std::size_t>(s.extended[s.axis]);
}

}  // namespace

template <typename Real>
void launchToExtended(const Real* owned, Real* extended, const SlabShape& s, cudaStream_t stream) {
    const std::size_t n = static_cast<std::size_t>(s.owned[0]) * s.owned[1] * s.owned[2];
    extendedCopyKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(owned, extended, s, true);
    CF_CUDA_CHECK_LAUNCH("cardiac::extendedCopyKernel", stream);
}

template <typename Real>
void launchFromExtended(const Real* extended, Real* owned, const SlabShape& s,
                        cudaStream_t stream) {
    const std::size_t n = static_cast<std::size_t>(s.owned[0]) * s.owned[1] * s.owned[2];
    extendedCopyKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(extended, owned, s, false);
    CF_CUDA_CHECK_LAUNCH("cardiac::extendedCopyKernel", stream);
}

template <typename Real>
void launchDiffusePlanes(const Real* in, Real* out, const SlabShape& s, const unsigned char* tissue,
                         int planeLo, int planeHi, cudaStream_t stream) {
    if (planeHi <= planeLo) return;
    const std::size_t n = static_cast<std::size_t>(s.owned[0]) * s.owned[1] * s.owned[2] /
                          static_cast<std::size_t>(s.owned[s.axis]) *
                          static_cast<std::size_t>(planeHi - planeLo);
    diffusePlanesKernel<Real>
        <<<blocksOf(n), kThreads, 0, stream>>>(in, out, s, tissue, planeLo, planeHi);
    CF_CUDA_CHECK_LAUNCH("cardiac::diffusePlanesKernel", stream);
}

template <typename Real>
void launchPackPlane(const Real* extended, Real* buffer, const SlabShape& s, int plane,
                     cudaStream_t stream) {
    planeCopyKernel<Real>
        <<<blocksOf(planeNodes(s)), kThreads, 0, stream>>>(extended, buffer, s, plane, true);
    CF_CUDA_CHECK_LAUNCH("cardiac::planeCopyKernel", stream);
}

template <typename Real>
void launchUnpackPlane(const Real* buffer, Real* extended, const SlabShape& s, int plane,
                       cudaStream_t stream) {
    planeCopyKernel<Real>
        <<<blocksOf(planeNodes(s)), kThreads, 0, stream>>>(buffer, extended, s, plane, false);
    CF_CUDA_CHECK_LAUNCH("cardiac::planeCopyKernel", stream);
}

#define CF_SLAB_INSTANTIATE(Real)                                                                 \
    template void launchToExtended<Real>(const Real*, Real*, const SlabShape&, cudaStream_t);     \
    template void launchFromExtended<Real>(const Real*, Real*, const SlabShape&, cudaStream_t);   \
    template void launchDiffusePlanes<Real>(const Real*, Real*, const SlabShape&,                 \
                                            const unsigned char*, int, int, cudaStream_t);        \
    template void launchPackPlane<Real>(const Real*, Real*, const SlabShape&, int, cudaStream_t); \
    template void launchUnpackPlane<Real>(const Real*, Real*, const SlabShape&, int, cudaStream_t);
CF_SLAB_INSTANTIATE(float)
CF_SLAB_INSTANTIATE(double)
#undef CF_SLAB_INSTANTIATE

// Whose TissueLive the __constant__ symbol holds, and the copies to and from it
// (sim/cuda/constant_owner.hpp).
static cf::cuda::ConstantBlock<TissueLive> gTissueLiveBlock(cLive);

void uploadTissueLive(const TissueLive& value, const void* owner, cudaStream_t stream) {
    gTissueLiveBlock.upload(value, owner, stream);
}

void bindTissueLive(const TissueLive& value, const void* owner, cudaStream_t stream) {
    gTissueLiveBlock.bind(value, owner, stream);
}

void releaseTissueLive(const void* owner) {
    gTissueLiveBlock.release(owner);
}

TissueLive downloadTissueLive(cudaStream_t stream) {
    return gTissueLiveBlock.download(stream);
}

template <typename Real>
void launchToFloat(const Real* in, float* out, std::size_t n, cudaStream_t stream) {
    if (n == 0) return;
    toFloatKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(in, out, n);
    CF_CUDA_CHECK_LAUNCH("cardiac::toFloatKernel", stream);
}

template void launchToFloat<float>(const float*, float*, std::size_t, cudaStream_t);
template void launchToFloat<double>(const double*, float*, std::size_t, cudaStream_t);

template <typename Real>
void launchDiffuse(const Real* in, Real* out, const TissueShape& shape, cudaStream_t stream) {
    const std::size_t n = static_cast<std::size_t>(shape.n[0]) * shape.n[1] * shape.n[2];
    diffuseKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(in, out, shape);
    CF_CUDA_CHECK_LAUNCH("cardiac::diffuseKernel", stream);
}

template <typename Real>
void launchEndOfStep(const Real* before, const Real* after, double* activation, std::size_t n,
                     double t, const StepEnd& end, Real* trace, cudaStream_t stream) {
    endOfStepKernel<Real>
        <<<blocksOf(n), kThreads, 0, stream>>>(before, after, activation, n, t, end, trace);
    CF_CUDA_CHECK_LAUNCH("cardiac::endOfStepKernel", stream);
}

template <typename Real>
void launchPackViews(const Real* potential, const double* activation, float* v, float* act,
                     std::size_t n, cudaStream_t stream) {
    packViewsKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(potential, activation, v, act, n);
    CF_CUDA_CHECK_LAUNCH("cardiac::packViewsKernel", stream);
}

template void launchDiffuse<float>(const float*, float*, const TissueShape&, cudaStream_t);
template void launchDiffuse<double>(const double*, double*, const TissueShape&, cudaStream_t);
template void launchEndOfStep<float>(const float*, const float*, double*, std::size_t, double,
                                     const StepEnd&, float*, cudaStream_t);
template void launchEndOfStep<double>(const double*, const double*, double*, std::size_t, double,
                                      const StepEnd&, double*, cudaStream_t);
template void launchPackViews<float>(const float*, const double*, float*, float*, std::size_t,
                                     cudaStream_t);
template void launchPackViews<double>(const double*, const double*, float*, float*, std::size_t,
                                      cudaStream_t);

}  // namespace cf::cardiac::cuda
