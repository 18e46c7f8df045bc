// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers for the `spheres` CUDA kernels (defined in spheres_kernels.cu). Host-compiled
// code includes this; it declares no kernels and pulls in no CUDA device headers.
// Mechanics (positions, diameters, forces, moves) are in `Real`: float, or double with
// mechanics.precision = double (Hesam et al.'s v0); every launcher is a template with both
// instantiated in the .cu files. Volumes are double in both, so that growth and division,
// hence the population, are bitwise those of the CPU reference (design note 4.4).
#include <vector_types.h>

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/cuda/device_buffer.hpp"
#include "sim/grid/uniform_grid.hpp"
#include "sim/models/spheres/spheres_params.hpp"
#include "sim/models/spheres/substance.hpp"

namespace cf::spheres::cuda {

// One set of per-cell arrays (the state has two: A and B, swapped by the Morton reorder).
template <typename Real>
struct CellArrays {
    Real* x;
    Real* y;
    Real* z;
    Real* diameter;
    double* volume;
    std::uint32_t* id;
    std::uint32_t* root;
    std::uint8_t* generation;
    std::uint64_t* birthStep;
    float* force;  // |F| of the last step (float in both, as on the CPU)
};
static_assert(std::is_trivially_copyable_v<CellArrays<float>>);
static_assert(std::is_trivially_copyable_v<CellArrays<double>>);

// (x, y, z, D) of one cell in sorted order, as the force loop reads it: float4, or 32 bytes
// aligned to 32 (one sector; CUDA 13 deprecates the 16-byte-aligned double4).
struct alignas(32) PackedDouble {
    double x, y, z, w;
};
template <typename Real>
struct PackedOf;
template <>
struct PackedOf<float> {
    using type = float4;
};
template <>
struct PackedOf<double> {
    using type = PackedDouble;
};
template <typename Real>
using Packed = typename PackedOf<Real>::type;

// Copies the parameters into the kernels' __constant__ struct, ordered on `stream`.
// `owner` is the model instance (sim/cuda/constant_owner.hpp): bindParams before launching
// uploads only when another instance's struct is in the symbol; releaseParams when it goes.
void uploadParams(const SpheresParams& p, const void* owner, cudaStream_t stream);
void bindParams(const SpheresParams& p, const void* owner, cudaStream_t stream);
void releaseParams(const void* owner);
// The struct the symbol holds after the work queued on `stream` (waits for it).
void downloadParams(SpheresParams& p, cudaStream_t stream);

// rc of this step into *rc (device), no readback: the largest diameter of the cells 0..n-1
// (before growth), or mechanics.interaction_radius when that is fixed.
template <typename Real>
void launchInteractionRadius(const Real* diameter, std::size_t n, Real* rc,
                             cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream);
template <typename Real>
void launchFixedRadius(Real* rc, Real radius, cudaStream_t stream);

// What a checked step reads back: the number of dividing cells and the exact largest volume
// at the start of the step.
struct DivisionSummary {
    double maxVolume;
    std::int32_t dividing;
    std::int32_t pad;
};
static_assert(std::is_trivially_copyable_v<DivisionSummary>);

// flagById[id_i] = (V_i > V_div); rankById = exclusive scan over parent ids (exact, so the
// daughters' slots do not depend on launch configuration); *summary (device) = {max V, T}.
template <typename Real>
void launchRankDivisions(const CellArrays<Real>& cells, std::size_t n, std::int32_t* flagById,
                         std::int32_t* rankById, DivisionSummary* summary,
                         cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream);

// Growth, or division: the mother in place, the daughter at slot n + rankById[id] with its
// diameter negated (newborn) until launchApply.
// `checked` false: no cell may divide (the host's volume bound proves it), flags unread.
template <typename Real>
void launchBiology(const CellArrays<Real>& cells, std::size_t n, const std::int32_t* flagById,
                   const std::int32_t* rankById, bool checked, std::uint32_t seed,
                   std::uint64_t step, cudaStream_t stream);

// The substance as the force kernel sees it: c == nullptr or chemotaxis == 0, no tractor.
struct ChemotaxisField {
    const float* c;
    FieldGrid grid;
    float chemotaxis;
};
static_assert(std::is_trivially_copyable_v<ChemotaxisField>);

// Moves and |F| of the cells 0..total-1 except newborns (negative diameter), which neither
// feel nor exert force: pairs with d^2 < rc^2 (in Real, strict) found through the grid built
// over the positions rounded to float (packed: scratch of `total` cells, filled here in
// sorted order); plus
// dt x chemotaxis x grad c when the field is given. Only the cells in slots below `feel`
// get a move (over ranks the ghosts after them only exert force). `voxel`: Hesam et al.'s v3
// kernel (a block per grid voxel, its neighbourhood in shared memory) instead of a thread per
// cell (v2); the same pairs in the same order, so the same results to the bit.
template <typename Real>
void launchForces(const CellArrays<Real>& cells, std::size_t total, const grid::GridView& view,
                  Packed<Real>* packed, const Real* rc, const ChemotaxisField& field, Real* moveX,
                  Real* moveY, Real* moveZ, std::uint32_t seed, std::uint64_t step,
                  cudaStream_t stream, std::size_t feel = SIZE_MAX, bool voxel = false);

// Substance (substance.hpp), defined in substance_kernels.cu. One FTCS substep in -> out.
void launchDiffuse(const float* in, float* out, const FieldGrid& grid, const DiffusionPlan& plan,
                   bool open, cudaStream_t stream);
// Adds the secretion of the cells 0..n-1 (count per voxel x amount); counts must be zero
// before and are zero after.
template <typename Real>
void launchSecrete(const CellArrays<Real>& cells, std::size_t n, float* c, std::uint32_t* counts,
                   const FieldGrid& grid, double amount, cudaStream_t stream);

// p += move for the cells 0..total-1 (Jacobi: after every move is computed); newborns stay
// and get their diameter's sign back.
template <typename Real>
void launchApply(const CellArrays<Real>& cells, std::size_t total, const Real* moveX,
                 const Real* moveY, const Real* moveZ, cudaStream_t stream);

// The positions rounded to float for the uniform grid (which bins float points), cells
// 0..total-1: the double path's binning, the same float values the CPU reference bins.
void launchBinPositions(const CellArrays<double>& cells, std::size_t total, float* x, float* y,
                        float* z, cudaStream_t stream);

// dst[k] = src[order[k]] for every array, k < count (the Morton reorder).
template <typename Real>
void launchGather(const CellArrays<Real>& src, const CellArrays<Real>& dst,
                  const std::int32_t* order, std::size_t count, cudaStream_t stream);

// The drawing arrays the state does not hold as they are (|F|, and the diameter in float, are
// views of the state itself): xyzr (radius = D/2), age [h], lineage (root id), clone (root
// mod 12), the concentration at each cell (sensed, with field non-null), and the diameter
// rounded to float when the state's is double (diameter non-null).
struct ViewPack {
    float4* xyzr;
    float* diameter;
    float* age;
    float* lineage;
    std::uint8_t* clone;
    float* sensed;
    const float* field;
    FieldGrid grid;
};
static_assert(std::is_trivially_copyable_v<ViewPack>);
template <typename Real>
void launchPackViews(const CellArrays<Real>& cells, std::size_t n, const ViewPack& out,
                     std::uint64_t step, double dt, cudaStream_t stream);

// Launch configuration of the per-cell kernels (tests: results must not depend on it).
void setBlockSizeForTests(int threads);

}  // namespace cf::spheres::cuda
