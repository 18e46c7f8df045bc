// SPDX-License-Identifier: GPL-3.0-or-later
// The per-site reaction step of `lattice` (reaction_site.hpp) on the CPU: its firing
// probability and reaction choice against 1 - exp(-a_tot) and a_r / a_tot, the removal rule,
// conservation, determinism, and a well-mixed A + B <-> C run in one big site against the
// exact stationary distribution of the chemical master equation (cme_reference.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sim/models/lattice/reactions/reaction_network.hpp"
#include "sim/models/lattice/reactions/reaction_site.hpp"
#include "tests/sim/models/cme_reference.hpp"

namespace cf::lattice {
namespace {

constexpr std::uint16_t A = 1, B = 2, C = 3, D = 4;

ReactionEntry entry(double perStep, int order, std::uint16_t a, std::uint16_t b,
                    std::vector<std::uint16_t> products, std::uint32_t mask = kDefaultReactionSites,
                    int lastCopies = 1) {
    ReactionEntry e{};
    e.perStep = perStep;
    e.order = order;
    e.a = a;
    e.b = b;
    e.siteMask = mask;
    e.productCount = static_cast<std::int16_t>(products.size());
    e.lastCopies = static_cast<std::uint16_t>(lastCopies);
    for (std::size_t k = 0; k < products.size(); ++k)
        e.products[k] = products[k];
    return e;
}

ReactionTable table(const std::vector<ReactionEntry>& entries, int species) {
    ReactionTable t{};
    t.count = static_cast<std::int32_t>(entries.size());
    t.speciesCount = species;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        t.reactions[k] = entries[k];
        t.anySiteMask |= entries[k].siteMask;
    }
    return t;
}

// The deterministic 1 - e^{-a} against libm's expm1 from 1e-12 to beyond the cut at 40.
TEST(LatticeReactionSite, OneMinusExpNegMatchesExpm1) {
    double worst = 0.0;
    for (double a = 1e-12; a < 60.0; a *= 1.01) {
        const double exact = -std::expm1(-a);
        worst = std::max(worst, std::abs(oneMinusExpNeg(a) - exact) / exact);
    }
    std::printf("1 - exp(-a): largest relative error %.3g over a in [1e-12, 60]\n", worst);
    EXPECT_LT(worst, 1e-15);  // a few ulp (2.2e-16 each)
    EXPECT_EQ(oneMinusExpNeg(0.0), 0.0);
    EXPECT_EQ(oneMinusExpNeg(-1.0), 0.0);
    EXPECT_EQ(oneMinusExpNeg(100.0), 1.0);
}

// A site of fixed content A A A B B C plus a tracer (id 9 > speciesCount) in cytoplasm, then
// in membrane, drawn at 10^5 different steps (each draw independent). Propensities:
//   r0 A + B -> C  0.02 * 3 * 2 = 0.12      r3 0 -> A        0.03
//   r1 C -> A + B  0.05 * 1     = 0.05      r4 B -> 0 (membrane only) 0.5 * 2 = 1.0
//   r2 2A -> B     0.01 * 3 * 2 = 0.06      r5 D -> A  (no D present)  0
// a_tot = 0.26 (P = 0.2289) in cytoplasm and 1.26 (P = 0.7164) in membrane. The firing
// fraction is binomial: tolerance 4 standard errors sqrt(P (1 - P) / n) (about 0.0013 and
// 0.0014). Given a firing, reaction r is chosen with a_r / a_tot: 4 binomial standard
// errors of its count; the impossible ones (not allowed, or a_r = 0) exactly never.
TEST(LatticeReactionSite, FiringProbabilityAndChoiceFollowThePropensities) {
    const ReactionTable t =
        table({entry(0.02, 2, A, B, {C}), entry(0.05, 1, C, 0, {A, B}), entry(0.01, 2, A, A, {B}),
               entry(0.03, 0, 0, 0, {A}), entry(0.5, 1, B, 0, {}, siteTypeBit(kSiteMembrane)),
               entry(1.0, 1, D, 0, {A})},
              4);
    const std::vector<std::uint16_t> content = {A, B, A, C, 9, A, B};
    const std::uint8_t types[2] = {kSiteCytoplasm, kSiteMembrane};
    const double expectedA[2][6] = {{0.12, 0.05, 0.06, 0.03, 0.0, 0.0},
                                    {0.12, 0.05, 0.06, 0.03, 1.0, 0.0}};
    const int n = 100000;
    for (int ti = 0; ti < 2; ++ti) {
        double aTot = 0.0;
        for (double x : expectedA[ti])
            aTot += x;
        EXPECT_NEAR(sitePropensity(t, types[ti], content.data(), 7), aTot, 1e-15);
        std::vector<int> chosen(6, 0);
        int fired = 0;
        for (int s = 0; s < n; ++s) {
            std::uint16_t sp[16];
            std::copy(content.begin(), content.end(), sp);
            const SiteReaction r = reactSite(t, types[ti], sp, nullptr, 7, s, 12345u, 77u);
            if (r.reaction >= 0) {
                ++fired;
                ++chosen[r.reaction];
            } else {
                EXPECT_EQ(r.count, 7);
            }
        }
        const double p = 1.0 - std::exp(-aTot);
        const double se = std::sqrt(p * (1.0 - p) / n);
        std::printf("site type %d: a_tot %.2f, fired %.5f of steps, expected %.5f (se %.5f)\n",
                    types[ti], aTot, static_cast<double>(fired) / n, p, se);
        EXPECT_NEAR(static_cast<double>(fired) / n, p, 4.0 * se);
        for (int r = 0; r < 6; ++r) {
            const double q = expectedA[ti][r] / aTot;
            const double seq = std::sqrt(q * (1.0 - q) * fired);
            std::printf("  reaction %d: chosen %d times, expected %.1f (se %.1f)\n", r, chosen[r],
                        q * fired, seq);
            if (q == 0.0)
                EXPECT_EQ(chosen[r], 0);
            else
                EXPECT_NEAR(chosen[r], q * fired, 4.0 * seq);
        }
    }
}

// Removal takes the LAST occurrence of each reactant, compacts in order, appends products
// untracked; the consumed identities are reported.
TEST(LatticeReactionSite, ApplyRemovesLastOccurrencesAndAppendsProducts) {
    std::uint16_t sp[16] = {A, B, A, C, B};
    std::uint32_t ids[16] = {11, 12, 13, 14, 15};
    std::uint32_t consumed[2] = {99, 99};
    int excess = -1;
    int n = applyReaction(entry(1.0, 2, A, B, {C}), sp, ids, 5, consumed, excess);
    EXPECT_EQ(excess, 0);
    ASSERT_EQ(n, 4);
    EXPECT_EQ(std::vector<std::uint16_t>(sp, sp + 4), (std::vector<std::uint16_t>{A, B, C, C}));
    EXPECT_EQ(std::vector<std::uint32_t>(ids, ids + 4),
              (std::vector<std::uint32_t>{11, 12, 14, 0}));
    EXPECT_EQ(consumed[0], 13u);
    EXPECT_EQ(consumed[1], 15u);

    std::uint16_t sp2[16] = {A, A, B, A};  // 2A -> 0: the last two A go
    std::uint32_t ids2[16] = {1, 2, 3, 4};
    n = applyReaction(entry(1.0, 2, A, A, {}), sp2, ids2, 4, consumed, excess);
    ASSERT_EQ(n, 2);
    EXPECT_EQ(std::vector<std::uint16_t>(sp2, sp2 + 2), (std::vector<std::uint16_t>{A, B}));
    EXPECT_EQ(std::vector<std::uint32_t>(ids2, ids2 + 2), (std::vector<std::uint32_t>{1, 3}));
    EXPECT_EQ(consumed[0], 4u);
    EXPECT_EQ(consumed[1], 2u);

    // A full site of 16 whose C splits into 4 products holds 19: the caller overflows 3.
    std::uint16_t full[16 + kMaxProducts];
    for (int k = 0; k < 16; ++k)
        full[k] = k == 7 ? C : A;
    n = applyReaction(entry(1.0, 1, C, 0, {B, B, D, D}), full, nullptr, 16, consumed, excess);
    EXPECT_EQ(n, 19);
    EXPECT_EQ(countInSite(full, n, A), 15);
    EXPECT_EQ(countInSite(full, n, C), 0);
    EXPECT_EQ(full[18], D);
    EXPECT_EQ(excess, 0);

    // C -> B + 100 D (B, then D with 100 copies): the list takes B and three D, and 97 more D
    // are the excess the caller overflows.
    std::uint16_t some[3 + kMaxProducts] = {A, C, A};
    n = applyReaction(entry(1.0, 1, C, 0, {B, D}, kDefaultReactionSites, 100), some, nullptr, 3,
                      consumed, excess);
    EXPECT_EQ(n, 2 + kMaxProducts);
    EXPECT_EQ(std::vector<std::uint16_t>(some, some + n),
              (std::vector<std::uint16_t>{A, A, B, D, D, D}));
    EXPECT_EQ(excess, 97);
}

// A + B <-> C and 2A <-> D at high propensity (P up to 0.9) over 10^5 consecutive steps of
// one site: every step keeps A + C + 2D and B + C exactly, tracers (id 7, beyond the 4
// species) are never touched and keep their identities, and nothing fires in an obstacle site.
TEST(LatticeReactionSite, ConservesAtomsAndLeavesTracersAlone) {
    const ReactionTable t = table({entry(0.05, 2, A, B, {C}), entry(0.1, 1, C, 0, {A, B}),
                                   entry(0.02, 2, A, A, {D}), entry(0.3, 1, D, 0, {A, A})},
                                  4);
    std::vector<std::uint16_t> sp = {A, 7, A, A, B, B, B, 7, C, C, D};
    std::vector<std::uint32_t> ids = {0, 501, 0, 0, 0, 0, 0, 502, 0, 0, 0};
    sp.resize(64);
    ids.resize(64);
    int n = 11;
    const auto invariant = [&] {
        const int a = countInSite(sp.data(), n, A), b = countInSite(sp.data(), n, B);
        const int c = countInSite(sp.data(), n, C), d = countInSite(sp.data(), n, D);
        return std::array<int, 2>{a + c + 2 * d, b + c};
    };
    const auto start = invariant();
    int fired = 0;
    for (std::uint64_t s = 0; s < 100000; ++s) {
        const SiteReaction r = reactSite(t, kSiteCytoplasm, sp.data(), ids.data(), n, s, 3u, 5u);
        fired += r.reaction >= 0;
        n = r.count;
        ASSERT_EQ(invariant(), start) << "step " << s;
        ASSERT_EQ(countInSite(sp.data(), n, 7), 2);
        EXPECT_EQ(r.consumedIds[0], 0u);  // tracked particles are tracers here: never consumed
    }
    std::vector<std::uint32_t> tracerIds;
    for (int k = 0; k < n; ++k)
        if (sp[k] == 7) tracerIds.push_back(ids[k]);
    EXPECT_EQ(tracerIds, (std::vector<std::uint32_t>{501, 502}));
    EXPECT_GT(fired, 10000);  // the test exercised the reactions
    std::printf("conservation: %d reactions in 1e5 steps, A+C+2D = %d, B+C = %d throughout\n",
                fired, start[0], start[1]);

    std::uint16_t o[16] = {A, B, C};
    for (std::uint64_t s = 0; s < 1000; ++s)
        EXPECT_EQ(reactSite(t, kSiteObstacle, o, nullptr, 3, s, 0u, 5u).reaction, -1);
}

// Same table, content, site, step and seed: the same result; the stream moves with each of
// step, site and seed.
TEST(LatticeReactionSite, DeterministicInItsKey) {
    const ReactionTable t = table({entry(0.2, 2, A, B, {C}), entry(0.3, 1, C, 0, {A, B})}, 3);
    const auto run = [&](std::uint32_t site, std::uint32_t seed) {
        std::vector<std::uint16_t> sp = {A, A, B, B, C, C};
        sp.resize(32);
        std::vector<int> history;
        int n = 6;
        for (std::uint64_t s = 0; s < 2000; ++s) {
            const SiteReaction r =
                reactSite(t, kSiteCytoplasm, sp.data(), nullptr, n, s, site, seed);
            n = r.count;
            history.push_back(r.reaction);
        }
        return history;
    };
    EXPECT_EQ(run(4, 9), run(4, 9));
    EXPECT_NE(run(4, 9), run(5, 9));
    EXPECT_NE(run(4, 9), run(4, 10));
}

// Well-mixed A + B <-> C as ONE site holding all particles (lattice.md C.3: kf = 1.07e5
// /(M s), kr = 0.351 /s, V = 1e-15 L, A0 = B0 = 1000), through the whole pipeline: text
// network -> compileReactions (lambda = 1000 nm: V_site = 1e-15 L; tau = 1 ms) ->
// reactSite. At equilibrium a_tot tau = 0.19. The one-reaction-per-step rule turns the CME
// into a discrete birth-death chain whose exact stationary moments differ from the CME's by
// the printed bias (0.007 in the mean): far below the statistical error. The error is
// estimated by batch means (40 batches of 10^5 steps, each about 55 correlation times of
// C, 1 / (0.61 /s) / 0.91 = 1.8 s = 1800 steps); tolerance 4 standard errors plus |bias|.
// The standard errors themselves must be small (mean < 0.6, variance < 12) so the test can
// fail: the CME variance is 155.
TEST(LatticeReactionSite, WellMixedBimolecularMatchesTheChemicalMasterEquation) {
    const double lambdaNm = 1000.0, tauNs = 1.0e6, tau = 1.0e-3;
    const ReactionNetwork net =
        parseReactionNetwork("A + B -> C @ 1.07e5; C -> A + B @ 0.351", {"A", "B", "C"}, "test");
    const ReactionTable t = compileReactions(net, lambdaNm, tauNs, nullptr);
    const double c = t.reactions[0].perStep / tau;  // per-pair rate [1/s]
    const double kr = 0.351;
    const test::Moments cme = test::bimolecularCme(1000, 1000, c, kr);
    const test::Moments discrete = test::bimolecularOneReactionPerStep(1000, 1000, c, kr, tau);
    const double cDet = test::bimolecularDeterministic(1000, 1000, c, kr);
    std::printf(
        "CME: mean C %.4f, variance %.4f (deterministic %.4f); one reaction per step "
        "of %g s moves them by %.4f and %.4f\n",
        cme.mean, cme.variance, cDet, tau, discrete.mean - cme.mean,
        discrete.variance - cme.variance);
    EXPECT_NEAR(cme.mean, 270.0, 0.5);  // lattice.md: deterministic equilibrium about 270
    EXPECT_NEAR(cDet, 270.0, 0.5);

    std::vector<std::uint16_t> sp(2000 + kMaxProducts);
    for (int k = 0; k < 2000; ++k)
        sp[k] = k % 2 == 0 ? A : B;
    int n = 2000;
    std::uint64_t step = 0;
    const auto advance = [&]() {
        n = reactSite(t, kSiteCytoplasm, sp.data(), nullptr, n, step++, 0u, 2024u).count;
        return 2000 - n;  // C = particles that paired up
    };
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < 20000; ++k)  // burn-in: 11 correlation times from C = 0
        advance();
    const int batches = 40, perBatch = 100000;
    std::vector<double> means, variances;
    for (int b = 0; b < batches; ++b) {
        double s1 = 0.0, s2 = 0.0;
        for (int k = 0; k < perBatch; ++k) {
            const double x = advance();
            s1 += x;
            s2 += x * x;
        }
        const double m = s1 / perBatch;
        means.push_back(m);
        variances.push_back(s2 / perBatch - m * m);
    }
    const auto meanAndSe = [&](const std::vector<double>& v) {
        double m = 0.0;
        for (double x : v)
            m += x;
        m /= static_cast<double>(v.size());
        double ss = 0.0;
        for (double x : v)
            ss += (x - m) * (x - m);
        return std::array<double, 2>{m, std::sqrt(ss / (v.size() - 1.0) / v.size())};
    };
    const auto [mean, seMean] = meanAndSe(means);
    const auto [variance, seVar] = meanAndSe(variances);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "one big site, %d steps (%.1f s): mean C %.3f +- %.3f (CME %.3f), variance %.2f "
        "+- %.2f (CME %.2f)\n",
        batches * perBatch, secs, mean, seMean, cme.mean, variance, seVar, cme.variance);
    EXPECT_LT(seMean, 0.6);
    EXPECT_LT(seVar, 12.0);
    EXPECT_NEAR(mean, cme.mean, 4.0 * seMean + std::abs(discrete.mean - cme.mean));
    EXPECT_NEAR(variance, cme.variance, 4.0 * seVar + std::abs(discrete.variance - cme.variance));
}

}  // namespace
}  // namespace cf::lattice
