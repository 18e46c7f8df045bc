// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/lattice/lattice_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/core/rng.hpp"

namespace cf::lattice {

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

int capacityOf(const LatticeParams& p) {
    return p.layout == static_cast<std::int32_t>(Layout::Packed32) ? p.nMax : kMaxSlots;
}

double qOf(const LatticeParams& p, int s) {
    // D [nm^2/us] tau [ns] 1e-3 [us/ns] / lambda^2 [nm^2]
    return static_cast<double>(p.diffusion(s)) * static_cast<double>(p.tau) * 1.0e-3 /
           (static_cast<double>(p.lambda) * static_cast<double>(p.lambda));
}

}  // namespace

LatticeParams checkedParams(const ParamSet& params) {
    const LatticeParams p = params.toStruct<LatticeParams>();
    const bool packed = p.layout == static_cast<std::int32_t>(Layout::Packed32);
    if (packed && p.nMax != 2 && p.nMax != 4 && p.nMax != 8)
        throw ParameterError("lattice.n_max = " + std::to_string(p.nMax) +
                             " must be 2, 4 or 8 (the packed32 layout splits 28 bits evenly)");
    const int bits = packed ? 28 / p.nMax : 8;
    const long maxSpecies = (1L << bits) - 1;
    if (p.speciesCount > maxSpecies)
        throw ParameterError(
            "species.count = " + std::to_string(p.speciesCount) + " does not fit the " +
            (packed ? "packed32 layout with lattice.n_max = " + std::to_string(p.nMax)
                    : std::string("byte16 layout")) +
            ": its " + std::to_string(bits) + "-bit fields hold species 1.." +
            std::to_string(maxSpecies) + " (use a smaller n_max or byte16)");
    const double sites = static_cast<double>(p.nx) * p.ny * p.nz;
    if (sites > 2147483647.0)
        throw ParameterError("lattice.nx x ny x nz = " + fmt("%.0f", sites) +
                             " sites exceeds 2^31 - 1 (site indices are 32-bit)");
    for (int s = 1; s <= p.speciesCount; ++s) {
        const double q = qOf(p, s);
        if (q > 0.5)
            throw ParameterError("species.d" + std::to_string(s) + " = " +
                                 formatValue(params.get("species.d" + std::to_string(s))) +
                                 " nm^2/us gives q = D tau / lambda^2 = " + fmt("%.6g", q) +
                                 " > 0.5 (lattice.tau = " + fmt("%g", p.tau) +
                                 " ns, lattice.lambda = " + fmt("%g", p.lambda) +
                                 " nm): lower tau or D");
    }
    double total = 0;
    for (int s = 1; s <= p.speciesCount; ++s)
        total += p.initialCount(s);
    // Obstacles are drawn, so only a bound: the free sites are checked in initialState.
    if (total > sites * capacityOf(p))
        throw ParameterError("species.n1..n" + std::to_string(p.speciesCount) + " total " +
                             fmt("%.0f", total) + " particles exceed the lattice's capacity " +
                             fmt("%.0f", sites * capacityOf(p)));
    return p;
}

void updateThresholds(const LatticeParams& p, Geometry& g) {
    for (std::uint32_t& q : g.qInt)
        q = 0;
    for (int s = 1; s <= p.speciesCount; ++s) {
        const double q = std::min(0.5, qOf(p, s));
        g.qInt[s] =
            static_cast<std::uint32_t>(std::min(2147483648.0, std::floor(q * 4294967296.0)));
    }
}

Geometry makeGeometry(const LatticeParams& p, std::uint32_t seed) {
    Geometry g{};
    g.n[0] = p.nx;
    g.n[1] = p.ny;
    g.n[2] = p.nz;
    g.periodic[0] = p.boundaryX == static_cast<std::int32_t>(Boundary::Periodic);
    g.periodic[1] = p.boundaryY == static_cast<std::int32_t>(Boundary::Periodic);
    g.periodic[2] = p.boundaryZ == static_cast<std::int32_t>(Boundary::Periodic);
    g.sites = static_cast<std::uint32_t>(p.nx) * static_cast<std::uint32_t>(p.ny) *
              static_cast<std::uint32_t>(p.nz);
    g.layout = p.layout;
    g.capacity = capacityOf(p);
    g.bits = g.layout == 0 ? 28 / p.nMax : 8;
    g.fieldMask = (1u << g.bits) - 1u;
    g.wordsPerSite = g.layout == 0 ? 1 : 4;
    g.seed = seed;
    updateThresholds(p, g);
    return g;
}

