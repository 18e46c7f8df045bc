// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA kernels of `lattice`: the sweep reads one lattice copy and writes the other with
// the per-site logic of lattice_sweep.hpp (sweepKernel: one thread per site runs the CPU's
// gatherSite) or its tiled form (lattice_sweep_tiled.hpp, the default: each site decoded
// and drawn once), so the device lattice equals the CPU one bit for bit. Overflows go to a list
// through an atomic counter; its order is arbitrary, which is harmless because the host sorts it
// before re-insertion.
#include <cub/cub.cuh>

#include "sim/cuda/constant_owner.hpp"
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/lattice/cuda/lattice_kernels.cuh"
#include "sim/models/lattice/lattice_params.hpp"
#include "sim/models/lattice/lattice_react.hpp"
#include "sim/models/lattice/lattice_sweep_warp.hpp"

namespace cf::lattice::cuda {

namespace {

// Read by every thread with the same address (broadcast); the HD functions are
// __forceinline__, so they index it directly.
__constant__ Geometry cGeom;

constexpr int kBlock = 256;

unsigned blocksFor(std::uint32_t n) {
    return (n + kBlock - 1) / kBlock;
}

// The sites of planes [zBegin, zEnd) (SweepArgs), one per thread of a 1-D grid.
__device__ __forceinline__ bool phaseSite(const SweepArgs& a, std::uint32_t& i) {
    const std::uint32_t plane =
        static_cast<std::uint32_t>(cGeom.n[0]) * static_cast<std::uint32_t>(cGeom.n[1]);
    i = static_cast<std::uint32_t>(a.zBegin) * plane + blockIdx.x * blockDim.x + threadIdx.x;
    return i < static_cast<std::uint32_t>(a.zEnd) * plane;
}

std::uint32_t phaseSites(const SweepArgs& a, const Geometry& g) {
    return static_cast<std::uint32_t>(a.zEnd - a.zBegin) * static_cast<std::uint32_t>(g.n[0]) *
           static_cast<std::uint32_t>(g.n[1]);
}

// One site of the per-site sweep: gatherSite, then the site's words, identities and
// overflows.
__device__ __forceinline__ void sweepSite(const SweepArgs& a, std::uint32_t i) {
    const Geometry& g = cGeom;
    Gathered gth;
    gatherSite(g, a.src, a.types, a.step, a.axis, i, gth);
    const int keep = gth.count < g.capacity ? gth.count : g.capacity;
    const bool tracking = a.ids != nullptr;
    // As on the CPU: only the id slots the site used two sweeps ago need clearing.
    const int stale = tracking ? countSite(g, a.dst, i) : 0;
    encodeSite(g, a.dst, i, siteType(g, a.src, a.types, i), gth.species, keep);
    std::uint32_t base = 0;
    if (gth.count > keep)
        base = atomicAdd(a.overflowCount, static_cast<std::uint32_t>(gth.count - keep));
    for (int k = 0; k < gth.count; ++k) {
        std::uint32_t id = 0;
        if (tracking) {
            const std::int32_t from = gth.from[k] == 0 ? static_cast<std::int32_t>(i)
                                                       : neighborOf(g, i, a.axis, gth.from[k]);
            id = a.ids[static_cast<std::size_t>(gth.slot[k]) * a.sites +
                       static_cast<std::uint32_t>(from)];
            // As on the CPU: each id is gathered by exactly one site, one writer.
            if (id != 0) a.displacement[3 * (id - 1) + a.axis] -= gth.from[k];
            if (k < keep) a.nextIds[static_cast<std::size_t>(k) * a.sites + i] = id;
        }
        if (k >= keep) {
            const std::uint32_t at = base + static_cast<std::uint32_t>(k - keep);
            if (at < a.overflowCapacity)
                a.overflows[at] = Overflow{i, id, gth.species[k], static_cast<std::uint8_t>(k), 0};
        }
    }
    if (tracking)
        for (int k = keep; k < stale; ++k)
            a.nextIds[static_cast<std::size_t>(k) * a.sites + i] = 0u;
}

__global__ void sweepKernel(SweepArgs a) {
    std::uint32_t i = 0;
    if (!phaseSite(a, i)) return;
    sweepSite(a, i);
}

// One site's gathered particles on their way out, in gatherSite's order (the tiled and warp
// sweeps; sweepKernel's rules): their identities follow them when tracked, the first `keep`
// are packed into `words`, the rest join the overflow list from `base`; the id slots the site used
// two sweeps ago beyond `keep` are cleared after the store. Construct it before the site's
// store (it counts the stale slots in dst).
struct SitePlacement {
    std::uint32_t i;
    int keep, stale, k = 0;
    std::uint32_t base = 0;
    std::uint32_t words[4] = {0u, 0u, 0u, 0u};  // the kept particles, packed

