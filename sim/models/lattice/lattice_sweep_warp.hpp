// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The diffusion sweep of lattice_sweep.hpp organised by warps (the CUDA kernel
// warpSweepKernel in cuda/lattice_kernels.cu; the default sweep). Same lattice bit for bit:
// every site gathers its stayers, then the arrivals from i-1, then those from i+1, each in
// slot order, with the same Philox words and thresholds as gatherSite.
//
// What it changes against the per-site and tiled kernels (why: docs/reference/
// performance-history.md, 2026-11-22; measured: docs/PERFORMANCE.md, 2026-11-29):
// - A lane holds kWarpRows sites ("slots") in registers. For a y or z sweep the lanes are 32
//   consecutive x and each lane walks kWarpRows sites along the sweep axis, with one apron
//   slot before and after them (the neighbours come from the lane's own registers); for an x
//   sweep lanes 1..30 own consecutive x, lanes 0 and 31 hold the apron, and each slot is a
//   different line (the neighbours come from the next lanes by shuffles). No shared tile,
//   no block barrier per site, and only plane 0 and the type byte are read per site.
// - Each site is decoded and drawn once. The Philox words are drawn only for occupied
//   sites, and the occupied sites of the whole warp (about 10 % of 256-320 sites at the
//   usual 0.1 particles per site) are compacted into one job list, so one pass of 32 lanes
//   serves 32 occupied sites instead of running Philox divergently in almost every warp.
// - Sites with more than one word of draws (byte16 with 4 or more particles, packed32 with
//   more than 4) and their two neighbours take the per-site path (gatherSite itself): rare at
//   usual occupancies, and exact by construction.
// Everything but the warp exchanges (shuffles, the job list in shared memory, both left to
// the kernel) is host/device, so tests/sim/models/test_lattice_warp_sweep.cpp runs these
// functions on emulated warps and compares every gather with gatherSite.
#include <cstdint>

#include "sim/models/lattice/lattice_sweep_tiled.hpp"

// Loops over a lane's slots are unrolled so the slot arrays stay in registers (an array
// indexed at run time would go to local memory).
#if defined(__CUDA_ARCH__)
#define CF_LATTICE_UNROLL _Pragma("unroll")
#else
#define CF_LATTICE_UNROLL
#endif

