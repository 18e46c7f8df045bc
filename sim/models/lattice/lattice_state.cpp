// SPDX-License-Identifier: GPL-3.0-or-later
// The lattice's host state: initial placement, overflow re-insertion on the host, species
// counts and snapshots.
#include "sim/models/lattice/lattice_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/core/rng.hpp"
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/lattice/lattice_overflow.hpp"

namespace cf::lattice {

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Particles spread uniformly put Poisson(m) in a site; the expected excess over the
// capacity per sweep is sites E[(N - capacity)+]. Above 25 % of the particles the lattice
// overflows constantly (each overflow is a host-side search on the CPU, a serial one on
// the GPU), so the layout or the concentration is wrong.
void checkOverflowRate(double particles, std::size_t sites, int capacity) {
    if (sites == 0 || particles <= 0) return;
    const double m = particles / static_cast<double>(sites);
    double pn = std::exp(-m), below = 0, meanBelow = 0;  // P(N = n), sums over n <= capacity
    for (int n = 0; n <= capacity; ++n) {
        if (n > 0) pn *= m / n;
        below += pn;
        meanBelow += n * pn;
    }
    // E[(N - c)+] = E[N] - E[N; N <= c] - c P(N > c)
    const double excess = std::max(0.0, m - meanBelow - capacity * (1.0 - below));
    const double perSweep = excess * static_cast<double>(sites);
    if (perSweep > 0.25 * particles)
        throw ParameterError(
            fmt("%.0f", particles) + " particles in " + std::to_string(sites) +
            " sites of capacity " + std::to_string(capacity) + " (mean " + fmt("%.3g", m) +
            " per site) would overflow constantly: about " + fmt("%.3g", perSweep) +
            " particles per sweep; use fewer particles (species.n*), a larger lattice or a "
            "layout with more room (byte16 holds 16)");
}

}  // namespace

HostState initialState(const LatticeParams& p, const Geometry& g) {
    HostState s;
    const std::uint32_t sites = g.sites;
    s.words.assign(static_cast<std::size_t>(sites) * g.wordsPerSite, 0u);
    s.types = buildSiteTypes(p, g);
    std::vector<std::uint32_t> freeSites;  // particles start in the cytoplasm
    freeSites.reserve(sites);
    for (std::uint32_t i = 0; i < sites; ++i) {
        encodeSite(g, s.words.data(), i, s.types[i], nullptr, 0);
        if (s.types[i] == kSiteCytoplasm) freeSites.push_back(i);
    }
    std::int64_t total = 0;
    for (int sp = 1; sp <= p.speciesCount; ++sp)
        total += p.initialCount(sp);
    if (static_cast<double>(total) > static_cast<double>(freeSites.size()) * g.capacity)
        throw ParameterError(std::to_string(total) + " particles (species.n1..n" +
                             std::to_string(p.speciesCount) + ") do not fit the " +
                             std::to_string(freeSites.size()) + " cytoplasm sites x " +
                             std::to_string(g.capacity) + " slots (after geometry and obstacles)");
    checkOverflowRate(static_cast<double>(total), freeSites.size(), g.capacity);
    if (freeSites.empty()) return s;
    const bool tracking = p.tracked > 0;
    if (tracking) s.ids.assign(static_cast<std::size_t>(sites) * g.capacity, 0u);
    const rng::Philox place(g.seed, kInitStream);
    std::uint32_t particle = 0;
    for (int sp = 1; sp <= p.speciesCount; ++sp) {
        for (std::int32_t k = 0; k < p.initialCount(sp); ++k, ++particle) {
            const std::uint32_t w = place(0, particle, 0).x;
            std::size_t f =
                static_cast<std::size_t>((static_cast<std::uint64_t>(w) * freeSites.size()) >> 32);
            int slot;
            while ((slot = appendParticle(g, s.words.data(), s.types.data(), freeSites[f],
                                          static_cast<std::uint16_t>(sp))) < 0)
                f = f + 1 == freeSites.size() ? 0 : f + 1;
            if (tracking && k < p.tracked) {
                s.trackedSpecies.push_back(static_cast<std::uint8_t>(sp));
                s.ids[static_cast<std::size_t>(slot) * sites + freeSites[f]] =
                    static_cast<std::uint32_t>(s.trackedSpecies.size());
            }
        }
    }
    s.displacement.assign(3 * s.trackedSpecies.size(), 0);
    return s;
}

