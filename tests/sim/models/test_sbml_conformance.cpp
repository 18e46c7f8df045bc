// SPDX-License-Identifier: GPL-3.0-or-later
// Conformance with the SBML Test Suite's stochastic cases (sbml-stochastic/ in the
// conformance data folder, docs/reference/conformance-data.md: one folder per case with
// -sbml-l3v1.xml, -settings.txt, -results.csv): every case is imported; the refused ones are listed
// with the reason, the others simulated and judged by the suite's own rule from the settings file
// (meanRange, sdRange), and a table printed.
//
// What is simulated: the network as imported and compiled for a well-mixed lattice of
// 8^3 sites of 125 nm (1e-15 L; resolveCountRates, compileReactions), run by the exact
// stochastic simulation algorithm on the compiled propensities (perStep / tau, the
// tau -> 0 limit of the lattice's per-site step). This checks the import and every rate
// conversion exactly; the error of the step itself (one reaction per site and step) is
// measured against the chemical master equation in test_lattice_reaction_site.cpp.
//
// The suite's rule, with n runs, at each output time where the expected sd sigma > 0:
//   Z = sqrt(n) (mean - mu) / sigma          within meanRange (here (-3, 3)),
//   Y = sqrt(n / 2) (S^2 / sigma^2 - 1)      within sdRange (here (-5, 5));
// where sigma = 0 the runs must all equal mu. A case failing the rule gets one second,
// independent batch (see StochasticTestSuite). Runs: the suite's 10,000 (about 110 s of
// CPU), or CELLFORGE_SBML_RUNS. The rule scales with n itself (fewer runs allow a band
// sqrt(10000 / n) times wider), but its sd test assumes Var(S^2) = 2 sigma^4 / n, which
// needs normal tails: case 00003 (extinction, mean 1.8 and sd 6.1 at t = 40) fails it at
// n = 2,000 in two batches and passes at 10,000, so CI keeps the suite's n.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/lattice/reactions/reaction_network.hpp"

namespace cf::lattice {

namespace {

namespace fs = std::filesystem;

const fs::path kSuite = CELLFORGE_SHARED_DATA "/sbml-stochastic";
constexpr double kLambdaNm = 125.0;
constexpr int kSitesPerAxis = 8;
constexpr double kTauNs = 1.0e6;

std::string trim(std::string s) {
    const auto notSpace = [](unsigned char c) { return std::isspace(c) == 0; };
    while (!s.empty() && !notSpace(static_cast<unsigned char>(s.back())))
        s.pop_back();
    std::size_t k = 0;
    while (k < s.size() && !notSpace(static_cast<unsigned char>(s[k])))
        ++k;
    return s.substr(k);
}

std::vector<std::string> split(const std::string& s, char by) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, by);)
        out.push_back(trim(part));
    return out;
}

struct Settings {
    double start = 0, duration = 0;
    int steps = 0;
    std::vector<std::string> variables;
    double meanLo = -3, meanHi = 3, sdLo = -5, sdHi = 5;
};

std::pair<double, double> range(const std::string& text) {  // "(-3, 3)"
    const std::vector<std::string> p = split(text.substr(text.find('(') + 1), ',');
    return {std::stod(p.at(0)), std::stod(p.at(1).substr(0, p.at(1).find(')')))};
}

Settings readSettings(const fs::path& file) {
    Settings s;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        const std::string key = trim(line.substr(0, colon));
        const std::string value = trim(line.substr(colon + 1));
        if (key == "start") s.start = std::stod(value);
        if (key == "duration") s.duration = std::stod(value);
        if (key == "steps") s.steps = std::stoi(value);
        if (key == "variables") s.variables = split(value, ',');
        if (key == "meanRange") std::tie(s.meanLo, s.meanHi) = range(value);
        if (key == "sdRange") std::tie(s.sdLo, s.sdHi) = range(value);
    }
    return s;
}

// Column name -> values per output time.
std::map<std::string, std::vector<double>> readResults(const fs::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> names = split(line, ',');
    std::map<std::string, std::vector<double>> cols;
    while (std::getline(in, line)) {
        const std::vector<std::string> v = split(line, ',');
        for (std::size_t k = 0; k < names.size() && k < v.size(); ++k)
            cols[names[k]].push_back(std::stod(v[k]));
    }
    return cols;
}