    __device__ SitePlacement(const Geometry& g, const SweepArgs& a, std::uint32_t site, int total)
        : i(site),
          keep(total < g.capacity ? total : g.capacity),
          // As on the CPU: only the id slots the site used two sweeps ago need clearing.
          stale(a.ids != nullptr ? countSite(g, a.dst, site) : 0) {
        if (total > keep)
            base = atomicAdd(a.overflowCount, static_cast<std::uint32_t>(total - keep));
    }

    __device__ void place(const Geometry& g, const SweepArgs& a, std::uint16_t species, int from,
                          int slot, std::uint32_t fromSite) {
        std::uint32_t id = 0;
        if (a.ids != nullptr) {
            id = a.ids[static_cast<std::size_t>(slot) * a.sites + fromSite];
            // Each id is gathered by exactly one site, one writer.
            if (id != 0) a.displacement[3 * (id - 1) + a.axis] -= from;
            if (k < keep) a.nextIds[static_cast<std::size_t>(k) * a.sites + i] = id;
        }
        if (k < keep) {
            packInto(g, words, k, species);
        } else {
            const std::uint32_t at = base + static_cast<std::uint32_t>(k - keep);
            if (at < a.overflowCapacity)
                a.overflows[at] = Overflow{i, id, species, static_cast<std::uint8_t>(k), 0};
        }
        ++k;
    }

