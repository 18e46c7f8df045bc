// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA bound motors of `gliding` (docs/design/gliding.md 2.6, 2.7, 3.5): the per-tail
// sub-cycling kernel motorSubcycle<MReal> and the two deterministic gathers. Every per-chord
// expression is motor_physics.hpp's, evaluated in the CPU reference's order (motors_cpu.cpp);
// this file is compiled with --fmad=false (sources.cmake) so that no product is fused into an
// FMA the CPU does not form. The one intended difference from the CPU: Mb,coarse and the
// binding capacity add their per-orbit terms ((c0 + c2) + (c1 + c3), as the CPU) by a
// fixed-order block tree instead of the CPU's running sum over orbits. The result is
// deterministic (same GPU, any block size or lane mapping) and differs from the CPU by round-off
// only. The live parameters come from cParams, this translation unit's __constant__
// GlidingParams (params_block.hpp), which MotorsCuda binds before launching. The file is built
// twice: as itself, and with --use_fast_math through motor_kernels_fast_math.cu
// (motors.fast_math); everything but the build's accessor is in the anonymous namespace.
#include <algorithm>
#include <cuda_runtime.h>

#include "sim/cuda/cuda_check.hpp"
#include "sim/models/gliding/cuda/motor_kernels.cuh"
#include "sim/models/gliding/motor_physics.hpp"

