// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The per-site logic of one 1-D diffusion sweep, as host/device inline functions so the
// CPU reference and the CUDA backend run the same code and produce identical lattices.
//
// A sweep along `axis` is a GATHER: site i's new content is, in slot order,
//   1. i's own particles that stay (in their slot order),
//   2. particles of i-1 (along the axis) that move +1 (in their slot order),
//   3. particles of i+1 that move -1 (in their slot order).
// Particle (site j, slot k) decides with the 32-bit word w of
//   Philox(seed, kDiffusionStream)(step, j, axis * 4 + k / 4), word k % 4 (j the site's id
//   in the whole lattice, globalSiteOf):
//   -1 if w < Q-, +1 if 2^31 <= w < 2^31 + Q+, else stay, with Q = floor(q 2^32) and
//   q = D(species, source type, destination type) tau / lambda^2 <= 0.5 (Lattice Microbes'
// rule with u = w / 2^32, compared in integers so no rounding can differ between host and
// device). Obstacles (q = 0 into and out of them) and reflective boundaries make the
// particle stay. Every site can thus recompute its neighbours' decisions. Entries past the site's
// capacity overflow (see lattice_state.hpp for their re-insertion).
#include <cmath>  // rng.hpp uses log/sqrt without including it
#include <cstdint>

#include "sim/core/host_device.hpp"
#include "sim/core/rng.hpp"
#include "sim/models/lattice/reactions/reaction_table.hpp"
#include "sim/models/lattice/site_types.hpp"

