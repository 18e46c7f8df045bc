// SPDX-License-Identifier: GPL-3.0-or-later
// CPU reference backend of `lattice`: the per-site gather of lattice_sweep.hpp over all
// sites (parallelFor, one writer per site), then the shared overflow re-insertion. After
// distribute() on more than one rank it holds one z-slab (lattice_slab.hpp): the same
// gathers over its own planes, the z sweep after the halo planes arrive, and overflows
// re-inserted over the ranks.
#include <atomic>
#include <mutex>
#include <optional>

#include "sim/core/parallel.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/lattice/lattice_react.hpp"
#include "sim/models/lattice/lattice_slab.hpp"
#include "sim/models/lattice/lattice_views.hpp"

namespace cf::lattice {

namespace {

class CpuLattice final : public Model, public dist::Distributable, public StateArrayProvider {
public:
    Backend backend() const override { return Backend::Cpu; }

    void distribute(dist::Communicator& comm) override { comm_ = &comm; }

    dist::GridPiece piece() const override { return slabPiece(p_, slab_ ? &*slab_ : nullptr); }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        // Everything is built before anything is replaced: a bad file or parameter leaves
        // the previous state as it was.
        LatticeParams p = checkedParams(params);
        Geometry g = makeGeometry(p, seed);
        std::optional<SlabLayout> slab;
        // One rank runs the whole lattice as without a communicator.
        if (comm_ && comm_->size() > 1) slab = slabLayout(g, *comm_);
        HostState s = initialState(p, g);
        std::vector<std::int64_t> initial = countSpecies(p, g, s.words.data());
        std::size_t freeSites = 0;
        if (slab) {
            // Every rank builds the whole initial state and keeps its slab: the placement
            // (obstacles, particles in index order) is then the one rank's by construction.
            // The whole lattice is in memory at reset only.
            for (std::uint8_t t : s.types)
                freeSites += t == kSiteCytoplasm;
            s = cutSlab(*slab, s);
            g = slab->local;
        }
        p_ = std::move(p);
        inEffect_.emplace(params);
        g_ = g;
        slab_ = std::move(slab);
        note(memoryReport(p_, slab_ ? slab_->whole : g_) +
             (slab_ ? "; rank " + std::to_string(slab_->slab.rank) + " of " +
                          std::to_string(slab_->slab.ranks) + " holds z-planes " +
                          std::to_string(slab_->slab.begin) + ".." +
                          std::to_string(slab_->slab.end - 1) + " and two halo planes"
                    : std::string()));
        s_ = std::move(s);
        initial_ = std::move(initial);
        initialKnown_ = true;
        freeSites_ = freeSites;
        prepareBuffers();
    }

    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        LatticeParams next = checkedParams(merged);  // a refusal changes nothing
        Geometry g = g_;
        updateThresholds(next, g);
        Geometry whole = slab_ ? slab_->whole : g;
        if (slab_) updateThresholds(next, whole);
        p_ = std::move(next);
        g_ = g;
        if (slab_) slab_->whole = whole;
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        if (slab_ && p_.validation && !initialKnown_) initialCountsAfterRestore();
        for (std::uint64_t k = 0; k < steps; ++k)
            stepOnce();
    }

    std::uint64_t step() const override { return s_.step; }
    double time() const override { return s_.time; }

    std::vector<Metric> metrics() override {
        if (!slab_) return hostMetrics(p_, g_, s_);
        // Integer counts summed over the ranks and the displacement summed exactly, then
        // the one rank's arithmetic on equal inputs: bit-identical on every rank.
        return slabMetrics(*comm_, p_,
                           countByRegion(p_, g_, s_.words.data(), s_.types.data(),
                                         slab_->firstOwned(), slab_->endOwned()),
                           freeSites_, s_, metricState_, scratch_);
    }

