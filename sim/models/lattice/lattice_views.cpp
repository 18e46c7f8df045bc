// SPDX-License-Identifier: GPL-3.0-or-later
// What the lattice shows: metrics (counts, occupancy, overflows, MSD) and views.
#include "sim/models/lattice/lattice_views.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "sim/models/lattice/lattice_react.hpp"

namespace cf::lattice {

std::vector<Metric> hostMetrics(const LatticeParams& p, const Geometry& g, const HostState& s) {
    std::size_t freeSites = 0;
    for (std::uint8_t t : s.types)
        freeSites += t == kSiteCytoplasm;
    return metricsFromCounts(p, countByRegion(p, g, s.words.data(), s.types.data()), freeSites, s);
}

namespace {
// Species s's own name (species.names, or s1, s2, ... by default).
std::string speciesLabel(const LatticeParams& p, int sp) {
    return static_cast<std::size_t>(sp) <= p.speciesNames.size()
               ? p.speciesNames[static_cast<std::size_t>(sp) - 1]
               : "s" + std::to_string(sp);
}

// The colours of the lattice's categories, drawn together (site-type slices and species
// particles): every one is distinct. Site types: cytoplasm (never drawn: see-through), grey
// obstacles, gold membrane, light blue outside; species: saturated hues none of those use.
constexpr CategoryColor kSiteTypeColors[kSiteTypeCount] = {0x404040, 0x8c8c8c, 0xffbf00, 0xaec7e8};
constexpr CategoryColor kSpeciesColors[kMaxSpecies] = {0xd62728, 0x2ca02c, 0x9467bd, 0xff7f0e,
                                                       0x17becf, 0xe377c2, 0x8c564b, 0xbcbd22};

// The top of an occupancy colour scale: a Poisson occupancy of mean m = particles / free
// sites stays below m + 3 sqrt(m) at almost every site; at least 1 particle, at most the
// site's capacity. Fixed by the declared particle counts, so a colour means the same count
// all run long (reactions may change the counts a little; a site above the top shows the
// top colour).
double occupancyTop(double particles, std::size_t freeSites, std::int32_t capacity) {
    const double m = freeSites > 0 ? particles / static_cast<double>(freeSites) : 0.0;
    return std::clamp(std::ceil(m + 3.0 * std::sqrt(m)), 1.0, static_cast<double>(capacity));
}
}  // namespace

std::vector<Metric> metricsFromCounts(const LatticeParams& p,
                                      const std::vector<std::int64_t>& byRegion,
                                      std::size_t freeSites, const HostState& s) {
    std::vector<Metric> m;
    const std::vector<std::int64_t> counts = speciesTotals(p, byRegion);
    std::int64_t total = 0;
    for (int sp = 1; sp <= p.speciesCount; ++sp) {
        const std::string name = speciesLabel(p, sp);
        m.push_back({"count_" + name, "1", static_cast<double>(counts[sp]),
                     "Particles of " + name + " on the lattice"});
        total += counts[sp];
    }
    // With a cell: the time series per region (what crosses the membrane, what reacts where).
    if (p.region != static_cast<std::int32_t>(Region::None))
        for (int t : {int{kSiteCytoplasm}, int{kSiteMembrane}, int{kSiteOutside}})
            for (int sp = 1; sp <= p.speciesCount; ++sp) {
                const std::string name = speciesLabel(p, sp), region(kSiteTypeNames[t]);
                m.push_back(
                    {"count_" + name + "_" + region, "1",
                     static_cast<double>(byRegion[static_cast<std::size_t>(t) * (kMaxSpecies + 1) +
                                                  static_cast<std::size_t>(sp)]),
                     "Particles of " + name + " on " + region + " sites"});
            }
    m.push_back({"mean_occupancy", "particles/site",
                 freeSites ? static_cast<double>(total) / static_cast<double>(freeSites) : 0.0,
                 "Particles per cytoplasm site, all species"});
    m.push_back({"overflows_step", "1", static_cast<double>(s.overflowsLastStep),
                 "Particles that found their destination site full in the last step only"});
    m.push_back({"overflows_total", "1", static_cast<double>(s.overflowsTotal),
                 "Particles that found their destination site full, since the start "
                 "(cumulative)"});
    if (!s.trackedSpecies.empty()) {
        std::vector<double> sum(static_cast<std::size_t>(p.speciesCount) + 1, 0.0);
        std::vector<std::int64_t> n(sum.size(), 0);
        const double l2 = static_cast<double>(p.lambda) * p.lambda;
        for (std::size_t t = 0; t < s.trackedSpecies.size(); ++t) {
            if (s.displacement[3 * t] == kRetiredDisplacement) continue;  // reacted away
            double r2 = 0;
            for (int a = 0; a < 3; ++a) {
                const double d = s.displacement[3 * t + a];
                r2 += d * d;
            }
            sum[s.trackedSpecies[t]] += r2 * l2;
            ++n[s.trackedSpecies[t]];
        }
        for (int sp = 1; sp <= p.speciesCount; ++sp)
            if (n[sp] > 0) {
                const std::string name = speciesLabel(p, sp);
                m.push_back({"msd_" + name, "nm^2", sum[sp] / static_cast<double>(n[sp]),
                             "Mean squared displacement of the tracked " + name +
                                 " particles since the start (6 D t for free diffusion)"});
            }
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
    for (int sp2 = 1; sp2 <= p.speciesCount; ++sp2) {
        cat.labels.push_back(speciesLabel(p, sp2));
        cat.colors.push_back(kSpeciesColors[sp2 - 1]);
    }
    cloud.categories.push_back(std::move(cat));
    v.clouds.push_back(std::move(cloud));
    if (!volumeShown(g)) return v;
    std::size_t freeSites = 0;
    for (std::uint8_t t : s.types)
        freeSites += t == kSiteCytoplasm;
    VolumeView vol = volumeLayout(p, g, freeSites);
    const std::size_t sites = g.sites;
    b.occupancy.assign(sites * (static_cast<std::size_t>(p.speciesCount) + 1), 0.0f);
    b.siteTypes.resize(sites);
    for (std::uint32_t i = 0; i < g.sites; ++i) {
        const int n = decodeSite(g, s.words.data(), i, sp);
        b.occupancy[i] = static_cast<float>(n);
        for (int k = 0; k < n; ++k)
            if (sp[k] <= p.speciesCount) b.occupancy[sp[k] * sites + i] += 1.0f;
        b.siteTypes[i] = siteType(g, s.words.data(), s.types.data(), i);
    }
    for (std::size_t c = 0; c < vol.scalars.size(); ++c)
        vol.scalars[c].data = b.occupancy.data() + c * sites;
    vol.categories.front().data = b.siteTypes.data();
    v.volumes.push_back(std::move(vol));
    return v;
}

bool volumeShown(const Geometry& g) {
    return g.sites > 0 && g.sites <= kMaxVolumeSites;
}

VolumeView volumeLayout(const LatticeParams& p, const Geometry& g, std::size_t freeSites) {
    VolumeView vol;
    vol.name = "lattice";
    for (int a = 0; a < 3; ++a) {
        vol.dims[a] = g.n[a];
        vol.lo[a] = 0.0;
        vol.hi[a] = g.n[a] * static_cast<double>(p.lambda);
    }
    // Occupancy from 0 to a top that fits the declared particle counts (occupancyTop), the
    // same all run long, so colours mean the same count over time.
    const std::int32_t* n[kMaxSpecies] = {&p.n1, &p.n2, &p.n3, &p.n4, &p.n5, &p.n6, &p.n7, &p.n8};
    double all = 0.0;
    for (int sp = 1; sp <= p.speciesCount; ++sp)
        all += *n[sp - 1];
    vol.scalars.push_back(
        {"occupancy", "particles/site", nullptr, 0.0, occupancyTop(all, freeSites, g.capacity)});
    for (int sp = 1; sp <= p.speciesCount; ++sp)
        vol.scalars.push_back({"occupancy " + speciesLabel(p, sp), "particles/site", nullptr, 0.0,
                               occupancyTop(*n[sp - 1], freeSites, g.capacity)});
    VolumeCategoryChannel types;
    types.name = "site type";
    types.emptyTransparent = true;  // cytoplasm see-through: obstacles and membrane show
    for (std::string_view name : kSiteTypeNames)
        types.labels.emplace_back(name);
    types.colors.assign(std::begin(kSiteTypeColors), std::end(kSiteTypeColors));
    vol.categories.push_back(std::move(types));
    return vol;
}

}  // namespace cf::lattice
