// SPDX-License-Identifier: GPL-3.0-or-later
// The lattice's z-slabs over ranks: geometry, state cuts, distributed overflow re-insertion.
#include "sim/models/lattice/lattice_slab.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/lattice/lattice_react.hpp"

namespace cf::lattice {

namespace {

// Copies z-plane `fromZ` of every one of `layers` planes-of-sites arrays (word planes, id
// slots) between two lattices of `fromSites` and `toSites` sites.
template <typename T>
void copyPlane(const std::vector<T>& from, std::uint32_t fromSites, std::int32_t fromZ,
               std::vector<T>& to, std::uint32_t toSites, std::int32_t toZ, int layers,
               std::uint32_t plane) {
    for (int k = 0; k < layers; ++k)
        std::memcpy(to.data() + static_cast<std::size_t>(k) * toSites +
                        static_cast<std::size_t>(toZ) * plane,
                    from.data() + static_cast<std::size_t>(k) * fromSites +
                        static_cast<std::size_t>(fromZ) * plane,
                    sizeof(T) * plane);
}

HostState withCounters(const HostState& s) {
    HostState out;
    out.displacement = s.displacement;
    out.trackedSpecies = s.trackedSpecies;
    out.step = s.step;
    out.time = s.time;
    out.overflowsLastStep = s.overflowsLastStep;
    out.overflowsTotal = s.overflowsTotal;
    std::copy(s.fired, s.fired + kMaxReactions, out.fired);
    return out;
}

}  // namespace

SlabLayout slabLayout(const Geometry& whole, const dist::Communicator& comm) {
    SlabLayout l;
    const bool periodic = whole.periodic[2] != 0;
    l.slab = dist::slabOf(2, whole.n[2], comm, periodic, "lattice.nz");
    l.whole = whole;
    l.plane = static_cast<std::uint32_t>(whole.n[0]) * static_cast<std::uint32_t>(whole.n[1]);
    const auto count = static_cast<std::uint32_t>(l.slab.count());
    l.local = whole;
    l.local.n[2] = l.slab.count() + 2;
    l.local.periodic[2] = 0;  // the halos stand for the neighbours; the sweeps never wrap
    l.local.sites = l.plane * (count + 2);
    const std::int32_t below = (l.slab.begin - 1 + whole.n[2]) % whole.n[2];
    l.local.siteBase = static_cast<std::uint32_t>(below) * l.plane;
    l.local.siteWrap = whole.sites;
    l.piece = whole;
    l.piece.n[2] = l.slab.count();
    l.piece.sites = l.plane * count;
    l.piece.siteBase = l.base();
    l.piece.siteWrap = 0;
    l.owner.assign(static_cast<std::size_t>(whole.n[2]), 0);
    for (int r = 0; r < comm.size(); ++r) {
        const dist::Slab s = dist::slabOf(2, whole.n[2], r, comm.size(), periodic, "lattice.nz");
        std::fill(l.owner.begin() + s.begin, l.owner.begin() + s.end, r);
    }
    return l;
}

HostState cutSlab(const SlabLayout& l, const HostState& whole) {
    HostState s = withCounters(whole);
    std::fill(s.displacement.begin(), s.displacement.end(), 0);
    const Geometry& g = l.local;
    const bool tracking = !whole.ids.empty();
    s.words.assign(static_cast<std::size_t>(g.sites) * g.wordsPerSite, 0u);
    s.types.assign(g.sites, kSiteObstacle);
    if (tracking) s.ids.assign(static_cast<std::size_t>(g.sites) * g.capacity, 0u);
    const std::int32_t nz = l.whole.n[2];
    for (std::int32_t z = 0; z < g.n[2]; ++z) {
        std::int32_t from = l.slab.begin - 1 + z;
        if (from < 0 || from >= nz) {
            if (!l.whole.periodic[2]) {  // a reflective end: an empty obstacle plane
                for (std::uint32_t i = 0; i < l.plane; ++i)
                    encodeSite(g, s.words.data(), static_cast<std::uint32_t>(z) * l.plane + i,
                               kSiteObstacle, nullptr, 0);
                continue;
            }
            from = (from + nz) % nz;
        }
        copyPlane(whole.words, l.whole.sites, from, s.words, g.sites, z, g.wordsPerSite, l.plane);
        copyPlane(whole.types, l.whole.sites, from, s.types, g.sites, z, 1, l.plane);
        if (tracking)
            copyPlane(whole.ids, l.whole.sites, from, s.ids, g.sites, z, g.capacity, l.plane);
    }
    return s;
}

HostState ownPlanes(const SlabLayout& l, const HostState& local) {
    HostState s = withCounters(local);
    const Geometry& g = l.piece;
    s.words.resize(static_cast<std::size_t>(g.sites) * g.wordsPerSite);
    s.types.resize(g.sites);
    if (!local.ids.empty()) s.ids.resize(static_cast<std::size_t>(g.sites) * g.capacity);
    for (std::int32_t z = 0; z < g.n[2]; ++z) {
        copyPlane(local.words, l.local.sites, z + 1, s.words, g.sites, z, g.wordsPerSite, l.plane);
        copyPlane(local.types, l.local.sites, z + 1, s.types, g.sites, z, 1, l.plane);
        if (!local.ids.empty())
            copyPlane(local.ids, l.local.sites, z + 1, s.ids, g.sites, z, g.capacity, l.plane);
    }
    return s;
}

void setOwnPlanes(const SlabLayout& l, const HostState& piece, HostState& local) {
    const Geometry& g = l.piece;
    const bool tracking = !local.ids.empty() && !piece.ids.empty();
    for (std::int32_t z = 0; z < g.n[2]; ++z) {
        copyPlane(piece.words, g.sites, z, local.words, l.local.sites, z + 1, g.wordsPerSite,
                  l.plane);
        copyPlane(piece.types, g.sites, z, local.types, l.local.sites, z + 1, 1, l.plane);
        if (tracking)
            copyPlane(piece.ids, g.sites, z, local.ids, l.local.sites, z + 1, g.capacity, l.plane);
    }
    local.displacement = piece.displacement;
    local.trackedSpecies = piece.trackedSpecies;
    local.step = piece.step;
    local.time = piece.time;
    local.overflowsLastStep = piece.overflowsLastStep;
    local.overflowsTotal = piece.overflowsTotal;
    std::copy(piece.fired, piece.fired + kMaxReactions, local.fired);
}

void globalDisplacement(dist::Communicator& comm, const std::vector<std::int32_t>& share,
                        std::vector<std::int32_t>& out, std::vector<std::uint64_t>& scratch) {
    const std::size_t tracked = share.size() / 3;
    scratch.assign(4 * tracked, 0u);
    for (std::size_t t = 0; t < tracked; ++t) {
        const bool retired = share[3 * t] == kRetiredDisplacement;
        for (std::size_t a = 0; a < 3; ++a)
            if (a > 0 || !retired)
                scratch[4 * t + a] = static_cast<std::uint64_t>(std::int64_t{share[3 * t + a]});
        scratch[4 * t + 3] = retired ? 1u : 0u;
    }
    comm.allreduce(std::span<std::uint64_t>(scratch), dist::ReduceOp::Sum);
    out.resize(share.size());
    for (std::size_t t = 0; t < tracked; ++t)
        for (std::size_t a = 0; a < 3; ++a)
            out[3 * t + a] =
                a == 0 && scratch[4 * t + 3] != 0
                    ? kRetiredDisplacement
                    : static_cast<std::int32_t>(static_cast<std::int64_t>(scratch[4 * t + a]));
}

void sumOverRanks(dist::Communicator& comm, std::vector<std::int64_t>& counts,
                  std::vector<std::uint64_t>& scratch) {
    scratch.resize(counts.size());
    for (std::size_t k = 0; k < counts.size(); ++k)
        scratch[k] = static_cast<std::uint64_t>(counts[k]);
    comm.allreduce(std::span<std::uint64_t>(scratch), dist::ReduceOp::Sum);
    for (std::size_t k = 0; k < counts.size(); ++k)
        counts[k] = static_cast<std::int64_t>(scratch[k]);
}

dist::GridPiece slabPiece(const LatticeParams& p, const SlabLayout* slab) {
    const std::size_t dims[3] = {static_cast<std::size_t>(p.nx), static_cast<std::size_t>(p.ny),
                                 static_cast<std::size_t>(p.nz)};
    return dist::pieceOf(slab ? slab->slab : dist::slabOf(2, p.nz, 0, 1, false, "lattice.nz"),
                         dims);
}

std::vector<Metric> slabMetrics(dist::Communicator& comm, const LatticeParams& p,
                                std::vector<std::int64_t> byRegion, std::size_t freeSites,
                                const HostState& mine, HostState& work,
                                std::vector<std::uint64_t>& scratch) {
    sumOverRanks(comm, byRegion, scratch);
    work.overflowsLastStep = mine.overflowsLastStep;
    work.overflowsTotal = mine.overflowsTotal;
    work.trackedSpecies = mine.trackedSpecies;
    globalDisplacement(comm, mine.displacement, work.displacement, scratch);
    return metricsFromCounts(p, byRegion, freeSites, work);
}

void SlabOverflows::wantAround(const SlabLayout& l, std::int32_t z, std::int32_t r) {
    const std::int32_t nz = l.whole.n[2];
    const bool periodic = l.whole.periodic[2] != 0;
    if (periodic && 2 * r + 1 >= nz) {
        for (std::int32_t p = 0; p < nz; ++p)
            if (slotOf_[static_cast<std::size_t>(p)] < 0) want_.push_back(p);
        return;
    }
    for (std::int32_t p = z - r; p <= z + r; ++p) {
        std::int32_t q = p;
        if (q < 0 || q >= nz) {
            if (!periodic) continue;
            q = (q + nz) % nz;
        }
        if (slotOf_[static_cast<std::size_t>(q)] < 0) want_.push_back(q);
    }
}

void SlabOverflows::pack(const SlabLayout& l, int rank, const std::uint32_t* words,
                         const std::uint8_t* types) {
    const auto mine =
        static_cast<std::size_t>(std::count_if(want_.begin(), want_.end(), [&](std::int32_t z) {
            return l.owner[static_cast<std::size_t>(z)] == rank;
        }));
    message_.resize(mine * l.plane * sizeof(std::uint16_t));
    std::size_t at = 0;
    for (std::int32_t z : want_) {
        if (l.owner[static_cast<std::size_t>(z)] != rank) continue;
        const std::uint32_t first = l.localOf(static_cast<std::uint32_t>(z) * l.plane);
        for (std::uint32_t i = first; i < first + l.plane; ++i, at += sizeof(std::uint16_t)) {
            const auto v = static_cast<std::uint16_t>(siteType(l.local, words, types, i) << 8 |
                                                      countSite(l.local, words, i));
            std::memcpy(message_.data() + at, &v, sizeof v);
        }
    }
}

void SlabOverflows::store(const SlabLayout& l) {
    if (message_.size() != want_.size() * l.plane * sizeof(std::uint16_t))
        throw Error("lattice: overflow planes of " + std::to_string(message_.size()) + " bytes");
    const std::size_t slot0 = cached_.size();
    cache_.resize((slot0 + want_.size()) * l.plane);
    std::memcpy(cache_.data() + slot0 * l.plane, message_.data(), message_.size());
    for (std::int32_t z : want_) {
        slotOf_[static_cast<std::size_t>(z)] = static_cast<std::int32_t>(cached_.size());
        cached_.push_back(z);
    }
    want_.clear();
}

void SlabOverflows::fetch(dist::Communicator& comm, const SlabLayout& l, const std::uint32_t* words,
                          const std::uint8_t* types) {
    std::sort(want_.begin(), want_.end());
    want_.erase(std::unique(want_.begin(), want_.end()), want_.end());
    if (want_.empty()) return;
    // Each rank packs the wanted planes it owns; in rank order they are in plane order.
    pack(l, comm.rank(), words, types);
    std::vector<std::vector<std::byte>> parts = comm.gather(message_, 0);
    if (comm.rank() == 0) {
        message_.clear();
        for (const std::vector<std::byte>& p : parts)
            message_.insert(message_.end(), p.begin(), p.end());
    }
    comm.broadcast(message_, 0);
    store(l);
}

bool SlabOverflows::fetchOwn(const SlabLayout& l, int rank, const std::uint32_t* words,
                             const std::uint8_t* types) {
    std::sort(want_.begin(), want_.end());
    want_.erase(std::unique(want_.begin(), want_.end()), want_.end());
    for (std::int32_t z : want_)
        if (l.owner[static_cast<std::size_t>(z)] != rank) {
            want_.clear();
            return false;
        }
    if (want_.empty()) return true;
    pack(l, rank, words, types);
    store(l);
    return true;
}

void SlabOverflows::clearCache(const SlabLayout& l) {
    slotOf_.assign(static_cast<std::size_t>(l.whole.n[2]), -1);
    cached_.clear();
    want_.clear();
}

// One overflow's search over the cached planes (searchShells' visit and shell hook). A
// trial (this rank's overflows alone) reads this rank's planes only, records where each
// particle goes and stops at the first shell reaching another rank's plane (`escaped`);
// otherwise every rank runs the same search, fetching planes together, and the owner of
// the chosen site appends the particle.
struct SlabOverflows::Search {
    SlabOverflows& self;
    dist::Communicator& comm;
    const SlabLayout& l;
    const std::uint32_t* words;
    std::uint32_t* out;  // the lattice to append to; null in a trial
    const std::uint8_t* types;
    std::uint32_t* ids;
    std::int32_t* displacement;
    const Overflow& o;
    std::int32_t z;  // the overflow's plane
    bool trial;
    std::uint32_t index;  // the overflow's position in its list (trial)
    std::uint16_t type = 0;
    bool escaped = false;