namespace cf::lattice {

inline constexpr int kMaxSlots = 16;                // byte16 capacity, the largest
inline constexpr int kMaxGathered = 3 * kMaxSlots;  // stayers + two neighbours
inline constexpr int kSpeciesRows = 9;  // species ids 0..8 (row 0: ids without a species)
inline constexpr std::int32_t kNoSite = -1;

// Geometry and storage description, plain data for constant memory.
struct Geometry {
    std::int32_t n[3];          // sites per axis
    std::int32_t periodic[3];   // 1: wrap, 0: reflective
    std::uint32_t sites;        // n[0] n[1] n[2]
    std::int32_t layout;        // Layout: 0 packed32, 1 byte16
    std::int32_t capacity;      // particles per site
    std::int32_t bits;          // packed32: bits per particle field
    std::uint32_t fieldMask;    // packed32: (1 << bits) - 1
    std::int32_t wordsPerSite;  // 1 or 4 (planes: word w of site i at words[i + w * sites])
    std::uint32_t seed;
    // Global site ids (the random-number keys) of a piece of a larger lattice: local site i
    // is global site i + siteBase, minus siteWrap when that reaches siteWrap (a z-slab whose
    // halo planes wrap around a periodic axis). Both 0 for a whole lattice.
    std::uint32_t siteBase;
    std::uint32_t siteWrap;
    // floor(q 2^32) <= 2^31 per (species id, source type, destination type); 0 blocks.
    std::uint32_t qInt[kSpeciesRows][kSiteTypeCount][kSiteTypeCount];
    ReactionTable reactions;  // count 0: diffusion only (no reaction phase)
};

CF_HD std::uint32_t moveThreshold(const Geometry& g, std::uint16_t species, std::uint8_t from,
                                  std::uint8_t to) {
    const int row = species < kSpeciesRows ? species : 0;
    return from < kSiteTypeCount && to < kSiteTypeCount ? g.qInt[row][from][to] : 0u;
}

CF_HD std::uint32_t strideOf(const Geometry& g, int axis) {
    return axis == 0 ? 1u
                     : (axis == 1 ? static_cast<std::uint32_t>(g.n[0])
                                  : static_cast<std::uint32_t>(g.n[0]) * g.n[1]);
}

CF_HD std::int32_t coordOf(const Geometry& g, std::uint32_t i, int axis) {
    const std::uint32_t x = i % static_cast<std::uint32_t>(g.n[0]);
    if (axis == 0) return static_cast<std::int32_t>(x);
    const std::uint32_t yz = i / static_cast<std::uint32_t>(g.n[0]);
    if (axis == 1) return static_cast<std::int32_t>(yz % static_cast<std::uint32_t>(g.n[1]));
    return static_cast<std::int32_t>(yz / static_cast<std::uint32_t>(g.n[1]));
}

// The site one step along `axis` in direction `dir` (+1/-1), or kNoSite across a
// reflective boundary.
CF_HD std::int32_t neighborOf(const Geometry& g, std::uint32_t i, int axis, int dir) {
    const std::int32_t c = coordOf(g, i, axis);
    const std::int32_t n = g.n[axis];
    const std::uint32_t stride = strideOf(g, axis);
    std::int32_t c2 = c + dir;
    if (c2 < 0 || c2 >= n) {
        if (!g.periodic[axis]) return kNoSite;
        c2 = c2 < 0 ? c2 + n : c2 - n;
    }
    return static_cast<std::int32_t>(i + static_cast<std::uint32_t>(c2 - c) * stride);
}

CF_HD std::uint8_t siteType(const Geometry& g, const std::uint32_t* words,
                            const std::uint8_t* types, std::uint32_t i) {
    return g.layout == 0 ? static_cast<std::uint8_t>(words[i] >> 28) : types[i];
}

// Particles of site i into out[0..n) (slots are kept compact: the first 0 ends the list).
CF_HD int decodeSite(const Geometry& g, const std::uint32_t* words, std::uint32_t i,
                     std::uint16_t* out) {
    int n = 0;
    if (g.layout == 0) {
        const std::uint32_t w = words[i];
        for (int k = 0; k < g.capacity; ++k) {
            const std::uint32_t v = (w >> (k * g.bits)) & g.fieldMask;
            if (v == 0) break;
            out[n++] = static_cast<std::uint16_t>(v);
        }
        return n;
    }
    for (int wi = 0; wi < 4; ++wi) {
        const std::uint32_t w = words[i + static_cast<std::uint32_t>(wi) * g.sites];
        for (int b = 0; b < 4; ++b) {
            const std::uint32_t v = (w >> (8 * b)) & 0xFFu;
            if (v == 0) return n;
            out[n++] = static_cast<std::uint16_t>(v);
        }
    }
    return n;
}

// Particles in site i (slots are compact, so the first empty one ends the count).
CF_HD int countSite(const Geometry& g, const std::uint32_t* words, std::uint32_t i) {
    if (g.layout == 0) {
        const std::uint32_t w = words[i];
        int n = 0;
        while (n < g.capacity && ((w >> (n * g.bits)) & g.fieldMask) != 0)
            ++n;
        return n;
    }
    for (int wi = 0; wi < 4; ++wi) {
        const std::uint32_t w = words[i + static_cast<std::uint32_t>(wi) * g.sites];
        for (int b = 0; b < 4; ++b)
            if (((w >> (8 * b)) & 0xFFu) == 0) return 4 * wi + b;
    }
    return kMaxSlots;
}

// Writes count <= capacity particles (and, packed32, the type) to site i.
CF_HD void encodeSite(const Geometry& g, std::uint32_t* words, std::uint32_t i, std::uint8_t type,
                      const std::uint16_t* species, int count) {
    if (g.layout == 0) {
        std::uint32_t w = static_cast<std::uint32_t>(type) << 28;
        for (int k = 0; k < count; ++k)
            w |= (static_cast<std::uint32_t>(species[k]) & g.fieldMask) << (k * g.bits);
        words[i] = w;
        return;
    }
    for (int wi = 0; wi < 4; ++wi) {
        std::uint32_t w = 0;
        for (int b = 0; b < 4; ++b) {
            const int k = 4 * wi + b;
            if (k < count) w |= (static_cast<std::uint32_t>(species[k]) & 0xFFu) << (8 * b);
        }
        words[i + static_cast<std::uint32_t>(wi) * g.sites] = w;
    }
}

// -1, 0 or +1 from the draw w and the thresholds Q = floor(q 2^32) <= 2^31 of both moves.
CF_HD int moveOf(std::uint32_t w, std::uint32_t qMinus, std::uint32_t qPlus) {
    if (w < qMinus) return -1;
    if (w >= 0x80000000u && w - 0x80000000u < qPlus) return 1;
    return 0;
}

// One gathered particle: its species, where it came from (0 stayed, -1 from site i-1
// moving +1, +1 from site i+1 moving -1) and its slot there (to carry identities).
struct Gathered {
    int count;
    std::uint16_t species[kMaxGathered];
    std::int8_t from[kMaxGathered];
    std::uint8_t slot[kMaxGathered];
};

// The id of site i in the whole lattice (see Geometry::siteBase): the key of its draws, so
// that a lattice split over ranks draws the same numbers as one rank.
CF_HD std::uint32_t globalSiteOf(const Geometry& g, std::uint32_t i) {
    const std::uint64_t j = static_cast<std::uint64_t>(i) + g.siteBase;
    return static_cast<std::uint32_t>(g.siteWrap != 0u && j >= g.siteWrap ? j - g.siteWrap : j);
}

// The 32-bit draws of the particles in slots k0..k0+3 of site j (see the header comment).
CF_HD rng::Word4 drawsOf(const Geometry& g, std::uint64_t step, int axis, std::uint32_t j, int k0) {
    const rng::Philox gen(g.seed, 2u /* kDiffusionStream */);
    return gen(step, globalSiteOf(g, j), static_cast<std::uint32_t>(axis * 4 + k0 / 4));
}

CF_HD std::uint32_t wordOf(const rng::Word4& r, int k) {
    return k == 0 ? r.x : (k == 1 ? r.y : (k == 2 ? r.z : r.w));
}

// The gather of site i (src = the lattice before this sweep). Obstacle sites stay empty.
// A particle of site j leaves it by -1 iff w < Q(j -> j-1) and by +1 iff
// 2^31 <= w < 2^31 + Q(j -> j+1) (moveOf): the two ranges never overlap (Q <= 2^31), so
// whether a neighbour's particle arrives here depends only on the threshold towards i.
CF_HD void gatherSite(const Geometry& g, const std::uint32_t* src, const std::uint8_t* types,
                      std::uint64_t step, int axis, std::uint32_t i, Gathered& out) {
    out.count = 0;
    const std::uint8_t here = siteType(g, src, types, i);
    if (here == kSiteObstacle) return;
    const std::int32_t nb[2] = {neighborOf(g, i, axis, -1), neighborOf(g, i, axis, 1)};
    std::uint16_t sp[kMaxSlots];
    int n = decodeSite(g, src, i, sp);
    std::uint8_t nbType[2];  // 0xFF: no site (reflective boundary)
    for (int side = 0; side < 2; ++side)
        nbType[side] = nb[side] == kNoSite
                           ? std::uint8_t{0xFF}
                           : siteType(g, src, types, static_cast<std::uint32_t>(nb[side]));
    for (int k0 = 0; k0 < n; k0 += 4) {
        const rng::Word4 r = drawsOf(g, step, axis, i, k0);
        for (int k = k0; k < n && k < k0 + 4; ++k) {
            const int m = moveOf(wordOf(r, k - k0), moveThreshold(g, sp[k], here, nbType[0]),
                                 moveThreshold(g, sp[k], here, nbType[1]));
            if (m != 0) continue;
            out.species[out.count] = sp[k];
            out.from[out.count] = 0;
            out.slot[out.count++] = static_cast<std::uint8_t>(k);
        }
    }
    for (int side = 0; side < 2; ++side) {
        if (nb[side] == kNoSite) continue;
        const auto j = static_cast<std::uint32_t>(nb[side]);
        n = decodeSite(g, src, j, sp);
        // A particle of i-1 arrives when it moves +1, one of i+1 when it moves -1.
        for (int k0 = 0; k0 < n; k0 += 4) {
            const rng::Word4 r = drawsOf(g, step, axis, j, k0);
            for (int k = k0; k < n && k < k0 + 4; ++k) {
                const std::uint32_t w = wordOf(r, k - k0);
                const std::uint32_t q = moveThreshold(g, sp[k], nbType[side], here);
                const bool arrives = side == 0 ? (w >= 0x80000000u && w - 0x80000000u < q) : w < q;
                if (!arrives) continue;
                out.species[out.count] = sp[k];
                out.from[out.count] = static_cast<std::int8_t>(side == 0 ? -1 : 1);
                out.slot[out.count++] = static_cast<std::uint8_t>(k);
            }
        }
    }
}

}  // namespace cf::lattice