// Exact SSA on the compiled table in the well-mixed limit of the lattice: the propensity
// of r summed over the S sites is perStep / tau h(n) S^(1 - order), h as in
// reactionPropensity (1, n, n_a n_b, or n (n - 1) for 2A; a pair meets in one site with
// probability 1 / S). Records counts at `times`.
void simulate(const ReactionTable& t, std::vector<std::int64_t> n, const std::vector<double>& times,
              std::mt19937_64& rng, std::vector<std::vector<double>>& sum,
              std::vector<std::vector<double>>& sumSq) {
    const double tauS = kTauNs * 1e-9;
    const double sites = std::pow(kSitesPerAxis, 3);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> a(static_cast<std::size_t>(t.count));
    double now = 0;
    std::size_t next = 0;
    while (next < times.size()) {
        double total = 0;
        for (int r = 0; r < t.count; ++r) {
            const ReactionEntry& e = t.reactions[r];
            double h = 1;
            if (e.order >= 1) h = static_cast<double>(n[e.a]);
            if (e.order == 2) h *= static_cast<double>(e.a == e.b ? n[e.a] - 1 : n[e.b]);
            a[static_cast<std::size_t>(r)] = e.perStep / tauS * h * std::pow(sites, 1 - e.order);
            total += a[static_cast<std::size_t>(r)];
        }
        const double dt = total > 0 ? -std::log(1.0 - u(rng)) / total : INFINITY;
        while (next < times.size() && now + dt > times[next]) {
            for (std::size_t s = 1; s < n.size(); ++s) {
                sum[next][s] += static_cast<double>(n[s]);
                sumSq[next][s] += static_cast<double>(n[s]) * static_cast<double>(n[s]);
            }
            ++next;
        }
        if (next == times.size()) break;
        now += dt;
        double pick = u(rng) * total;
        int r = 0;
        while (r + 1 < t.count && pick >= a[static_cast<std::size_t>(r)])
            pick -= a[static_cast<std::size_t>(r++)];
        const ReactionEntry& e = t.reactions[r];
        if (e.order >= 1) --n[e.a];
        if (e.order == 2) --n[e.b];
        for (int p = 0; p < productsMade(e); ++p)
            ++n[productAt(e, p)];
    }
}

struct Outcome {
    std::string id, status, detail;
};

Outcome runCase(const fs::path& dir, int runs, std::uint64_t batch) {
    const std::string id = dir.filename().string();
    Outcome o{id, "", ""};
    ReactionNetwork net;
    try {
        net = loadSbmlNetwork(dir / (id + "-sbml-l3v1.xml"), SbmlLaws::Sbml);
        const double lambda = kLambdaNm;
        resolveCountRates(net, std::pow(kSitesPerAxis * lambda, 3) * 1e-24);
    } catch (const Error& e) {
        o.status = "refused";
        o.detail = e.what();
        const std::size_t cut = o.detail.find(".xml: ");
        if (cut != std::string::npos) o.detail = o.detail.substr(cut + 6);
        return o;
    }
    const ReactionTable table = compileReactions(net, kLambdaNm, kTauNs, nullptr);
    const Settings s = readSettings(dir / (id + "-settings.txt"));
    const auto expected = readResults(dir / (id + "-results.csv"));
    std::vector<double> times;
    for (int k = 0; k <= s.steps; ++k)
        times.push_back(s.start + s.duration * k / s.steps);
    const std::size_t nSpecies = net.species.size() + 1;
    std::vector<std::vector<double>> sum(times.size(), std::vector<double>(nSpecies));
    std::vector<std::vector<double>> sumSq = sum;
    std::vector<std::int64_t> initial(nSpecies, 0);
    for (std::size_t k = 0; k < net.initialCounts.size(); ++k)
        initial[k + 1] = net.initialCounts[k];
    std::mt19937_64 rng(std::stoull(id) * 7919u + 1u + batch * 104729u);
    for (int run = 0; run < runs; ++run)
        simulate(table, initial, times, rng, sum, sumSq);

    double worstZ = 0, worstY = 0;
    const double n = runs;
    for (const std::string& v : s.variables) {
        std::size_t sp = 0;
        for (std::size_t k = 0; k < net.species.size(); ++k)
            if (net.species[k] == v) sp = k + 1;
        if (sp == 0) {
            o.status = "failed";
            o.detail = "variable " + v + " is no species";
            return o;
        }
        const std::vector<double>& mu = expected.at(v + "-mean");
        const std::vector<double>& sigma = expected.at(v + "-sd");
        for (std::size_t k = 0; k < times.size() && k < mu.size(); ++k) {
            const double mean = sum[k][sp] / n;
            const double var = (sumSq[k][sp] - n * mean * mean) / (n - 1);
            char at[96];
            if (sigma[k] == 0) {
                if (std::abs(mean - mu[k]) > 1e-9 || var > 1e-9) {
                    std::snprintf(at, sizeof at, "%s at t = %g: mean %g sd %g, expected exactly %g",
                                  v.c_str(), times[k], mean, std::sqrt(std::max(var, 0.0)), mu[k]);
                    return {id, "failed", at};
                }
                continue;
            }
            const double z = std::sqrt(n) * (mean - mu[k]) / sigma[k];
            const double y = std::sqrt(n / 2) * (var / (sigma[k] * sigma[k]) - 1);
            if (std::abs(z) > std::abs(worstZ)) worstZ = z;
            if (std::abs(y) > std::abs(worstY)) worstY = y;
            if (z < s.meanLo || z > s.meanHi || y < s.sdLo || y > s.sdHi) {
                std::snprintf(at, sizeof at, "%s at t = %g: Z = %.2f, Y = %.2f", v.c_str(),
                              times[k], z, y);
                return {id, "failed", at};
            }
        }
    }
    char d[64];
    std::snprintf(d, sizeof d, "worst Z = %+.2f, Y = %+.2f", worstZ, worstY);
    return {id, "passed", d};
}