    __device__ void clearStaleIds(const SweepArgs& a) const {
        if (a.ids == nullptr) return;
        for (int s = keep; s < stale; ++s)
            a.nextIds[static_cast<std::size_t>(s) * a.sites + i] = 0u;
    }
};

// The tiled sweep (lattice_sweep_tiled.hpp): one thread per site of a 32 x Rows tile.
// Phase 1 decodes the site and draws its moves once and publishes them (the tile's first
// and last site also publish the apron's moves into the tile); phase 2 gathers from
// shared memory in gatherSite's order, encodes in registers and carries identities and
// overflows exactly as sweepKernel does.
// Launch bounds: the x sweep's 256-thread blocks fit in 48 registers without spilling (5
// blocks per SM instead of 4 at the 57 it takes unbounded); the 512-thread blocks would
// spill at the 40 that a third block needs, so they keep 2.
template <int Rows, bool AlongX>
__global__ void __launch_bounds__(kTileWidth* Rows, AlongX ? 5 : 2) tiledSweepKernel(SweepArgs a) {
    using Tile = SweepTile<Rows, AlongX>;
    __shared__ Tile tile;
    const Geometry& g = cGeom;
    const int tid = static_cast<int>(threadIdx.y) * kTileWidth + static_cast<int>(threadIdx.x);
    for (int k = tid; k < kThresholdCount; k += kTileWidth * Rows)
        tile.q[k] = (&g.qInt[0][0][0])[k];
    const TileSite t = tileSiteOf<Tile>(g, a.axis, blockIdx.x, blockIdx.y, blockIdx.z,
                                        static_cast<int>(threadIdx.x),
                                        static_cast<int>(threadIdx.y), a.zBegin, a.zEnd);
    __syncthreads();
    const OwnSite own = publishSite(g, a.src, a.types, a.step, a.axis, t, tile);
    __syncthreads();
    if (!t.valid) return;
    const std::uint32_t i = t.i;
    const GatherMasks m = gatherMasksOf(t, own, tile);
    SitePlacement out(g, a, i, m.total);
    forEachGathered(g, t, m, tile,
                    [&](std::uint16_t species, int from, int slot, std::uint32_t fromSite) {
                        out.place(g, a, species, from, slot, fromSite);
                    });
    storeSite(g, a.dst, i, out.words, out.keep, own.type, a.dstClean != 0);
    out.clearStaleIds(a);
}

// The warp sweep's way to the per-site path (lattice_sweep_warp.hpp: sites with more than
// one word of draws, and their neighbours). Not inlined: its gathered list lives in local
// memory, and the common path keeps its registers.
__device__ __noinline__ void sweepSiteOutOfLine(SweepArgs a, std::uint32_t i) {
    sweepSite(a, i);
}

constexpr unsigned kFullWarp = 0xFFFFFFFFu;

// What slot s sees of its neighbour before (Before = true) or after it along the sweep axis.
// x sweep: the same slot of the lane before or after, by shuffles of the whole warp, so every
// lane calls these at the same point; the lane's neighbour's sites follow from its first (no
// slot of an x sweep wraps on its own). y, z sweeps: the lane's own slot s -/+ 1 (nothing
// past its slots). s is a constant once the slot loops are unrolled.
template <bool AlongX, bool Before, int S>
__device__ __forceinline__ std::uint32_t nextByte(const std::uint32_t (&v)[(S + 3) / 4], int s,
                                                  std::uint32_t none) {
    if constexpr (AlongX) {
        const std::uint32_t w = Before ? __shfl_up_sync(kFullWarp, v[s / 4], 1)
                                       : __shfl_down_sync(kFullWarp, v[s / 4], 1);
        return (w >> (8 * (s % 4))) & 0xFFu;
    } else {
        const int t = Before ? s - 1 : s + 1;
        return t < 0 || t >= S ? none : byteOf(v, t);
    }
}

template <bool AlongX, bool Before, int S>
__device__ __forceinline__ WarpSide sideOf(const WarpLane<S>& l, int s) {
    if constexpr (AlongX) {
        const std::uint32_t word = Before ? __shfl_up_sync(kFullWarp, l.word[s], 1)
                                          : __shfl_down_sync(kFullWarp, l.word[s], 1);
        const std::uint32_t first = Before ? __shfl_up_sync(kFullWarp, l.first, 1)
                                           : __shfl_down_sync(kFullWarp, l.first, 1);
        return WarpSide{word, unpackMoves(nextByte<AlongX, Before, S>(l.moves, s, 0u)),
                        first + static_cast<std::uint32_t>(s) * l.stride};
    } else {
        const int t = Before ? s - 1 : s + 1;
        if (t < 0 || t >= S) return WarpSide{0u, 0u, 0u};
        return WarpSide{l.word[t], movesOf(l, t), siteOf(l, t)};
    }
}

// The warp sweep (lattice_sweep_warp.hpp). Every lane runs the whole kernel: no lane
// returns before the last shuffle (a warp without sites returns as a whole), and the one
// block barrier comes before any divergence. Phases: place and load the lane's slots; one
// Philox job per occupied short slot, compacted over the warp into shared memory (an
// exclusive scan of the lanes' job counts gives each lane its range of the list); the jobs
// 32 at a time; each slot's moves back; then every owned slot gathers from its own and its
// neighbours' words and moves and writes as the tiled kernel does, or, next to a long site,
// takes the per-site path.
// Launch bounds: 6 blocks of 128 threads per SM leave 80 registers a thread.
template <bool AlongX>
__global__ void __launch_bounds__(kWarpsPerBlock* kWarpLanes, 6) warpSweepKernel(SweepArgs a) {
    using Strip = WarpStrip<AlongX>;
    constexpr int S = Strip::kSlots;
    __shared__ std::uint32_t q[kThresholdCount];
    __shared__ std::uint32_t jobSite[kWarpsPerBlock][Strip::kJobs];
    __shared__ std::uint32_t jobWord[kWarpsPerBlock][Strip::kJobs];  // the word, then its moves
    __shared__ std::uint32_t jobData[kWarpsPerBlock][Strip::kJobs];  // jobInfo
    const Geometry& g = cGeom;
    for (int k = static_cast<int>(threadIdx.x); k < kThresholdCount;
         k += kWarpsPerBlock * kWarpLanes)
        q[k] = (&g.qInt[0][0][0])[k];
    __syncthreads();
    const int lane = static_cast<int>(threadIdx.x) % kWarpLanes;
    const int warp = static_cast<int>(threadIdx.x) / kWarpLanes;
    const WarpGrid grid = warpGridOf(g, a.axis, a.zBegin, a.zEnd);
    WarpLane<S> l;
    placeLane<Strip>(g, a.axis, grid, blockIdx.x,
                     blockIdx.y * kWarpsPerBlock + static_cast<std::uint32_t>(warp), lane, a.zBegin,
                     a.zEnd, l);
    if (__ballot_sync(kFullWarp, l.present != 0u) == 0u) return;  // the whole warp
    const bool dstClean = a.dstClean != 0;
    loadLane(g, a.src, a.types, a.dst, g.layout == 1 && dstClean, l);

    // The jobs: this lane's go to [first, first + its count) of the warp's list.
    const auto jobs = static_cast<std::uint32_t>(bitCount(l.busy));
    std::uint32_t upTo = jobs;
    for (int d = 1; d < kWarpLanes; d <<= 1) {
        const std::uint32_t v = __shfl_up_sync(kFullWarp, upTo, static_cast<unsigned>(d));
        if (lane >= d) upTo += v;
    }
    const std::uint32_t total = __shfl_sync(kFullWarp, upTo, kWarpLanes - 1);
    const std::uint32_t mine = upTo - jobs;
    std::uint32_t at = mine;
    CF_LATTICE_UNROLL
    for (int s = 0; s < S; ++s) {
        const std::uint32_t minus = nextByte<AlongX, true, S>(l.types, s, kNoType);
        const std::uint32_t plus = nextByte<AlongX, false, S>(l.types, s, kNoType);
        if (((l.busy >> s) & 1u) == 0u) continue;
        jobSite[warp][at] = siteOf(l, s);
        jobWord[warp][at] = l.word[s];
        jobData[warp][at] =
            jobInfo(typeOf(l, s), minus, plus, shortCount(g, l.word[s]),
                    ((l.apronLeft >> s) & 1u) != 0u, ((l.apronRight >> s) & 1u) != 0u);
        ++at;
    }
    __syncwarp();
    for (std::uint32_t j = static_cast<std::uint32_t>(lane); j < total; j += kWarpLanes)
        jobWord[warp][j] =
            jobMoves(g, q, a.step, a.axis, jobSite[warp][j], jobWord[warp][j], jobData[warp][j]);
    __syncwarp();
    at = mine;
    CF_LATTICE_UNROLL
    for (int s = 0; s < S; ++s) {
        if (((l.busy >> s) & 1u) == 0u) continue;
        l.moves[s / 4] |= packMoves(jobWord[warp][at]) << (8 * (s % 4));
        ++at;
    }

    // Sites next to a long one (or long themselves) take the per-site path.
    std::uint32_t slow = l.longSites;
    if constexpr (AlongX)
        slow |=
            __shfl_up_sync(kFullWarp, l.longSites, 1) | __shfl_down_sync(kFullWarp, l.longSites, 1);
    else
        slow |= (l.longSites << 1) | (l.longSites >> 1);
    CF_LATTICE_UNROLL
    for (int s = 0; s < S; ++s) {
        const WarpSide left = sideOf<AlongX, true>(l, s);
        const WarpSide right = sideOf<AlongX, false>(l, s);
        if (((l.owned >> s) & 1u) == 0u) continue;
        const std::uint32_t i = siteOf(l, s);
        if (((slow >> s) & 1u) != 0u) {
            sweepSiteOutOfLine(a, i);
            continue;
        }
        const GatherMasks m = shortMasks(g, typeOf(l, s), l.word[s], movesOf(l, s), left, right);
        SitePlacement out(g, a, i, m.total);
        forEachShort(g, m, l.word[s], i, left, right,
                     [&](std::uint16_t species, int from, int slot, std::uint32_t fromSite) {
                         out.place(g, a, species, from, slot, fromSite);
                     });
        storeShort(g, a.dst, i, out.words, out.keep, typeOf(l, s), dstClean,
                   ((l.oldLong >> s) & 1u) != 0u);
        out.clearStaleIds(a);
    }
}

__global__ void reactionKernel(SweepArgs a) {
    std::uint32_t i = 0;
    if (!phaseSite(a, i)) return;
    const SiteReactionOutcome r =
        reactInSite(cGeom, a.dst, a.types, a.nextIds, a.displacement, a.step, i);
    if (r.reaction < 0) return;
    atomicAdd(&a.stats[3 + r.reaction], 1ull);
    if (r.overflowCount + r.excess == 0) return;
    const std::uint32_t base =
        atomicAdd(a.overflowCount, static_cast<std::uint32_t>(r.overflowCount + r.excess));
    for (int k = 0; k < r.overflowCount; ++k)
        if (base + k < a.overflowCapacity) a.overflows[base + k] = r.overflow[k];
    for (int k = 0; k < r.excess; ++k) {
        const std::uint32_t at = base + static_cast<std::uint32_t>(r.overflowCount + k);
        if (at < a.overflowCapacity) a.overflows[at] = excessOverflow(r, i, k);
    }
}

constexpr int kReinsertBlock = 1024;

// One block: pads the list to a power of two with keys above every real one, bitonic
// sort in global memory (the block's __syncthreads orders its global writes), then thread
// 0 places the particles one after another: placements depend on each other through the
// sites' room, and there are few (Lattice Microbes aims at < 0.01 per step).
__global__ void reinsertKernel(SweepArgs a) {
    const std::uint32_t reported = *a.overflowCount;
    __syncthreads();  // every thread has read the count before thread 0 zeroes it
    if (reported == 0) {
        if (threadIdx.x == 0 && a.axis == 0) a.stats[0] = 0;
        return;
    }
    const std::uint32_t n = reported < a.overflowCapacity ? reported : a.overflowCapacity;
    std::uint32_t size = 1;
    while (size < n)
        size <<= 1;
    for (std::uint32_t i = n + threadIdx.x; i < size; i += blockDim.x)
        a.overflows[i] = Overflow{0xFFFFFFFFu, 0u, 0xFFFFu, 0xFFu, 0};
    __syncthreads();
    for (std::uint32_t k = 2; k <= size; k <<= 1)
        for (std::uint32_t j = k >> 1; j > 0; j >>= 1) {
            for (std::uint32_t i = threadIdx.x; i < size; i += blockDim.x) {
                const std::uint32_t l = i ^ j;
                if (l <= i) continue;
                const bool ascending = (i & k) == 0;
                const Overflow x = a.overflows[i], y = a.overflows[l];
                if ((overflowKey(x) > overflowKey(y)) == ascending) {
                    a.overflows[i] = y;
                    a.overflows[l] = x;
                }
            }
            __syncthreads();
        }
    if (threadIdx.x != 0) return;
    unsigned long long failed = reported - n;  // records that did not fit the list
    for (std::uint32_t k = 0; k < n; ++k)
        if (!placeOverflow(cGeom, a.dst, a.types, a.nextIds, a.displacement, a.overflows[k]))
            ++failed;
    a.stats[0] = (a.axis == 0 ? 0ull : a.stats[0]) + reported;
    a.stats[1] += reported;
    a.stats[2] += failed;
    *a.overflowCount = 0;
}

// counts[t * (kMaxSpecies + 1) + s]: particles of species s in sites of type t.
__global__ void countKernel(const std::uint32_t* words, const std::uint8_t* types,
                            std::uint32_t first, std::uint32_t end, int speciesCount,
                            unsigned long long* counts) {
    constexpr int kCells = kSiteTypeCount * (kMaxSpecies + 1);
    __shared__ unsigned int local[kCells];
    if (threadIdx.x < kCells) local[threadIdx.x] = 0;
    __syncthreads();
    const std::uint32_t i = first + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < end) {
        std::uint16_t sp[kMaxSlots];
        const int n = decodeSite(cGeom, words, i, sp);
        const int t = siteType(cGeom, words, types, i) % kSiteTypeCount;
        for (int k = 0; k < n; ++k)
            atomicAdd(&local[t * (kMaxSpecies + 1) + (sp[k] > speciesCount ? 0 : sp[k])], 1u);
    }
    __syncthreads();
    if (threadIdx.x < kCells && local[threadIdx.x] != 0)
        atomicAdd(&counts[threadIdx.x], static_cast<unsigned long long>(local[threadIdx.x]));
}

__global__ void volumeKernel(const std::uint32_t* words, const std::uint8_t* types,
                             std::uint32_t sites, int speciesCount, float* occupancy,
                             std::uint8_t* siteTypes) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sites) return;
    const Geometry& g = cGeom;
    std::uint16_t sp[kMaxSlots];
    const int n = decodeSite(g, words, i, sp);
    float per[kMaxSpecies + 1] = {};
    for (int k = 0; k < n; ++k)
        if (sp[k] <= speciesCount) per[sp[k]] += 1.0f;
    occupancy[i] = static_cast<float>(n);
    for (int s = 1; s <= speciesCount; ++s)
        occupancy[static_cast<std::size_t>(s) * sites + i] = per[s];
    siteTypes[i] = siteType(g, words, types, i);
}