namespace cf::lattice {

inline constexpr int kWarpLanes = 32;
inline constexpr int kWarpRows = 8;                      // sites a lane gathers
inline constexpr int kWarpOwnedAlongX = kWarpLanes - 2;  // x sweep: lanes 1..30 gather
inline constexpr int kWarpsPerBlock = 4;
inline constexpr std::uint32_t kNoType = 0xFFu;  // a slot without a site

// The slots of a lane: along x one per line (kWarpRows lines); along y or z kWarpRows sites
// of one line and the apron slots 0 and kWarpRows + 1.
template <bool AlongX>
struct WarpStrip {
    static constexpr bool kAlongX = AlongX;
    static constexpr int kSlots = AlongX ? kWarpRows : kWarpRows + 2;
    static constexpr int kJobs = kWarpLanes * kSlots;  // at most one job per slot
};

// One lane's slots, in as few registers as the fast path allows (a lane holds up to 10):
// types and moves packed four to a word, sites computed from the first, flags as masks
// (bit s of a mask is slot s).
template <int S>
struct WarpLane {
    static constexpr int kPacked = (S + 3) / 4;
    std::uint32_t word[S];         // plane 0 (byte16) or the word (packed32); 0 without a site
    std::uint32_t types[kPacked];  // byte s % 4 of types[s / 4]: kNoType without a site
    std::uint32_t moves[kPacked];  // byte s % 4 of moves[s / 4]: packMoves of slot s
    std::uint32_t first;           // site of slot 0 before wrapping (modulo 2^32)
    std::uint32_t stride;          // site distance of consecutive slots
    std::uint32_t span;            // what wrapping around the sweep axis adds or takes
    std::uint32_t wrapUp;          // slots before position 0: site + span
    std::uint32_t wrapDown;        // slots past the axis' end: site - span
    std::uint32_t owned;           // slots this lane gathers and writes
    std::uint32_t present;         // slots holding a site (owned, or apron not past a wall)
    std::uint32_t apronLeft;       // slots before the strip: only their +1 moves are used
    std::uint32_t apronRight;      // slots after the strip: only their -1 moves are used
    std::uint32_t longSites;       // more particles than one draw word serves
    std::uint32_t busy;            // present, occupied and not long: one Philox job each
    std::uint32_t oldLong;         // byte16, owned: dst's plane 0 is full (planes 1-3 may not be 0)
};

// The site of slot s (where `present`).
template <int S>
CF_HD std::uint32_t siteOf(const WarpLane<S>& l, int s) {
    const std::uint32_t up = ((l.wrapUp >> s) & 1u) != 0u ? l.span : 0u;
    const std::uint32_t down = ((l.wrapDown >> s) & 1u) != 0u ? l.span : 0u;
    return l.first + static_cast<std::uint32_t>(s) * l.stride + up - down;
}

// Byte s % 4 of a packed array.
template <int P>
CF_HD std::uint32_t byteOf(const std::uint32_t (&v)[P], int s) {
    return (v[s / 4] >> (8 * (s % 4))) & 0xFFu;
}

// siteMoves' bits of slots 0-3 (bit k +1, bit 16 + k -1) in one byte and back.
CF_HD std::uint32_t packMoves(std::uint32_t m) {
    return (m & 0xFu) | ((m >> 12) & 0xF0u);
}
CF_HD std::uint32_t unpackMoves(std::uint32_t b) {
    return (b & 0xFu) | ((b & 0xF0u) << 12);
}

// The type and the moves (siteMoves' bits) of slot s.
template <int S>
CF_HD std::uint32_t typeOf(const WarpLane<S>& l, int s) {
    return byteOf(l.types, s);
}
template <int S>
CF_HD std::uint32_t movesOf(const WarpLane<S>& l, int s) {
    return unpackMoves(byteOf(l.moves, s));
}

// The warp sweep's grid along `axis` for planes [zBegin, zEnd): blocks[0] along x, blocks[1]
// the warps (kWarpsPerBlock a block) over lines (x sweep) or (segment, line) pairs.
struct WarpGrid {
    std::uint32_t blocks[2];
    std::uint32_t warps;     // warps with work
    std::uint32_t segments;  // y, z sweeps: strips of kWarpRows along each line
};

CF_HD WarpGrid warpGridOf(const Geometry& g, int axis, std::int32_t zBegin, std::int32_t zEnd) {
    WarpGrid w{{0u, 0u}, 0u, 0u};
    const auto n0 = static_cast<std::uint32_t>(g.n[0]), n1 = static_cast<std::uint32_t>(g.n[1]);
    const auto planes = static_cast<std::uint32_t>(zEnd - zBegin);
    if (axis == 0) {
        w.blocks[0] = (n0 + kWarpOwnedAlongX - 1) / kWarpOwnedAlongX;
        w.segments = 1;
        w.warps = (planes * n1 + kWarpRows - 1) / kWarpRows;
    } else {
        w.blocks[0] = (n0 + kWarpLanes - 1) / kWarpLanes;
        const std::uint32_t length = axis == 1 ? n1 : planes;
        w.segments = (length + kWarpRows - 1) / kWarpRows;
        w.warps = w.segments * (axis == 1 ? planes : n1);
    }
    w.blocks[1] = (w.warps + kWarpsPerBlock - 1) / kWarpsPerBlock;
    return w;
}

// Places lane `lane` of warp `warp` (blockIdx.y * kWarpsPerBlock + warp in block) in x block
// `bx`: the site of each slot and the roles. A strip covers positions c0 .. c0 + ownedN - 1
// along the axis; position c0 - 1 + j is slot j (y, z) or lane j (x), so the apron is
// j = 0 and j = ownedN + 1, wrapped on a periodic axis and absent on a reflective one.
template <class Strip>
CF_HD void placeLane(const Geometry& g, int axis, const WarpGrid& grid, std::uint32_t bx,
                     std::uint32_t warp, int lane, std::int32_t zBegin, std::int32_t zEnd,
                     WarpLane<Strip::kSlots>& l) {
    const auto n0 = static_cast<std::int32_t>(g.n[0]), n1 = static_cast<std::int32_t>(g.n[1]);
    const std::int32_t n = g.n[axis];
    const bool wrap = g.periodic[axis] != 0;
    const std::uint32_t axisStride = strideOf(g, axis);
    l.owned = l.present = l.apronLeft = l.apronRight = l.wrapUp = l.wrapDown = 0u;
    l.span = static_cast<std::uint32_t>(n) * axisStride;
    std::int32_t c0 = 0, ownedN = 0, line0 = 0;
    bool live = warp < grid.warps;
    if constexpr (Strip::kAlongX) {
        c0 = static_cast<std::int32_t>(bx) * kWarpOwnedAlongX;
        ownedN = n0 - c0 < kWarpOwnedAlongX ? n0 - c0 : kWarpOwnedAlongX;
        line0 = zBegin * n1 + static_cast<std::int32_t>(warp) * kWarpRows;
        // The lane's position, wrapped; each slot is the next line.
        std::int32_t c = c0 - 1 + lane;
        if (c < 0) c += n;
        if (c >= n) c -= n;
        l.first = static_cast<std::uint32_t>(c) +
                  static_cast<std::uint32_t>(n0) * static_cast<std::uint32_t>(line0);
        l.stride = static_cast<std::uint32_t>(n0);
    } else {
        const std::int32_t x = static_cast<std::int32_t>(bx) * kWarpLanes + lane;
        live = live && x < n0;
        const auto seg = static_cast<std::int32_t>(warp % grid.segments);
        const auto other = warp / grid.segments;  // z - zBegin (y sweep) or y (z sweep)
        c0 = (axis == 2 ? zBegin : 0) + seg * kWarpRows;
        const std::int32_t limit = axis == 2 ? zEnd : n1;
        ownedN = limit - c0 < kWarpRows ? limit - c0 : kWarpRows;
        // Slot s at position c0 - 1 + s (modulo 2^32 for c0 = 0: wrapUp adds the span).
        const std::uint32_t across = axis == 1 ? static_cast<std::uint32_t>(n0 * n1) *
                                                     (static_cast<std::uint32_t>(zBegin) + other)
                                               : static_cast<std::uint32_t>(n0) * other;
        l.first = static_cast<std::uint32_t>(x) + across +
                  static_cast<std::uint32_t>(c0 - 1) * axisStride;
        l.stride = axisStride;
    }
    CF_LATTICE_UNROLL
    for (int s = 0; s < Strip::kSlots; ++s) {
        const std::int32_t j = Strip::kAlongX ? lane : s;
        const bool rowLive = Strip::kAlongX ? live && line0 + s < zEnd * n1 : live;
        if (!rowLive || j > ownedN + 1) continue;
        const std::uint32_t bit = 1u << s;
        if (j >= 1 && j <= ownedN) l.owned |= bit;
        if (j == 0) l.apronLeft |= bit;
        if (j == ownedN + 1) l.apronRight |= bit;
        const std::int32_t c = c0 - 1 + j;
        if ((c < 0 || c >= n) && !wrap) continue;  // across a reflective end: no site
        if (!Strip::kAlongX && c < 0) l.wrapUp |= bit;
        if (!Strip::kAlongX && c >= n) l.wrapDown |= bit;
        l.present |= bit;
    }
}

// Particles in word w when the fast path takes the site: 0..4; 5 when it does not (byte16:
// all four bytes of plane 0 used, so the planes above may hold more; packed32: more than 4,
// a second Philox word). Equals decodeSite's count where it is below 5 (below 4, byte16).
CF_HD std::uint32_t shortCount(const Geometry& g, std::uint32_t w) {
    if (g.layout == 0) {
        std::uint32_t n = 0;
        const std::uint32_t cap = g.capacity < 5 ? static_cast<std::uint32_t>(g.capacity) : 5u;
        while (n < cap && ((w >> (n * static_cast<std::uint32_t>(g.bits))) & g.fieldMask) != 0)
            ++n;
        return n;
    }
    // The first zero byte of plane 0 without a loop: the lowest byte flagged by
    // (w - 0x01..) & ~w & 0x80.. is the first zero byte (a borrow only carries upwards
    // from a zero byte, so nothing below it is flagged).
    const std::uint32_t zero = (w - 0x01010101u) & ~w & 0x80808080u;
    return zero == 0u ? 5u : static_cast<std::uint32_t>(lowestBit(zero)) / 8u;
}

// Species in slot k < 4 of a word (speciesAt's value).
CF_HD std::uint16_t speciesIn(const Geometry& g, std::uint32_t w, int k) {
    if (g.layout == 0) return static_cast<std::uint16_t>((w >> (k * g.bits)) & g.fieldMask);
    return static_cast<std::uint16_t>((w >> (8 * k)) & 0xFFu);
}

// Reads the present slots: plane 0 (or the word) and the type, and where `readOld` (byte16
// with a clean dst) dst's plane 0 of the owned ones, which decides the planes storeShort
// writes. Loads first: every lane issues its slots' loads before using any.
template <int S>
CF_HD void loadLane(const Geometry& g, const std::uint32_t* src, const std::uint8_t* types,
                    const std::uint32_t* dst, bool readOld, WarpLane<S>& l) {
    std::uint32_t type[S], old[S];
    CF_LATTICE_UNROLL
    for (int s = 0; s < S; ++s) {
        const std::uint32_t bit = 1u << s;
        l.word[s] = 0u;
        type[s] = kNoType;
        old[s] = 0u;
        if ((l.present & bit) == 0u) continue;
        const std::uint32_t i = siteOf(l, s);
        const std::uint32_t w = src[i];
        l.word[s] = w;
        type[s] = g.layout == 0 ? (w >> 28) : types[i];
        if (readOld && (l.owned & bit) != 0u) old[s] = dst[i];
    }
    l.longSites = l.busy = l.oldLong = 0u;
    CF_LATTICE_UNROLL
    for (int p = 0; p < WarpLane<S>::kPacked; ++p)
        l.types[p] = l.moves[p] = 0u;
    CF_LATTICE_UNROLL
    for (int s = 0; s < S; ++s) {
        const std::uint32_t bit = 1u << s;
        l.types[s / 4] |= type[s] << (8 * (s % 4));
        const std::uint32_t n = shortCount(g, l.word[s]);
        if (n > 4) l.longSites |= bit;
        if (n > 0 && n <= 4) l.busy |= bit;  // a slot without a site has word 0
        if ((old[s] >> 24) != 0u) l.oldLong |= bit;
    }
}

// A job's neighbour types: an apron slot draws only towards the strip (its other side is
// kNoType, threshold 0: siteMoves' bits into the strip depend only on the threshold towards
// it, see gatherSite).
CF_HD std::uint32_t jobInfo(std::uint32_t here, std::uint32_t minus, std::uint32_t plus,
                            std::uint32_t count, bool apronLeft, bool apronRight) {
    return (here & 0xFFu) | ((apronLeft ? kNoType : minus & 0xFFu) << 8) |
           ((apronRight ? kNoType : plus & 0xFFu) << 16) | (count << 24);
}

// siteMoves for the <= 4 particles of one word: bit k moves +1, bit 16 + k moves -1.
CF_HD std::uint32_t jobMoves(const Geometry& g, const std::uint32_t* q, std::uint64_t step,
                             int axis, std::uint32_t site, std::uint32_t word, std::uint32_t info) {
    const auto here = static_cast<std::uint8_t>(info & 0xFFu);
    const auto minus = static_cast<std::uint8_t>((info >> 8) & 0xFFu);
    const auto plus = static_cast<std::uint8_t>((info >> 16) & 0xFFu);
    const int count = static_cast<int>(info >> 24);
    const rng::Word4 r = drawsOf(g, step, axis, site, 0);
    std::uint32_t moves = 0;
    for (int k = 0; k < 4; ++k) {
        if (k >= count) break;
        const std::uint16_t s = speciesIn(g, word, k);
        const int m =
            moveOf(wordOf(r, k), thresholdIn(q, s, here, minus), thresholdIn(q, s, here, plus));
        if (m > 0) moves |= 1u << k;
        if (m < 0) moves |= 1u << (16 + k);
    }
    return moves;
}

// What a slot sees of one neighbour along the axis (zeros where there is none).
struct WarpSide {
    std::uint32_t word;
    std::uint32_t moves;
    std::uint32_t site;
};

// The gather masks of a short site with short neighbours (gatherMasksOf's values).
CF_HD GatherMasks shortMasks(const Geometry& g, std::uint32_t type, std::uint32_t word,
                             std::uint32_t moves, const WarpSide& left, const WarpSide& right) {
    GatherMasks m{0u, 0u, 0u, 0};
    if (type == kSiteObstacle) return m;
    const std::uint32_t count = shortCount(g, word);
    m.stay = ((1u << count) - 1u) & ~(moves | (moves >> 16));
    m.fromLeft = left.moves & 0xFFFFu;
    m.fromRight = right.moves >> 16;
    m.total = bitCount(m.stay) + bitCount(m.fromLeft) + bitCount(m.fromRight);
    return m;
}

// Calls emit(species, from, slot, fromSite) in gatherSite's order (forEachGathered's
// contract) with the words from registers.
template <class Emit>
CF_HD void forEachShort(const Geometry& g, const GatherMasks& m, std::uint32_t word,
                        std::uint32_t site, const WarpSide& left, const WarpSide& right,
                        Emit&& emit) {
    for (std::uint32_t b = m.stay; b != 0; b &= b - 1) {
        const int k = lowestBit(b);
        emit(speciesIn(g, word, k), 0, k, site);
    }
    for (std::uint32_t b = m.fromLeft; b != 0; b &= b - 1) {
        const int k = lowestBit(b);
        emit(speciesIn(g, left.word, k), -1, k, left.site);
    }
    for (std::uint32_t b = m.fromRight; b != 0; b &= b - 1) {
        const int k = lowestBit(b);
        emit(speciesIn(g, right.word, k), 1, k, right.site);
    }
}

// storeSite with dst's plane 0 read beforehand: `oldFull` is its top byte not being zero,
// only looked at when dstClean.
CF_HD void storeShort(const Geometry& g, std::uint32_t* dst, std::uint32_t i,
                      const std::uint32_t (&out)[4], int keep, std::uint32_t type, bool dstClean,
                      bool oldFull) {
    if (g.layout == 0) {
        dst[i] = out[0] | (type << 28);
        return;
    }
    const bool oldLong = !dstClean || oldFull;
    dst[i] = out[0];
    if (oldLong || keep > 4) dst[i + g.sites] = out[1];
    if (oldLong || keep > 8) dst[i + 2 * g.sites] = out[2];
    if (oldLong || keep > 12) dst[i + 3 * g.sites] = out[3];
}

}  // namespace cf::lattice
