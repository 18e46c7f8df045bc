// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers of the CUDA bound-motor kernels of `gliding` (defined in motor_kernels.cu;
// docs/design/gliding.md 2.6, 2.7, 3.2, 3.5). Host-compiled code includes this; it declares no
// kernels and pulls in no device headers. MReal (float or double, motors.precision) is the type
// of Mb, Mb,coarse, Mf and W; Psi, psi_c, the tables, the substep sizes and F2 are double.
// The kernels read the live parameters (koff, kon~, Mtot, cin, F) from the file's __constant__
// GlidingParams (motorParamsSymbol(), params_block.hpp): bind it before launching.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/models/gliding/cuda/params_block.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding::cuda {

// The uploaded tables (device pointers), shared by every tail.
struct MotorTables {
    std::int32_t n, ntheta, ns;
    std::int32_t sliceSize;  // S
    std::int32_t chords;     // number of chords (a multiple of 4: quarter-turn orbits)
    std::int32_t segment;    // lanes per chord segment: nextpow2(maxChord), <= 32
    const Chord* chord;
    const std::int32_t* orbit;        // chords in orbit order (motors_cpu.hpp MotorOrbits)
    const std::int32_t* gatherStart;  // [j * ns + k], orbit-ordered lists (MotorOrbits)
    const GatherEntry* gather;
    const PeskinStencil* peskin;  // [j * ns + k]
    const double* cosT;
    const double* sinT;
    // The anchor rows held (AnchorRows, anchor_rows.hpp: all on one rank): the motor arrays
    // hold tails rowBegin * n .. rowEnd * n - 1; W is computed on rows wFirst .. + wCount - 1
    // and F2 on node rows fFirst .. + fCount - 1 (mod n), and stays 0 elsewhere.
    std::int32_t rowBegin, rowEnd, wFirst, wCount, fFirst, fCount;
};
static_assert(std::is_trivially_copyable_v<MotorTables>);

// The step and the grid of one advance (koff, kon~, Mtot and cin: the __constant__ parameters).
struct MotorStepArgs {
    double dt;          // outer step
    double ds, invDs;   // 1/ns (as motors_cpu.cpp: invDs = ns)
    double cellVolume;  // dx dy dtheta ds, psi_c = Psi cellVolume
};
static_assert(std::is_trivially_copyable_v<MotorStepArgs>);

// The motor state of every tail (device pointers, MReal arrays).
template <typename MReal>
struct MotorArrays {
    MReal* mb;                 // [r0 * S + off + l]
    MReal* coarse;             // [r0]
    MReal* free;               // [r0]
    std::int32_t* substeps;    // [r0]: substeps of the last advance
    std::int32_t* clamps;      // [r0]: round-off clamps since the last upload (cumulative)
    std::int32_t* failedTail;  // one int: the lowest tail whose substep was not positive, or -1
};
static_assert(std::is_trivially_copyable_v<MotorArrays<float>>);
static_assert(std::is_trivially_copyable_v<MotorArrays<double>>);

// Dynamic shared memory of motorSubcycle: psi_c and the chord sums (double, per chord), the
// orbit sums padded to a power of two, and the slice (S x MReal) when sliceInShared.
std::size_t motorSharedBytes(const MotorTables& t, std::size_t realBytes, bool sliceInShared);

// Sub-cycles every tail r0 from t to t + dt with Psi (device, [cell * ntheta + j]) frozen:
// one block of 256 threads per tail (design 2.6). sliceInShared false works on the tail's slice
// in global memory in place (the fallback when S x MReal does not fit into shared memory); both
// paths do the same arithmetic in the same order, so their results are bitwise equal.
template <typename MReal>
void launchMotorSubcycle(const MotorTables& t, const MotorStepArgs& a, const double* psi,
                         const MotorArrays<MReal>& m, bool sliceInShared, cudaStream_t stream);

// W[(y * ntheta + j) * ns + k] = Psi(y, j) sum over the gather list of (j, k) of Mb(y - o, slot):
// one thread per (y, j, k), k fastest; the list sum in double in list order, as the CPU.
template <typename MReal>
void launchBoundGather(const MotorTables& t, const double* psi, const MReal* mb, MReal* w,
                       cudaStream_t stream);

// F2 at the nodes (double): one thread per node, the same fixed-order sum as the CPU
// forceGather (stencil orbits, orientation orbits, k outermost), times F cellVolume with
// cellVolume = dx dy dtheta ds and F the __constant__ motors.F.
template <typename MReal>
void launchForceGather(const MotorTables& t, const MReal* w, double cellVolume, double* fx,
                       double* fy, cudaStream_t stream);

}  // namespace cf::gliding::cuda