namespace cf::gliding::cuda {

namespace {

// The parameters the kernels of this file read (one symbol per .cu: no relocatable device code).
__constant__ GlidingParams cParams;

constexpr int kThreads = 256;  // the gathers' blocks
constexpr int kMaxMotorThreads = kMotorBoundedThreads;

// Where slot i (chord-major, off + l) of a tail is stored (motors.storage).
__device__ __forceinline__ int storedIndex(const MotorTables& t, int i) {
    return t.storedSlot ? __ldg(t.storedSlot + i) : i;
}

__device__ __forceinline__ int wrapIndex(int i, int n) {
    const int r = i % n;
    return r < 0 ? r + n : r;
}

// The sum over orbits of value(c0, c1, c2, c3) = ((c0 + c2) + (c1 + c3)), the CPU's per-orbit
// grouping, by a fixed tree over `pad` (a power of two) zero-padded slots of v. Every thread of
// the block calls it and gets the total. Adding the zero padding is exact.
template <typename Value>
__device__ double orbitTotal(const MotorTables& t, double* v, int pad, const Value& value) {
    const int orbits = t.chords / 4;
    for (int q = threadIdx.x; q < pad; q += blockDim.x) {
        double x = 0.0;
        if (q < orbits) {
            const std::int32_t* o = t.orbit + 4 * q;
            x = (value(o[0]) + value(o[2])) + (value(o[1]) + value(o[3]));
        }
        v[q] = x;
    }
    __syncthreads();
    for (int stride = pad / 2; stride > 0; stride /= 2) {
        for (int i = threadIdx.x; i < stride; i += blockDim.x)
            v[i] += v[i + stride];
        __syncthreads();
    }
    const double total = v[0];
    __syncthreads();  // v is reused by the next call
    return total;
}

// One explicit stage of motorChordStage for the lane l of a chord of `len` lanes held by a
// segment of w lanes: out = base + h R(at) with the ghosts M_{-1} = M_{-2} = 0 and
// M_len = M_{len-1}. Every lane of the warp must call it (full-mask shuffles); lanes l >= len
// compute a value nobody uses.
template <typename MReal>
__device__ MReal segmentStage(MReal base, MReal at, int l, int len, int w, MReal h, MReal source,
                              MReal koff, MReal invDs) {
    const MReal up2 = __shfl_up_sync(0xffffffffu, at, 2, w);
    const MReal up1 = __shfl_up_sync(0xffffffffu, at, 1, w);
    const MReal dn1 = __shfl_down_sync(0xffffffffu, at, 1, w);
    const MReal mm2 = l >= 2 ? up2 : MReal(0);
    const MReal mm1 = l >= 1 ? up1 : MReal(0);
    const MReal mp1 = l + 1 < len ? dn1 : at;
    return base + h * motorRhs(mm2, mm1, at, mp1, source, koff, invDs);
}

// Scalars of one tail, shared by the block.
struct TailScalars {
    double coarse, mf, hmax, hLast;
    int substeps, clamps;
};

// Mb,coarse = sum_c psi_c sum_l M_cl (lanes in order, in double, as coarseSum of the CPU), then
// the cap of design M7 and Mf = M - Mb,coarse (capAndFree). Returns Mf; every thread calls it.
template <typename MReal>
__device__ double resync(const MotorTables& t, const double* psiC, double* chordSum,
                         double* orbitSum, int pad, MReal* slice) {
    for (int c = threadIdx.x; c < t.chords; c += blockDim.x) {
        const Chord ch = t.chord[c];
        double sum = 0.0;
        for (int l = 0; l < ch.len; ++l)
            sum += static_cast<double>(slice[ch.off + l]);
        chordSum[c] = psiC[c] * sum;
    }
    __syncthreads();
    double coarse = orbitTotal(t, orbitSum, pad, [&](std::int32_t c) { return chordSum[c]; });
    const double mtot = cParams.mtot;
    if (coarse > mtot) {
        const double scale = mtot / coarse;
        for (int i = threadIdx.x; i < t.sliceSize; i += blockDim.x)
            slice[i] = static_cast<MReal>(static_cast<double>(slice[i]) * scale);
        coarse = mtot;
        __syncthreads();
    }
    return coarse;
}

// Chord c's lane count and first slot; an empty chord past the last (len 0).
struct ChordSpan {
    int len = 0, off = 0;
};
__device__ __forceinline__ ChordSpan chordSpan(const MotorTables& t, int c) {
    if (c >= t.chords) return {};
    return {t.chord[c].len, t.chord[c].off};
}

// Superbee is TVD per Euler stage; the midpoint RK2 is not SSP (design M13): a negative result
// becomes 0 and is counted.
template <typename MReal>
__device__ __forceinline__ MReal clampedAtZero(MReal next, int& clamps) {
    if (next < MReal(0)) {
        ++clamps;
        return MReal(0);
    }
    return next;
}

// One substep's two stages over every chord, with the lanes of a power-of-two segment per chord
// (MotorLaneMapping::Segments): neighbours by warp shuffles. Returns this thread's clamps.
template <typename MReal>
__device__ int segmentRounds(const MotorTables& t, MReal* slice, MReal h, MReal source, MReal koff,
                             MReal invDs) {
    const int w = t.segment, segments = blockDim.x / w;
    const int q = threadIdx.x / w, l = threadIdx.x % w;
    const MReal halfH = MReal(0.5) * h;
    int clamps = 0;
    // Every warp runs the same number of rounds, so full-mask shuffles are safe.
    for (int first = 0; first < t.chords; first += segments) {
        const auto [len, off] = chordSpan(t, first + q);
        const bool lane = l < len;
        const MReal m0 = lane ? slice[off + l] : MReal(0);
        const MReal half = segmentStage(m0, m0, l, len, w, halfH, source, koff, invDs);
        const MReal next = segmentStage(m0, half, l, len, w, h, source, koff, invDs);
        if (lane) slice[off + l] = clampedAtZero(next, clamps);
    }
    return clamps;
}

// The same stages with adjacent threads on adjacent chords at one s-cell
// (MotorLaneMapping::Strided: thread = l * segments + q): the stencil is read from the slice and
// the midpoint from `scratch` (blockDim.x reals of shared memory), two barriers per round. The
// arithmetic and its order are segmentRounds', so the results are bitwise equal.
template <typename MReal>
__device__ int stridedRounds(const MotorTables& t, MReal* slice, MReal* scratch, MReal h,
                             MReal source, MReal koff, MReal invDs) {
    const int segments = blockDim.x / t.segment;
    const int q = threadIdx.x % segments, l = threadIdx.x / segments;
    const MReal halfH = MReal(0.5) * h;
    int clamps = 0;
    for (int first = 0; first < t.chords; first += segments) {
        const auto [len, off] = chordSpan(t, first + q);
        const bool lane = l < len;
        MReal m0 = MReal(0), half = MReal(0);
        if (lane) {
            m0 = slice[off + l];
            const MReal mm2 = l >= 2 ? slice[off + l - 2] : MReal(0);
            const MReal mm1 = l >= 1 ? slice[off + l - 1] : MReal(0);
            const MReal mp1 = l + 1 < len ? slice[off + l + 1] : m0;
            half = m0 + halfH * motorRhs(mm2, mm1, m0, mp1, source, koff, invDs);
        }
        scratch[threadIdx.x] = half;
        __syncthreads();  // every midpoint written; every stencil of m0 read
        if (lane) {
            const MReal hm2 = l >= 2 ? scratch[threadIdx.x - 2 * segments] : MReal(0);
            const MReal hm1 = l >= 1 ? scratch[threadIdx.x - segments] : MReal(0);
            const MReal hp1 = l + 1 < len ? scratch[threadIdx.x + segments] : half;
            const MReal next = m0 + h * motorRhs(hm2, hm1, half, hp1, source, koff, invDs);
            slice[off + l] = clampedAtZero(next, clamps);
        }
        __syncthreads();  // scratch is rewritten by the next round
    }
    return clamps;
}

// The same stages with adjacent threads on adjacent slots of the packed slice
// (MotorLaneMapping::Runs): every thread works, whatever the chord lengths; each slot's lane and
// chord length come from t.laneInfo. The first stage writes the midpoints to `mid` (S reals of
// shared memory); after a barrier the second reads them and writes the slot it owns, the only
// slot it reads of the slice then. Same arithmetic and order as segmentRounds: bitwise equal.
// base + h R(at) at slot i of a chord lane l of len lanes (the ghosts of segmentStage).
template <typename MReal>
__device__ __forceinline__ MReal slotStage(const MReal* at, int i, int l, int len, MReal base,
                                           MReal h, MReal source, MReal koff, MReal invDs) {
    const MReal here = at[i];
    const MReal mm2 = l >= 2 ? at[i - 2] : MReal(0);
    const MReal mm1 = l >= 1 ? at[i - 1] : MReal(0);
    const MReal mp1 = l + 1 < len ? at[i + 1] : here;
    return base + h * motorRhs(mm2, mm1, here, mp1, source, koff, invDs);
}

template <typename MReal>
__device__ int runRounds(const MotorTables& t, MReal* slice, MReal* mid, MReal h, MReal source,
                         MReal koff, MReal invDs) {
    const MReal halfH = MReal(0.5) * h;
    const int S = t.sliceSize;
    for (int i = threadIdx.x; i < S; i += blockDim.x) {
        const std::int32_t info = __ldg(t.laneInfo + i);
        mid[i] =
            slotStage(slice, i, info & 0xffff, info >> 16, slice[i], halfH, source, koff, invDs);
    }
    __syncthreads();  // every midpoint written; every stencil of the slice read
    int clamps = 0;
    for (int i = threadIdx.x; i < S; i += blockDim.x) {
        const std::int32_t info = __ldg(t.laneInfo + i);
        const MReal next =
            slotStage(mid, i, info & 0xffff, info >> 16, slice[i], h, source, koff, invDs);
        slice[i] = clampedAtZero(next, clamps);
    }
    return clamps;
}

// The sub-cycle of one tail per block (design 2.6), for every lane mapping; the kernels below
// wrap it with and without launch bounds.
template <typename MReal, MotorLaneMapping Mapping>
__device__ __forceinline__ void motorSubcycleBody(const MotorTables& t, const MotorStepArgs& a,
                                                  const double* __restrict__ psi,
                                                  const MotorArrays<MReal>& m, int pad,
                                                  bool sliceInShared) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ TailScalars tail;
    const int nc = t.chords, S = t.sliceSize;
    double* psiC = reinterpret_cast<double*>(smem);
    double* chordSum = psiC + nc;
    double* orbitSum = chordSum + nc;
    // After the doubles: the midpoints (strided: one per thread; runs: one per slot), then the
    // slice when in shared memory.
    MReal* scratch = reinterpret_cast<MReal*>(orbitSum + pad);
    MReal* shared = Mapping == MotorLaneMapping::Strided ? scratch + blockDim.x
                    : Mapping == MotorLaneMapping::Runs  ? scratch + S
                                                         : scratch;
    // Block tailIndex is tail r0 = first anchor + a (a rank holds rows t.rowBegin .. t.rowEnd - 1).
    const int tailIndex = blockIdx.x;
    const int r0 = t.rowBegin * t.n + tailIndex;
    MReal* global = m.mb + static_cast<std::size_t>(tailIndex) * t.tailStride;
    MReal* slice = sliceInShared ? shared : global;