namespace {

// Appends one particle to site i if it has room; returns the slot or -1.
int appendParticle(const Geometry& g, std::uint32_t* words, const std::uint8_t* types,
                   std::uint32_t i, std::uint16_t species) {
    std::uint16_t sp[kMaxSlots];
    const int n = decodeSite(g, words, i, sp);
    if (n >= g.capacity) return -1;
    sp[n] = species;
    encodeSite(g, words, i, siteType(g, words, types, i), sp, n + 1);
    return n;
}

}  // namespace

HostState initialState(const LatticeParams& p, const Geometry& g) {
    HostState s;
    const std::uint32_t sites = g.sites;
    s.words.assign(static_cast<std::size_t>(sites) * g.wordsPerSite, 0u);
    s.types.assign(sites, kTypeFree);
    const rng::Philox obstacles(g.seed, kObstacleStream);
    const auto threshold = static_cast<std::uint64_t>(
        std::floor(static_cast<double>(p.obstacleFraction) * 4294967296.0));
    std::vector<std::uint32_t> freeSites;
    freeSites.reserve(sites);
    for (std::uint32_t i = 0; i < sites; ++i) {
        if (p.obstacleFraction > 0 && obstacles(0, i, 0).x < threshold) {
            s.types[i] = kTypeObstacle;
            encodeSite(g, s.words.data(), i, kTypeObstacle, nullptr, 0);
        } else {
            freeSites.push_back(i);
        }
    }
    std::int64_t total = 0;
    for (int sp = 1; sp <= p.speciesCount; ++sp)
        total += p.initialCount(sp);
    if (static_cast<double>(total) > static_cast<double>(freeSites.size()) * g.capacity)
        throw ParameterError(
            std::to_string(total) + " particles do not fit the " +
            std::to_string(freeSites.size()) + " free sites x " + std::to_string(g.capacity) +
            " slots (lattice.obstacle_fraction = " + fmt("%g", p.obstacleFraction) + ")");
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
    std::sort(list.begin(), list.end(), [](const Overflow& a, const Overflow& b) {
        if (a.site != b.site) return a.site < b.site;
        if (a.species != b.species) return a.species < b.species;
        return a.order < b.order;
    });
    const int rMax = std::max({g.n[0], g.n[1], g.n[2]});
    for (const Overflow& o : list) {
        const std::uint8_t type = siteType(g, words, types, o.site);
        const std::int32_t c[3] = {coordOf(g, o.site, 0), coordOf(g, o.site, 1),
                                   coordOf(g, o.site, 2)};
        bool placed = false;
        for (int r = 1; r <= rMax && !placed; ++r) {
            for (int dz = -r; dz <= r && !placed; ++dz)
                for (int dy = -r; dy <= r && !placed; ++dy)
                    for (int dx = -r; dx <= r && !placed; ++dx) {
                        if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
                        const int d[3] = {dx, dy, dz};
                        std::int32_t t[3];
                        bool inside = true;
                        for (int a = 0; a < 3 && inside; ++a) {
                            t[a] = c[a] + d[a];
                            if (t[a] < 0 || t[a] >= g.n[a]) {
                                if (!g.periodic[a]) inside = false;
                                t[a] = ((t[a] % g.n[a]) + g.n[a]) % g.n[a];
                            }
                        }
                        if (!inside) continue;
                        const auto j = static_cast<std::uint32_t>(t[0]) +
                                       static_cast<std::uint32_t>(g.n[0]) *
                                           (static_cast<std::uint32_t>(t[1]) +
                                            static_cast<std::uint32_t>(g.n[1]) *
                                                static_cast<std::uint32_t>(t[2]));
                        if (siteType(g, words, types, j) != type) continue;
                        const int slot = appendParticle(g, words, types, j, o.species);
                        if (slot < 0) continue;
                        placed = true;
                        if (ids) {
                            ids[static_cast<std::size_t>(slot) * g.sites + j] = o.id;
                            if (o.id != 0)
                                for (int a = 0; a < 3; ++a)
                                    displacement[3 * (o.id - 1) + a] += d[a];
                        }
                    }
        }
        if (!placed)
            throw SimulationError("lattice: no free slot for an overflowing particle of species " +
                                  std::to_string(o.species) + " from site " +
                                  std::to_string(o.site) + " anywhere in the lattice");
    }
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
    out.fields.push_back(field("ids", "1", FieldRole::Internal, 1, s.ids));
    out.fields.push_back(field("displacement", "1", FieldRole::Internal, 3, s.displacement));
    out.fields.push_back(field("tracked_species", "1", FieldRole::Internal, 1, s.trackedSpecies));
    const std::vector<std::uint64_t> overflows = {s.overflowsLastStep, s.overflowsTotal};
    out.fields.push_back(field("overflows", "1", FieldRole::Internal, 1, overflows));
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
    s.overflowsLastStep = overflows[0];
    s.overflowsTotal = overflows[1];
    s.step = snap.step;
    s.time = snap.time;
    return s;
}

