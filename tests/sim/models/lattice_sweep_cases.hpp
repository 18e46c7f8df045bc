// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Random lattice geometries and lattices for the host tests of the GPU sweeps
// (test_lattice_tiled_sweep.cpp, test_lattice_warp_sweep.cpp): sizes, boundaries, layout,
// random move thresholds and random site contents.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/models/lattice/lattice_sweep.hpp"

namespace cf::test {

struct Case {
    int n[3];
    int periodic[3];
    int layout;  // 0 packed32, 1 byte16
    int nMax;    // packed32 capacity
};

inline lattice::Geometry geometryOf(const Case& c, std::mt19937& rng) {
    lattice::Geometry g{};
    for (int a = 0; a < 3; ++a) {
        g.n[a] = c.n[a];
        g.periodic[a] = c.periodic[a];
    }
    g.sites = static_cast<std::uint32_t>(c.n[0] * c.n[1] * c.n[2]);
    g.layout = c.layout;
    g.capacity = c.layout == 0 ? c.nMax : lattice::kMaxSlots;
    g.bits = c.layout == 0 ? 28 / c.nMax : 8;
    g.fieldMask = (1u << g.bits) - 1u;
    g.wordsPerSite = c.layout == 0 ? 1 : 4;
    g.seed = rng();
    // Thresholds: 0 (blocked), the maximum 2^31 (q = 0.5) and values in between, so both
    // moves, stays and the boundaries of moveOf's ranges all occur.
    std::uniform_int_distribution<std::uint32_t> pick(0, 5), any(0, 0x80000000u);
    for (auto& row : g.qInt)
        for (auto& from : row)
            for (std::uint32_t& q : from) {
                const std::uint32_t p = pick(rng);
                q = p == 0 ? 0u : (p == 1 ? 0x80000000u : any(rng));
            }
    return g;
}

// A host lattice for the sweeps' host tests: the site words and the site types.
struct Lattice {
    std::vector<std::uint32_t> words;
    std::vector<std::uint8_t> types;
};

// A random lattice: random site types (obstacles too, which may hold particles: gatherSite's
// rules apply to them as well), `particles(rng)` particles in each site, each of species 1-8
// or, one time in ten, a larger id (threshold row 0; at most the layout's field allows).
template <class Particles>
Lattice randomLattice(const lattice::Geometry& g, std::mt19937& rng, Particles particles) {
    Lattice l;
    l.words.assign(static_cast<std::size_t>(g.sites) * g.wordsPerSite, 0u);
    l.types.assign(g.sites, 0);
    std::uniform_int_distribution<int> type(0, lattice::kSiteTypeCount - 1), species(1, 8),
        rare(0, 9);
    const std::uint32_t maxSpecies = g.fieldMask < 255u ? g.fieldMask : 255u;
    std::uniform_int_distribution<std::uint32_t> large(1, maxSpecies);
    for (std::uint32_t i = 0; i < g.sites; ++i) {
        const auto t = static_cast<std::uint8_t>(type(rng));
        l.types[i] = t;
        std::uint16_t sp[lattice::kMaxSlots];
        const int n = particles(rng);
        for (int k = 0; k < n; ++k)
            sp[k] = static_cast<std::uint16_t>(
                rare(rng) == 0 ? large(rng)
                               : std::min<std::uint32_t>(static_cast<std::uint32_t>(species(rng)),
                                                         g.fieldMask));
        lattice::encodeSite(g, l.words.data(), i, t, sp, n);
    }
    return l;
}

}  // namespace cf::test