    // psi_c = Psi(r0 + o, theta_j) dx dy dtheta ds, loaded once per outer step (design M7).
    const int ix = r0 % t.n, iy = r0 / t.n;
    for (int c = threadIdx.x; c < nc; c += blockDim.x) {
        const Chord ch = t.chord[c];
        const std::size_t cell =
            static_cast<std::size_t>(wrapIndex(iy + ch.oy, t.n)) * t.n + wrapIndex(ix + ch.ox, t.n);
        psiC[c] = __ldg(psi + cell * t.ntheta + ch.j) * a.cellVolume;
    }
    if (sliceInShared)
        for (int i = threadIdx.x; i < S; i += blockDim.x)
            slice[i] = global[storedIndex(t, i)];
    if (threadIdx.x == 0) tail.clamps = 0;
    __syncthreads();

    // A = sum_c psi_c L_c and the substeps (design M7, M13), in double as on the CPU.
    const double capacity = orbitTotal(t, orbitSum, pad, [&](std::int32_t c) {
        return psiC[c] * static_cast<double>(t.chord[c].len);
    });
    if (threadIdx.x == 0) {
        const double hmax =
            motorMaxSubstep(cParams.courantIn, a.ds, cParams.koff, cParams.konTilde, capacity);
        double hLast = 0.0;
        int k = 0;
        if (hmax > 0.0 && isfinite(hmax))
            k = motorSubsteps(a.dt, hmax, &hLast);
        else
            atomicMin(m.failedTail, r0);  // the host throws, as the CPU does
        tail.hmax = hmax;
        tail.hLast = hLast;
        tail.substeps = k;
    }
    // Psi has changed since the last advance: Mb,coarse, the cap and Mf for the new Psi.
    double coarse = resync(t, psiC, chordSum, orbitSum, pad, slice);
    const int substeps = tail.substeps;
    const double hmax = tail.hmax, hLast = tail.hLast;

