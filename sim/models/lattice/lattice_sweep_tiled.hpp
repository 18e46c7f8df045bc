// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The diffusion sweep of lattice_sweep.hpp reorganised in tiles for the GPU: each site
// is decoded and its Philox words drawn ONCE (gatherSite recomputes both neighbours, 3x
// the work), its moves are published to shared memory, then every site gathers from its
// own and its two neighbours' published moves in gatherSite's order (stayers, arrivals
// from i-1, arrivals from i+1, each in slot order), so the lattice is bit-identical.
//
// A tile is 32 sites along x (one warp) by `Rows` sites along a second axis; with
// AlongX the sweep runs along x (rows are independent lines), otherwise along the tile's
// second axis (y or z). The sites just outside the tile along the sweep axis (the apron)
// are loaded by the tile's first and last site: an apron site only needs its moves INTO
// the tile, which depend only on the threshold towards the tile (see gatherSite).
// Everything here is host/device so the CPU tests run the same code on a tile emulated
// thread by thread (tests/sim/models/test_lattice_tiled_sweep.cpp).
#include <cstdint>

#include "sim/models/lattice/lattice_sweep.hpp"

namespace cf::lattice {

CF_HD int lowestBit(std::uint32_t m) {
#if defined(__CUDA_ARCH__)
    return __ffs(static_cast<int>(m)) - 1;
#else
    return __builtin_ctz(m);
#endif
}

CF_HD int bitCount(std::uint32_t m) {
#if defined(__CUDA_ARCH__)
    return __popc(m);
#else
    return __builtin_popcount(m);
#endif
}

inline constexpr int kThresholdCount = kSpeciesRows * kSiteTypeCount * kSiteTypeCount;

// moveThreshold on a copy of Geometry::qInt flattened in its own order (shared memory on
// the device: lanes look up different entries, which constant memory would serialise).
CF_HD std::uint32_t thresholdIn(const std::uint32_t* q, std::uint16_t species, std::uint8_t from,
                                std::uint8_t to) {
    const int row = species < kSpeciesRows ? species : 0;
    return from < kSiteTypeCount && to < kSiteTypeCount
               ? q[(row * kSiteTypeCount + from) * kSiteTypeCount + to]
               : 0u;
}

// Species in slot k of a site whose words are at w[0], w[stride], ... (decodeSite's value).
CF_HD std::uint16_t speciesAt(const Geometry& g, const std::uint32_t* w, std::uint32_t stride,
                              int k) {
    if (g.layout == 0) return static_cast<std::uint16_t>((w[0] >> (k * g.bits)) & g.fieldMask);
    return static_cast<std::uint16_t>(
        (w[static_cast<std::uint32_t>(k >> 2) * stride] >> (8 * (k & 3))) & 0xFFu);
}

// Copies the words of site j that hold particles to w[p * stride] (byte16 reads a plane
// only when the previous one is full) and returns decodeSite's count.
CF_HD int loadSiteWords(const Geometry& g, const std::uint32_t* src, std::uint32_t j,
                        std::uint32_t* w, std::uint32_t stride) {
    if (g.layout == 0) {
        const std::uint32_t v = src[j];
        w[0] = v;
        int n = 0;
        while (n < g.capacity && ((v >> (n * g.bits)) & g.fieldMask) != 0)
            ++n;
        return n;
    }
    for (int p = 0; p < 4; ++p) {
        const std::uint32_t v = src[j + static_cast<std::uint32_t>(p) * g.sites];
        w[static_cast<std::uint32_t>(p) * stride] = v;
        for (int b = 0; b < 4; ++b)
            if (((v >> (8 * b)) & 0xFFu) == 0) return 4 * p + b;
    }
    return kMaxSlots;
}

// The moves of the `count` particles of site j (type `here`, neighbour types typeMinus and
// typePlus, 0xFF for none): bit k set = slot k moves +1, bit 16 + k set = it moves -1.
CF_HD std::uint32_t siteMoves(const Geometry& g, const std::uint32_t* q, const std::uint32_t* w,
                              std::uint32_t stride, int count, std::uint64_t step, int axis,
                              std::uint32_t j, std::uint8_t here, std::uint8_t typeMinus,
                              std::uint8_t typePlus) {
    std::uint32_t moves = 0;
    for (int k0 = 0; k0 < count; k0 += 4) {
        const rng::Word4 r = drawsOf(g, step, axis, j, k0);
        for (int k = k0; k < count && k < k0 + 4; ++k) {
            const std::uint16_t s = speciesAt(g, w, stride, k);
            const int m = moveOf(wordOf(r, k - k0), thresholdIn(q, s, here, typeMinus),
                                 thresholdIn(q, s, here, typePlus));
            if (m > 0) moves |= 1u << k;
            if (m < 0) moves |= 1u << (16 + k);
        }
    }
    return moves;
}

inline constexpr int kTileWidth = 32;       // sites along x: one warp
inline constexpr int kTileRowsAlongX = 8;   // rows of an x sweep's tile (independent lines)
inline constexpr int kTileRowsAcross = 16;  // tile length along y or z (apron 2 of 18 rows)

// The shared memory of one tile: words and moves per slot (tile sites and apron), and the
// threshold table.
template <int Rows, bool AlongX>
struct SweepTile {
    static constexpr int kRows = Rows;
    static constexpr bool kAlongX = AlongX;
    static constexpr int kSlots = AlongX ? Rows * (kTileWidth + 2) : (Rows + 2) * kTileWidth;
    static constexpr int kStep = AlongX ? 1 : kTileWidth;  // slot distance of neighbours
    std::uint32_t words[4][kSlots];                        // byte16 planes; packed32 uses plane 0
    std::uint32_t moves[kSlots];  // siteMoves' bits (apron: only those into the tile)
    std::uint32_t q[kThresholdCount];
};

// One thread's site in a tile.
struct TileSite {
    bool valid;  // inside the lattice
    bool first;  // first / last site of the tile along the sweep axis: they load the apron
    bool last;
    int slot;
    std::uint32_t i;
    std::int32_t left;  // neighbours along the axis, kNoSite across a reflective boundary
    std::int32_t right;
};

// The grid of a tiled sweep along `axis`: x tiles, tiles along the second axis (y, or z for
// axis 2), and the third coordinate (z, or y for axis 2). Only z-planes [zBegin, zEnd) are
// swept (zEnd < 0: to the last plane): a z-slab's own planes, or part of them
// (lattice_slab.hpp); the other planes are read, never written.
struct TileGrid {
    std::uint32_t blocks[3];
    int rows;
    bool alongX;
};

inline TileGrid tileGridOf(const Geometry& g, int axis, std::int32_t zBegin = 0,
                           std::int32_t zEnd = -1) {
    TileGrid t{};
    t.alongX = axis == 0;
    t.rows = t.alongX ? kTileRowsAlongX : kTileRowsAcross;
    const std::int32_t planes = (zEnd < 0 ? g.n[2] : zEnd) - zBegin;
    t.blocks[0] = static_cast<std::uint32_t>((g.n[0] + kTileWidth - 1) / kTileWidth);
    if (axis == 2) {
        t.blocks[1] = static_cast<std::uint32_t>((planes + t.rows - 1) / t.rows);
        t.blocks[2] = static_cast<std::uint32_t>(g.n[1]);
    } else {
        t.blocks[1] = static_cast<std::uint32_t>((g.n[1] + t.rows - 1) / t.rows);
        t.blocks[2] = static_cast<std::uint32_t>(planes);
    }
    return t;
}

// Thread (tx, ty) of block (bx, by, bz) of tileGridOf(g, axis, zBegin, zEnd): coordinates by
// multiplication only (the per-site kernel's divisions by runtime sizes were a large part of
// its instructions). A z sweep's tiles start at zBegin and end at zEnd at the latest: the
// tile's last valid site then loads the apron from the plane above, as at the lattice's end.
template <class Tile>
CF_HD TileSite tileSiteOf(const Geometry& g, int axis, std::uint32_t bx, std::uint32_t by,
                          std::uint32_t bz, int tx, int ty, std::int32_t zBegin = 0,
                          std::int32_t zEnd = -1) {
    const auto z0 = static_cast<std::uint32_t>(zBegin);
    const auto z1 = static_cast<std::uint32_t>(zEnd < 0 ? g.n[2] : zEnd);
    const std::uint32_t x = bx * kTileWidth + static_cast<std::uint32_t>(tx);
    const std::uint32_t r = by * Tile::kRows + static_cast<std::uint32_t>(ty);
    const std::uint32_t y = axis == 2 ? bz : r;
    const std::uint32_t z = z0 + (axis == 2 ? r : bz);
    const auto n0 = static_cast<std::uint32_t>(g.n[0]), n1 = static_cast<std::uint32_t>(g.n[1]);
    TileSite t{};
    t.valid = x < n0 && y < n1 && z < z1;
    t.i = x + n0 * (y + n1 * z);
    t.slot = Tile::kAlongX ? ty * (kTileWidth + 2) + tx + 1 : (ty + 1) * kTileWidth + tx;
    const std::uint32_t c = axis == 0 ? x : (axis == 1 ? y : z);
    const std::uint32_t start =
        Tile::kAlongX ? bx * kTileWidth : (axis == 2 ? z0 : 0u) + by * Tile::kRows;
    const std::uint32_t n = axis == 0 ? n0 : (axis == 1 ? n1 : static_cast<std::uint32_t>(g.n[2]));
    const std::uint32_t limit = axis == 2 ? z1 : n;  // the tile's last site is below it
    const std::uint32_t end = start + (Tile::kAlongX ? kTileWidth : Tile::kRows) < limit
                                  ? start + (Tile::kAlongX ? kTileWidth : Tile::kRows)
                                  : limit;
    t.first = c == start;
    t.last = c + 1 == end;
    const std::uint32_t stride = axis == 0 ? 1u : (axis == 1 ? n0 : n0 * n1);
    const bool wrap = g.periodic[axis] != 0;
    const auto back = static_cast<std::int32_t>(t.i + (n - 1) * stride);   // c = 0 -> n - 1
    const auto front = static_cast<std::int32_t>(t.i - (n - 1) * stride);  // c = n - 1 -> 0
    t.left = c > 0 ? static_cast<std::int32_t>(t.i - stride) : (wrap ? back : kNoSite);
    t.right = c + 1 < n ? static_cast<std::int32_t>(t.i + stride) : (wrap ? front : kNoSite);
    return t;
}

// What a thread keeps from the publish phase for its gather.
struct OwnSite {
    int count;
    std::uint32_t moves;
    std::uint8_t type;
};

// Apron site j (kNoSite: none) next to a tile site of type `inner`: loads its words and
// publishes only its moves into the tile (+1 when j is before the tile, -1 after it).
template <class Tile>
CF_HD void publishApron(const Geometry& g, const std::uint32_t* src, const std::uint8_t* types,
                        std::uint64_t step, int axis, std::int32_t j, std::uint8_t inner,
                        bool before, int slot, Tile& tile) {
    std::uint32_t moves = 0;
    if (j != kNoSite) {
        const auto js = static_cast<std::uint32_t>(j);
        const int n = loadSiteWords(g, src, js, &tile.words[0][slot], Tile::kSlots);
        if (n > 0) {
            const std::uint8_t tj = siteType(g, src, types, js);
            moves = before ? siteMoves(g, tile.q, &tile.words[0][slot], Tile::kSlots, n, step, axis,
                                       js, tj, 0xFF, inner) &
                                 0xFFFFu
                           : siteMoves(g, tile.q, &tile.words[0][slot], Tile::kSlots, n, step, axis,
                                       js, tj, inner, 0xFF) &
                                 0xFFFF0000u;
        }
    }
    tile.moves[slot] = moves;
}

// Phase 1 (after tile.q is filled): the site's words and moves, and the apron's.
template <class Tile>
CF_HD OwnSite publishSite(const Geometry& g, const std::uint32_t* src, const std::uint8_t* types,
                          std::uint64_t step, int axis, const TileSite& t, Tile& tile) {
    OwnSite o{0, 0u, 0};
    if (!t.valid) return o;
    o.type = siteType(g, src, types, t.i);
    o.count = loadSiteWords(g, src, t.i, &tile.words[0][t.slot], Tile::kSlots);
    if (o.count > 0) {
        // Neighbour types only where there are particles: most sites are empty.
        const std::uint8_t minus =
            t.left == kNoSite ? std::uint8_t{0xFF}
                              : siteType(g, src, types, static_cast<std::uint32_t>(t.left));
        const std::uint8_t plus =
            t.right == kNoSite ? std::uint8_t{0xFF}
                               : siteType(g, src, types, static_cast<std::uint32_t>(t.right));
        o.moves = siteMoves(g, tile.q, &tile.words[0][t.slot], Tile::kSlots, o.count, step, axis,
                            t.i, o.type, minus, plus);
    }
    tile.moves[t.slot] = o.moves;
    if (t.first)
        publishApron(g, src, types, step, axis, t.left, o.type, true, t.slot - Tile::kStep, tile);
    if (t.last)
        publishApron(g, src, types, step, axis, t.right, o.type, false, t.slot + Tile::kStep, tile);
    return o;
}

// The three groups of a site's gather as slot masks.
struct GatherMasks {
    std::uint32_t stay;       // own slots
    std::uint32_t fromLeft;   // slots of i-1 moving +1
    std::uint32_t fromRight;  // slots of i+1 moving -1
    int total;
};

// Phase 2 (after the tile is published). An obstacle site gathers nothing (gatherSite).
template <class Tile>
CF_HD GatherMasks gatherMasksOf(const TileSite& t, const OwnSite& o, const Tile& tile) {
    GatherMasks m{0u, 0u, 0u, 0};
    if (!t.valid || o.type == kSiteObstacle) return m;
    m.stay = ((1u << o.count) - 1u) & ~(o.moves | (o.moves >> 16));
    m.fromLeft = t.left == kNoSite ? 0u : tile.moves[t.slot - Tile::kStep] & 0xFFFFu;
    m.fromRight = t.right == kNoSite ? 0u : tile.moves[t.slot + Tile::kStep] >> 16;
    m.total = bitCount(m.stay) + bitCount(m.fromLeft) + bitCount(m.fromRight);
    return m;
}

// Calls emit(species, from, slot, fromSite) for each gathered particle in gatherSite's
// order; from is 0 (stayed), -1 (from i-1) or +1 (from i+1), as in Gathered.
template <class Tile, class Emit>
CF_HD void forEachGathered(const Geometry& g, const TileSite& t, const GatherMasks& m,
                           const Tile& tile, Emit&& emit) {
    for (std::uint32_t b = m.stay; b != 0; b &= b - 1) {
        const int k = lowestBit(b);
        emit(speciesAt(g, &tile.words[0][t.slot], Tile::kSlots, k), 0, k, t.i);
    }
    for (std::uint32_t b = m.fromLeft; b != 0; b &= b - 1) {
        const int k = lowestBit(b);
        emit(speciesAt(g, &tile.words[0][t.slot - Tile::kStep], Tile::kSlots, k), -1, k,
             static_cast<std::uint32_t>(t.left));
    }
    for (std::uint32_t b = m.fromRight; b != 0; b &= b - 1) {
        const int k = lowestBit(b);
        emit(speciesAt(g, &tile.words[0][t.slot + Tile::kStep], Tile::kSlots, k), 1, k,
             static_cast<std::uint32_t>(t.right));
    }
}

// encodeSite one particle at a time into words kept in registers (constant indices only):
// slot k of out; the caller adds the packed32 type (type << 28) at the end.
CF_HD void packInto(const Geometry& g, std::uint32_t (&out)[4], int k, std::uint16_t species) {
    if (g.layout == 0) {
        out[0] |= (static_cast<std::uint32_t>(species) & g.fieldMask) << (k * g.bits);
        return;
    }
    const std::uint32_t v = (static_cast<std::uint32_t>(species) & 0xFFu) << (8 * (k & 3));
    const int p = k >> 2;
    out[0] |= p == 0 ? v : 0u;
    out[1] |= p == 1 ? v : 0u;
    out[2] |= p == 2 ? v : 0u;
    out[3] |= p == 3 ? v : 0u;
}

// Writes a gathered site: out from packInto with `keep` particles; packed32 adds the type.
// byte16 writes planes 1-3 only where the new content reaches them or the old content of
// dst may: dst holds the lattice of two sweeps ago and, when `dstClean`, has zero bytes past
// every site's count, so a zero top byte in its plane 0 (count < 4) means planes 1-3 are
// zero already. At low density that writes 4 bytes per site instead of 16 (and reads 4).
// The result equals encodeSite's in every plane.
CF_HD void storeSite(const Geometry& g, std::uint32_t* dst, std::uint32_t i,
                     const std::uint32_t (&out)[4], int keep, std::uint8_t type, bool dstClean) {
    if (g.layout == 0) {
        dst[i] = out[0] | (static_cast<std::uint32_t>(type) << 28);
        return;
    }
    const bool oldLong = !dstClean || (dst[i] >> 24) != 0u;
    dst[i] = out[0];
    if (oldLong || keep > 4) dst[i + g.sites] = out[1];
    if (oldLong || keep > 8) dst[i + 2 * g.sites] = out[2];
    if (oldLong || keep > 12) dst[i + 3 * g.sites] = out[3];
}

}  // namespace cf::lattice
