// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers of the CUDA bound-motor kernels of `gliding` (defined in motor_kernels.cu;
// docs/design/gliding.md 2.6, 2.7, 3.2, 3.5). Host-compiled code includes this; it declares no
// kernels and pulls in no device headers. MReal (float or double, motors.precision) is the type
// of Mb, Mb,coarse, Mf and W; Psi, psi_c, the tables, the substep sizes and F2 are double.
// The kernels read the live parameters (koff, kon~, Mtot, cin, F) from the build's __constant__
// GlidingParams (MotorKernelBuild::paramsSymbol, params_block.hpp): bind it before launching.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/models/gliding/cuda/params_block.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding::cuda {

// The smallest power of two >= v (1 for v <= 1): segment widths, orbit padding, lane groups.
inline int nextPow2Of(int v) {
    return v <= 1 ? 1 : static_cast<int>(std::bit_ceil(static_cast<unsigned>(v)));
}

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
    // [slot]: l | len << 16 of the chord lane stored there (MotorLaneMapping::Runs; else null)
    const std::int32_t* laneInfo;
    // Device storage of a tail (motors.storage): tailStride values per tail, slot off + l at
    // storedSlot[off + l] (MotorStorage::Lanes: l * chords + c), or at off + l when null
    // (MotorStorage::Chords, tailStride = S). The sub-cycle works on the chord-major slice in
    // shared memory either way; the lane order needs it there.
    std::int32_t tailStride;
    const std::int32_t* storedSlot;
    // The anchor rows held (AnchorRows, anchor_rows.hpp: all on one rank): the motor arrays
    // hold tails rowBegin * n .. rowEnd * n - 1; W is computed on rows wFirst .. + wCount - 1
    // and F2 on node rows fFirst .. + fCount - 1 (mod n), and stays 0 elsewhere.
    std::int32_t rowBegin, rowEnd, wFirst, wCount, fFirst, fCount;
    // motors.bound_gather = staged (else null, 0): the chords of orientation j, lane by lane in
    // chord order, are staged elements stagedStart[j] .. stagedStart[j + 1] - 1 (the offset,
    // and the slot of each); gather entry e sums element stagedIndex[e] of its orientation;
    // stagedMax is the most elements of one orientation.
    const std::int32_t* stagedStart;
    const GatherEntry* staged;
    const std::int32_t* stagedIndex;
    std::int32_t stagedMax;
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
    MReal* mb;                 // [r0 * tailStride + stored index of off + l]
    MReal* coarse;             // [r0]
    MReal* free;               // [r0]
    std::int32_t* substeps;    // [r0]: substeps of the last advance
    std::int32_t* clamps;      // [r0]: round-off clamps since the last upload (cumulative)
    std::int32_t* failedTail;  // one int: the lowest tail whose substep was not positive, or -1
};
static_assert(std::is_trivially_copyable_v<MotorArrays<float>>);
static_assert(std::is_trivially_copyable_v<MotorArrays<double>>);

// How motorSubcycle is launched (the motors.* kernel switches, docs/GLIDING.md "Kernel
// switches"). Results do not depend on `threads` or `mapping`: each lane's arithmetic and the
// orbit tree are fixed by the tables, not by blockDim (bitwise equal, tested).
struct MotorLaunch {
    bool sliceInShared;    // else in global memory, in place (when S x MReal does not fit)
    bool launchBounds;     // motors.launch_bounds: at most kMotorBoundedThreads, 2 blocks per SM
    int threads;           // per block: a power of two, >= t.segment (motors.block_threads)
    std::int32_t mapping;  // MotorLaneMapping
};

// Motor blocks (one per tail, design 2.6) of the bounded kernel: at most 512 threads. The slice
// in shared memory (up to ~78 KiB in float at 256^2 x 32^2) allows two blocks per SM, so 512
// threads keep half the warps of an SM busy where 256 kept a quarter (ncu on the H100: 25 %
// occupancy, limited by shared memory).
inline constexpr int kMotorBoundedThreads = 512;

// The lanes a block of `mapping` can keep busy at once: every chord's segment (segments,
// strided) or every stored configuration (runs). More threads than this only idle.
int motorBusyLanes(const MotorTables& t, std::int32_t mapping);
// The orbit sums' zero-padded length: a power of two >= chords / 4.
int motorOrbitPad(const MotorTables& t);
// Dynamic shared memory of motorSubcycle: psi_c and the chord sums (double, per chord), the
// orbit sums padded to a power of two, the midpoints (strided mapping: threads x MReal; runs:
// S x MReal) and the slice (S x MReal) when sliceInShared.
std::size_t motorSharedBytes(const MotorTables& t, std::size_t realBytes, const MotorLaunch& l);

// The launchers of one build, for one motor real.
template <typename MReal>
struct MotorLaunchers {
    // Sub-cycles every tail r0 from t to t + dt with Psi (device, [cell * ntheta + j]) frozen:
    // one block per tail (design 2.6). The global-memory slice path does the same arithmetic
    // in the same order as the shared one, so their results are bitwise equal.
    void (*subcycle)(const MotorTables& t, const MotorStepArgs& a, const double* psi,
                     const MotorArrays<MReal>& m, const MotorLaunch& l, cudaStream_t stream);
    // W[(y * ntheta + j) * ns + k] = Psi(y, j) sum over the gather list of (j, k) of
    // Mb(y - o, slot): one thread per (y, j, k), k fastest; the list sum in double in list
    // order, as the CPU.
    void (*boundGather)(const MotorTables& t, const double* psi, const MReal* mb, MReal* w,
                        cudaStream_t stream);
    // F2 at the nodes (double): a lane group per node, the CPU forceGather's fixed-order sums
    // (stencil orbits, orientation orbits) and a fixed tree over k, times F cellVolume with
    // cellVolume = dx dy dtheta ds and F the __constant__ motors.F.
    void (*forceGather)(const MotorTables& t, const MReal* w, double cellVolume, double* fx,
                        double* fy, cudaStream_t stream);
};

// One build of motor_kernels.cu: its __constant__ parameters, its kernels' launchers and the
// most threads per block its sub-cycle kernel of a given launch accepts.
struct MotorKernelBuild {
    ParamsSymbol& (*paramsSymbol)();
    int (*subcycleMaxThreads)(bool doublePrecision, const MotorLaunch& l);
    // Blocks of the sub-cycle kernel of `l` resident per SM with `sharedBytes` of dynamic
    // shared memory (the CUDA occupancy calculator).
    int (*subcycleBlocksPerSm)(bool doublePrecision, const MotorLaunch& l, std::size_t sharedBytes);
    MotorLaunchers<float> f32;
    MotorLaunchers<double> f64;
};

// The default build (--fmad=false: the CPU's rounding) and the --use_fast_math build
// (motors.fast_math; motor_kernels_fast_math.cu).
const MotorKernelBuild& exactMotorKernels();
const MotorKernelBuild& fastMathMotorKernels();

}  // namespace cf::gliding::cuda