void reinsertOverflows(const Geometry& g, std::vector<Overflow>& list, std::uint32_t* words,
                       const std::uint8_t* types, std::uint32_t* ids, std::int32_t* displacement) {
    std::sort(list.begin(), list.end(),
              [](const Overflow& a, const Overflow& b) { return overflowKey(a) < overflowKey(b); });
    for (const Overflow& o : list)
        if (!placeOverflow(g, words, types, ids, displacement, o))
            throw SimulationError("lattice: no free slot for an overflowing particle of species " +
                                  std::to_string(o.species) + " from site " +
                                  std::to_string(o.site) +
                                  " in any site of its type: the region is full");
}

std::vector<std::int64_t> expectedCounts(const LatticeParams& p, const Geometry& g,
                                         const std::vector<std::int64_t>& initial,
                                         const std::uint64_t* fired) {
    std::vector<std::int64_t> out = initial;
    for (int r = 0; r < g.reactions.count; ++r) {
        const ReactionEntry& e = g.reactions.reactions[r];
        const auto n = static_cast<std::int64_t>(fired[r]);
        const std::uint16_t reactants[2] = {e.a, e.b};
        for (int k = 0; k < e.order && k < 2; ++k)
            if (reactants[k] <= p.speciesCount) out[reactants[k]] -= n;
        for (int k = 0; k < productsMade(e); ++k)
            if (productAt(e, k) <= p.speciesCount) out[productAt(e, k)] += n;
    }
    return out;
}

std::vector<std::int64_t> initialCountsOf(const LatticeParams& p, const Geometry& g,
                                          const HostState& s) {
    std::vector<std::int64_t> now = countSpecies(p, g, s.words.data());
    const std::vector<std::int64_t> delta =
        expectedCounts(p, g, std::vector<std::int64_t>(now.size(), 0), s.fired);
    for (std::size_t k = 0; k < now.size(); ++k)
        now[k] -= delta[k];
    return now;
}

std::string memoryReport(const LatticeParams& p, const Geometry& g) {
    const double sites = g.sites;
    const double lattice = sites * 4.0 * g.wordsPerSite;  // one copy
    const double types = g.layout == 0 ? 0.0 : sites;     // byte16 keeps them apart
    const double ids = p.tracked > 0 ? 2.0 * sites * 4.0 * g.capacity : 0.0;  // two copies
    const double total = 2.0 * lattice + types + ids;
    return "lattice: " + std::to_string(g.n[0]) + "x" + std::to_string(g.n[1]) + "x" +
           std::to_string(g.n[2]) + " sites, " + (g.layout == 0 ? "packed32" : "byte16") + " (" +
           std::to_string(g.capacity) + " particles per site): two lattice copies of " +
           fmt("%.1f", lattice / 1048576.0) + " MiB" +
           (types > 0 ? ", site types " + fmt("%.2f", types / 1048576.0) + " MiB" : "") +
           (ids > 0 ? ", identity planes " + fmt("%.1f", ids / 1048576.0) + " MiB" : "") + ", " +
           fmt("%.1f", total / 1048576.0) + " MiB in all";
}

std::vector<std::int64_t> countByRegion(const LatticeParams& p, const Geometry& g,
                                        const std::uint32_t* words, const std::uint8_t* types,
                                        std::uint32_t first, std::uint32_t last) {
    std::vector<std::int64_t> counts(kRegionCountsSize, 0);
    std::uint16_t sp[kMaxSlots];
    for (std::uint32_t i = first; i < std::min(last, g.sites); ++i) {
        const int n = decodeSite(g, words, i, sp);
        const std::size_t row = (siteType(g, words, types, i) % kSiteTypeCount) * (kMaxSpecies + 1);
        for (int k = 0; k < n; ++k)
            ++counts[row + (sp[k] > p.speciesCount ? 0u : sp[k])];
    }
    return counts;
}

std::vector<std::int64_t> speciesTotals(const LatticeParams& p,
                                        const std::vector<std::int64_t>& byRegion) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(p.speciesCount) + 1, 0);
    for (int t = 0; t < kSiteTypeCount; ++t)
        for (std::size_t sp = 0; sp < out.size(); ++sp)
            out[sp] += byRegion[static_cast<std::size_t>(t) * (kMaxSpecies + 1) + sp];
    return out;
}

std::vector<std::int64_t> countSpecies(const LatticeParams& p, const Geometry& g,
                                       const std::uint32_t* words) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(p.speciesCount) + 1, 0);
    std::uint16_t sp[kMaxSlots];
    for (std::uint32_t i = 0; i < g.sites; ++i) {
        const int n = decodeSite(g, words, i, sp);
        for (int k = 0; k < n; ++k) {
            if (sp[k] > p.speciesCount) {
                counts[0] += 1;  // an id no species has: reported as species 0
                continue;
            }
            ++counts[sp[k]];
        }
    }
    return counts;
}

