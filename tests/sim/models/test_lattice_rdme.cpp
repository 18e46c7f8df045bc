// SPDX-License-Identifier: GPL-3.0-or-later
// `lattice` as a reaction-diffusion model, on every backend: the well-mixed A + B <-> C
// against the chemical master equation, A <-> B in a spherical cell reaching the ratio of
// its rates, obstructed diffusion crossing over to a lower D (Roberts et al. 2009, Fig. 4),
// a cell from the capsule mesh, and bad input (files, rules, concentrations).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "sim/models/lattice/lattice_model.hpp"
#include "sim/run/runner.hpp"
#include "tests/sim/models/cme_reference.hpp"
#include "tests/sim/models/lattice_test_support.hpp"

namespace cf {
namespace {

using LatticeRdmeTest = test::LatticeFixture;
using test::metric;

// Mean and variance of a time series with their standard errors from batch means (the
// samples are correlated over the relaxation time; each batch spans many of them).
struct BatchStats {
    double mean, meanSe, variance, varianceSe;
};
BatchStats batchStats(const std::vector<double>& x, int batches) {
    const std::size_t per = x.size() / static_cast<std::size_t>(batches);
    std::vector<double> means, vars;
    for (int b = 0; b < batches; ++b) {
        double m = 0, v = 0;
        for (std::size_t k = 0; k < per; ++k)
            m += x[b * per + k];
        m /= static_cast<double>(per);
        for (std::size_t k = 0; k < per; ++k)
            v += (x[b * per + k] - m) * (x[b * per + k] - m);
        means.push_back(m);
        vars.push_back(v / static_cast<double>(per - 1));
    }
    auto meanSe = [&](const std::vector<double>& y) {
        const double m = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(y.size());
        double s = 0;
        for (double v : y)
            s += (v - m) * (v - m);
        return std::pair{
            m, std::sqrt(s / static_cast<double>(y.size() - 1) / static_cast<double>(y.size()))};
    };
    const auto [m, mse] = meanSe(means);
    const auto [v, vse] = meanSe(vars);
    return {m, mse, v, vse};
}

// Lattice Microbes' bimolecular example (lattice.md C.3): kf = 1.07e5 /M/s, kr = 0.351 /s,
// V = 1e-15 L, A0 = B0 = 1000. The lattice is 8^3 sites of 125 nm (V = 1 um^3, ~3.4
// particles per site in byte16's 16 slots) with D = 0.75 nm^2/us, tau = 10 ms (q = 0.48):
// mixing across the cell takes ~ L^2 / (6 D) = 0.2 s, below the reaction's relaxation
// time (~1.6 s), and a dissociated pair leaves its site (~3 moves per step) long before it
// could rebind (9e-4 per step), so the RDME is well mixed and its stationary C must follow
// the CME: mean 269.9, variance 155.2 (exact, by detailed balance). One reaction per site
// and step at a_tot ~ 2e-3 shifts them by ~0.1 %. Samples every 0.1 s over 300 s after
// 20 s; errors from 12 batch means (25 s each, ~15 relaxation times); tolerance 4
// standard errors. (A product that finds its site full overflows to a neighbour: rare,
// harmless.)
TEST_P(LatticeRdmeTest, WellMixedBimolecularReachesTheCmeMeanAndVariance) {
    set({"lattice.nx=8", "lattice.ny=8", "lattice.nz=8", "lattice.lambda=125",
         "lattice.tau=10000000", "lattice.layout=byte16", "species.count=3",
         "species.names=A, B, C", "species.d1=0.75", "species.d2=0.75", "species.d3=0.75",
         "species.n1=1000", "species.n2=1000", "species.n3=0", "tracking.per_species=0",
         "reactions.network=A + B -> C @ 1.07e5; C -> A + B @ 0.351"});
    auto m = make(5);
    m->advance(2000);  // 20 s: relaxed
    std::vector<double> c;
    for (int k = 0; k < 3000; ++k) {
        m->advance(10);
        c.push_back(metric(*m, "count_C"));
        ASSERT_EQ(metric(*m, "count_A"), 1000 - c.back());
        ASSERT_EQ(metric(*m, "count_B"), 1000 - c.back());
    }
    const double perPair = 1.07e5 / (lattice::kAvogadro * 1.0e-15);
    const test::Moments cme = test::bimolecularCme(1000, 1000, perPair, 0.351);
    const BatchStats s = batchStats(c, 12);
    std::printf(
        "A + B <-> C, %s: mean C %.2f +- %.2f (CME %.2f), variance %.1f +- %.1f (CME "
        "%.1f), overflows %g\n",
        toString(GetParam()).data(), s.mean, s.meanSe, cme.mean, s.variance, s.varianceSe,
        cme.variance, metric(*m, "overflows_total"));
    EXPECT_NEAR(s.mean, cme.mean, 4 * s.meanSe + 0.001 * cme.mean);
    EXPECT_NEAR(s.variance, cme.variance, 4 * s.varianceSe + 0.001 * cme.variance);
    EXPECT_LT(s.meanSe, 2.5);  // the run is long enough to mean something
}

// Bursts: 0 -> 5 A at lambda = 10 /s in the whole 1e-15 L (k = lambda / (N_A V) M/s), A -> 0
// at mu = 0.5 /s. Five particles per firing: the first kMaxProducts go into the site's list,
// the fifth is the reaction's excess (ReactionEntry::lastCopies); sites hold 2 (packed32,
// n_max 2), so at least 3 of every burst overflow to the nearest sites with room.
// The stationary law of immigration in bursts of b with death is exact: mean b lambda / mu =
// 100, variance mean (b + 1) / 2 = 300 (Fano factor 3; single arrivals would give 1).
// Samples every 0.2 s over 600 s after 20 s, relaxation 1 / mu = 2 s: 12 batch means, 4
// standard errors plus 1 % (the one-reaction-per-site step at a_tot ~ 3e-4 per site).
TEST_P(LatticeRdmeTest, BurstsOfFiveReachTheirStationaryMeanAndFanoFactor) {
    const double lambda = 10.0, mu = 0.5, burst = 5.0;
    char k[32];
    std::snprintf(k, sizeof k, "%.17g", lambda / (lattice::kAvogadro * 1.0e-15));
    set({"lattice.nx=8", "lattice.ny=8", "lattice.nz=8", "lattice.lambda=125",
         "lattice.tau=10000000", "lattice.layout=packed32", "lattice.n_max=2", "species.count=1",
         "species.names=A", "species.d1=0.75", "species.n1=0", "tracking.per_species=0",
         "validation.check_counts=true",
         "reactions.network=0 -> 5 A @ " + std::string(k) + "; A -> 0 @ 0.5"});
    auto m = make(9);
    m->advance(2000);  // 20 s: ten relaxation times
    std::vector<double> a;
    for (int n = 0; n < 3000; ++n) {
        m->advance(20);
        a.push_back(metric(*m, "count_A"));
    }
    const BatchStats s = batchStats(a, 12);
    const double mean = burst * lambda / mu, variance = mean * (burst + 1) / 2;
    std::printf(
        "0 -> 5 A, A -> 0, %s: mean %.2f +- %.2f (exact %.0f), variance %.1f +- %.1f "
        "(exact %.0f), overflows %g\n",
        toString(GetParam()).data(), s.mean, s.meanSe, mean, s.variance, s.varianceSe, variance,
        metric(*m, "overflows_total"));
    EXPECT_NEAR(s.mean, mean, 4 * s.meanSe + 0.01 * mean);
    EXPECT_NEAR(s.variance, variance, 4 * s.varianceSe + 0.01 * variance);
    EXPECT_GE(metric(*m, "overflows_total"), 3 * 6000);  // ~6200 bursts of which 3 overflow
}

// Lattice Microbes' uniform conversion test at a smaller size: A -> B (0.5 /s), B -> A
// (0.351 /s) inside a spherical cytoplasm (membrane and outside: no entry, the default
// rules), 1000 A at start. Stationary A / B = 0.351 / 0.5 = 0.702. Binomial fluctuations
// (sd 15.6 particles per sample), correlation time 1 / 0.851 s = 1.2 s; 90 s of samples
// every 0.5 s after 10 s: the ratio's standard error is ~0.7 %; tolerance 3 %.
TEST_P(LatticeRdmeTest, ConversionInASphericalCellReachesTheRatioOfItsRates) {
    set({"lattice.nx=12", "lattice.ny=12", "lattice.nz=12", "lattice.lambda=32",
         "lattice.tau=10000000", "lattice.layout=byte16", "species.count=2", "species.names=A B",
         "species.d1=0.05", "species.d2=0.05", "species.n1=1000", "species.n2=0",
         "tracking.per_species=0", "geometry.region=sphere", "geometry.radius=176",
         "reactions.network=A -> B @ 0.5; B -> A @ 0.351", "validation.check_counts=true"});
    auto m = make(3);
    m->advance(1000);  // 10 s
    double a = 0, b = 0;
    for (int k = 0; k < 180; ++k) {
        m->advance(50);
        a += metric(*m, "count_A");
        b += metric(*m, "count_B");
        ASSERT_EQ(metric(*m, "count_A_membrane") + metric(*m, "count_A_outside") +
                      metric(*m, "count_B_membrane") + metric(*m, "count_B_outside"),
                  0);
    }
    std::printf("A <-> B, %s: A / B = %.4f (rates give 0.702)\n", toString(GetParam()).data(),
                a / b);
    EXPECT_NEAR(a / b, 0.702, 0.03 * 0.702);
}

// Apparent D(t) = MSD / (6 t) at t = 1, 2, 4, ... 1024 steps among hard spherical
// obstacles at 30 % volume: near D at short times, dropping through a crossover to a lower
// long-time value; the larger obstacles (same fraction, larger spacing) cross over later.
// Crossover time: first t where D(t) is below the midpoint of D(1 step) and D(1024 steps).
// 4,000 tracers: D(t) has ~1.3 % noise (sqrt(2 / (3 N))); the drop tested (10 %) is 7 of
// those, the rise allowed between neighbouring points (4 %) about 3 (they are correlated).
// Measured: r = 1 site 0.75 -> 0.63 D0, r = 4 sites 0.91 -> 0.79 D0, crossovers 0.08 and
// 0.64 us.
TEST_P(LatticeRdmeTest, ObstructedDiffusionCrossesOverLaterForLargerObstacles) {
    double crossover[2] = {0, 0};
    const double radii[2] = {2.0, 8.0};  // [nm], 1 and 4 sites
    for (int r = 0; r < 2; ++r) {
        set({"lattice.nx=48", "lattice.ny=48", "lattice.nz=48", "lattice.lambda=2",
             "lattice.tau=10", "lattice.layout=byte16", "species.count=1", "species.d1=100",
             "species.n1=4000", "tracking.per_species=4000", "lattice.obstacle_fraction=0.3",
             "obstacles.shape=spheres", "obstacles.radius=" + std::to_string(radii[r])});
        auto m = make(21);
        std::vector<double> d;
        std::uint64_t done = 0;
        for (std::uint64_t t = 1; t <= 1024; t *= 2) {
            m->advance(t - done);
            done = t;
            d.push_back(metric(*m, "msd_s1") / (6.0 * m->time()));
        }
        const double mid = 0.5 * (d.front() + d.back());
        for (std::size_t k = 0; k < d.size(); ++k)
            if (d[k] < mid) {
                crossover[r] = std::ldexp(1.0, static_cast<int>(k)) * 0.01;  // [us]
                break;
            }
        std::printf("obstacles r = %g nm, 30 %%, %s: D(t)/D0 =", radii[r],
                    toString(GetParam()).data());
        for (double x : d)
            std::printf(" %.3f", x / 100.0);
        std::printf("; crossover %.2f us\n", crossover[r]);
        EXPECT_LT(d.back(), 0.9 * d.front()) << "r = " << radii[r];
        EXPECT_GT(d.front(), 0.6 * 100.0);  // near D at short times (blocked moves only)
        for (std::size_t k = 1; k < d.size(); ++k)
            EXPECT_LT(d[k], d[k - 1] * 1.04) << "D(t) rises at step " << (1 << k);
        EXPECT_GT(crossover[r], 0.0);
    }
    EXPECT_GT(crossover[1], crossover[0]);
}

std::filesystem::path sourceFile(const std::string& relative) {
    return std::filesystem::path(CELLFORGE_SOURCE_DIR) / relative;
}

// The rod-shaped cell of assets/meshes/capsule.obj (2 um x 0.8 um) at 20 nm: cytoplasm
// inside a membrane shell, particles start inside and (default rules) stay inside; a rule
// letting A into the membrane fills it in proportion to its volume.
TEST_P(LatticeRdmeTest, CapsuleCellKeepsParticlesInsideUnlessRulesOpenTheMembrane) {
    set({"lattice.nx=48", "lattice.ny=48", "lattice.nz=112", "lattice.lambda=20",
         "lattice.tau=1000", "lattice.boundary_x=reflective", "lattice.boundary_y=reflective",
         "lattice.boundary_z=reflective", "species.count=2", "species.names=A, B", "species.d1=100",
         "species.d2=100", "species.n1=3000", "species.n2=3000", "tracking.per_species=0",
         "geometry.region=mesh",
         "geometry.mesh=" + sourceFile("assets/meshes/capsule.obj").string(),
         "diffusion.rules=A: cytoplasm -> membrane = 100; A: membrane = 100; A: membrane -> "
         "cytoplasm = 100"});
    auto m = make(4);
    const Snapshot s = m->snapshot();
    const auto types = s.at("site_type").as<std::uint8_t>();
    std::size_t n[4] = {0, 0, 0, 0};
    for (std::uint8_t t : types)
        ++n[t];
    const double insideUm3 = (n[0] + n[2]) * 20.0 * 20.0 * 20.0 * 1e-9;
    const double capsule = M_PI * 0.4 * 0.4 * 1.2 + 4.0 / 3.0 * M_PI * 0.4 * 0.4 * 0.4;
    std::printf(
        "capsule cell: %zu cytoplasm, %zu membrane, %zu outside sites; inside %.4f um^3 "
        "(capsule %.4f)\n",
        n[0], n[2], n[3], insideUm3, capsule);
    EXPECT_NEAR(insideUm3, capsule, 0.02 * capsule);  // voxelization at 20 nm: ~1 %
    m->advance(400);
    EXPECT_EQ(metric(*m, "count_B_cytoplasm"), 3000);  // B has no rule: stays in
    EXPECT_EQ(metric(*m, "count_A_outside"), 0);
    // A spreads over cytoplasm + membrane: the membrane share follows the site counts
    // (binomial sd ~ 20 particles; tolerance 15 % of the expectation).
    const double expectedMembrane = 3000.0 * n[2] / static_cast<double>(n[0] + n[2]);
    EXPECT_NEAR(metric(*m, "count_A_membrane"), expectedMembrane, 0.15 * expectedMembrane);
}

TEST_P(LatticeRdmeTest, BadInputNamesTheFileOrParameterAndKeepsTheOldState) {
    auto m = make(1);
    m->advance(3);
    const Snapshot before = m->snapshot();
    auto expectThrow = [&](const std::vector<std::string>& a, const std::string& needle) {
        ParamSet ps(desc.parameters());
        for (const std::string& x : a)
            ps.setFromAssignment(x);
        try {
            m->reset(ps, 1);
            ADD_FAILURE() << "no error for " << needle;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
            std::printf("  %s\n", e.what());
        }
        EXPECT_EQ(m->step(), 3u);  // nothing half-loaded: the old run is still there
    };
    expectThrow({"geometry.region=mesh",
                 "geometry.mesh=" + sourceFile("tests/sim/geometry/data/open_box.obj").string()},
                "open_box.obj: mesh is not closed");
    expectThrow({"geometry.region=mesh", "geometry.mesh=/nonexistent/cell.obj"}, "cell.obj");
    expectThrow(
        {"species.count=3",
         "reactions.sbml=" + sourceFile("tests/sim/models/data/sbml_malformed.xml").string()},
        "sbml_malformed.xml");
    expectThrow({"species.names=A, B", "reactions.network=A + X -> B @ 1"}, "unknown species");
    expectThrow({"species.names=A, B", "diffusion.rules=A: cytoplasm -> membrane = 600"},
                "q = D tau / lambda^2");
    expectThrow({"lattice.layout=packed32", "lattice.n_max=2", "lattice.nx=8", "lattice.ny=8",
                 "lattice.nz=8", "species.n1=1020", "species.n2=0"},
                "would overflow constantly");
    EXPECT_EQ(m->snapshot().at("sites").bytes, before.at("sites").bytes);
}

// An edit the model cannot take (a network naming an unknown species, a rule breaking
// q <= 0.5) is refused by Runner::setParameter in the caller's thread; the run keeps its
// parameters and goes on.
TEST_P(LatticeRdmeTest, RunnerRefusesEditsTheModelCannotTake) {
    set({"lattice.nx=8", "lattice.ny=8", "lattice.nz=8", "species.names=A, B", "species.n1=100",
         "species.n2=100", "reactions.network=A -> B @ 1e5"});
    Runner runner(desc, GetParam(), params, 3);
    EXPECT_THROW(runner.setParameter("reactions.network", std::string("A + X -> B @ 1")),
                 ParameterError);
    EXPECT_THROW(runner.setParameter("diffusion.rules", std::string("A: cytoplasm = 1e6")),
                 ParameterError);
    EXPECT_EQ(runner.parameters().text("reactions.network"), "A -> B @ 1e5");
    // The region's mesh is loaded when an edit is checked (as a sweep checks its points): a
    // mesh that is not closed is refused when the region becomes that mesh, not at reset.
    const std::string open = sourceFile("tests/sim/geometry/data/open_box.obj").string();
    runner.setParameter("geometry.mesh", open).get();  // unused while the region is none
    EXPECT_THROW(runner.setParameter("geometry.region", std::string("mesh")), GeometryError);
    runner.setParameter("geometry.mesh", std::string()).get();
    runner.setParameter("reactions.network", std::string("A -> B @ 2e5")).get();
    runner.stepBy(5).get();
    ASSERT_TRUE(runner.waitUntilIdle(std::chrono::seconds(30)));
    EXPECT_FALSE(runner.error());
    EXPECT_EQ(runner.latestFrame()->step, 5u);
    EXPECT_EQ(runner.parameters().text("reactions.network"), "A -> B @ 2e5");
}

INSTANTIATE_TEST_SUITE_P(AllBackends, LatticeRdmeTest, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
