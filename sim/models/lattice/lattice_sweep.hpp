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
//   Philox(seed, kDiffusionStream)(step, j, axis * 4 + k / 4), word k % 4:
//   -1 if w < Q, +1 if 2^31 <= w < 2^31 + Q, else stay, with Q = floor(q 2^32) and
//   q = D tau / lambda^2 <= 0.5 (Lattice Microbes' rule with u = w / 2^32, compared in
// integers so no rounding can differ between host and device). A destination that is an
// obstacle or across a reflective boundary makes the particle stay. Every site can thus
// recompute its neighbours' decisions. Entries past the site's capacity overflow (see
// lattice_model.hpp for their re-insertion).
#include <cmath>  // rng.hpp uses log/sqrt without including it
#include <cstdint>

#include "sim/core/hd.hpp"
#include "sim/core/rng.hpp"

namespace cf::lattice {

inline constexpr int kMaxSlots = 16;                // byte16 capacity, the largest
inline constexpr int kMaxGathered = 3 * kMaxSlots;  // stayers + two neighbours
inline constexpr std::uint8_t kTypeFree = 0;
inline constexpr std::uint8_t kTypeObstacle = 1;
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
    std::uint32_t qInt[16];  // per species id (index 0 unused): floor(q 2^32), <= 2^31
};

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

// -1, 0 or +1 from the draw w and the species' threshold Q = floor(q 2^32) <= 2^31.
CF_HD int moveOf(std::uint32_t w, std::uint32_t q) {
    if (w < q) return -1;
    if (w >= 0x80000000u && w - 0x80000000u < q) return 1;
    return 0;
}

// Decisions of the `count` particles of site j in this sweep, after obstacles and
// reflective boundaries (a blocked move is a stay).
CF_HD void decideSite(const Geometry& g, const std::uint32_t* words, const std::uint8_t* types,
                      std::uint64_t step, int axis, std::uint32_t j, const std::uint16_t* species,
                      int count, std::int8_t* move) {
    const rng::Philox gen(g.seed, 2u /* kDiffusionStream */);
    std::int32_t dest[2] = {-2, -2};  // lazily resolved blocked flags for -1 / +1
    for (int k0 = 0; k0 < count; k0 += 4) {
        const rng::Word4 r = gen(step, j, static_cast<std::uint32_t>(axis * 4 + k0 / 4));
        const std::uint32_t w4[4] = {r.x, r.y, r.z, r.w};
        for (int k = k0; k < count && k < k0 + 4; ++k) {
            int m = moveOf(w4[k - k0], g.qInt[species[k] & 15u]);
            if (m != 0) {
                std::int32_t& d = dest[m > 0 ? 1 : 0];
                if (d == -2) {
                    const std::int32_t nb = neighborOf(g, j, axis, m);
                    d = (nb == kNoSite ||
                         siteType(g, words, types, static_cast<std::uint32_t>(nb)) != kTypeFree)
                            ? 0
                            : 1;
                }
                if (d == 0) m = 0;
            }
            move[k] = static_cast<std::int8_t>(m);
        }
    }
}

// One gathered particle: its species, where it came from (0 stayed, -1 from site i-1
// moving +1, +1 from site i+1 moving -1) and its slot there (to carry identities).
struct Gathered {
    int count;
    std::uint16_t species[kMaxGathered];
    std::int8_t from[kMaxGathered];
    std::uint8_t slot[kMaxGathered];
};

// The gather of site i (src = the lattice before this sweep). Obstacle sites stay empty.
CF_HD void gatherSite(const Geometry& g, const std::uint32_t* src, const std::uint8_t* types,
                      std::uint64_t step, int axis, std::uint32_t i, Gathered& out) {
    out.count = 0;
    if (siteType(g, src, types, i) != kTypeFree) return;
    std::uint16_t sp[kMaxSlots] = {};
    std::int8_t mv[kMaxSlots] = {};
    int n = decodeSite(g, src, i, sp);
    decideSite(g, src, types, step, axis, i, sp, n, mv);
    for (int k = 0; k < n; ++k)
        if (mv[k] == 0) {
            out.species[out.count] = sp[k];
            out.from[out.count] = 0;
            out.slot[out.count++] = static_cast<std::uint8_t>(k);
        }
    for (int side = -1; side <= 1; side += 2) {
        const std::int32_t j = neighborOf(g, i, axis, side);
        if (j == kNoSite) continue;
        n = decodeSite(g, src, static_cast<std::uint32_t>(j), sp);
        decideSite(g, src, types, step, axis, static_cast<std::uint32_t>(j), sp, n, mv);
        // A particle of i-1 arrives when it moves +1, one of i+1 when it moves -1.
        for (int k = 0; k < n; ++k)
            if (mv[k] == -side) {
                out.species[out.count] = sp[k];
                out.from[out.count] = static_cast<std::int8_t>(side);
                out.slot[out.count++] = static_cast<std::uint8_t>(k);
            }
    }
}

}  // namespace cf::lattice