    std::uint16_t& entry(std::uint32_t j) const {
        const std::uint32_t p = j / l.plane;
        return self.cache_[static_cast<std::size_t>(self.slotOf_[p]) * l.plane + j % l.plane];
    }
    void operator()(std::int32_t r) {  // before shell r
        if (escaped) return;
        self.wantAround(l, z, r);
        if (trial)
            escaped = !self.fetchOwn(l, comm.rank(), words, types);
        else
            // Every rank runs the same search on the same data, so all of them fetch here
            // or none does.
            self.fetch(comm, l, words, types);
    }
    bool operator()(std::uint32_t j, const std::int32_t d[3]) {
        if (escaped) return true;  // ends the search
        std::uint16_t& e = entry(j);
        if ((e >> 8) != type || static_cast<int>(e & 0xFFu) >= l.whole.capacity) return false;
        const int slot = e & 0xFF;
        ++e;
        if (trial) {
            self.placed_.push_back({index, j, slot, {d[0], d[1], d[2]}});
            return true;
        }
        if (l.owner[j / l.plane] == comm.rank())
            self.place(l, o, j, slot, d, out, types, ids, displacement);
        return true;
    }
};

void SlabOverflows::place(const SlabLayout& l, const Overflow& o, std::uint32_t j, int slot,
                          const std::int32_t d[3], std::uint32_t* words, const std::uint8_t* types,
                          std::uint32_t* ids, std::int32_t* displacement) {
    const std::uint32_t i = l.localOf(j);
    if (appendParticle(l.local, words, types, i, o.species) != slot)
        throw Error("lattice: overflow cache out of step with site " + std::to_string(j));
    if (ids) {
        ids[static_cast<std::size_t>(slot) * l.local.sites + i] = o.id;
        if (o.id != 0)
            for (int a = 0; a < 3; ++a)
                displacement[3 * (o.id - 1) + a] += d[a];
    }
}

bool SlabOverflows::trialOnOwnPlanes(dist::Communicator& comm, const SlabLayout& l,
                                     const std::vector<Overflow>& list, const std::uint32_t* words,
                                     const std::uint8_t* types) {
    clearCache(l);
    for (std::uint32_t k = 0; k < list.size(); ++k) {
        const Overflow& o = list[k];
        const std::int32_t c[3] = {coordOf(l.whole, o.site, 0), coordOf(l.whole, o.site, 1),
                                   coordOf(l.whole, o.site, 2)};
        if (slotOf_[static_cast<std::size_t>(c[2])] < 0) want_.push_back(c[2]);
        if (!fetchOwn(l, comm.rank(), words, types)) return false;
        Search s{*this, comm, l, words, nullptr, types, nullptr, nullptr, o, c[2], true, k};
        s.type = static_cast<std::uint16_t>(s.entry(o.site) >> 8);
        if (!searchShells(l.whole, c, s, s) || s.escaped) return false;
    }
    return true;
}

std::uint64_t SlabOverflows::reinsert(dist::Communicator& comm, const SlabLayout& l,
                                      std::vector<Overflow>& list, std::uint32_t* words,
                                      const std::uint8_t* types, std::uint32_t* ids,
                                      std::int32_t* displacement) {
    for (Overflow& o : list)
        o.site = l.wholeOf(o.site);
    const auto byKey = [](const Overflow& a, const Overflow& b) {
        return overflowKey(a) < overflowKey(b);
    };
    std::sort(list.begin(), list.end(), byKey);
    // The one-rank order places the overflows by site, so by plane, so rank by rank. When
    // every rank's particles find room on its own planes, no search reads another rank's
    // planes: the ranks' placements are independent and each equals the one rank's. One
    // sum tells the overflows of the whole lattice and whether any rank's search escaped.
    std::uint64_t sums[2] = {list.size(), 0};
    placed_.clear();
    if (!list.empty() && !trialOnOwnPlanes(comm, l, list, words, types)) sums[1] = 1;
    comm.allreduce(std::span<std::uint64_t>(sums), dist::ReduceOp::Sum);
    if (sums[0] == 0) return 0;
    if (sums[1] == 0) {
        for (const Placement& p : placed_)
            place(l, list[p.overflow], p.site, p.slot, p.d, words, types, ids, displacement);
        return sums[0];
    }
    // Otherwise every rank places every overflow, in the one-rank order.
    std::vector<std::vector<std::byte>> parts =
        comm.gather(std::as_bytes(std::span<const Overflow>(list)), 0);
    message_.clear();
    for (const std::vector<std::byte>& p : parts)
        message_.insert(message_.end(), p.begin(), p.end());
    comm.broadcast(message_, 0);
    all_.resize(message_.size() / sizeof(Overflow));
    std::memcpy(all_.data(), message_.data(), all_.size() * sizeof(Overflow));
    std::sort(all_.begin(), all_.end(), byKey);
    clearCache(l);
    for (const Overflow& o : all_)  // most particles land within one plane of their own
        wantAround(l, coordOf(l.whole, o.site, 2), 1);
    fetch(comm, l, words, types);
    for (const Overflow& o : all_) {
        const std::int32_t c[3] = {coordOf(l.whole, o.site, 0), coordOf(l.whole, o.site, 1),
                                   coordOf(l.whole, o.site, 2)};
        Search s{*this, comm, l, words, words, types, ids, displacement, o, c[2], false, 0};
        s.type = static_cast<std::uint16_t>(s.entry(o.site) >> 8);
        if (!searchShells(l.whole, c, s, s))
            throw SimulationError("lattice: no free slot for an overflowing particle of species " +
                                  std::to_string(o.species) + " from site " +
                                  std::to_string(o.site) +
                                  " in any site of its type: the region is full");
    }
    return sums[0];
}

}  // namespace cf::lattice
