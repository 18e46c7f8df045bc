// SPDX-License-Identifier: GPL-3.0-or-later
// The warp sweep (lattice_sweep_warp.hpp, run by warpSweepKernel) emulated on the host warp
// by warp with the kernel's own functions and grid; the shuffles become reads of the lane
// before or after (the lane's own value at the warp's ends, as __shfl_up/down_sync give).
// Every site of the swept planes must be owned by exactly one lane; every site the fast path
// takes must gather exactly gatherSite's list (species, origin, slot, origin site, in order)
// and store encodeSite's words over any old content of dst; sites it leaves to the per-site
// path (gatherSite itself on the device) must be long or next to a long one. Lattices of
// both layouts, sparse (mostly the fast path) and dense (many long sites), periodic and
// reflective axes of 1, 2 and odd lengths, partial warps, plane ranges of a z-slab.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "sim/models/lattice/lattice_sweep_warp.hpp"
#include "tests/sim/models/lattice_sweep_cases.hpp"

namespace cf {
namespace {

using namespace cf::lattice;
using test::Case;
using test::geometryOf;

using test::Lattice;

// A site is occupied with probability `occupied`, by 1-3 particles, or up to the capacity
// with probability `full`.
Lattice latticeOf(const Geometry& g, std::mt19937& rng, double occupied, double full) {
    std::uniform_int_distribution<int> few(1, 3), any(1, g.capacity);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    return test::randomLattice(g, rng, [&](std::mt19937& r) {
        if (u(r) >= occupied) return 0;
        return u(r) < full ? any(r) : std::min(few(r), g.capacity);
    });
}

struct Tally {
    std::uint64_t fast = 0, slow = 0, gathered = 0;
};

// The value the lane before / after sees of slot s (beforeOf / afterOf in the kernel).
template <bool AlongX, int S, class Get>
std::uint32_t beforeOf(const WarpLane<S>* lanes, int lane, int s, std::uint32_t none, Get get) {
    if constexpr (AlongX)
        return get(lanes[lane >= 1 ? lane - 1 : lane], s);
    else
        return s > 0 ? get(lanes[lane], s - 1) : none;
}

template <bool AlongX, int S, class Get>
std::uint32_t afterOf(const WarpLane<S>* lanes, int lane, int s, std::uint32_t none, Get get) {
    if constexpr (AlongX)
        return get(lanes[lane + 1 < kWarpLanes ? lane + 1 : lane], s);
    else
        return s + 1 < S ? get(lanes[lane], s + 1) : none;
}

// Runs the kernel's phases on every warp of the grid and checks every owned site. `old` is
// dst (the lattice two sweeps ago, clean: zero bytes past each site's count).
template <bool AlongX>
void checkWarpSweep(const Geometry& g, const Lattice& l, const Lattice& old, std::uint64_t step,
                    int axis, std::int32_t zBegin, std::int32_t zEnd, Tally& tally) {
    using Strip = WarpStrip<AlongX>;
    constexpr int S = Strip::kSlots;
    const WarpGrid grid = warpGridOf(g, axis, zBegin, zEnd);
    std::vector<int> visits(g.sites, 0);
    const std::uint32_t* q = &g.qInt[0][0][0];
    const auto word = [](const WarpLane<S>& x, int s) { return x.word[s]; };
    const auto moves = [](const WarpLane<S>& x, int s) { return movesOf(x, s); };
    const auto site = [](const WarpLane<S>& x, int s) { return siteOf(x, s); };
    const auto type = [](const WarpLane<S>& x, int s) { return typeOf(x, s); };
    const auto longs = [](const WarpLane<S>& x, int s) { return (x.longSites >> s) & 1u; };
    auto lanes = std::make_unique<WarpLane<S>[]>(kWarpLanes);
    for (std::uint32_t by = 0; by < grid.blocks[1]; ++by)
        for (std::uint32_t bx = 0; bx < grid.blocks[0]; ++bx)
            for (std::uint32_t w = 0; w < static_cast<std::uint32_t>(kWarpsPerBlock); ++w) {
                for (int lane = 0; lane < kWarpLanes; ++lane) {
                    placeLane<Strip>(g, axis, grid, bx, by * kWarpsPerBlock + w, lane, zBegin, zEnd,
                                     lanes[lane]);
                    loadLane(g, l.words.data(), l.types.data(), old.words.data(), g.layout == 1,
                             lanes[lane]);
                }
                // The jobs: every busy slot's moves (the order of the list is the kernel's
                // concern; each job's result depends on its own inputs only).
                for (int lane = 0; lane < kWarpLanes; ++lane) {
                    WarpLane<S>& x = lanes[lane];
                    for (int s = 0; s < S; ++s) {
                        const std::uint32_t minus =
                            beforeOf<AlongX>(&lanes[0], lane, s, kNoType, type);
                        const std::uint32_t plus =
                            afterOf<AlongX>(&lanes[0], lane, s, kNoType, type);
                        if (((x.busy >> s) & 1u) == 0u) continue;
                        const std::uint32_t m =
                            jobMoves(g, q, step, axis, siteOf(x, s), x.word[s],
                                     jobInfo(typeOf(x, s), minus, plus, shortCount(g, x.word[s]),
                                             ((x.apronLeft >> s) & 1u) != 0u,
                                             ((x.apronRight >> s) & 1u) != 0u));
                        EXPECT_EQ(m & ~0x000F000Fu, 0u);  // slots 0-3 only: packMoves keeps them
                        x.moves[s / 4] |= packMoves(m) << (8 * (s % 4));
                    }
                }
                for (int lane = 0; lane < kWarpLanes; ++lane) {
                    const WarpLane<S>& x = lanes[lane];
                    for (int s = 0; s < S; ++s) {
                        if (((x.owned >> s) & 1u) == 0u) continue;
                        const std::uint32_t i = siteOf(x, s);
                        ASSERT_LT(i, g.sites);
                        ++visits[i];
                        const WarpSide left{beforeOf<AlongX>(&lanes[0], lane, s, 0u, word),
                                            beforeOf<AlongX>(&lanes[0], lane, s, 0u, moves),
                                            beforeOf<AlongX>(&lanes[0], lane, s, 0u, site)};
                        const WarpSide right{afterOf<AlongX>(&lanes[0], lane, s, 0u, word),
                                             afterOf<AlongX>(&lanes[0], lane, s, 0u, moves),
                                             afterOf<AlongX>(&lanes[0], lane, s, 0u, site)};
                        const std::int32_t nb[2] = {neighborOf(g, i, axis, -1),
                                                    neighborOf(g, i, axis, 1)};
                        std::uint16_t sp[kMaxSlots];
                        const int counts[3] = {
                            decodeSite(g, l.words.data(), i, sp),
                            nb[0] == kNoSite ? 0
                                             : decodeSite(g, l.words.data(),
                                                          static_cast<std::uint32_t>(nb[0]), sp),
                            nb[1] == kNoSite ? 0
                                             : decodeSite(g, l.words.data(),
                                                          static_cast<std::uint32_t>(nb[1]), sp)};
                        // The per-site path exactly where a site of the three has more
                        // particles than the fast path takes.
                        const int fastLimit = g.layout == 1 ? 3 : 4;
                        const bool needsSlow =
                            counts[0] > fastLimit || counts[1] > fastLimit || counts[2] > fastLimit;
                        const bool slow = ((x.longSites >> s) & 1u) != 0u ||
                                          beforeOf<AlongX>(&lanes[0], lane, s, 0u, longs) != 0u ||
                                          afterOf<AlongX>(&lanes[0], lane, s, 0u, longs) != 0u;
                        ASSERT_EQ(slow, needsSlow) << "site " << i;
                        if (slow) {
                            ++tally.slow;
                            continue;
                        }
                        ++tally.fast;
                        // The neighbours' words are the sites along the axis (none: empty).
                        for (int side = 0; side < 2; ++side) {
                            const WarpSide& n = side == 0 ? left : right;
                            if (nb[side] == kNoSite) {
                                EXPECT_EQ(n.word, 0u) << "site " << i << " side " << side;
                                EXPECT_EQ(n.moves, 0u) << "site " << i << " side " << side;
                            } else {
                                EXPECT_EQ(n.site, static_cast<std::uint32_t>(nb[side]))
                                    << "site " << i << " side " << side;
                            }
                        }
                        Gathered want;
                        gatherSite(g, l.words.data(), l.types.data(), step, axis, i, want);
                        const GatherMasks m =
                            shortMasks(g, typeOf(x, s), x.word[s], movesOf(x, s), left, right);
                        ASSERT_EQ(m.total, want.count) << "site " << i;
                        tally.gathered += static_cast<std::uint64_t>(m.total);
                        const int keep = want.count < g.capacity ? want.count : g.capacity;
                        int k = 0;
                        std::uint32_t out[4] = {0u, 0u, 0u, 0u};
                        forEachShort(
                            g, m, x.word[s], i, left, right,
                            [&](std::uint16_t species, int from, int slot, std::uint32_t fromSite) {
                                EXPECT_EQ(species, want.species[k])
                                    << "site " << i << " entry " << k;
                                EXPECT_EQ(from, want.from[k]) << "site " << i << " entry " << k;
                                EXPECT_EQ(slot, want.slot[k]) << "site " << i << " entry " << k;
                                const std::int32_t origin = from == 0
                                                                ? static_cast<std::int32_t>(i)
                                                                : neighborOf(g, i, axis, from);
                                EXPECT_EQ(fromSite, static_cast<std::uint32_t>(origin));
                                if (k < keep) packInto(g, out, k, species);
                                ++k;
                            });
                        EXPECT_EQ(k, want.count);
                        // Stored over dst's old words, clean and (all planes) not clean.
                        std::uint32_t ref[4] = {0u, 0u, 0u, 0u};
                        Geometry one = g;
                        one.sites = 1;
                        const std::uint8_t t = siteType(g, l.words.data(), l.types.data(), i);
                        EXPECT_EQ(typeOf(x, s), t);
                        encodeSite(one, ref, 0, t, want.species, keep);
                        for (const bool clean : {true, false}) {
                            std::uint32_t dst[4] = {0u, 0u, 0u, 0u};
                            for (int p = 0; p < g.wordsPerSite; ++p)
                                dst[p] = old.words[i + static_cast<std::size_t>(p) * g.sites];
                            const bool full = ((x.oldLong >> s) & 1u) != 0u;
                            EXPECT_EQ(full, g.layout == 1 && (dst[0] >> 24) != 0u);
                            storeShort(one, dst, 0, out, keep, typeOf(x, s), clean, full);
                            for (int p = 0; p < g.wordsPerSite; ++p)
                                EXPECT_EQ(dst[p], ref[p])
                                    << "site " << i << " plane " << p << " clean " << clean;
                        }
                    }
                }
            }
    const auto plane = static_cast<std::uint32_t>(g.n[0] * g.n[1]);
    for (std::uint32_t i = 0; i < g.sites; ++i) {
        const bool inside = i / plane >= static_cast<std::uint32_t>(zBegin) &&
                            i / plane < static_cast<std::uint32_t>(zEnd);
        EXPECT_EQ(visits[i], inside ? 1 : 0) << "site " << i;
    }
}

void checkAllAxes(const Geometry& g, const Lattice& l, const Lattice& old, std::uint64_t step,
                  std::int32_t zBegin, std::int32_t zEnd, Tally& tally) {
    for (int axis = 0; axis < 3; ++axis) {
        SCOPED_TRACE(::testing::Message() << "axis " << axis << " planes " << zBegin << ".."
                                          << zEnd - 1 << " step " << step);
        if (axis == 0)
            checkWarpSweep<true>(g, l, old, step, axis, zBegin, zEnd, tally);
        else
            checkWarpSweep<false>(g, l, old, step, axis, zBegin, zEnd, tally);
    }
}

// Sizes around the warp's strips: x around 30 owned lanes (1, 2, 29-32, 61), y and z around
// kWarpRows = 8 (1, 2, 7-9, 17); both layouts, packed32 at capacities 2 to 8.
const Case kCases[] = {
    {{37, 5, 3}, {1, 0, 1}, 1, 8},  {{37, 5, 3}, {0, 1, 0}, 0, 2}, {{32, 17, 16}, {1, 1, 1}, 1, 8},
    {{30, 9, 8}, {0, 0, 0}, 0, 8},  {{1, 2, 33}, {1, 1, 0}, 1, 8}, {{1, 2, 33}, {0, 0, 1}, 0, 5},
    {{2, 1, 1}, {1, 1, 1}, 1, 8},   {{61, 7, 2}, {0, 1, 1}, 0, 4}, {{31, 8, 9}, {1, 0, 1}, 0, 8},
    {{29, 1, 17}, {1, 1, 1}, 1, 8},
};

TEST(LatticeWarpSweep, MatchesGatherSiteOnSparseAndDenseLattices) {
    std::mt19937 rng(20261201u);
    Tally sparse, dense;
    for (const Case& c : kCases) {
        SCOPED_TRACE(::testing::Message()
                     << "n " << c.n[0] << "x" << c.n[1] << "x" << c.n[2] << " periodic "
                     << c.periodic[0] << c.periodic[1] << c.periodic[2] << " layout " << c.layout
                     << " n_max " << c.nMax);
        const Geometry g = geometryOf(c, rng);
        const Lattice old = latticeOf(g, rng, 0.5, 0.5);
        for (const std::uint64_t step : {std::uint64_t{0}, std::uint64_t{7} << 32 | 12345u}) {
            checkAllAxes(g, latticeOf(g, rng, 0.15, 0.02), old, step, 0, g.n[2], sparse);
            checkAllAxes(g, latticeOf(g, rng, 0.7, 0.5), old, step, 0, g.n[2], dense);
        }
    }
    std::printf(
        "warp sweep: sparse %llu fast sites (%llu gathered particles), %llu per-site; "
        "dense %llu fast (%llu), %llu per-site\n",
        static_cast<unsigned long long>(sparse.fast),
        static_cast<unsigned long long>(sparse.gathered),
        static_cast<unsigned long long>(sparse.slow), static_cast<unsigned long long>(dense.fast),
        static_cast<unsigned long long>(dense.gathered),
        static_cast<unsigned long long>(dense.slow));
    // Both paths were taken, and the sparse lattices mostly took the fast one.
    EXPECT_GT(sparse.gathered, 1000u);
    EXPECT_GT(dense.gathered, 1000u);
    EXPECT_GT(dense.slow, 1000u);
    EXPECT_GT(sparse.fast, 20 * sparse.slow);
}

// shortCount against decodeSite on words with zero bytes or fields anywhere (a restored
// snapshot may hold any words): byte16 and packed32 at every capacity.
TEST(LatticeWarpSweep, ShortCountMatchesDecodeSite) {
    std::mt19937 rng(5u);
    std::uniform_int_distribution<std::uint32_t> byte(0, 255), third(0, 2), any;
    int counted[6] = {0, 0, 0, 0, 0, 0};
    for (int nMax = 2; nMax <= 9; ++nMax) {  // 9: byte16
        Case c{{1, 1, 1}, {0, 0, 0}, nMax == 9 ? 1 : 0, nMax == 9 ? 8 : nMax};
        Geometry g = geometryOf(c, rng);
        for (int trial = 0; trial < 20000; ++trial) {
            std::uint32_t words[4] = {0u, any(rng), any(rng), any(rng)};
            if (g.layout == 1) {
                for (int b = 0; b < 4; ++b)  // a third of the bytes zero
                    words[0] |= (third(rng) == 0 ? 0u : byte(rng)) << (8 * b);
            } else {
                for (int k = 0; k < g.capacity; ++k)
                    words[0] |= (third(rng) == 0 ? 0u : any(rng) & g.fieldMask) << (k * g.bits);
                words[0] |= any(rng) << 28;  // the type
            }
            std::uint16_t sp[kMaxSlots];
            const int n = decodeSite(g, words, 0, sp);
            const int fastLimit = g.layout == 1 ? 3 : 4;
            const std::uint32_t got = shortCount(g, words[0]);
            EXPECT_EQ(got, n > fastLimit ? 5u : static_cast<std::uint32_t>(n))
                << "layout " << g.layout << " n_max " << g.capacity << " word " << words[0];
            ++counted[got];
        }
    }
    for (int n = 0; n <= 5; ++n)
        EXPECT_GT(counted[n], 100) << "count " << n;
}

// Planes [zBegin, zEnd) only, as for a z-slab's own planes between its halos
// (lattice_slab.hpp): the strips along z start at zBegin and stop at zEnd, the apron then
// the plane above.
TEST(LatticeWarpSweep, PlaneRangesMatchGatherSite) {
    const Case cases[] = {
        {{37, 5, 40}, {1, 0, 0}, 1, 8},
        {{33, 3, 21}, {0, 1, 0}, 0, 2},
        {{5, 4, 7}, {1, 1, 0}, 0, 4},
    };
    std::mt19937 rng(20261202u);
    Tally tally;
    for (const Case& c : cases) {
        const Geometry g = geometryOf(c, rng);
        const Lattice old = latticeOf(g, rng, 0.5, 0.5);
        const Lattice l = latticeOf(g, rng, 0.4, 0.1);
        const int nz = c.n[2];
        const std::int32_t ranges[][2] = {{1, nz - 1},      {2, nz - 2}, {1, 2},
                                          {nz - 2, nz - 1}, {3, nz - 1}, {0, nz}};
        for (const auto& r : ranges)
            checkAllAxes(g, l, old, 99, r[0], r[1], tally);
    }
    EXPECT_GT(tally.fast, 10000u);
}

}  // namespace
}  // namespace cf
