// SPDX-License-Identifier: GPL-3.0-or-later
// `epidermis` mechanics on every backend: the force law against closed forms, one RK2 step
// of a two-element cell against a hand computation, Newton's third law, periodic
// invariance and agreement of the three neighbour methods.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim/models/epidermis/epidermis_physics.hpp"
#include "tests/sim/models/epidermis_test_support.hpp"

namespace cf {
namespace {

using epidermis::EpidermisParams;
using namespace test::epi;

EpidermisParams defaults() {
    return ParamSet(epidermis::parameterTable()).toStruct<EpidermisParams>();
}

template <typename F>
double bisect(F f, double lo, double hi) {
    const bool loPositive = f(lo) > 0;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        ((f(mid) > 0) == loPositive ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

// The code mapping of Table 1 (A.4) puts the zero crossings at ln(U0/W0) / (1/xi1 - 1/xi2):
// 0.198 (intra) and 0.430 (inter). Bisection on morse() must find them (1e-3, the
// precision the model file quotes them to; the closed form to 1e-9).
TEST(EpidermisPhysics, MorseZeroCrossingsAndSigns) {
    const EpidermisParams p = defaults();
    auto intra = [&](double r) {
        return epidermis::morse<double>(r, p.intraU0, p.intraXi1, p.intraW0, p.intraXi2);
    };
    auto inter = [&](double r) {
        return epidermis::morse<double>(r, p.interU0, p.interXi1, p.interW0, p.interXi2);
    };
    const double r0 = bisect(intra, 0.01, 1.0);
    const double r1 = bisect(inter, 0.01, 1.0);
    EXPECT_NEAR(r0, 0.198, 1e-3);
    EXPECT_NEAR(r1, 0.430, 1e-3);
    auto closed = [](double u0, double xi1, double w0, double xi2) {
        return std::log(u0 / w0) / (1.0 / xi1 - 1.0 / xi2);
    };
    EXPECT_NEAR(r0, closed(p.intraU0, p.intraXi1, p.intraW0, p.intraXi2), 1e-9);
    EXPECT_NEAR(r1, closed(p.interU0, p.interXi1, p.interW0, p.interXi2), 1e-9);
    for (double f : {0.1, 0.5, 0.9}) {
        EXPECT_GT(intra(f * r0), 0.0) << f;  // repulsive below the crossing
        EXPECT_GT(inter(f * r1), 0.0) << f;
    }
    for (double f : {1.1, 2.0, 5.0}) {
        EXPECT_LT(intra(f * r0), 0.0) << f;  // attractive above
        EXPECT_LT(inter(f * r1), 0.0) << f;
    }
    // The intercellular law only repels: positiveMorse clips to 0 above the crossing.
    for (double r : {0.05, 0.2, 0.4})
        EXPECT_EQ(epidermis::interCoefficient(p, r), inter(r)) << r;
    for (double r : {0.44, 0.5, 0.6, 2.0})
        EXPECT_EQ(epidermis::interCoefficient(p, r), 0.0) << r;
    EXPECT_EQ(epidermis::intraCoefficient(p, 0.3), intra(0.3));
}

class EpidermisMechanics : public EpidermisFixture {};

// Two elements of one cell on the x axis at distance s: the pair force is V(s) s along the
// axis on each, so ds/dt = 2 V_intra(s) s, and one RK2 midpoint step gives
// s + dt g(s + dt/2 g(s)). Positions are floats of magnitude ~1, so 1e-6 covers their
// rounding (~1e-7); dt = 0.5 makes forward Euler differ from RK2 by > 1e-5, so the check
// also pins the scheme.
TEST_P(EpidermisMechanics, TwoElementsOfOneCellFollowRk2) {
    set({"domain.periodic=false", "init.cells=1", "init.elements_per_cell=2",
         "init.adhesive_per_cell=0", "network.enabled=false", "growth.enabled=false",
         "time.dt=0.5"});
    const EpidermisParams p = epidermis::checkedParams(params);
    const double dt = p.dt;  // the float the model integrates with
    auto g = [&](double s) { return 2.0 * epidermis::intraCoefficient(p, s) * s; };
    for (double r : {0.12, 0.3, 0.45}) {
        const float x0 = 1.0f, x1 = static_cast<float>(1.0 + r);
        auto m = make();
        m->reset(params, 1);
        m->restore(handMade(params, {{{{x0, 2.0f, 1.0f}, {x1, 2.0f, 1.0f}}, {}, {}}}));
        m->advance(1);
        const std::vector<float> pos = positions(m->snapshot());
        const double s0 = static_cast<double>(x1) - x0;
        const double expected = s0 + dt * g(s0 + 0.5 * dt * g(s0));
        const double euler = s0 + dt * g(s0);
        EXPECT_GT(std::abs(euler - expected), 1e-5) << "the test cannot tell RK2 from Euler";
        EXPECT_NEAR(static_cast<double>(pos[3]) - pos[0], expected, 1e-6) << "r = " << r;
        // The pair force is internal: the midpoint does not move; y and z get no force.
        EXPECT_NEAR(0.5 * (static_cast<double>(pos[0]) + pos[3]), 0.5 * (double{x0} + x1), 1e-6);
        EXPECT_EQ(pos[1], 2.0f);
        EXPECT_EQ(pos[2], 1.0f);
        EXPECT_EQ(pos[4], 2.0f);
        EXPECT_EQ(pos[5], 1.0f);
    }
}

// Without membrane (no adhesive elements) and floor (hard_z off) every force is a pair
// term V(r)(X_i - X_k), antisymmetric in (i, k), so the element displacements of one step
// sum to 0. What remains is the rounding of each stored float position (half an ulp of
// values below 4, 2^-23 * 2 each): tolerance N * 2^-22 per axis, while the displacements
// themselves sum to ~1e3 times that in absolute value.
TEST_P(EpidermisMechanics, InternalForcesSumToZero) {
    set({"init.cells=36", "domain.size_x=3.6", "domain.size_y=3.6", "init.adhesive_per_cell=0",
         "network.enabled=false", "growth.enabled=false", "mechanics.hard_z=false"});
    for (const char* method : {"naive", "center"}) {
        params.set("mechanics.neighbor_method", std::string(method));
        auto m = make();
        m->reset(params, 3);
        const std::vector<float> before = positions(m->snapshot());
        m->advance(1);
        const std::vector<double> d = displacements(before, positions(m->snapshot()), 3.6, 3.6);
        const double n = static_cast<double>(d.size() / 3);
        const double tol = n * std::ldexp(1.0, -22);
        double sum[3] = {0, 0, 0}, absSum = 0.0;
        for (std::size_t i = 0; i < d.size(); ++i) {
            sum[i % 3] += d[i];
            absSum += std::abs(d[i]);
        }
        for (int a = 0; a < 3; ++a)
            EXPECT_LT(std::abs(sum[a]), tol) << method << " axis " << a;
        EXPECT_GT(absSum, 100.0 * tol) << method;
    }
}

// Translating everything by a period, or by any shift on a periodic axis (cells then
// straddle the boundary), changes no displacement. Positions are floats below 6: a
// displacement is the difference of two stored values, each rounded to half an ulp
// (2.4e-7), so two runs agree to 1e-6.
TEST_P(EpidermisMechanics, PeriodicTranslationChangesNoDisplacement) {
    set({"init.cells=100", "init.species_noise=0.1", "growth.enabled=false"});
    const double L = 6.0;
    auto m = make();
    m->reset(params, 4);
    const Snapshot base = m->snapshot();
    auto stepFrom = [&](const Snapshot& s) {
        m->restore(s);
        m->advance(1);
        return displacements(positions(s), positions(m->snapshot()), L, L);
    };
    const std::vector<double> reference = stepFrom(base);
    for (int axis = 0; axis < 2; ++axis) {
        for (float shift : {6.0f, 2.345f}) {
            Snapshot moved = base;
            std::vector<float> pos = positions(base);
            for (std::size_t i = static_cast<std::size_t>(axis); i < pos.size(); i += 3)
                pos[i] = epidermis::wrapPosition(pos[i] + shift, 6.0f, true);
            replaceField(moved, Field::of<float>("position", "1", FieldRole::Positions, 3, pos));
            const std::vector<double> d = stepFrom(moved);
            ASSERT_EQ(d.size(), reference.size());
            double worst = 0.0;
            for (std::size_t i = 0; i < d.size(); ++i)
                worst = std::max(worst, std::abs(d[i] - reference[i]));
            EXPECT_LT(worst, 1e-6) << "axis " << axis << " shift " << shift;
        }
    }
}

struct RunResult {
    std::vector<float> pos;
    std::vector<std::vector<float>> species;
};

// naive, center and grid (cull = exact) find the same element pairs, so after 10 steps of
// 100 cells (mechanics and network) they differ only by float summation order: 1e-5.
TEST_P(EpidermisMechanics, NeighborMethodsAgree) {
    set({"init.cells=100", "init.species_noise=0.1", "growth.enabled=false"});
    for (bool periodic : {true, false}) {
        params.set("domain.periodic", periodic);
        const double L = periodic ? 6.0 : 0.0;
        auto run = [&](const char* method) {
            params.set("mechanics.neighbor_method", std::string(method));
            auto m = make();
            m->reset(params, 5);
            m->advance(10);
            const Snapshot s = m->snapshot();
            RunResult r{positions(s), {}};
            for (int k = 0; k < kSpeciesCount; ++k)
                r.species.push_back(species(s, k));
            return r;
        };
        const RunResult naive = run("naive");
        for (const char* method : {"center", "grid"}) {
            const RunResult other = run(method);
            EXPECT_LT(maxPositionDifference(naive.pos, other.pos, L, L), 1e-5)
                << method << (periodic ? " periodic" : " open");
            for (int k = 0; k < kSpeciesCount; ++k)
                for (std::size_t c = 0; c < naive.species[k].size(); ++c)
                    ASSERT_NEAR(naive.species[k][c], other.species[k][c], 1e-5)
                        << method << " species " << k << " cell " << c;
        }
    }
}

// With cull = paper (Algorithm 2) center and grid skip the same cell pairs: 1e-5 again.
TEST_P(EpidermisMechanics, PaperCullCenterAndGridAgree) {
    set({"init.cells=100", "init.species_noise=0.1", "growth.enabled=false",
         "mechanics.cull=paper"});
    auto run = [&](const char* method) {
        params.set("mechanics.neighbor_method", std::string(method));
        auto m = make();
        m->reset(params, 8);
        m->advance(10);
        return positions(m->snapshot());
    };
    EXPECT_LT(maxPositionDifference(run("center"), run("grid"), 6.0, 6.0), 1e-5);
}

// The grid method trusts every cell to stay within radius_bound of its centre; a cell
// beyond it must stop the run with a message naming the cell and the parameter, while the
// center method has no such bound.
TEST_P(EpidermisMechanics, CellBeyondRadiusBoundStopsGridRun) {
    set({"init.cells=2", "init.elements_per_cell=2", "init.adhesive_per_cell=0",
         "network.enabled=false", "growth.enabled=false"});
    const std::vector<CellSpec> cells = {{{{1.0f, 1.0f, 1.0f}, {1.2f, 1.0f, 1.0f}}, {}, {}},
                                         {{{4.0f, 4.0f, 1.0f}, {4.0f, 5.6f, 1.0f}}, {}, {}}};
    auto m = make();
    m->reset(params, 1);
    m->restore(handMade(params, cells));
    try {
        // The CPU stops inside advance(); the device reports at the next checkFinite(),
        // which the Runner calls after every batch.
        m->advance(1);
        m->checkFinite();
        FAIL() << "expected SimulationError";
    } catch (const SimulationError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("cell 1"), std::string::npos) << what;
        EXPECT_NE(what.find("mechanics.radius_bound"), std::string::npos) << what;
    }
    params.set("mechanics.neighbor_method", std::string("center"));
    auto c = make();
    c->reset(params, 1);
    c->restore(handMade(params, cells));
    EXPECT_NO_THROW(c->advance(1));
}

INSTANTIATE_TEST_SUITE_P(AllBackends, EpidermisMechanics, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
