// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/lattice/lattice_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/geometry/triangle_mesh.hpp"

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

double qOf(const LatticeParams& p, double d) {
    // D [nm^2/us] tau [ns] 1e-3 [us/ns] / lambda^2 [nm^2]
    return d * static_cast<double>(p.tau) * 1.0e-3 /
           (static_cast<double>(p.lambda) * static_cast<double>(p.lambda));
}

// Species names, diffusion rules and the reaction network, from text or SBML.
void parseTextParameters(LatticeParams& p) {
    if (!p.sbmlFile.empty()) {
        if (!p.networkText.empty())
            throw ParameterError(
                "reactions.sbml and reactions.network are both set: give the "
                "reactions one way");
        p.network = loadSbmlNetwork(p.sbmlFile, static_cast<SbmlLaws>(p.sbmlLaws));
        // Laws in counts are propensities over the whole volume: the lattice's (1 nm^3 is
        // 1e-24 L; well mixed, so obstacles and regions are not subtracted).
        const double lambda = p.lambda;
        resolveCountRates(
            p.network, static_cast<double>(p.nx) * p.ny * p.nz * lambda * lambda * lambda * 1e-24);
        const auto n = static_cast<int>(p.network.species.size());
        if (n != p.speciesCount)
            throw ParameterError("reactions.sbml = '" + p.sbmlFile + "' has " + std::to_string(n) +
                                 " species but species.count = " + std::to_string(p.speciesCount));
        p.speciesNames = parseSpeciesNames(p.speciesNamesText, p.speciesCount);
        if (!p.speciesNamesText.empty() && p.speciesNames != p.network.species)
            throw ParameterError("species.names does not match the species of reactions.sbml = '" +
                                 p.sbmlFile + "' (leave it empty to take the file's)");
        p.speciesNames = p.network.species;
        if (p.sbmlCounts) {
            std::int32_t* slot[kMaxSpecies] = {&p.n1, &p.n2, &p.n3, &p.n4,
                                               &p.n5, &p.n6, &p.n7, &p.n8};
            for (std::size_t s = 0; s < p.network.initialCounts.size(); ++s) {
                const std::int64_t c = p.network.initialCounts[s];
                if (c < 0 || c > 2147483647)
                    throw ParameterError("reactions.sbml = '" + p.sbmlFile + "': species " +
                                         p.network.species[s] + " starts with " +
                                         std::to_string(c) + " molecules, outside 0..2^31 - 1");
                *slot[s] = static_cast<std::int32_t>(c);
            }
        }
    } else {
        p.speciesNames = parseSpeciesNames(p.speciesNamesText, p.speciesCount);
        p.network = parseReactionNetwork(p.networkText, p.speciesNames, "reactions.network");
    }
    p.rules = parseDiffusionRules(p.diffusionRulesText, p.speciesNames);
    for (int s = 1; s <= p.speciesCount; ++s)
        for (int from = 0; from < kSiteTypeCount; ++from)
            for (int to = 0; to < kSiteTypeCount; ++to) {
                const double q = qOf(p, diffusionRate(p, s, from, to));
                if (q > 0.5)
                    throw ParameterError("diffusion.rules: species " + p.speciesNames[s - 1] +
                                         " from " + std::string(kSiteTypeNames[from]) + " to " +
                                         std::string(kSiteTypeNames[to]) +
                                         " gives q = D tau / lambda^2 = " + fmt("%.6g", q) +
                                         " > 0.5 (lattice.tau = " + fmt("%g", p.tau) +
                                         " ns): lower tau or D");
            }
    // Throws for rates that do not convert (too many reactions, bad values).
    compileReactions(p.network, p.lambda, p.tau, nullptr);
}

}  // namespace

LatticeParams checkedParams(const ParamSet& params) {
    LatticeParams p = params.toStruct<LatticeParams>();
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
        const double q = qOf(p, p.diffusion(s));
        if (q > 0.5)
            throw ParameterError("species.d" + std::to_string(s) + " = " +
                                 formatValue(params.get("species.d" + std::to_string(s))) +
                                 " nm^2/us gives q = D tau / lambda^2 = " + fmt("%.6g", q) +
                                 " > 0.5 (lattice.tau = " + fmt("%g", p.tau) +
                                 " ns, lattice.lambda = " + fmt("%g", p.lambda) +
                                 " nm): lower tau or D");
    }
    parseTextParameters(p);
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

double diffusionRate(const LatticeParams& p, int species, int from, int to) {
    // Obstacles take and give nothing; the rules override the rest; by default a species
    // moves with its own D within a region and not between regions.
    if (from == kSiteObstacle || to == kSiteObstacle) return 0.0;
    const double rule = p.rules.d[static_cast<std::size_t>(species)][static_cast<std::size_t>(from)]
                                 [static_cast<std::size_t>(to)];
    if (rule >= 0) return rule;
    return from == to ? p.diffusion(species) : 0.0;
}

void updateThresholds(const LatticeParams& p, Geometry& g) {
    for (auto& row : g.qInt)
        for (auto& from : row)
            for (std::uint32_t& q : from)
                q = 0;
    for (int s = 1; s <= p.speciesCount; ++s)
        for (int from = 0; from < kSiteTypeCount; ++from)
            for (int to = 0; to < kSiteTypeCount; ++to) {
                const double q = std::min(0.5, qOf(p, diffusionRate(p, s, from, to)));
                g.qInt[s][from][to] = static_cast<std::uint32_t>(
                    std::min(2147483648.0, std::floor(q * 4294967296.0)));
            }
    g.reactions = compileReactions(p.network, p.lambda, p.tau, nullptr);
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

ModelDescriptor descriptor() {
    ModelDescriptor d;
    d.name = "lattice";
    d.description =
        "Multiparticle diffusion on a cubic lattice (Roberts et al. 2009, Lattice Microbes "
        "MPD-RDME)";
    d.timeUnit = "us";
    d.parameters = &parameterTable;
    d.backends = {Backend::Cpu, Backend::Cuda};
    d.create = [](Backend b) {
        return createOnBackend("lattice", b, &makeCpuModel, CF_CUDA_FACTORY(makeCudaModel));
    };
    d.benchCases = benchCases();
    // Texts must parse, files must load (the region's mesh too: a sweep checks every point
    // with this before anything runs) and every q must stay <= 0.5 before an edit is
    // accepted (the geometry itself is built at reset). A mesh region still without its
    // file passes, so that the region and then the file can be chosen; reset refuses it.
    d.validate = [](const ParamSet& params) {
        const LatticeParams p = checkedParams(params);
        if (p.region == static_cast<std::int32_t>(Region::Mesh) && !p.meshFile.empty())
            regionMesh(p);
    };
    return d;
}

}  // namespace cf::lattice