    const MReal koff = static_cast<MReal>(cParams.koff), invDs = static_cast<MReal>(a.invDs);
    const double konTilde = cParams.konTilde, mtot = cParams.mtot;
    int clamps = 0;
    for (int i = 0; i < substeps; ++i) {
        const MReal h = static_cast<MReal>(i + 1 < substeps ? hmax : hLast);
        // kon~ Mf, frozen over the substep (design M13).
        const MReal source = static_cast<MReal>(konTilde * (mtot - coarse));
        if constexpr (Mapping == MotorLaneMapping::Strided)
            clamps += stridedRounds(t, slice, scratch, h, source, koff, invDs);
        else if constexpr (Mapping == MotorLaneMapping::Runs)
            clamps += runRounds(t, slice, scratch, h, source, koff, invDs);
        else
            clamps += segmentRounds(t, slice, h, source, koff, invDs);
        __syncthreads();
        coarse = resync(t, psiC, chordSum, orbitSum, pad, slice);
    }

    if (clamps > 0) atomicAdd(&tail.clamps, clamps);  // integers: order-free
    if (sliceInShared)
        for (int i = threadIdx.x; i < S; i += blockDim.x)
            global[storedIndex(t, i)] = slice[i];
    __syncthreads();
    if (threadIdx.x == 0) {
        m.coarse[tailIndex] = static_cast<MReal>(coarse);
        m.free[tailIndex] = static_cast<MReal>(mtot - coarse);
        m.substeps[tailIndex] = substeps;
        m.clamps[tailIndex] += tail.clamps;
    }
}

// motors.launch_bounds: at most kMaxMotorThreads threads and 2 blocks per SM (caps the
// registers at 64), or no bounds (the compiler's own register choice).
template <typename MReal, MotorLaneMapping Mapping>
__global__ void __launch_bounds__(kMaxMotorThreads, 2)
    motorSubcycleBounded(MotorTables t, MotorStepArgs a, const double* __restrict__ psi,
                         MotorArrays<MReal> m, int pad, bool sliceInShared) {
    motorSubcycleBody<MReal, Mapping>(t, a, psi, m, pad, sliceInShared);
}

template <typename MReal, MotorLaneMapping Mapping>
__global__ void motorSubcycleUnbounded(MotorTables t, MotorStepArgs a,
                                       const double* __restrict__ psi, MotorArrays<MReal> m,
                                       int pad, bool sliceInShared) {
    motorSubcycleBody<MReal, Mapping>(t, a, psi, m, pad, sliceInShared);
}

template <typename MReal>
using SubcycleKernel = void (*)(MotorTables, MotorStepArgs, const double*, MotorArrays<MReal>, int,
                                bool);

template <typename MReal, MotorLaneMapping Mapping>
SubcycleKernel<MReal> subcycleKernelOf(bool launchBounds) {
    return launchBounds ? motorSubcycleBounded<MReal, Mapping>
                        : motorSubcycleUnbounded<MReal, Mapping>;
}

template <typename MReal>
SubcycleKernel<MReal> subcycleKernel(const MotorLaunch& l) {
    switch (static_cast<MotorLaneMapping>(l.mapping)) {
        case MotorLaneMapping::Strided:
            return subcycleKernelOf<MReal, MotorLaneMapping::Strided>(l.launchBounds);
        case MotorLaneMapping::Runs:
            return subcycleKernelOf<MReal, MotorLaneMapping::Runs>(l.launchBounds);
        case MotorLaneMapping::Segments:
            break;
    }
    return subcycleKernelOf<MReal, MotorLaneMapping::Segments>(l.launchBounds);
}

// Over the rows t.wFirst .. t.wFirst + t.wCount - 1 (mod n) that the held tails reach, summing
// only the entries whose tail is held (every one on one rank: the same loop as before).
// W's configuration (y, j) number bandYj of this rank (rows t.wFirst.. mod n), and the tail
// y - o of a gather entry: false when this rank does not hold that tail's row.
struct WBand {
    int j, ix, iy;
};
__device__ __forceinline__ WBand wBandOf(const MotorTables& t, std::size_t bandYj) {
    const std::size_t bandY = bandYj / t.ntheta;
    return {static_cast<int>(bandYj % t.ntheta), static_cast<int>(bandY % t.n),
            (t.wFirst + static_cast<int>(bandY / t.n)) % t.n};
}
__device__ __forceinline__ bool heldTail(const MotorTables& t, const WBand& y, int ox, int oy,
                                         std::size_t& tail) {
    const int row = wrapIndex(y.iy - oy, t.n);
    if (!(t.rowBegin == 0 && t.rowEnd == t.n) && (row < t.rowBegin || row >= t.rowEnd))
        return false;
    tail = static_cast<std::size_t>(row - t.rowBegin) * t.n +
           static_cast<std::size_t>(wrapIndex(y.ix - ox, t.n));
    return true;
}

template <typename MReal>
__global__ void boundGatherKernel(MotorTables t, const double* __restrict__ psi,
                                  const MReal* __restrict__ mb, MReal* __restrict__ w) {
    const std::size_t total = static_cast<std::size_t>(t.wCount) * t.n * t.ntheta * t.ns;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int k = static_cast<int>(i % t.ns);
    const WBand y = wBandOf(t, i / t.ns);
    const std::size_t yj = (static_cast<std::size_t>(y.iy) * t.n + y.ix) * t.ntheta + y.j;
    const int b = y.j * t.ns + k;
    double sum = 0.0;
    for (int e = t.gatherStart[b]; e < t.gatherStart[b + 1]; ++e) {
        const GatherEntry g = t.gather[e];
        std::size_t src = 0;
        if (!heldTail(t, y, g.ox, g.oy, src)) continue;
        sum += static_cast<double>(mb[src * t.tailStride + storedIndex(t, g.slot)]);
    }
    w[yj * t.ns + k] = static_cast<MReal>(psi[yj] * sum);
}

// motors.bound_gather = staged: a warp per (y, j). Its lanes first copy orientation j's chords of
// the tails y - o into shared memory, each chord's lanes from consecutive slots (a few sectors
// per chord where lanes walking their own lists load one sector per motor), then lane k sums
// its gather list from there in the list's order: boundGatherKernel's sums and bits.
constexpr int kStagedWarps = 8;  // configurations (y, j) per block

template <typename MReal>
__global__ void __launch_bounds__(kStagedWarps * 32)
    boundGatherStagedKernel(MotorTables t, const double* __restrict__ psi,
                            const MReal* __restrict__ mb, MReal* __restrict__ w) {
    extern __shared__ unsigned char stagedBytes[];
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    MReal* const staged = reinterpret_cast<MReal*>(stagedBytes) + warp * t.stagedMax;
    const std::size_t bandYj = static_cast<std::size_t>(blockIdx.x) * kStagedWarps + warp;
    if (bandYj >= static_cast<std::size_t>(t.wCount) * t.n * t.ntheta) return;  // whole warp
    const WBand y = wBandOf(t, bandYj);
    const int first = t.stagedStart[y.j], count = t.stagedStart[y.j + 1] - first;
    for (int f = lane; f < count; f += 32) {
        const GatherEntry g = t.staged[first + f];
        std::size_t src = 0;  // a tail this rank does not hold: skipped by the sums below
        staged[f] = heldTail(t, y, g.ox, g.oy, src)
                        ? mb[src * t.tailStride + storedIndex(t, g.slot)]
                        : MReal(0);
    }
    __syncwarp();
    const std::size_t yj = (static_cast<std::size_t>(y.iy) * t.n + y.ix) * t.ntheta + y.j;
    const bool whole = t.rowBegin == 0 && t.rowEnd == t.n;  // then no entry's offset is read
    for (int k = lane; k < t.ns; k += 32) {
        const int b = y.j * t.ns + k;
        double sum = 0.0;
        for (int e = t.gatherStart[b]; e < t.gatherStart[b + 1]; ++e) {
            std::size_t src = 0;
            if (!whole && !heldTail(t, y, t.gather[e].ox, t.gather[e].oy, src)) continue;
            sum += static_cast<double>(staged[t.stagedIndex[e]]);
        }
        w[yj * t.ns + k] = static_cast<MReal>(psi[yj] * sum);
    }
}

// The 4 x 4 Peskin block in quarter-turn orbits about its centre, as kStencilOrbits of
// motors_cpu.cpp (constant memory: a local array would live on the stack).
__constant__ int kStencilOrbits[4][4][2] = {
    {{0, 0}, {3, 0}, {3, 3}, {0, 3}},
    {{1, 0}, {3, 1}, {2, 3}, {0, 2}},
    {{2, 0}, {3, 2}, {1, 3}, {0, 1}},
    {{1, 1}, {2, 1}, {2, 2}, {1, 2}},
};

// The sum over the 4 x 4 Peskin block of phi_x phi_y W(g - m, j, k) in its quarter-turn orbits
// (kStencilOrbits of motors_cpu.cpp).
template <typename MReal>
__device__ double stencilBlock(const MotorTables& t, const MReal* w, int gx, int gy, int j, int k) {
    const PeskinStencil& st = t.peskin[j * t.ns + k];
    const auto term = [&](const int(&a)[2]) {
        const int yx = wrapIndex(gx - (st.m0[0] + a[0]), t.n);
        const int yy = wrapIndex(gy - (st.m0[1] + a[1]), t.n);
        const std::size_t y = static_cast<std::size_t>(yy) * t.n + yx;
        return (st.w[0][a[0]] * st.w[1][a[1]]) *
               static_cast<double>(w[(y * t.ntheta + j) * t.ns + k]);
    };
    double sum = 0.0;
    for (const auto& orb : kStencilOrbits)
        sum += (term(orb[0]) + term(orb[2])) + (term(orb[1]) + term(orb[3]));
    return sum;
}

// F2 at node g (design 2.7): a group of ns lanes per node, lane k summing the 4 x 4 Peskin
// block over the orientation orbits for its own k, then a fixed xor tree over k. Adjacent lanes
// read adjacent k of W, so every W load is one coalesced row of ns values; one thread per node
// looping over (j, k) read one sector per term and was bound by DRAM sectors (about 34 GB per
// step at 256^2 x 32^2). The sum over k is a tree here and a running sum on the CPU: round-off
// differences only; a quarter turn leaves k unchanged, so the symmetry of the sum is kept.
template <typename MReal>
__global__ void forceGatherKernel(MotorTables t, int group, const MReal* __restrict__ w,
                                  double cellVolume, double* __restrict__ fx,
                                  double* __restrict__ fy) {
    // group = nextpow2(ns) capped at 32 lanes per node; lane l takes k = l, l + group, ...
    // Nodes of rows t.fFirst .. t.fFirst + t.fCount - 1 (mod n): those the held tails reach.
    const int cells = t.fCount * t.n;
    const int thread = blockIdx.x * blockDim.x + threadIdx.x;
    const int bandG = thread / group, lane = thread % group;
    const bool active = bandG < cells;
    const int gx = active ? bandG % t.n : 0;
    const int gy = active ? (t.fFirst + bandG / t.n) % t.n : 0, quarter = t.ntheta / 4;
    const int g = gy * t.n + gx;
    double sx = 0.0, sy = 0.0;
    if (active)
        for (int k = lane; k < t.ns; k += group)
            for (int j0 = 0; j0 < quarter; ++j0) {
                double bx[4], by[4];
                for (int q = 0; q < 4; ++q) {
                    const int j = j0 + q * quarter;
                    const double b = stencilBlock(t, w, gx, gy, j, k);
                    bx[q] = t.cosT[j] * b;
                    by[q] = t.sinT[j] * b;
                }
                sx += (bx[0] + bx[2]) + (bx[1] + bx[3]);
                sy += (by[0] + by[2]) + (by[1] + by[3]);
            }
    // Fixed tree over the lanes of the group (a power of two dividing 32: within one warp).
    for (int offset = group / 2; offset > 0; offset /= 2) {
        sx += __shfl_xor_sync(0xffffffffu, sx, offset, group);
        sy += __shfl_xor_sync(0xffffffffu, sy, offset, group);
    }
    if (active && lane == 0) {
        const double scale = cParams.force * cellVolume;  // the CPU's F (dx dy dtheta ds)
        fx[g] = scale * sx;
        fy[g] = scale * sy;
    }
}

template <typename MReal>
void launchMotorSubcycle(const MotorTables& t, const MotorStepArgs& a, const double* psi,
                         const MotorArrays<MReal>& m, const MotorLaunch& l, cudaStream_t stream) {
    const int blocks = (t.rowEnd - t.rowBegin) * t.n;
    if (blocks == 0) return;
    const std::size_t shared = motorSharedBytes(t, sizeof(MReal), l);
    const SubcycleKernel<MReal> kernel = subcycleKernel<MReal>(l);
    // Above the default 48 KiB the kernel must opt in (the caller checked the device limit).
    if (shared > 48 * 1024)
        CF_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(shared)));
    kernel<<<blocks, l.threads, shared, stream>>>(t, a, psi, m, motorOrbitPad(t), l.sliceInShared);
    CF_CUDA_CHECK_LAUNCH("gliding motorSubcycle", stream);
}