namespace {
template <typename T>
Field field(const char* name, const char* unit, FieldRole role, int comps,
            const std::vector<T>& v) {
    return Field::of<T>(name, unit, role, comps, std::span<const T>(v.data(), v.size()));
}
}  // namespace

std::vector<StateArray> stateArraysOf(const StatePointers& s, MemorySpace space) {
    std::vector<StateArray> out;
    out.push_back(stateArray("sites", "1",
                             "Packed site words (docs/LATTICE.md): planes of one word per site",
                             s.words, s.wordCount, space)
                      .holds("sites"));
    out.push_back(
        stateArray("site_type", "1", "Site type per site (x fastest)", s.types, s.sites, space)
            .holds("site_type"));
    out.push_back(stateArray("ids", "1", "Tracked particle id per site slot (0: none)", s.ids,
                             s.idCount, space)
                      .holds("ids"));
    out.push_back(stateArray("displacement", "1",
                             "Lattice steps each tracked particle moved, per axis", s.displacement,
                             s.tracked, space, 3)
                      .holds("displacement"));
    return out;
}

Snapshot makeSnapshot(const LatticeParams& p, const Geometry& g, const HostState& s) {
    Snapshot out;
    out.step = s.step;
    out.time = s.time;
    out.timeUnit = "us";
    for (int a = 0; a < 3; ++a) {
        out.boxLo[a] = 0.0;
        out.boxHi[a] = g.n[a] * static_cast<double>(p.lambda);
        out.gridDims[a] = static_cast<std::size_t>(g.n[a]);
    }
    std::vector<std::uint8_t> occupancy(g.sites);
    std::uint16_t sp[kMaxSlots];
    for (std::uint32_t i = 0; i < g.sites; ++i)
        occupancy[i] = static_cast<std::uint8_t>(decodeSite(g, s.words.data(), i, sp));
    out.fields.push_back(field("occupancy", "1", FieldRole::Grid, 1, occupancy));
    out.fields.push_back(field("site_type", "1", FieldRole::Grid, 1, s.types));
    out.fields.push_back(field("sites", "1", FieldRole::Internal, 1, s.words));
    // Per-slot particle ids (sites x capacity, most of a snapshot's bytes): only a restart
    // reads them.
    out.fields.push_back(field("ids", "1", FieldRole::RestartOnly, 1, s.ids));
    out.fields.push_back(field("displacement", "1", FieldRole::Internal, 3, s.displacement));
    out.fields.push_back(field("tracked_species", "1", FieldRole::Internal, 1, s.trackedSpecies));
    const std::vector<std::uint64_t> overflows = {s.overflowsLastStep, s.overflowsTotal};
    out.fields.push_back(field("overflows", "1", FieldRole::Internal, 1, overflows));
    const std::vector<std::uint64_t> fired(s.fired, s.fired + kMaxReactions);
    out.fields.push_back(field("reactions_fired", "1", FieldRole::Internal, 1, fired));
    return out;
}

HostState readSnapshot(const LatticeParams& p, const Geometry& g, const Snapshot& snap) {
    auto take = [&](const char* name, auto& into, std::size_t expected) {
        using T = typename std::decay_t<decltype(into)>::value_type;
        const Field& f = snap.at(name);
        into = f.as<T>();
        if (into.size() != expected)
            throw IoError("lattice: field '" + std::string(name) + "' has " +
                          std::to_string(into.size()) + " values, expected " +
                          std::to_string(expected) + " for these parameters");
    };
    HostState s;
    const std::size_t sites = g.sites;
    take("sites", s.words, sites * static_cast<std::size_t>(g.wordsPerSite));
    take("site_type", s.types, sites);
    take("tracked_species", s.trackedSpecies, snap.at("tracked_species").count);
    take("ids", s.ids, p.tracked > 0 ? sites * static_cast<std::size_t>(g.capacity) : 0);
    take("displacement", s.displacement, 3 * s.trackedSpecies.size());
    std::vector<std::uint64_t> overflows;
    take("overflows", overflows, 2);
    std::vector<std::uint64_t> fired;
    take("reactions_fired", fired, kMaxReactions);
    std::copy(fired.begin(), fired.end(), s.fired);
    s.overflowsLastStep = overflows[0];
    s.overflowsTotal = overflows[1];
    s.step = snap.step;
    s.time = snap.time;
    return s;
}
}  // namespace cf::lattice
