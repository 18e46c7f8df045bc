// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/spheres/spheres_ranks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sim/core/errors.hpp"
#include "sim/models/spheres/spheres_model.hpp"

namespace cf::spheres {

int SlabCuts::owner(double v) const {
    // The last rank whose cut is <= v: empty slabs (equal cuts) are skipped.
    const auto it = std::upper_bound(cut.begin(), cut.end(), v);
    const auto r = static_cast<int>(it - cut.begin()) - 1;
    return std::clamp(r, 0, ranks() - 1);
}

int longestAxis(const double lo[3], const double hi[3]) {
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
    return axis;
}

SlabCuts balancedCuts(dist::Communicator& comm, int axis, const double lo[3], const double hi[3],
                      std::span<const double> coord) {
    const double a = lo[axis], extent = hi[axis] - lo[axis];
    const double inv = extent > 0.0 ? kBalanceBins / extent : 0.0;
    std::vector<std::uint64_t> bins(kBalanceBins, 0);
    for (double v : coord) {
        const double f = std::floor((v - a) * inv);
        const int b = f < 0.0 ? 0 : f >= kBalanceBins ? kBalanceBins - 1 : static_cast<int>(f);
        ++bins[static_cast<std::size_t>(b)];
    }
    return cutsFromHistogram(comm, axis, lo, hi, std::move(bins));
}

SlabCuts cutsFromHistogram(dist::Communicator& comm, int axis, const double lo[3],
                           const double hi[3], std::vector<std::uint64_t> bins) {
    const double a = lo[axis], extent = hi[axis] - lo[axis];
    comm.allreduce(std::span<std::uint64_t>(bins), dist::ReduceOp::Sum);
    std::uint64_t total = 0;
    for (std::uint64_t c : bins)
        total += c;
    const int ranks = comm.size();
    SlabCuts cuts;
    cuts.axis = axis;
    cuts.cut.assign(static_cast<std::size_t>(ranks) + 1, 0.0);
    cuts.cut.front() = -std::numeric_limits<double>::infinity();
    cuts.cut.back() = std::numeric_limits<double>::infinity();
    // Cut r lies after the first bin where the running count reaches r N / ranks (in
    // integers, so every rank finds the same bin); edges are computed one way everywhere.
    std::uint64_t running = 0;
    int b = 0;
    for (int r = 1; r < ranks; ++r) {
        const std::uint64_t target = static_cast<std::uint64_t>(r) * total;
        while (b < kBalanceBins && running * static_cast<std::uint64_t>(ranks) < target)
            running += bins[static_cast<std::size_t>(b++)];
        cuts.cut[static_cast<std::size_t>(r)] = a + extent * static_cast<double>(b) / kBalanceBins;
    }
    return cuts;
}

std::vector<std::uint64_t> rankCounts(dist::Communicator& comm, std::uint64_t mine) {
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(comm.size()), 0);
    counts[static_cast<std::size_t>(comm.rank())] = mine;
    comm.allreduce(std::span<std::uint64_t>(counts), dist::ReduceOp::Sum);
    return counts;
}

bool unbalanced(std::span<const std::uint64_t> counts) {
    if (counts.empty()) return false;
    std::uint64_t total = 0, largest = 0;
    for (std::uint64_t c : counts) {
        total += c;
        largest = std::max(largest, c);
    }
    const double mean = static_cast<double>(total) / static_cast<double>(counts.size());
    return static_cast<double>(largest) > (1.0 + kBalanceThreshold) * mean;
}

CellRecord recordOf(const HostState& s, std::size_t i) {
    CellRecord r{};
    r.x = s.x[i];
    r.y = s.y[i];
    r.z = s.z[i];
    r.diameter = s.diameter[i];
    r.volume = s.volume[i];
    r.birthStep = s.birthStep[i];
    r.id = s.id[i];
    r.root = s.root[i];
    r.force = s.force[i];
    r.generation = s.generation[i];
    return r;
}

void appendRecord(HostState& s, const CellRecord& r) {
    s.x.push_back(r.x);
    s.y.push_back(r.y);
    s.z.push_back(r.z);
    s.diameter.push_back(r.diameter);
    s.volume.push_back(r.volume);
    s.birthStep.push_back(r.birthStep);
    s.id.push_back(r.id);
    s.root.push_back(r.root);
    s.force.push_back(r.force);
    s.generation.push_back(r.generation);
}