    // A distributed snapshot is this rank's planes (piece()); `displacement` and
    // `reactions_fired` are this rank's shares (see globalDisplacement), the overflow
    // counters those of the whole lattice.
    Snapshot snapshot() override {
        if (!slab_) return makeSnapshot(p_, g_, s_);
        Snapshot snap = makeSnapshot(p_, slab_->piece, ownPlanes(*slab_, s_));
        snap.boxLo[2] = slab_->slab.begin * static_cast<double>(p_.lambda);
        snap.boxHi[2] = slab_->slab.end * static_cast<double>(p_.lambda);
        return snap;
    }

    // One rank's arrays only (a distributed run's hold halo planes: none offered).
    std::vector<StateArray> stateArrays() override {
        if (slab_) return {};
        return stateArraysOf(
            {s_.words.data(), s_.words.size(), s_.types.data(), s_.types.size(), s_.ids.data(),
             s_.ids.size(), s_.displacement.data(), s_.displacement.size() / 3},
            MemorySpace::Host);
    }

    void restore(const Snapshot& snap) override {
        if (slab_) {
            setOwnPlanes(*slab_, readSnapshot(p_, slab_->piece, snap), s_);
            initialKnown_ = false;  // counted over the ranks at the next advance (collective)
        } else {
            s_ = readSnapshot(p_, g_, snap);
            initial_ = initialCountsOf(p_, g_, s_);
        }
        prepareBuffers();
    }

    ModelViews views() override {
        if (slab_) return {};  // a distributed run is headless
        return hostViews(p_, g_, s_, viewBuffers_);
    }

    // Integer state only: nothing can become non-finite (no rank communicates either).
    void checkFinite() override {}

private:
    void prepareBuffers() {
        // In a slab the halos of both copies must hold the reflective ends' obstacle
        // planes, which no sweep writes: start the second copy as the first.
        if (slab_)
            nextWords_ = s_.words;
        else
            nextWords_.assign(s_.words.size(), 0u);
        nextIds_.assign(s_.ids.size(), 0u);
        transfers_.reserve(4 * (static_cast<std::size_t>(g_.wordsPerSite) + g_.capacity));
    }

    void stepOnce() {
        std::uint64_t overflows = 0;
        for (int axis = 0; axis < 3; ++axis)
            overflows += sweep(axis);
        if (g_.reactions.count > 0) overflows += react();
        s_.overflowsLastStep = overflows;
        s_.overflowsTotal += overflows;
        ++s_.step;
        s_.time += static_cast<double>(p_.tau) * 1.0e-3;
        if (p_.validation) checkCounts();
    }

    std::uint64_t sweep(int axis) {
        overflow_.clear();
        if (!slab_) {
            sweepSites(axis, 0, g_.sites);
            reinsertOverflows(g_, overflow_, nextWords_.data(), s_.types.data(),
                              s_.ids.empty() ? nullptr : nextIds_.data(), s_.displacement.data());
            swapLattices();
            return overflow_.size();
        }
        const std::uint32_t plane = slab_->plane, first = slab_->firstOwned(),
                            end = slab_->endOwned();
        if (axis < 2) {
            sweepSites(axis, first, end);
        } else {
            // The planes next to the halos wait for them; the others are swept meanwhile.
            const std::unique_ptr<dist::PendingExchange> halos = startHaloExchange();
            if (end - first > 2 * plane) sweepSites(axis, first + plane, end - plane);
            halos->wait();
            sweepSites(axis, first, first + plane);
            if (end - first > plane) sweepSites(axis, end - plane, end);
        }
        const std::uint64_t total =
            overflows_.reinsert(*comm_, *slab_, overflow_, nextWords_.data(), s_.types.data(),
                                s_.ids.empty() ? nullptr : nextIds_.data(), s_.displacement.data());
        swapLattices();
        return total;
    }

    void swapLattices() {
        s_.words.swap(nextWords_);
        if (!s_.ids.empty()) s_.ids.swap(nextIds_);
    }