__global__ void occupancyKernel(const std::uint32_t* words, std::uint32_t sites,
                                std::uint32_t* occupancy) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sites) return;
    std::uint16_t sp[kMaxSlots];
    occupancy[i] = static_cast<std::uint32_t>(decodeSite(cGeom, words, i, sp));
}

// Same arithmetic as hostViews; the products and sums are rounded separately (no FMA
// contraction) so only cosf/sinf (within 2 ulp of the host's) can differ.
__global__ void packViewsKernel(const std::uint32_t* words, std::uint32_t sites, float l,
                                const std::uint32_t* offsets, float4* xyzr, std::uint8_t* species) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sites) return;
    const Geometry& g = cGeom;
    std::uint16_t sp[kMaxSlots];
    const int n = decodeSite(g, words, i, sp);
    if (n == 0) return;
    const float c[3] = {__fmul_rn(static_cast<float>(coordOf(g, i, 0)) + 0.5f, l),
                        __fmul_rn(static_cast<float>(coordOf(g, i, 1)) + 0.5f, l),
                        __fmul_rn(static_cast<float>(coordOf(g, i, 2)) + 0.5f, l)};
    const std::uint32_t at = offsets[i];
    for (int k = 0; k < n; ++k) {
        const float ang =
            __fdiv_rn(__fmul_rn(6.2831853f, static_cast<float>(k)), static_cast<float>(n));
        const float rr = n > 1 ? __fmul_rn(0.25f, l) : 0.0f;
        const float dz = n > 1 ? __fmul_rn(__fmul_rn(0.1f, l), (k % 2 ? 1.f : -1.f)) : 0.f;
        xyzr[at + k] = make_float4(__fadd_rn(c[0], __fmul_rn(rr, cosf(ang))),
                                   __fadd_rn(c[1], __fmul_rn(rr, sinf(ang))), __fadd_rn(c[2], dz),
                                   __fmul_rn(0.25f, l));
        species[at + k] = static_cast<std::uint8_t>(sp[k] - 1);
    }
}

}  // namespace

