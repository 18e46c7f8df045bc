// SPDX-License-Identifier: GPL-3.0-or-later
// CPU reference backend of `lattice`: the per-site gather of lattice_sweep.hpp over all
// sites (parallelFor, one writer per site), then the shared overflow re-insertion.
#include <atomic>
#include <mutex>
#include <optional>

#include "sim/core/parallel.hpp"
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/lattice/lattice_react.hpp"
#include "sim/models/lattice/lattice_views.hpp"

namespace cf::lattice {

namespace {

class CpuLattice final : public Model {
public:
    Backend backend() const override { return Backend::Cpu; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        // Everything is built before anything is replaced: a bad file or parameter leaves
        // the previous state as it was.
        LatticeParams p = checkedParams(params);
        Geometry g = makeGeometry(p, seed);
        HostState s = initialState(p, g);
        p_ = std::move(p);
        inEffect_.emplace(params);
        g_ = g;
        note(memoryReport(p_, g_));
        s_ = std::move(s);
        initial_ = countSpecies(p_, g_, s_.words.data());
        nextWords_.assign(s_.words.size(), 0u);
        nextIds_.assign(s_.ids.size(), 0u);
    }

    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        LatticeParams next = checkedParams(merged);  // a refusal changes nothing
        Geometry g = g_;
        updateThresholds(next, g);
        p_ = std::move(next);
        g_ = g;
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        for (std::uint64_t k = 0; k < steps; ++k)
            stepOnce();
    }

    std::uint64_t step() const override { return s_.step; }
    double time() const override { return s_.time; }

    std::vector<Metric> metrics() override { return hostMetrics(p_, g_, s_); }

    Snapshot snapshot() override { return makeSnapshot(p_, g_, s_); }

    void restore(const Snapshot& snap) override {
        s_ = readSnapshot(p_, g_, snap);
        initial_ = initialCountsOf(p_, g_, s_);
        nextWords_.assign(s_.words.size(), 0u);
        nextIds_.assign(s_.ids.size(), 0u);
    }

    ModelViews views() override { return hostViews(p_, g_, s_, viewBuffers_); }

    // Integer state only: nothing can become non-finite.
    void checkFinite() override {}

private:
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
        const bool tracking = !s_.ids.empty();
        const std::uint32_t sites = g_.sites;
        const std::uint32_t* src = s_.words.data();
        const std::uint8_t* types = s_.types.data();
        std::uint32_t* dst = nextWords_.data();
        const std::uint32_t* ids = s_.ids.data();
        std::uint32_t* nextIds = nextIds_.data();
        std::int32_t* disp = s_.displacement.data();
        const std::uint64_t step = s_.step;
        overflow_.clear();
        std::mutex overflowMutex;
        parallelFor(
            sites,
            [&](std::size_t idx) {
                const auto i = static_cast<std::uint32_t>(idx);
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
        reinsertOverflows(g_, overflow_, dst, types, tracking ? nextIds : nullptr, disp);
        s_.words.swap(nextWords_);
        if (tracking) s_.ids.swap(nextIds_);
        return overflow_.size();
    }

    // The reaction phase in place (each site touches only itself), then the overflows.
    std::uint64_t react() {
        const bool tracking = !s_.ids.empty();
        std::uint32_t* words = s_.words.data();
        std::uint32_t* ids = tracking ? s_.ids.data() : nullptr;
        std::int32_t* disp = s_.displacement.data();
        const std::uint8_t* types = s_.types.data();
        const std::uint64_t step = s_.step;
        std::atomic<std::uint64_t> fired[kMaxReactions] = {};
        overflow_.clear();
        std::mutex overflowMutex;
        parallelFor(
            g_.sites,
            [&](std::size_t idx) {
                const SiteReactionOutcome r =
                    reactInSite(g_, words, types, ids, disp, step, static_cast<std::uint32_t>(idx));
                if (r.reaction < 0) return;
                fired[r.reaction].fetch_add(1, std::memory_order_relaxed);
                if (r.overflowCount == 0) return;
                const std::lock_guard<std::mutex> lock(overflowMutex);
                overflow_.insert(overflow_.end(), r.overflow, r.overflow + r.overflowCount);
            },
            1024);
        for (int k = 0; k < kMaxReactions; ++k)
            s_.fired[k] += fired[k].load();
        reinsertOverflows(g_, overflow_, words, types, ids, disp);
        return overflow_.size();
    }

    void checkCounts() {
        const std::vector<std::int64_t> now = countSpecies(p_, g_, s_.words.data());
        const std::vector<std::int64_t> expected = expectedCounts(p_, g_, initial_, s_.fired);
        for (std::size_t sp = 0; sp < now.size(); ++sp)
            if (now[sp] != expected[sp])
                throw SimulationError("lattice: step " + std::to_string(s_.step) + ": species " +
                                      std::to_string(sp) + " has " + std::to_string(now[sp]) +
                                      " particles, expected " + std::to_string(expected[sp]) +
                                      " (conservation check)");
    }

    LatticeParams p_{};
    std::optional<ParamSet> inEffect_;  // the set p_ comes from
    Geometry g_{};
    HostState s_;
    std::vector<std::int64_t> initial_;  // counts at reset (validation)
    std::vector<std::uint32_t> nextWords_, nextIds_;
    std::vector<Overflow> overflow_;
    ViewBuffers viewBuffers_;
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<CpuLattice>();
}

}  // namespace cf::lattice