    // The halo planes of the current lattice (words and, tracking, identities) from the
    // neighbours, this rank's first and last planes to them. A plane arriving from below
    // has tag 2 k, from above 2 k + 1 (k: word plane, then 4 + identity slot).
    std::unique_ptr<dist::PendingExchange> startHaloExchange() {
        const dist::Slab& sl = slab_->slab;
        const std::size_t plane = slab_->plane, sites = g_.sites, last = plane * sl.count();
        const std::size_t bytes = plane * sizeof(std::uint32_t);
        transfers_.clear();
        auto add = [&](std::uint32_t* base, int layer) {
            if (sl.below >= 0) {
                transfers_.push_back({nullptr, base, bytes, sl.below, 2 * layer});
                transfers_.push_back({base + plane, nullptr, bytes, sl.below, 2 * layer + 1});
            }
            if (sl.above >= 0) {
                transfers_.push_back(
                    {nullptr, base + last + plane, bytes, sl.above, 2 * layer + 1});
                transfers_.push_back({base + last, nullptr, bytes, sl.above, 2 * layer});
            }
        };
        for (int w = 0; w < g_.wordsPerSite; ++w)
            add(s_.words.data() + w * sites, w);
        if (!s_.ids.empty())
            for (int k = 0; k < g_.capacity; ++k)
                add(s_.ids.data() + k * sites, 4 + k);
        return comm_->startExchange(transfers_);
    }

    // The gathers of sites [first, last) into nextWords_ (and nextIds_), overflows appended.
    void sweepSites(int axis, std::uint32_t first, std::uint32_t last) {
        const bool tracking = !s_.ids.empty();
        const std::uint32_t sites = g_.sites;
        const std::uint32_t* src = s_.words.data();
        const std::uint8_t* types = s_.types.data();
        std::uint32_t* dst = nextWords_.data();
        const std::uint32_t* ids = s_.ids.data();
        std::uint32_t* nextIds = nextIds_.data();
        std::int32_t* disp = s_.displacement.data();
        const std::uint64_t step = s_.step;
        std::mutex overflowMutex;
        parallelFor(
            last - first,
            [&](std::size_t idx) {
                const auto i = first + static_cast<std::uint32_t>(idx);
                Gathered gth;
                gatherSite(g_, src, types, step, axis, i, gth);
                const int keep = gth.count < g_.capacity ? gth.count : g_.capacity;
                // dst holds the lattice of two sweeps ago, whose id slots past each site's
                // count are zero: only the slots it used need clearing (see below).
                const int stale = tracking ? countSite(g_, dst, i) : 0;
                encodeSite(g_, dst, i, siteType(g_, src, types, i), gth.species, keep);
                std::uint32_t gid[kMaxGathered] = {};
                if (tracking) {
                    for (int k = 0; k < gth.count; ++k) {
                        const std::int32_t from = gth.from[k] == 0
                                                      ? static_cast<std::int32_t>(i)
                                                      : neighborOf(g_, i, axis, gth.from[k]);
                        gid[k] = ids[static_cast<std::size_t>(gth.slot[k]) * sites +
                                     static_cast<std::uint32_t>(from)];
                        // Arriving from i-1 is a +1 step, from i+1 a -1 step. Each id is
                        // gathered by exactly one site, so this write has one owner.
                        if (gid[k] != 0) disp[3 * (gid[k] - 1) + axis] -= gth.from[k];
                    }
                    for (int k = 0; k < keep; ++k)
                        nextIds[static_cast<std::size_t>(k) * sites + i] = gid[k];
                    for (int k = keep; k < stale; ++k)
                        nextIds[static_cast<std::size_t>(k) * sites + i] = 0u;
                }
                if (gth.count > keep) {
                    const std::lock_guard<std::mutex> lock(overflowMutex);
                    for (int k = keep; k < gth.count; ++k)
                        overflow_.push_back(
                            {i, gid[k], gth.species[k], static_cast<std::uint8_t>(k), 0});
                }
            },
            1024);
    }

