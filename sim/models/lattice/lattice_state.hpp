// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `lattice` state shared by every backend (lattice_state.cpp): the host state, the initial
// placement, overflow re-insertion, particle counts and the snapshot layout.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/state_arrays.hpp"
#include "sim/models/lattice/lattice_overflow.hpp"
#include "sim/models/lattice/lattice_params.hpp"
#include "sim/models/lattice/lattice_sweep.hpp"

namespace cf::lattice {

// The whole state on the host. Identity planes exist only with tracking: ids[k * sites + i]
// is the id (1-based, 0 = untracked or empty) of the particle in slot k of site i, and
// displacement[3 (id - 1) + a] its unwrapped displacement in sites along axis a.
struct HostState {
    std::vector<std::uint32_t> words;  // wordsPerSite planes of `sites` words
    std::vector<std::uint8_t> types;   // site type per site (also inside packed32 words)
    std::vector<std::uint32_t> ids;
    std::vector<std::int32_t> displacement;
    std::vector<std::uint8_t> trackedSpecies;  // per tracked id - 1
    std::uint64_t step = 0;
    double time = 0.0;  // [us]
    std::uint64_t overflowsLastStep = 0;
    std::uint64_t overflowsTotal = 0;
    std::uint64_t fired[kMaxReactions] = {};  // reactions fired since reset, per reaction
};

// The species counts conservation implies: `initial` (at reset) plus the stoichiometry of
// every reaction times how often it fired. Validation compares the lattice with this.
std::vector<std::int64_t> expectedCounts(const LatticeParams& p, const Geometry& g,
                                         const std::vector<std::int64_t>& initial,
                                         const std::uint64_t* fired);
// The counts at reset that lead to `s` through its fired reactions (for a restored state).
std::vector<std::int64_t> initialCountsOf(const LatticeParams& p, const Geometry& g,
                                          const HostState& s);

// Obstacles drawn per site (Philox(seed, kObstacleStream)), then particle p (species in
// order, then index) at a uniformly drawn free site; a full site passes it on to the next
// free site in index order. The first `tracking.per_species` particles of each species get
// identities. Identical for every backend.
HostState initialState(const LatticeParams& p, const Geometry& g);

// Sorts `list` by overflowKey and places each particle, in that order, with placeOverflow
// (lattice_overflow.hpp). Throws SimulationError when no site of its type has room.
void reinsertOverflows(const Geometry& g, std::vector<Overflow>& list, std::uint32_t* words,
                       const std::uint8_t* types, std::uint32_t* ids, std::int32_t* displacement);

// "lattice: 128x128x128 sites, byte16 (16 particles per site): two lattice copies of ..."
// for the run's log (a model note at reset).
std::string memoryReport(const LatticeParams& p, const Geometry& g);

// Particles per species id (index 0 unused, size speciesCount + 1).
std::vector<std::int64_t> countSpecies(const LatticeParams& p, const Geometry& g,
                                       const std::uint32_t* words);

Snapshot makeSnapshot(const LatticeParams& p, const Geometry& g, const HostState& s);

// Where either backend keeps HostState's arrays (host or device pointers, their lengths in
// elements): the packed site words, the site types, the tracked particles' ids per slot and
// their displacements (x, y, z per tracked particle), as state arrays.
struct StatePointers {
    const std::uint32_t* words = nullptr;
    std::size_t wordCount = 0;
    const std::uint8_t* types = nullptr;
    std::size_t sites = 0;
    const std::uint32_t* ids = nullptr;
    std::size_t idCount = 0;
    const std::int32_t* displacement = nullptr;
    std::size_t tracked = 0;
};
std::vector<StateArray> stateArraysOf(const StatePointers& s, MemorySpace space);
// Throws IoError when a field is missing or has the wrong size for these parameters.
HostState readSnapshot(const LatticeParams& p, const Geometry& g, const Snapshot& s);

// Particles per (site type t, species s) at t * (kMaxSpecies + 1) + s; s = 0 counts ids
// no species has. Over sites [first, last) (a slab's own planes), by default all.
inline constexpr std::size_t kRegionCountsSize = kSiteTypeCount * (kMaxSpecies + 1);
std::vector<std::int64_t> countByRegion(const LatticeParams& p, const Geometry& g,
                                        const std::uint32_t* words, const std::uint8_t* types,
                                        std::uint32_t first = 0, std::uint32_t last = UINT32_MAX);
// countSpecies' layout from countByRegion's.
std::vector<std::int64_t> speciesTotals(const LatticeParams& p,
                                        const std::vector<std::int64_t>& byRegion);

}  // namespace cf::lattice
