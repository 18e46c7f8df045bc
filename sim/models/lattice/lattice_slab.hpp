// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The `lattice` split into z-slabs over the ranks of a distributed run (docs/SCALING.md),
// the host-side pieces every backend shares: the slab's geometry, its state cut from the
// whole lattice's, the piece a snapshot holds, overflow re-insertion across slabs and the
// tracked particles' displacement summed over ranks.
//
// A rank holds planes [begin, end) of the whole lattice as local planes 1..count and one
// halo plane below (local 0) and above (local count + 1). x and y sweeps touch the rank's
// own planes only; the z sweep reads the halo planes, which the neighbours send before it
// (a periodic z wraps from the last rank to the first). At a reflective end of the lattice
// the halo is an empty obstacle plane, which refuses and gives particles exactly as the
// missing neighbour of one rank does (moveThreshold into or out of an obstacle is 0). Every
// random number is keyed by the site's id in the whole lattice (Geometry::siteBase), so
// the lattice does not depend on the number of ranks.
#include <cstdint>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/dist/slab.hpp"
#include "sim/models/lattice/lattice_state.hpp"

namespace cf::lattice {

struct SlabLayout {
    dist::Slab slab;
    Geometry whole;           // the whole lattice
    Geometry local;           // this rank's planes and halos: n[2] = count + 2, z not periodic
    Geometry piece;           // this rank's planes alone (snapshots)
    std::uint32_t plane = 0;  // sites per z-plane
    std::vector<int> owner;   // the rank holding each z-plane of the whole lattice

    std::uint32_t firstOwned() const { return plane; }  // local index of the first own site
    std::uint32_t endOwned() const { return plane * static_cast<std::uint32_t>(slab.count() + 1); }
    std::uint32_t base() const { return plane * static_cast<std::uint32_t>(slab.begin); }
    // Local index of a whole-lattice site on this rank's planes, and back.
    std::uint32_t localOf(std::uint32_t site) const { return site - base() + plane; }
    std::uint32_t wholeOf(std::uint32_t i) const { return i - plane + base(); }
};

// This rank's slab of `whole` (collective only in that every rank calls it). Throws
// ParameterError naming lattice.nz when there are more ranks than z-planes.
SlabLayout slabLayout(const Geometry& whole, const dist::Communicator& comm);

// The slab's state (local geometry) from the whole lattice's: own and halo planes, empty
// obstacle halos at reflective ends, displacement shares of zero (see globalDisplacement).
HostState cutSlab(const SlabLayout& l, const HostState& whole);

// This rank's own planes (piece geometry) of a slab state, and back into one (own planes
// only; the halos keep what they hold). Counters, displacement shares and reaction counts
// travel unchanged.
HostState ownPlanes(const SlabLayout& l, const HostState& local);
void setOwnPlanes(const SlabLayout& l, const HostState& piece, HostState& local);

// Each rank's `displacement` is its share: what moves on its sites added, and
// kRetiredDisplacement in x where a reaction on its sites consumed the particle. The whole
// run's displacement (on every rank, collective) is the sum of the shares, retired where
// any rank retired it: integer sums, exact in any order, equal to one rank's array.
void globalDisplacement(dist::Communicator& comm, const std::vector<std::int32_t>& share,
                        std::vector<std::int32_t>& out, std::vector<std::uint64_t>& scratch);

// Sums int64 counts over the ranks in place (two's complement in uint64: exact).
void sumOverRanks(dist::Communicator& comm, std::vector<std::int64_t>& counts,
                  std::vector<std::uint64_t>& scratch);

// Where a snapshot of the lattice `p` lies in the whole grid: this rank's slab (`slab`),
// or the whole lattice on one rank (null).
dist::GridPiece slabPiece(const LatticeParams& p, const SlabLayout* slab);

// The whole lattice's metrics on every rank (collective), equal to one rank's: this rank's
// counts by region (countByRegion's layout) summed over the ranks, the displacement shares
// of `mine` combined (globalDisplacement), then metricsFromCounts on those equal inputs.
// `work` and `scratch` are buffers kept by the caller.
std::vector<Metric> slabMetrics(dist::Communicator& comm, const LatticeParams& p,
                                std::vector<std::int64_t> byRegion, std::size_t freeSites,
                                const HostState& mine, HostState& work,
                                std::vector<std::uint64_t>& scratch);

// Overflow re-insertion over the ranks, identical to reinsertOverflows on one rank. The
// one rank places overflows in overflowKey order, i.e. plane by plane, rank by rank. Each
// rank first tries its own overflows on its own planes; when no search reaches another
// rank's plane (the common case with thick slabs), the ranks' placements touch disjoint
// planes, so each rank's equals the one rank's, and one sum of two counts is all the
// traffic. Otherwise the ranks' overflows are gathered into one list and every rank runs
// the same search (searchShells) on a copy of the (type, count) of the z-planes it
// reaches, fetched from their owners as the shells grow; the owner of the chosen site
// appends the particle.
class SlabOverflows {
public:
    // Collective. `list` holds this rank's overflows with local site ids (it is changed).
    // Returns the number of overflows of the whole lattice; throws SimulationError on every
    // rank when a particle finds no room.
    std::uint64_t reinsert(dist::Communicator& comm, const SlabLayout& l,
                           std::vector<Overflow>& list, std::uint32_t* words,
                           const std::uint8_t* types, std::uint32_t* ids,
                           std::int32_t* displacement);

private:
    struct Search;
    struct Placement {
        std::uint32_t overflow;  // position in this rank's list
        std::uint32_t site;      // whole-lattice site
        int slot;
        std::int32_t d[3];
    };
    // This rank's overflows (whole-lattice ids, sorted) on its own planes into placed_;
    // false as soon as a search needs another rank's plane.
    bool trialOnOwnPlanes(dist::Communicator& comm, const SlabLayout& l,
                          const std::vector<Overflow>& list, const std::uint32_t* words,
                          const std::uint8_t* types);
    // Appends o at whole-lattice site j (this rank's), in slot `slot`, offset d.
    static void place(const SlabLayout& l, const Overflow& o, std::uint32_t j, int slot,
                      const std::int32_t d[3], std::uint32_t* words, const std::uint8_t* types,
                      std::uint32_t* ids, std::int32_t* displacement);
    // Collective: the planes want_ names (none cached yet) into the cache.
    void fetch(dist::Communicator& comm, const SlabLayout& l, const std::uint32_t* words,
               const std::uint8_t* types);
    // The same without communication when this rank owns every plane of want_; false
    // (nothing cached) otherwise.
    bool fetchOwn(const SlabLayout& l, int rank, const std::uint32_t* words,
                  const std::uint8_t* types);
    // want_'s planes that `rank` owns into message_, and message_ (all of want_'s planes in
    // order) into the cache.
    void pack(const SlabLayout& l, int rank, const std::uint32_t* words, const std::uint8_t* types);
    void store(const SlabLayout& l);
    void clearCache(const SlabLayout& l);
    // Adds the planes z - r .. z + r not cached yet to want_ (wrapped or clipped).
    void wantAround(const SlabLayout& l, std::int32_t z, std::int32_t r);

    std::vector<std::int32_t> slotOf_;  // per whole-lattice plane: its cache slot or -1
    std::vector<std::int32_t> cached_;  // the planes in the cache, by slot
    std::vector<std::uint16_t> cache_;  // (type << 8) | count per site of the cached planes
    std::vector<std::int32_t> want_;
    std::vector<Placement> placed_;  // a trial's placements, in order
    std::vector<Overflow> all_;
    std::vector<std::byte> message_;
};

}  // namespace cf::lattice
