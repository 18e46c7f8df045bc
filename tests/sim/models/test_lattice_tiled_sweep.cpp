// SPDX-License-Identifier: GPL-3.0-or-later
// The tiled sweep (lattice_sweep_tiled.hpp, run by the CUDA kernel) emulated on the host
// thread by thread, tile by tile, with the kernel's own functions and grid: every site's
// gathered list (species, origin, slot, in order) and its encoded words must equal the
// CPU reference gatherSite / encodeSite exactly, on random lattices of both layouts,
// reflective and periodic axes, partial tiles, axes of 1 and 2 sites, obstacles, species
// ids without a species row and random thresholds including 0 and the maximum 2^31.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "sim/models/lattice/lattice_sweep_tiled.hpp"
#include "tests/sim/models/lattice_sweep_cases.hpp"

namespace cf {
namespace {

using namespace cf::lattice;
using test::Case;
using test::geometryOf;

using test::Lattice;

// Half the sites empty, the others holding 1 up to the capacity.
Lattice latticeOf(const Geometry& g, std::mt19937& rng) {
    std::uniform_int_distribution<int> half(0, 1), count(1, g.capacity);
    return test::randomLattice(g, rng, [&](std::mt19937& r) { return half(r) ? 0 : count(r); });
}

// Runs the kernel's phases on every block of the grid, thread by thread, and compares
// each site with gatherSite and encodeSite. Only z-planes [zBegin, zEnd) are swept (zEnd
// < 0: all), as for a z-slab's own planes; each of their sites exactly once, no other.
// Returns the number of sites checked.
template <class Tile>
std::uint32_t checkTiledSweep(const Geometry& g, const Lattice& l, std::uint64_t step, int axis,
                              std::int32_t zBegin = 0, std::int32_t zEnd = -1) {
    const TileGrid grid = tileGridOf(g, axis, zBegin, zEnd);
    EXPECT_EQ(grid.rows, Tile::kRows);
    EXPECT_EQ(grid.alongX, Tile::kAlongX);
    constexpr int kThreads = kTileWidth * Tile::kRows;
    auto tile = std::make_unique<Tile>();
    std::vector<int> visits(g.sites, 0);
    std::uint32_t checked = 0;
    for (std::uint32_t bz = 0; bz < grid.blocks[2]; ++bz)
        for (std::uint32_t by = 0; by < grid.blocks[1]; ++by)
            for (std::uint32_t bx = 0; bx < grid.blocks[0]; ++bx) {
                // Garbage in the shared memory, as on the device.
                std::fill(&tile->words[0][0], &tile->words[0][0] + 4 * Tile::kSlots, 0xA5A5A5A5u);
                std::fill(tile->moves, tile->moves + Tile::kSlots, 0x5A5A5A5Au);
                std::copy(&g.qInt[0][0][0], &g.qInt[0][0][0] + kThresholdCount, tile->q);
                TileSite t[kThreads];
                OwnSite own[kThreads];
                for (int th = 0; th < kThreads; ++th) {
                    t[th] = tileSiteOf<Tile>(g, axis, bx, by, bz, th % kTileWidth, th / kTileWidth,
                                             zBegin, zEnd);
                    own[th] =
                        publishSite(g, l.words.data(), l.types.data(), step, axis, t[th], *tile);
                }
                for (int th = 0; th < kThreads; ++th) {
                    if (!t[th].valid) continue;
                    const std::uint32_t i = t[th].i;
                    ++visits[i];
                    EXPECT_EQ(t[th].left, neighborOf(g, i, axis, -1));
                    EXPECT_EQ(t[th].right, neighborOf(g, i, axis, 1));
                    Gathered want;
                    gatherSite(g, l.words.data(), l.types.data(), step, axis, i, want);
                    const GatherMasks m = gatherMasksOf(t[th], own[th], *tile);
                    if (m.total != want.count) {
                        ADD_FAILURE() << "site " << i << ": " << m.total << " gathered, expected "
                                      << want.count;
                        continue;
                    }
                    int k = 0;
                    std::uint32_t out[4] = {0, 0, 0, 0};
                    const int keep = want.count < g.capacity ? want.count : g.capacity;
                    forEachGathered(
                        g, t[th], m, *tile,
                        [&](std::uint16_t species, int from, int slot, std::uint32_t fromSite) {
                            EXPECT_EQ(species, want.species[k]) << "entry " << k;
                            EXPECT_EQ(from, want.from[k]) << "entry " << k;
                            EXPECT_EQ(slot, want.slot[k]) << "entry " << k;
                            const std::int32_t origin = from == 0 ? static_cast<std::int32_t>(i)
                                                                  : neighborOf(g, i, axis, from);
                            EXPECT_EQ(fromSite, static_cast<std::uint32_t>(origin));
                            if (k < keep) packInto(g, out, k, species);
                            ++k;
                        });
                    EXPECT_EQ(k, want.count);
                    std::uint32_t ref[4] = {0, 0, 0, 0};
                    Geometry one = g;  // encodeSite on a 1-site lattice: words in ref[p]
                    one.sites = 1;
                    encodeSite(one, ref, 0, own[th].type, want.species, keep);
                    if (g.layout == 0) out[0] |= static_cast<std::uint32_t>(own[th].type) << 28;
                    for (int p = 0; p < g.wordsPerSite; ++p)
                        EXPECT_EQ(out[p], ref[p]) << "site " << i << " plane " << p;
                    ++checked;
                }
            }
    const std::uint32_t plane = static_cast<std::uint32_t>(g.n[0] * g.n[1]);
    const auto z1 = static_cast<std::uint32_t>(zEnd < 0 ? g.n[2] : zEnd);
    for (std::uint32_t i = 0; i < g.sites; ++i) {
        const bool inside = i / plane >= static_cast<std::uint32_t>(zBegin) && i / plane < z1;
        EXPECT_EQ(visits[i], inside ? 1 : 0) << "site " << i;
    }
    return checked;
}

TEST(LatticeTiledSweep, MatchesGatherSiteOnRandomLattices) {
    // Partial tiles (37, 17, 5 sites), whole ones (32, 16), axes of 1 and 2 sites (a site
    // is then its own or both neighbours), reflective and periodic, both layouts.
    const Case cases[] = {
        {{37, 5, 3}, {1, 0, 1}, 1, 8},   {{37, 5, 3}, {0, 1, 0}, 0, 2},
        {{32, 17, 16}, {1, 1, 1}, 1, 8}, {{32, 17, 16}, {0, 0, 0}, 0, 8},
        {{1, 2, 33}, {1, 1, 0}, 1, 8},   {{1, 2, 33}, {0, 0, 1}, 0, 5},
        {{2, 1, 1}, {1, 1, 1}, 1, 8},    {{65, 3, 2}, {0, 1, 1}, 0, 4},
    };
    std::mt19937 rng(20240613u);
    std::uint64_t sites = 0, gathered = 0;
    for (const Case& c : cases) {
        const Geometry g = geometryOf(c, rng);
        const Lattice l = latticeOf(g, rng);
        for (const std::uint64_t step : {std::uint64_t{0}, std::uint64_t{7} << 32 | 12345u})
            for (int axis = 0; axis < 3; ++axis) {
                SCOPED_TRACE(::testing::Message()
                             << "n " << c.n[0] << "x" << c.n[1] << "x" << c.n[2] << " periodic "
                             << c.periodic[0] << c.periodic[1] << c.periodic[2] << " layout "
                             << c.layout << " step " << step << " axis " << axis);
                sites += axis == 0
                             ? checkTiledSweep<SweepTile<kTileRowsAlongX, true>>(g, l, step, axis)
                             : checkTiledSweep<SweepTile<kTileRowsAcross, false>>(g, l, step, axis);
                for (std::uint32_t i = 0; i < g.sites; ++i) {
                    Gathered gth;
                    gatherSite(g, l.words.data(), l.types.data(), step, axis, i, gth);
                    gathered += static_cast<std::uint64_t>(gth.count);
                }
            }
    }
    std::printf("tiled sweep: %llu site gathers, %llu gathered particles compared\n",
                static_cast<unsigned long long>(sites), static_cast<unsigned long long>(gathered));
    EXPECT_GT(gathered, 1000u);  // the lattices were not trivially empty
}

// Planes [zBegin, zEnd) only (lattice_slab.hpp: a slab's own planes between its halos,
// the inner ones while the halos arrive, then the two next to them): z tiles start at
// zBegin and stop at zEnd, whose last site loads the apron from the plane above.
TEST(LatticeTiledSweep, PlaneRangesMatchGatherSite) {
    const Case cases[] = {
        {{37, 5, 40}, {1, 0, 0}, 1, 8},
        {{33, 3, 21}, {0, 1, 0}, 0, 2},
        {{5, 4, 7}, {1, 1, 0}, 0, 4},
    };
    std::mt19937 rng(20261128u);
    std::uint64_t sites = 0;
    for (const Case& c : cases) {
        const Geometry g = geometryOf(c, rng);
        const Lattice l = latticeOf(g, rng);
        const int nz = c.n[2];
        // Own planes 1..nz-2 between halos 0 and nz-1; inner planes; either boundary plane;
        // a range longer than one tile that starts inside one.
        const std::int32_t ranges[][2] = {{1, nz - 1},      {2, nz - 2}, {1, 2},
                                          {nz - 2, nz - 1}, {3, nz - 1}, {0, nz}};
        for (const auto& r : ranges)
            for (int axis = 0; axis < 3; ++axis) {
                SCOPED_TRACE(::testing::Message()
                             << "n " << c.n[0] << "x" << c.n[1] << "x" << nz << " planes " << r[0]
                             << ".." << r[1] - 1 << " axis " << axis);
                sites += axis == 0 ? checkTiledSweep<SweepTile<kTileRowsAlongX, true>>(
                                         g, l, 99, axis, r[0], r[1])
                                   : checkTiledSweep<SweepTile<kTileRowsAcross, false>>(
                                         g, l, 99, axis, r[0], r[1]);
            }
    }
    EXPECT_GT(sites, 10000u);
}

// storeSite over every old count (the lattice of two sweeps ago in dst) and new count:
// the four planes equal encodeSite's. With bytes past the old count that are not zero (a
// restored snapshot may hold any words) only dstClean = 0 writes them all; with the flag
// wrongly set some planes keep the old bytes, which is why the backend tracks it.
TEST(LatticeTiledSweep, StoreEqualsEncodeSite) {
    std::mt19937 rng(7u);
    const Geometry g = geometryOf(Case{{1, 1, 1}, {0, 0, 0}, 1, 8}, rng);
    std::uniform_int_distribution<int> species(1, 255);
    int wrongWithFlag = 0;
    for (int oldCount = 0; oldCount <= kMaxSlots; ++oldCount)
        for (int keep = 0; keep <= kMaxSlots; ++keep)
            for (const bool dirty : {false, true}) {
                std::uint16_t oldSp[kMaxSlots], newSp[kMaxSlots];
                for (int k = 0; k < kMaxSlots; ++k) {
                    oldSp[k] = static_cast<std::uint16_t>(species(rng));
                    newSp[k] = static_cast<std::uint16_t>(species(rng));
                }
                std::uint32_t old[4], want[4];
                encodeSite(g, old, 0, 0, oldSp, oldCount);
                if (dirty)  // garbage in the planes past the first empty slot's plane
                    for (int p = oldCount / 4 + 1; p < 4; ++p)
                        old[p] = 0xFFFFFFFFu;
                encodeSite(g, want, 0, 0, newSp, keep);
                std::uint32_t out[4] = {0, 0, 0, 0};
                for (int k = 0; k < keep; ++k)
                    packInto(g, out, k, newSp[k]);
                std::uint32_t dst[4] = {old[0], old[1], old[2], old[3]};
                storeSite(g, dst, 0, out, keep, 0, !dirty);
                for (int p = 0; p < 4; ++p)
                    EXPECT_EQ(dst[p], want[p])
                        << "old " << oldCount << " new " << keep << " dirty " << dirty;
                if (dirty) {
                    std::uint32_t wrong[4] = {old[0], old[1], old[2], old[3]};
                    storeSite(g, wrong, 0, out, keep, 0, true);
                    wrongWithFlag +=
                        wrong[1] != want[1] || wrong[2] != want[2] || wrong[3] != want[3];
                }
            }
    EXPECT_GT(wrongWithFlag, 0);
}

}  // namespace
}  // namespace cf