std::vector<Metric> hostMetrics(const LatticeParams& p, const Geometry& g, const HostState& s) {
    std::size_t freeSites = 0;
    for (std::uint8_t t : s.types)
        freeSites += t == kTypeFree;
    return metricsFromCounts(p, countSpecies(p, g, s.words.data()), freeSites, s);
}

std::vector<Metric> metricsFromCounts(const LatticeParams& p,
                                      const std::vector<std::int64_t>& counts,
                                      std::size_t freeSites, const HostState& s) {
    std::vector<Metric> m;
    std::int64_t total = 0;
    for (int sp = 1; sp <= p.speciesCount; ++sp) {
        m.push_back({"count_" + std::to_string(sp), "1", static_cast<double>(counts[sp])});
        total += counts[sp];
    }
    m.push_back({"mean_occupancy", "1",
                 freeSites ? static_cast<double>(total) / static_cast<double>(freeSites) : 0.0});
    m.push_back({"overflows_step", "1", static_cast<double>(s.overflowsLastStep)});
    m.push_back({"overflows_total", "1", static_cast<double>(s.overflowsTotal)});
    if (!s.trackedSpecies.empty()) {
        std::vector<double> sum(static_cast<std::size_t>(p.speciesCount) + 1, 0.0);
        std::vector<std::int64_t> n(sum.size(), 0);
        const double l2 = static_cast<double>(p.lambda) * p.lambda;
        for (std::size_t t = 0; t < s.trackedSpecies.size(); ++t) {
            double r2 = 0;
            for (int a = 0; a < 3; ++a) {
                const double d = s.displacement[3 * t + a];
                r2 += d * d;
            }
            sum[s.trackedSpecies[t]] += r2 * l2;
            ++n[s.trackedSpecies[t]];
        }
        for (int sp = 1; sp <= p.speciesCount; ++sp)
            if (n[sp] > 0)
                m.push_back(
                    {"msd_" + std::to_string(sp), "nm^2", sum[sp] / static_cast<double>(n[sp])});
    }
    return m;
}

ModelViews hostViews(const LatticeParams& p, const Geometry& g, const HostState& s,
                     ViewBuffers& b) {
    b.xyzr.clear();
    b.species.clear();
    const float l = p.lambda;
    std::uint16_t sp[kMaxSlots];
    for (std::uint32_t i = 0; i < g.sites; ++i) {
        const int n = decodeSite(g, s.words.data(), i, sp);
        const float c[3] = {(static_cast<float>(coordOf(g, i, 0)) + 0.5f) * l,
                            (static_cast<float>(coordOf(g, i, 1)) + 0.5f) * l,
                            (static_cast<float>(coordOf(g, i, 2)) + 0.5f) * l};
        for (int k = 0; k < n; ++k) {
            // Slot k on a circle of radius lambda/4 (a lone particle sits at the centre).
            const float ang = 6.2831853f * static_cast<float>(k) / static_cast<float>(n);
            const float rr = n > 1 ? 0.25f * l : 0.0f;
            b.xyzr.insert(b.xyzr.end(),
                          {c[0] + rr * std::cos(ang), c[1] + rr * std::sin(ang),
                           c[2] + (n > 1 ? 0.1f * l * (k % 2 ? 1.f : -1.f) : 0.f), 0.25f * l});
            b.species.push_back(static_cast<std::uint8_t>(sp[k] - 1));
        }
    }
    ModelViews v;
    for (int a = 0; a < 3; ++a) {
        v.boxLo[a] = v.focusLo[a] = 0.0;
        v.boxHi[a] = v.focusHi[a] = g.n[a] * static_cast<double>(l);
    }
    PointCloudView cloud;
    cloud.name = "particles";
    cloud.space = MemorySpace::Host;
    cloud.positions = b.xyzr.data();
    cloud.count = b.species.size();
    CategoryChannel cat;
    cat.name = "species";
    cat.data = b.species.data();
    for (int sp2 = 1; sp2 <= p.speciesCount; ++sp2)
        cat.labels.push_back("species " + std::to_string(sp2));
    cloud.categories.push_back(std::move(cat));
    v.clouds.push_back(std::move(cloud));
    return v;
}

