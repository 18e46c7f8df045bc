// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `spheres` over ranks (docs/SPHERES.md, "Spheres over ranks"): the host-side pieces every
// backend shares. The domain is cut into slabs along its longest axis at positions that
// follow the population (balancedCuts); a rank owns the cells whose centre lies in its
// slab, receives as ghosts the other ranks' cells within one interaction radius of it, and
// sends away the cells that left it (migration). All collectives here must be called by
// every rank in the same order.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "sim/dist/communicator.hpp"
#include "sim/models/spheres/cell_record.hpp"
#include "sim/models/spheres/spheres_state.hpp"

namespace cf::spheres {

// Slab boundaries along `axis`: rank r owns [cut[r], cut[r+1]); cut[0] = -inf and
// cut[ranks] = +inf, so every position has exactly one owner.
struct SlabCuts {
    int axis = 0;
    std::vector<double> cut = {-std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::infinity()};
    int ranks() const { return static_cast<int>(cut.size()) - 1; }
    int owner(double v) const;
};

// The domain box's longest axis (the lowest index among equals).
int longestAxis(const double lo[3], const double hi[3]);

// Bins of the position histogram the cuts come from (over the domain box along the axis;
// positions outside fall in the end bins).
inline constexpr int kBalanceBins = 4096;
// A rebalance is made when the largest share exceeds the mean by more than this fraction.
inline constexpr double kBalanceThreshold = 0.10;

// Cuts giving each rank about N/ranks cells: a histogram of every rank's `coord` (the cells'
// positions along `axis`) summed over the ranks, the cut after the bin where the running
// count first reaches r N / ranks. Collective (one allreduce of kBalanceBins counts); the
// same cuts on every rank.
SlabCuts balancedCuts(dist::Communicator& comm, int axis, const double lo[3], const double hi[3],
                      std::span<const double> coord);
// The same from this rank's histogram (kBalanceBins counts over the box along `axis`, as
// balancedCuts bins them; a device backend counts on the device). Collective.
SlabCuts cutsFromHistogram(dist::Communicator& comm, int axis, const double lo[3],
                           const double hi[3], std::vector<std::uint64_t> bins);

// Every rank's cell count, in rank order (collective).
std::vector<std::uint64_t> rankCounts(dist::Communicator& comm, std::uint64_t mine);
// Whether the largest of `counts` exceeds their mean by more than kBalanceThreshold.
bool unbalanced(std::span<const std::uint64_t> counts);

CellRecord recordOf(const HostState& s, std::size_t i);
// Appends `r` to the cells of `s`.
void appendRecord(HostState& s, const CellRecord& r);

// Sends outgoing[p] to every rank p (outgoing[own rank] is ignored) and returns what the
// others sent here, in rank order: counts first, then the records. Collective between all
// ranks (every pair exchanges a count, often zero).
std::vector<CellRecord> exchangeRecords(dist::Communicator& comm,
                                        const std::vector<std::vector<CellRecord>>& outgoing);

// The ids of every rank's dividing cells, sorted (collective: gathered on rank 0, merged,
// broadcast). A daughter's id is N + its parent's index in this list, as on one rank.
std::vector<std::uint32_t> globalDividingIds(dist::Communicator& comm,
                                             std::vector<std::uint32_t> mine);

// What a distributed `spheres` model tells the rank tests besides the Model interface.
class RankBalance {
public:
    virtual ~RankBalance() = default;
    // Rebalances made since reset (slab cuts moved to follow the population).
    virtual std::uint64_t rebalances() const = 0;
    // Every rank's cell count after the last step (collective).
    virtual std::vector<std::uint64_t> shares() = 0;
};

// The cells of `whole` (every rank's initial state, the same on all) this rank keeps: the
// cuts balance the population (rank 0's histogram alone, so nothing counts twice). Collective.
HostState splitWhole(dist::Communicator& comm, const HostState& whole, SlabCuts& cuts);

// Raises SimulationError on every rank when any rank's `why` is not empty, with the first
// such rank's message (a collective check: no rank is left waiting). Collective.
void raiseTogether(dist::Communicator& comm, const std::string& why);
// checkSnapshotFinite of this rank's cells (`mine`); with `comm` (several ranks) collective: the
// first rank's error is raised on every rank, so none waits alone.
void checkFiniteTogether(dist::Communicator* comm, const Snapshot& mine);

// The substance field is one grid over the whole domain: refused on several ranks
// (ParameterError naming substance.enabled).
void refuseOnRanks(const SpheresParams& p);

// hostMetrics over the ranks' cells (collective): counts are exact; mean_diameter and
// mean_force are sums of per-rank sums, which may differ from one rank's in the last bits.
std::vector<Metric> rankMetrics(dist::Communicator& comm, const HostState& mine,
                                std::uint64_t divisions);

}  // namespace cf::spheres