// Whose Geometry the __constant__ symbol holds, and the copies to and from it
// (sim/cuda/constant_owner.hpp).
static cf::cuda::ConstantBlock<Geometry> gGeometryBlock(cGeom);

void uploadGeometry(const Geometry& value, const void* owner, cudaStream_t stream) {
    gGeometryBlock.upload(value, owner, stream);
}

void bindGeometry(const Geometry& value, const void* owner, cudaStream_t stream) {
    gGeometryBlock.bind(value, owner, stream);
}

void releaseGeometry(const void* owner) {
    gGeometryBlock.release(owner);
}

void downloadGeometry(Geometry& g, cudaStream_t stream) {
    g = gGeometryBlock.download(stream);
}

void launchSweep(const SweepArgs& args, const Geometry& g, cudaStream_t stream) {
    const std::uint32_t sites = phaseSites(args, g);
    if (sites == 0) return;
    if (args.kernel == SweepKernel::Warp) {
        const WarpGrid wg = warpGridOf(g, args.axis, args.zBegin, args.zEnd);
        if (wg.blocks[1] <= 65535u) {  // grid y's limit; beyond it the tiled or per-site kernel
            const dim3 grid(wg.blocks[0], wg.blocks[1]);
            if (args.axis == 0)
                warpSweepKernel<true><<<grid, kWarpsPerBlock * kWarpLanes, 0, stream>>>(args);
            else
                warpSweepKernel<false><<<grid, kWarpsPerBlock * kWarpLanes, 0, stream>>>(args);
            CF_CUDA_CHECK_LAUNCH("lattice::warpSweepKernel", stream);
            return;
        }
    }
    const TileGrid tg = tileGridOf(g, args.axis, args.zBegin, args.zEnd);
    // Grid y and z are limited to 65535 blocks; the per-site kernel has no such limit.
    const bool fits = tg.blocks[1] <= 65535u && tg.blocks[2] <= 65535u;
    if (args.kernel == SweepKernel::PerSite || !fits) {
        sweepKernel<<<blocksFor(sites), kBlock, 0, stream>>>(args);
        CF_CUDA_CHECK_LAUNCH("lattice::sweepKernel", stream);
        return;
    }
    const dim3 grid(tg.blocks[0], tg.blocks[1], tg.blocks[2]);
    if (tg.alongX) {
        tiledSweepKernel<kTileRowsAlongX, true>
            <<<grid, dim3(kTileWidth, kTileRowsAlongX), 0, stream>>>(args);
    } else {
        tiledSweepKernel<kTileRowsAcross, false>
            <<<grid, dim3(kTileWidth, kTileRowsAcross), 0, stream>>>(args);
    }
    CF_CUDA_CHECK_LAUNCH("lattice::tiledSweepKernel", stream);
}