namespace {

// One diffusion step on nxy x nxy x nz periodic sites (nz scaled by --scale), 2 species
// at 0.1 particles per site: no overflows at this occupancy, so this times the sweeps.
BenchCase sweepCase(int nxy, int nz0, const char* layoutName, const char* layoutValue, int nMax) {
    const std::string size =
        std::to_string(nxy) + "x" + std::to_string(nxy) + "x" + std::to_string(nz0);
    BenchCase c;
    c.name = "step-" + size + "-" + layoutName;
    c.description = "Diffusion step (x, y, z sweeps + overflow) on " + size + " periodic sites, " +
                    layoutName + ", 2 species at 0.1 particles per site, q = 0.25 and 0.125";
    c.run = [nxy, nz0, layoutValue, nMax](Backend b, const BenchOptions& o) {
        const double scale = o.scale > 0 ? o.scale : 1.0;
        const int nz = std::max(8, static_cast<int>(std::lround(nz0 * scale)));
        const std::uint64_t sites = static_cast<std::uint64_t>(nxy) *
                                    static_cast<std::uint64_t>(nxy) *
                                    static_cast<std::uint64_t>(nz);
        const auto perSpecies = static_cast<std::int64_t>(0.05 * static_cast<double>(sites));
        const std::vector<std::string> overrides = {"lattice.nx=" + std::to_string(nxy),
                                                    "lattice.ny=" + std::to_string(nxy),
                                                    "lattice.nz=" + std::to_string(nz),
                                                    std::string("lattice.layout=") + layoutValue,
                                                    "lattice.n_max=" + std::to_string(nMax),
                                                    "lattice.lambda=2",
                                                    "lattice.tau=10",
                                                    "species.count=2",
                                                    "species.d1=100",
                                                    "species.d2=50",
                                                    "species.n1=" + std::to_string(perSpecies),
                                                    "species.n2=" + std::to_string(perSpecies),
                                                    "tracking.per_species=0"};
        // The CPU reference needs seconds per step at 256^2 x 512: one step there.
        const std::uint64_t steps = b == Backend::Cuda ? 100 : (sites > 10'000'000 ? 1 : 3);
        BenchResult r = benchModelSteps(descriptor(), b, overrides, sites, 1, steps, o);
        r.note =
            "entities = sites (rate = site updates per second); one step = 3 sweeps, each "
            "site gathers itself and 2 neighbours (3 decodes + Philox per 4 particles)";
        return r;
    };
    return c;
}

}  // namespace

void applyLiveParameters(LatticeParams& p, const LatticeParams& next) {
    p.tau = next.tau;
    p.d1 = next.d1;
    p.d2 = next.d2;
    p.d3 = next.d3;
    p.d4 = next.d4;
    p.d5 = next.d5;
    p.d6 = next.d6;
    p.d7 = next.d7;
    p.d8 = next.d8;
    p.validation = next.validation;
}

ModelDescriptor descriptor() {
    ModelDescriptor d;
    d.name = "lattice";
    d.description =
        "Multiparticle diffusion on a cubic lattice (Roberts et al. 2009, Lattice Microbes "
        "MPD-RDME)";
    d.timeUnit = "us";
    d.parameters = &parameterTable;
    d.backends = {Backend::Cpu, Backend::Cuda};
    d.create = [](Backend b) -> std::unique_ptr<Model> {
        if (b == Backend::Cpu) return makeCpuModel();
        if (!isAvailable(Backend::Cuda))
            throw Error("lattice: the CUDA backend is unavailable: " + cudaStatus());
#if CELLFORGE_HAVE_CUDA
        return makeCudaModel();
#else
        return nullptr;
#endif
    };
    d.benchCases = {
        sweepCase(128, 256, "packed32", "packed32", 4), sweepCase(128, 256, "byte16", "byte16", 8),
        sweepCase(256, 512, "packed32", "packed32", 4), sweepCase(256, 512, "byte16", "byte16", 8)};
    return d;
}

}  // namespace cf::lattice