template <typename MReal>
void launchBoundGather(const MotorTables& t, const double* psi, const MReal* mb, MReal* w,
                       cudaStream_t stream) {
    const std::size_t total = static_cast<std::size_t>(t.wCount) * t.n * t.ntheta * t.ns;
    if (total == 0) return;
    if (t.staged != nullptr) {
        const std::size_t bands = total / t.ns;
        const std::size_t shared =
            static_cast<std::size_t>(kStagedWarps) * t.stagedMax * sizeof(MReal);
        if (shared > 48 * 1024)
            CF_CUDA_CHECK(cudaFuncSetAttribute(boundGatherStagedKernel<MReal>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(shared)));
        boundGatherStagedKernel<MReal>
            <<<static_cast<unsigned>((bands + kStagedWarps - 1) / kStagedWarps), kStagedWarps * 32,
               shared, stream>>>(t, psi, mb, w);
        CF_CUDA_CHECK_LAUNCH("gliding boundGatherStaged", stream);
        return;
    }
    const unsigned blocks = static_cast<unsigned>((total + kThreads - 1) / kThreads);
    boundGatherKernel<MReal><<<blocks, kThreads, 0, stream>>>(t, psi, mb, w);
    CF_CUDA_CHECK_LAUNCH("gliding boundGather", stream);
}