TEST(SbmlConformance, StochasticTestSuite) {
    if (!fs::is_directory(kSuite))
        GTEST_SKIP() << "the SBML Test Suite's stochastic cases are not at " << kSuite.string();
    int runs = 10000;
    if (const char* env = std::getenv("CELLFORGE_SBML_RUNS")) runs = std::atoi(env);
    ASSERT_GE(runs, 100);
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(kSuite))
        if (entry.is_directory() &&
            fs::exists(entry.path() / (entry.path().filename().string() + "-sbml-l3v1.xml")))
            dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    std::map<std::string, int> tally;
    std::printf("SBML stochastic conformance, %d runs per case\n", runs);
    for (const fs::path& dir : dirs) {
        // The rule is applied at every output time (about 50 per variable), each with a
        // false-alarm rate near 0.3 %, so a correct case fails now and then by chance. A
        // failed case is run once more with an independent batch of n runs and passes if
        // that batch meets the rule; a real error fails both.
        Outcome o = runCase(dir, runs, 0);
        if (o.status == "failed") {
            const std::string first = o.detail;
            o = runCase(dir, runs, 1);
            o.detail += " (second batch; the first failed: " + first + ")";
        }
        ++tally[o.status];
        std::printf("%s  %-8s %s\n", o.id.c_str(), o.status.c_str(), o.detail.c_str());
        // A case the lattice runs must meet the suite's rule.
        EXPECT_NE(o.status, "failed") << o.id << ": " << o.detail;
        // Refusals for what the lattice does not model name the feature.
        const std::string xml = [&] {
            std::ifstream in(dir / (o.id + "-sbml-l3v1.xml"));
            std::stringstream t;
            t << in.rdbuf();
            return t.str();
        }();
        const bool needsUnmodelled =
            xml.find("sbml/level3/version1/distrib") != std::string::npos ||
            xml.find("<listOfEvents>") != std::string::npos ||
            xml.find("<listOfRules>") != std::string::npos;
        // Issue 30's goal: every case that needs none of events, rules or distrib passes
        // (00037-00039 make 5, 10 and 100 molecules at once: ReactionEntry::lastCopies).
        if (!needsUnmodelled) {
            EXPECT_EQ(o.status, "passed") << o.id << ": " << o.detail;
        }
        if (xml.find("sbml/level3/version1/distrib") != std::string::npos) {
            EXPECT_NE(o.detail.find("package 'distrib'"), std::string::npos) << o.id;
        } else if (xml.find("<listOfEvents>") != std::string::npos) {
            EXPECT_NE(o.detail.find("event(s)"), std::string::npos) << o.id;
        } else if (xml.find("<listOfRules>") != std::string::npos) {
            EXPECT_NE(o.detail.find("rule(s)"), std::string::npos) << o.id;
        }
    }
    std::printf("passed %d, refused %d, failed %d of %zu\n", tally["passed"], tally["refused"],
                tally["failed"], dirs.size());
}

}  // namespace
}  // namespace cf::lattice
