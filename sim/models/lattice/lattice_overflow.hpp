// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Overflow re-insertion, shared by the CPU reference and the CUDA backend (which runs it
// on the device, so the lattice never crosses the bus): the particles that did not fit
// during a sweep are sorted by a backend-independent key and placed one after another at
// the nearest site of the same type with room (Lattice Microbes' "classic" handler, with
// an unbounded search radius instead of its fatal limit of 4 sites).
#include <cstdint>

#include "sim/core/host_device.hpp"
#include "sim/models/lattice/lattice_sweep.hpp"

namespace cf::lattice {

// One particle that did not fit into `site` during a sweep. `order` is its position in the
// site's gathered list, so (site, species, order) is unique and independent of the order
// in which threads appended the records.
struct Overflow {
    std::uint32_t site;
    std::uint32_t id;  // tracked identity, 0 = none
    std::uint16_t species;
    std::uint8_t order;
    std::uint8_t unused;
};

CF_HD std::uint64_t overflowKey(const Overflow& o) {
    return (static_cast<std::uint64_t>(o.site) << 32) |
           (static_cast<std::uint64_t>(o.species) << 8) | o.order;
}

// Appends one particle to site i if it has room; returns the slot or -1.
CF_HD int appendParticle(const Geometry& g, std::uint32_t* words, const std::uint8_t* types,
                         std::uint32_t i, std::uint16_t species) {
    std::uint16_t sp[kMaxSlots];
    const int n = decodeSite(g, words, i, sp);
    if (n >= g.capacity) return -1;
    sp[n] = species;
    encodeSite(g, words, i, siteType(g, words, types, i), sp, n + 1);
    return n;
}

// Visits the candidate sites of an overflow from the site at coordinates c: Chebyshev
// shells r = 1, 2, ... around it (r = 0 is full by construction), each shell scanned dz,
// dy, dx from -r to r (x fastest), wrapping periodic axes and skipping offsets across
// reflective ones. visit(j, d) gets the site index j and the offset d[3]; returning true
// ends the search. `beforeShell(r)` runs before shell r is scanned (a distributed search
// fetches the planes the shell reaches). Returns whether a visit returned true. The one
// order of the search, shared by placeOverflow and the slab-distributed re-insertion
// (lattice_slab.cpp), so both place every particle at the same site.
template <typename Visit, typename BeforeShell>
CF_HD bool searchShells(const Geometry& g, const std::int32_t c[3], Visit& visit,
                        BeforeShell& beforeShell) {
    std::int32_t rMax = g.n[0] > g.n[1] ? g.n[0] : g.n[1];
    rMax = rMax > g.n[2] ? rMax : g.n[2];
    for (std::int32_t r = 1; r <= rMax; ++r) {
        beforeShell(r);
        for (std::int32_t dz = -r; dz <= r; ++dz)
            for (std::int32_t dy = -r; dy <= r; ++dy) {
                // Inner rows of the shell only visit dx = -r and dx = +r.
                const bool onShell = dz == -r || dz == r || dy == -r || dy == r;
                for (std::int32_t dx = -r; dx <= r; dx += onShell ? 1 : 2 * r) {
                    const std::int32_t d[3] = {dx, dy, dz};
                    std::uint32_t j = 0;
                    std::uint32_t stride = 1;
                    bool inside = true;
                    for (int a = 0; a < 3 && inside; ++a) {
                        std::int32_t t = c[a] + d[a];
                        if (t < 0 || t >= g.n[a]) {
                            if (!g.periodic[a]) inside = false;
                            t = ((t % g.n[a]) + g.n[a]) % g.n[a];
                        }
                        j += static_cast<std::uint32_t>(t) * stride;
                        stride *= static_cast<std::uint32_t>(g.n[a]);
                    }
                    if (inside && visit(j, d)) return true;
                }
            }
    }
    return false;
}

namespace overflow_detail {

struct NoShellHook {
    CF_HD void operator()(std::int32_t) const {}
};

// placeOverflow's visit: the first site of the type with room takes the particle.
struct PlaceAt {
    const Geometry& g;
    std::uint32_t* words;
    const std::uint8_t* types;
    std::uint32_t* ids;
    std::int32_t* displacement;
    const Overflow& o;
    std::uint8_t type;
    CF_HD bool operator()(std::uint32_t j, const std::int32_t d[3]) const {
        if (siteType(g, words, types, j) != type) return false;
        const int slot = appendParticle(g, words, types, j, o.species);
        if (slot < 0) return false;
        if (ids) {
            ids[static_cast<std::size_t>(slot) * g.sites + j] = o.id;
            if (o.id != 0)
                for (int a = 0; a < 3; ++a)
                    displacement[3 * (o.id - 1) + a] += d[a];
        }
        return true;
    }
};

}  // namespace overflow_detail

// Places `o` at the nearest site of its site's type with room, in searchShells' order. A
// tracked particle's identity moves along and its displacement gains the offset. Returns
// false when no site of that type has room.
CF_HD bool placeOverflow(const Geometry& g, std::uint32_t* words, const std::uint8_t* types,
                         std::uint32_t* ids, std::int32_t* displacement, const Overflow& o) {
    const std::int32_t c[3] = {coordOf(g, o.site, 0), coordOf(g, o.site, 1), coordOf(g, o.site, 2)};
    overflow_detail::PlaceAt visit{
        g, words, types, ids, displacement, o, siteType(g, words, types, o.site)};
    overflow_detail::NoShellHook none;
    return searchShells(g, c, visit, none);
}

}  // namespace cf::lattice