std::vector<CellRecord> exchangeRecords(dist::Communicator& comm,
                                        const std::vector<std::vector<CellRecord>>& outgoing) {
    const int ranks = comm.size(), me = comm.rank();
    if (ranks == 1) return {};
    const auto R = static_cast<std::size_t>(ranks);
    std::vector<std::uint64_t> sendCount(R, 0), recvCount(R, 0);
    std::vector<dist::Transfer> transfers;
    transfers.reserve(2 * R);
    for (int p = 0; p < ranks; ++p) {
        if (p == me) continue;
        const auto q = static_cast<std::size_t>(p);
        sendCount[q] = outgoing[q].size();
        transfers.push_back({&sendCount[q], &recvCount[q], sizeof(std::uint64_t), p, 0});
    }
    comm.exchange(transfers);
    std::vector<std::size_t> offset(R + 1, 0);
    for (std::size_t q = 0; q < R; ++q)
        offset[q + 1] = offset[q] + recvCount[q];
    std::vector<CellRecord> incoming(offset[R]);
    transfers.clear();
    for (int p = 0; p < ranks; ++p) {
        const auto q = static_cast<std::size_t>(p);
        if (p == me) continue;
        if (sendCount[q] > 0)
            transfers.push_back(
                {outgoing[q].data(), nullptr, sendCount[q] * sizeof(CellRecord), p, 1});
        if (recvCount[q] > 0)
            transfers.push_back(
                {nullptr, incoming.data() + offset[q], recvCount[q] * sizeof(CellRecord), p, 1});
    }
    comm.exchange(transfers);
    return incoming;
}

std::vector<std::uint32_t> globalDividingIds(dist::Communicator& comm,
                                             std::vector<std::uint32_t> mine) {
    std::sort(mine.begin(), mine.end());
    if (comm.size() == 1) return mine;
    const std::vector<std::vector<std::byte>> parts =
        comm.gather(std::as_bytes(std::span(mine)), 0);
    std::vector<std::byte> bytes;
    if (comm.rank() == 0) {
        std::vector<std::uint32_t> all;
        for (const std::vector<std::byte>& part : parts) {
            const std::size_t at = all.size();
            all.resize(at + part.size() / sizeof(std::uint32_t));
            if (!part.empty()) std::memcpy(all.data() + at, part.data(), part.size());
        }
        std::sort(all.begin(), all.end());
        bytes.resize(all.size() * sizeof(std::uint32_t));
        if (!all.empty()) std::memcpy(bytes.data(), all.data(), bytes.size());
    }
    comm.broadcast(bytes, 0);
    std::vector<std::uint32_t> all(bytes.size() / sizeof(std::uint32_t));
    if (!all.empty()) std::memcpy(all.data(), bytes.data(), bytes.size());
    return all;
}

HostState splitWhole(dist::Communicator& comm, const HostState& whole, SlabCuts& cuts) {
    const int axis = longestAxis(whole.boxLo, whole.boxHi);
    const std::vector<double>& v = axis == 0 ? whole.x : axis == 1 ? whole.y : whole.z;
    cuts = balancedCuts(comm, axis, whole.boxLo, whole.boxHi,
                        comm.rank() == 0 ? std::span<const double>(v) : std::span<const double>());
    HostState mine;
    mine.step = whole.step;
    mine.time = whole.time;
    for (int a = 0; a < 3; ++a) {
        mine.boxLo[a] = whole.boxLo[a];
        mine.boxHi[a] = whole.boxHi[a];
    }
    for (std::size_t i = 0; i < whole.size(); ++i)
        if (cuts.owner(v[i]) == comm.rank()) appendRecord(mine, recordOf(whole, i));
    return mine;
}

void raiseTogether(dist::Communicator& comm, const std::string& why) {
    if (!comm.anyOf(!why.empty())) return;
    std::string first;
    for (const std::string& w : comm.gatherStrings(why, 0))
        if (first.empty()) first = w;
    std::vector<std::byte> bytes(first.size());
    if (!bytes.empty()) std::memcpy(bytes.data(), first.data(), first.size());
    comm.broadcast(bytes, 0);
    throw SimulationError(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

void checkFiniteTogether(dist::Communicator* comm, const Snapshot& mine) {
    if (!comm) {
        checkSnapshotFinite(mine, "spheres");
        return;
    }
    std::string why;
    try {
        checkSnapshotFinite(mine, "spheres");
    } catch (const SimulationError& e) {
        why = e.what();
    }
    raiseTogether(*comm, why);
}

void refuseOnRanks(const SpheresParams& p) {
    if (p.substance)
        throw ParameterError(
            "spheres: substance.enabled: the substance field does not split "
            "over ranks yet; run it on one rank or turn it off");
}

std::vector<Metric> rankMetrics(dist::Communicator& comm, const HostState& mine,
                                std::uint64_t divisions) {
    // One rank's metrics of its own cells give the sums; the counts travel as integers.
    std::vector<Metric> m = hostMetrics(mine, divisions);
    double diameter = 0.0, force = 0.0;
    std::uint64_t counts[2] = {mine.size(), 0};
    for (std::size_t i = 0; i < mine.size(); ++i) {
        diameter += mine.diameter[i];
        force += mine.force[i];
        counts[1] += mine.root[i] == mine.id[i] ? 1u : 0u;
    }
    double sums[2] = {diameter, force};
    comm.allreduce(std::span<double>(sums), dist::ReduceOp::Sum);
    comm.allreduce(std::span<std::uint64_t>(counts), dist::ReduceOp::Sum);
    const double count = static_cast<double>(counts[0]);
    m[0].value = count;
    m[1].value = counts[0] > 0 ? sums[0] / count : 0.0;
    m[2].value = counts[0] > 0 ? sums[1] / count : 0.0;
    m[3].value = static_cast<double>(counts[0] - counts[1]);
    m[4].value = static_cast<double>(divisions);
    return m;
}

}  // namespace cf::spheres
