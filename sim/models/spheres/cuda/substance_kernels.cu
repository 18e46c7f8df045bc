// SPDX-License-Identifier: GPL-3.0-or-later
// `spheres` substance on the GPU (substance.hpp): FTCS diffusion, one thread per voxel, and
// secretion counted per voxel with integer atomics (order-independent, hence deterministic)
// before one fold adds count x amount, as the CPU reference does. Also the views' packing
// (per cell, with the concentration each cell senses).
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/spheres/cuda/spheres_kernels.cuh"

namespace cf::spheres::cuda {

namespace {

constexpr int kThreads = 256;

unsigned blocksOf(std::size_t n) {
    return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

__global__ void diffuseKernel(const float* in, float* out, FieldGrid g, float lx, float ly,
                              float lz, float decay, bool open) {
    const std::size_t v = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (v >= g.voxels()) return;
    const auto nx = static_cast<std::size_t>(g.n[0]), ny = static_cast<std::size_t>(g.n[1]);
    const auto i = static_cast<std::int32_t>(v % nx);
    const auto j = static_cast<std::int32_t>((v / nx) % ny);
    const auto k = static_cast<std::int32_t>(v / (nx * ny));
    const float lambda[3] = {lx, ly, lz};
    out[v] = diffusedValue<float>(in, g, i, j, k, lambda, decay, open);
}

template <typename Real>
__global__ void countKernel(CellArrays<Real> c, std::size_t n, FieldGrid g, std::uint32_t* counts) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&counts[voxelOf(g, c.x[i], c.y[i], c.z[i])], 1u);
}

__global__ void foldKernel(float* c, std::uint32_t* counts, std::size_t voxels, double amount) {
    const std::size_t v = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (v >= voxels) return;
    const std::uint32_t count = counts[v];
    if (count == 0) return;
    c[v] = static_cast<float>(static_cast<double>(c[v]) + count * amount);
    counts[v] = 0;
}

template <typename Real>
__global__ void packViewsKernel(CellArrays<Real> c, std::size_t n, ViewPack out, std::uint64_t step,
                                double dt) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const auto x = static_cast<float>(c.x[i]), y = static_cast<float>(c.y[i]),
               z = static_cast<float>(c.z[i]);
    const auto d = static_cast<float>(c.diameter[i]);
    out.xyzr[i] = make_float4(x, y, z, 0.5f * d);
    if (out.diameter != nullptr) out.diameter[i] = d;
    out.age[i] = static_cast<float>(static_cast<double>(step - c.birthStep[i]) * dt);
    const std::uint32_t root = c.root[i];
    out.lineage[i] = static_cast<float>(root);
    out.clone[i] = static_cast<std::uint8_t>(root % 12u);
    // The voxel from the state's own position, as the secretion counts it.
    if (out.field != nullptr) out.sensed[i] = out.field[voxelOf(out.grid, c.x[i], c.y[i], c.z[i])];
}

}  // namespace

template <typename Real>
void launchPackViews(const CellArrays<Real>& cells, std::size_t n, const ViewPack& out,
                     std::uint64_t step, double dt, cudaStream_t stream) {
    if (n == 0) return;
    packViewsKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(cells, n, out, step, dt);
    CF_CUDA_CHECK_LAUNCH("spheres::packViewsKernel", stream);
}

void launchDiffuse(const float* in, float* out, const FieldGrid& grid, const DiffusionPlan& plan,
                   bool open, cudaStream_t stream) {
    diffuseKernel<<<blocksOf(grid.voxels()), kThreads, 0, stream>>>(
        in, out, grid, static_cast<float>(plan.lambda[0]), static_cast<float>(plan.lambda[1]),
        static_cast<float>(plan.lambda[2]), static_cast<float>(plan.decayPerSubstep), open);
    CF_CUDA_CHECK_LAUNCH("spheres::diffuseKernel", stream);
}

template <typename Real>
void launchSecrete(const CellArrays<Real>& cells, std::size_t n, float* c, std::uint32_t* counts,
                   const FieldGrid& grid, double amount, cudaStream_t stream) {
    if (n == 0) return;
    countKernel<Real><<<blocksOf(n), kThreads, 0, stream>>>(cells, n, grid, counts);
    CF_CUDA_CHECK_LAUNCH("spheres::countKernel", stream);
    foldKernel<<<blocksOf(grid.voxels()), kThreads, 0, stream>>>(c, counts, grid.voxels(), amount);
    CF_CUDA_CHECK_LAUNCH("spheres::foldKernel", stream);
}

template void launchPackViews<float>(const CellArrays<float>&, std::size_t, const ViewPack&,
                                     std::uint64_t, double, cudaStream_t);
template void launchPackViews<double>(const CellArrays<double>&, std::size_t, const ViewPack&,
                                      std::uint64_t, double, cudaStream_t);
template void launchSecrete<float>(const CellArrays<float>&, std::size_t, float*, std::uint32_t*,
                                   const FieldGrid&, double, cudaStream_t);
template void launchSecrete<double>(const CellArrays<double>&, std::size_t, float*, std::uint32_t*,
                                    const FieldGrid&, double, cudaStream_t);

}  // namespace cf::spheres::cuda