void launchReactions(const SweepArgs& args, const Geometry& g, cudaStream_t stream) {
    const std::uint32_t sites = phaseSites(args, g);
    if (sites == 0) return;
    reactionKernel<<<blocksFor(sites), kBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("lattice::reactionKernel", stream);
}

void launchReinsert(const SweepArgs& args, cudaStream_t stream) {
    reinsertKernel<<<1, kReinsertBlock, 0, stream>>>(args);
    CF_CUDA_CHECK_LAUNCH("lattice::reinsertKernel", stream);
}

void launchCountSpecies(const std::uint32_t* words, const std::uint8_t* types, std::uint32_t first,
                        std::uint32_t end, int speciesCount, unsigned long long* counts,
                        cudaStream_t stream) {
    if (end <= first) return;
    countKernel<<<blocksFor(end - first), kBlock, 0, stream>>>(words, types, first, end,
                                                               speciesCount, counts);
    CF_CUDA_CHECK_LAUNCH("lattice::countKernel", stream);
}

void packVolume(const std::uint32_t* words, const std::uint8_t* types, std::uint32_t sites,
                int speciesCount, float* occupancy, std::uint8_t* siteTypes, cudaStream_t stream) {
    if (sites == 0) return;
    volumeKernel<<<blocksFor(sites), kBlock, 0, stream>>>(words, types, sites, speciesCount,
                                                          occupancy, siteTypes);
    CF_CUDA_CHECK_LAUNCH("lattice::volumeKernel", stream);
}