template <typename MReal>
void launchForceGather(const MotorTables& t, const MReal* w, double cellVolume, double* fx,
                       double* fy, cudaStream_t stream) {
    const int cells = t.fCount * t.n;
    if (cells == 0) return;
    const int group = std::min(32, nextPow2Of(t.ns));
    const std::size_t threads = static_cast<std::size_t>(cells) * group;
    forceGatherKernel<MReal>
        <<<static_cast<unsigned>((threads + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
            t, group, w, cellVolume, fx, fy);
    CF_CUDA_CHECK_LAUNCH("gliding forceGather", stream);
}

// The most threads per block the sub-cycle kernel of `l` can be launched with (its registers
// limit it without launch bounds).
int subcycleMaxThreads(bool doublePrecision, const MotorLaunch& l) {
    cudaFuncAttributes attributes{};
    if (doublePrecision)
        CF_CUDA_CHECK(cudaFuncGetAttributes(&attributes, subcycleKernel<double>(l)));
    else
        CF_CUDA_CHECK(cudaFuncGetAttributes(&attributes, subcycleKernel<float>(l)));
    return attributes.maxThreadsPerBlock;
}

// Blocks of `l` (its threads, `sharedBytes` of dynamic shared memory) resident on one SM at
// once: the occupancy the automatic block size compares (motors_cuda.cpp).
int subcycleBlocksPerSm(bool doublePrecision, const MotorLaunch& l, std::size_t sharedBytes) {
    int blocks = 0;
    const auto query = [&](auto kernel) {
        // Above the default 48 KiB the query, as the launch, needs the kernel's opt-in.
        if (sharedBytes > 48 * 1024)
            CF_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(sharedBytes)));
        CF_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, l.threads, sharedBytes));
    };
    if (doublePrecision)
        query(subcycleKernel<double>(l));
    else
        query(subcycleKernel<float>(l));
    return blocks;
}

ParamsSymbol& paramsSymbol() {
    static ParamsSymbol symbol(cParams);
    return symbol;
}

template <typename MReal>
constexpr MotorLaunchers<MReal> launchersOf() {
    return {launchMotorSubcycle<MReal>, launchBoundGather<MReal>, launchForceGather<MReal>};
}

constexpr MotorKernelBuild kBuild{paramsSymbol, subcycleMaxThreads, subcycleBlocksPerSm,
                                  launchersOf<float>(), launchersOf<double>()};

}  // namespace

// This translation unit is one of the two builds of the file (motor_kernels_fast_math.cu says
// why there are two); each has its own cParams and kernels in its anonymous namespace.
#ifdef CF_MOTOR_KERNELS_FAST_MATH
const MotorKernelBuild& fastMathMotorKernels() {
    return kBuild;
}
#else
const MotorKernelBuild& exactMotorKernels() {
    return kBuild;
}
#endif

}  // namespace cf::gliding::cuda
