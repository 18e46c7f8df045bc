// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Random lattice geometries for the host tests of the GPU sweeps (test_lattice_tiled_sweep.cpp,
// test_lattice_warp_sweep.cpp): sizes, boundaries, layout and random move thresholds.
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

}  // namespace cf::test