std::size_t packViews(const std::uint32_t* words, std::uint32_t sites, float lambda,
                      cf::cuda::DeviceBuffer<std::uint32_t>& occupancy,
                      cf::cuda::DeviceBuffer<std::uint32_t>& offsets,
                      cf::cuda::DeviceBuffer<unsigned char>& scratch,
                      cf::cuda::DeviceBuffer<float>& xyzr,
                      cf::cuda::DeviceBuffer<std::uint8_t>& species, cudaStream_t stream) {
    if (sites == 0) return 0;
    occupancy.resize(sites);
    offsets.resize(sites);
    occupancyKernel<<<blocksFor(sites), kBlock, 0, stream>>>(words, sites, occupancy.data());
    CF_CUDA_CHECK_LAUNCH("lattice::occupancyKernel", stream);
    std::size_t need = 0;
    CF_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, occupancy.data(), offsets.data(),
                                                static_cast<int>(sites), stream));
    void* temp = cf::cuda::ensureScratch(scratch, need);
    CF_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, need, occupancy.data(), offsets.data(),
                                                static_cast<int>(sites), stream));
    std::uint32_t last[2] = {0, 0};
    CF_CUDA_CHECK(cudaMemcpyAsync(&last[0], offsets.data() + (sites - 1), sizeof(std::uint32_t),
                                  cudaMemcpyDeviceToHost, stream));
    CF_CUDA_CHECK(cudaMemcpyAsync(&last[1], occupancy.data() + (sites - 1), sizeof(std::uint32_t),
                                  cudaMemcpyDeviceToHost, stream));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::size_t total = static_cast<std::size_t>(last[0]) + last[1];
    xyzr.resize(4 * total);
    species.resize(total);
    if (total == 0) return 0;
    packViewsKernel<<<blocksFor(sites), kBlock, 0, stream>>>(words, sites, lambda, offsets.data(),
                                                             reinterpret_cast<float4*>(xyzr.data()),
                                                             species.data());
    CF_CUDA_CHECK_LAUNCH("lattice::packViewsKernel", stream);
    return total;
}

}  // namespace cf::lattice::cuda