    // The reaction phase in place (each site touches only itself), then the overflows.
    std::uint64_t react() {
        const bool tracking = !s_.ids.empty();
        std::uint32_t* words = s_.words.data();
        std::uint32_t* ids = tracking ? s_.ids.data() : nullptr;
        std::int32_t* disp = s_.displacement.data();
        const std::uint8_t* types = s_.types.data();
        const std::uint64_t step = s_.step;
        const std::uint32_t first = slab_ ? slab_->firstOwned() : 0;
        const std::uint32_t last = slab_ ? slab_->endOwned() : g_.sites;
        std::atomic<std::uint64_t> fired[kMaxReactions] = {};
        overflow_.clear();
        std::mutex overflowMutex;
        parallelFor(
            last - first,
            [&](std::size_t idx) {
                const SiteReactionOutcome r = reactInSite(g_, words, types, ids, disp, step,
                                                          first + static_cast<std::uint32_t>(idx));
                if (r.reaction < 0) return;
                fired[r.reaction].fetch_add(1, std::memory_order_relaxed);
                if (r.overflowCount + r.excess == 0) return;
                const std::lock_guard<std::mutex> lock(overflowMutex);
                overflow_.insert(overflow_.end(), r.overflow, r.overflow + r.overflowCount);
                for (int k = 0; k < r.excess; ++k)
                    overflow_.push_back(
                        excessOverflow(r, first + static_cast<std::uint32_t>(idx), k));
            },
            1024);
        for (int k = 0; k < kMaxReactions; ++k)
            s_.fired[k] += fired[k].load();
        if (slab_) return overflows_.reinsert(*comm_, *slab_, overflow_, words, types, ids, disp);
        reinsertOverflows(g_, overflow_, words, types, ids, disp);
        return overflow_.size();
    }

    // The species counts and reactions fired of the whole lattice (collective in a slab).
    std::vector<std::int64_t> countsNow(std::vector<std::uint64_t>& fired) {
        fired.assign(s_.fired, s_.fired + kMaxReactions);
        if (!slab_) return countSpecies(p_, g_, s_.words.data());
        std::vector<std::int64_t> byRegion = countByRegion(p_, g_, s_.words.data(), s_.types.data(),
                                                           slab_->firstOwned(), slab_->endOwned());
        sumOverRanks(*comm_, byRegion, scratch_);
        comm_->allreduce(std::span<std::uint64_t>(fired), dist::ReduceOp::Sum);
        return speciesTotals(p_, byRegion);
    }

    // initialCountsOf for a slab restored from its piece: the counts now less what the
    // reactions of the whole lattice changed.
    void initialCountsAfterRestore() {
        std::vector<std::uint64_t> fired;
        initial_ = countsNow(fired);
        const std::vector<std::int64_t> delta =
            expectedCounts(p_, g_, std::vector<std::int64_t>(initial_.size(), 0), fired.data());
        for (std::size_t k = 0; k < initial_.size(); ++k)
            initial_[k] -= delta[k];
        initialKnown_ = true;
    }

    void checkCounts() {
        std::vector<std::uint64_t> fired;
        const std::vector<std::int64_t> now = countsNow(fired);
        const std::vector<std::int64_t> expected = expectedCounts(p_, g_, initial_, fired.data());
        for (std::size_t sp = 0; sp < now.size(); ++sp)
            if (now[sp] != expected[sp])
                throw SimulationError("lattice: step " + std::to_string(s_.step) + ": species " +
                                      std::to_string(sp) + " has " + std::to_string(now[sp]) +
                                      " particles, expected " + std::to_string(expected[sp]) +
                                      " (conservation check)");
    }

    LatticeParams p_{};
    std::optional<ParamSet> inEffect_;  // the set p_ comes from
    Geometry g_{};                      // the whole lattice, or this rank's slab with halos
    HostState s_;
    std::vector<std::int64_t> initial_;  // counts at reset (validation)
    bool initialKnown_ = true;
    std::vector<std::uint32_t> nextWords_, nextIds_;
    std::vector<Overflow> overflow_;
    ViewBuffers viewBuffers_;
    // Distributed (more than one rank): the slab, its overflows, the metrics' inputs.
    dist::Communicator* comm_ = nullptr;
    std::optional<SlabLayout> slab_;
    SlabOverflows overflows_;
    std::vector<dist::Transfer> transfers_;
    std::size_t freeSites_ = 0;  // cytoplasm sites of the whole lattice
    HostState metricState_;
    std::vector<std::uint64_t> scratch_;
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<CpuLattice>();
}

}  // namespace cf::lattice
