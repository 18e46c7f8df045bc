// SPDX-License-Identifier: GPL-3.0-or-later
// `epidermis` gene network, growth and division on every backend. The network is checked
// against a reference written here from the equations of docs/design/epidermis.md
// (A.10, Table 2) without the model's headers, so a shared formula bug cannot hide.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "tests/sim/models/epidermis_test_support.hpp"

namespace cf {
namespace {

using namespace test::epi;

// ---- independent reference: A.10 with Table 2, HILL code form, classic RK4 -------------

using Species7 = std::array<double, 7>;  // N, D, B, A, O1, O2, M (the model's order)

double hillCode(double x, double a, double b, double c, double h) {
    return a + (b - a) / (1.0 + std::pow(x / c, h));
}

// An isolated cell: <N> = <D> = <B> = 0; A is held fixed.
Species7 referenceRates(const Species7& s, double A) {
    const double N = s[0], D = s[1], B = s[2], O1 = s[4], O2 = s[5], M = s[6];
    const double ka = 0.0003, kd = 0.12, dB = 0.19, dN = 0.03, dD = 0.006;
    const double dO = 1.0, dV = 1.0, dM = 1.0, G = 0.4;
    const double avgN = 0.0, avgD = 0.0, avgB = 0.0;
    Species7 r{};
    r[0] = -ka * N * avgD + kd * B - dN * N +
           hillCode(B, 0.01, 1.0, 1.0, -2.0) * hillCode(O2, 0.0, 1.0, 0.5, 2.0);
    r[1] = -ka * D * avgN + kd * avgB - dD * D + hillCode(N, 0.01, 1.0, 10.0, 2.0);
    r[2] = ka * N * avgD - kd * B - dB * B;
    r[3] = 0.0;
    r[5] = -dO * O2 + hillCode(O1, 0.1, 2.0, 1.0, 2.0) * hillCode(G, 0.0, 1.0, 1.0, 1.0);
    r[4] = -dV * O1 + hillCode(O2, 0.0, 2.0, 1.0, 2.0) * hillCode(A, 0.0, 1.0, 1.0, 1.0);
    r[6] = -dM * M + hillCode(O2, 0.1, 1.0, 1.0, 1.0);
    return r;
}

Species7 referenceIntegrate(Species7 s, double A, double T, double h) {
    const auto steps = static_cast<long>(std::llround(T / h));
    auto axpy = [](const Species7& x, double a, const Species7& y) {
        Species7 o;
        for (std::size_t k = 0; k < 7; ++k)
            o[k] = x[k] + a * y[k];
        return o;
    };
    for (long n = 0; n < steps; ++n) {
        const Species7 k1 = referenceRates(s, A);
        const Species7 k2 = referenceRates(axpy(s, 0.5 * h, k1), A);
        const Species7 k3 = referenceRates(axpy(s, 0.5 * h, k2), A);
        const Species7 k4 = referenceRates(axpy(s, h, k3), A);
        for (std::size_t k = 0; k < 7; ++k)
            s[k] += h / 6.0 * (k1[k] + 2.0 * k2[k] + 2.0 * k3[k] + k4[k]);
    }
    return s;
}

class EpidermisNetwork : public EpidermisFixture {};

// One cell, no neighbours, no mechanics (both intracellular amplitudes 0, so its two
// adhesive elements stay at z = 0.3 and 0.45 and A = 0.75 throughout). Species start at 0.5
// so every term of A.10 matters. After T = 50 at dt = 0.01 the model (RK2, species stored
// as float) must match RK4 at dt = 1e-4 to 1e-3 relative + 1e-5: the RK2 global error is
// O(dt^2) ~ 1e-5 relative here (measured on the CPU: at most 2.4e-5), and 5000 float
// roundings of a species that grows to ~40 (Delta) add at most ~3e-4 relative even when
// every rounding goes the same way (float arithmetic on the device).
TEST_P(EpidermisNetwork, IsolatedCellMatchesIndependentRk4) {
    set({"domain.periodic=false", "init.cells=1", "init.elements_per_cell=2",
         "init.adhesive_per_cell=2", "mechanics.intra_u0=0", "mechanics.intra_w0=0",
         "growth.enabled=false", "time.dt=0.01"});
    CellSpec cell{{{1.0f, 1.0f, 0.3f}, {1.3f, 1.0f, 0.45f}}, {1, 1}, {}};
    cell.species.fill(0.5f);
    const double A = static_cast<float>(double{0.3f} + double{0.45f});
    Species7 start;
    start.fill(0.5);
    const Species7 expected = referenceIntegrate(start, A, 50.0, 1e-4);

    auto run = [&](const char* hill) {
        params.set("network.hill", std::string(hill));
        auto m = make();
        m->reset(params, 1);
        m->restore(handMade(params, {cell}));
        Species7 out{};
        for (int chunk = 0; chunk < 10; ++chunk) {
            m->advance(500);
            const Snapshot s = m->snapshot();
            for (int k = 0; k < kSpeciesCount; ++k) {
                out[static_cast<std::size_t>(k)] = species(s, k).at(0);
                EXPECT_GE(out[static_cast<std::size_t>(k)], 0.0) << hill << " species " << k;
            }
        }
        EXPECT_EQ(m->step(), 5000u);
        EXPECT_NEAR(m->time(), 50.0, 1e-9);
        return out;
    };
    const Species7 code = run("code");
    for (std::size_t k = 0; k < 7; ++k) {
        if (k == epidermis::kBma) continue;
        EXPECT_NEAR(code[k], expected[k], 1e-3 * std::abs(expected[k]) + 1e-5)
            << epidermis::speciesName(static_cast<int>(k));
    }
    // A is the sum of the adhesive elements' heights, recomputed each step.
    EXPECT_NEAR(code[3], A, 1e-6);
    // The printed HILL form (A.9) is a different model: it must change the result.
    const Species7 paper = run("paper");
    double largest = 0.0;
    for (std::size_t k = 0; k < 7; ++k)
        largest = std::max(largest, std::abs(paper[k] - code[k]) / (std::abs(code[k]) + 1e-6));
    EXPECT_GT(largest, 0.05);
}

// A growth event appends one type-0 element at the cell centre (the mean of the elements
// after the step's mechanics). The model and this test both average float positions in
// a different order: 1e-5.
TEST_P(EpidermisNetwork, GrowthAddsOneElementAtTheCentre) {
    set({"init.cells=4", "init.species_noise=0.1", "growth.interval=1", "growth.rule=absolute",
         "growth.threshold=1e6"});
    auto m = make();
    m->reset(params, 6);
    for (int n = 21; n <= 22; ++n) {
        m->advance(1);
        const Snapshot s = m->snapshot();
        const std::vector<float> pos = positions(s);
        const std::vector<std::uint8_t> type = s.at("element_type").as<std::uint8_t>();
        ASSERT_EQ(counts(s), std::vector<std::int32_t>(4, n));
        for (std::size_t c = 0; c < 4; ++c) {
            const std::size_t first = c * static_cast<std::size_t>(n);
            const std::size_t added = first + static_cast<std::size_t>(n) - 1;
            const auto mean = meanPosition(pos, first, static_cast<std::size_t>(n) - 1, 6.0, 6.0);
            for (std::size_t a = 0; a < 3; ++a)
                EXPECT_NEAR(minImage(pos[3 * added + a] - mean[a], a < 2 ? 6.0 : 0.0), 0.0, 1e-5)
                    << "cell " << c << " axis " << a;
            EXPECT_EQ(type[added], 0);
        }
    }
}

// 39-element cells grow to 40 = division_elements at the first event and divide: elements
// [0, 20) stay, [20, 40) become cell 4 + c in order, all species are halved into both.
// The network is off, so species do not change otherwise, and a twin model without growth
// gives the positions after the same step's mechanics (identical computation: 1e-6).
TEST_P(EpidermisNetwork, DivisionSplitsElementsAndHalvesSpecies) {
    set({"init.cells=4", "init.elements_per_cell=39", "network.enabled=false", "growth.interval=1",
         "growth.rule=absolute", "growth.threshold=1e6"});
    const std::size_t cells = 4, n = 39, half = 20;
    auto m = make();
    m->reset(params, 7);
    Snapshot start = m->snapshot();
    // Adhesive elements first, as in a grown cell; distinct species per cell and kind.
    std::vector<std::uint8_t> type(cells * n);
    for (std::size_t i = 0; i < type.size(); ++i)
        type[i] = i % n < 5 ? 1 : 0;
    replaceField(start, Field::of<std::uint8_t>("element_type", "1", FieldRole::PerEntity, 1,
                                                std::span<const std::uint8_t>(type)));
    for (int k = 0; k < kSpeciesCount; ++k) {
        std::vector<float> v(cells);
        for (std::size_t c = 0; c < cells; ++c)
            v[c] = 0.1f * static_cast<float>(k + 1) + 0.01f * c;
        replaceField(start, Field::of<float>(epidermis::speciesName(k), "1", FieldRole::Internal, 1,
                                             std::span<const float>(v)));
    }
    m->restore(start);
    ParamSet still = params;
    still.set("growth.enabled", false);
    auto twin = make();
    twin->reset(still, 7);
    twin->restore(start);
    twin->advance(1);
    const std::vector<float> moved = positions(twin->snapshot());

    m->advance(1);
    const Snapshot s = m->snapshot();
    ASSERT_EQ(counts(s), std::vector<std::int32_t>(2 * cells, static_cast<std::int32_t>(half)));
    EXPECT_EQ(metric(*m, "elements"), static_cast<double>(cells * (n + 1)));
    const std::vector<float> pos = positions(s);
    const std::vector<std::uint8_t> types = s.at("element_type").as<std::uint8_t>();
    for (std::size_t c = 0; c < cells; ++c) {
        const std::size_t daughter = cells + c;
        for (std::size_t e = 0; e < half; ++e) {
            const std::size_t mi = c * half + e, di = daughter * half + e;
            for (std::size_t a = 0; a < 3; ++a) {
                EXPECT_NEAR(pos[3 * mi + a], moved[3 * (c * n + e) + a], 1e-6) << c << " " << e;
                if (e + half < n) {
                    EXPECT_NEAR(pos[3 * di + a], moved[3 * (c * n + e + half) + a], 1e-6)
                        << c << " " << e;
                }
            }
            EXPECT_EQ(types[mi], e < 5 ? 1 : 0);
            EXPECT_EQ(types[di], 0) << "the daughter has no adhesive element";
        }
        // The grown element, now the daughter's last, sits at the mother's centre.
        const auto mean = meanPosition(moved, c * n, n, 6.0, 6.0);
        const std::size_t last = daughter * half + half - 1;
        for (std::size_t a = 0; a < 3; ++a)
            EXPECT_NEAR(minImage(pos[3 * last + a] - mean[a], a < 2 ? 6.0 : 0.0), 0.0, 1e-5);
        for (int k = 0; k < kSpeciesCount; ++k) {
            const float before = 0.1f * static_cast<float>(k + 1) + 0.01f * c;
            EXPECT_FLOAT_EQ(species(s, k)[c], 0.5f * before);
            EXPECT_FLOAT_EQ(species(s, k)[daughter], 0.5f * before);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllBackends, EpidermisNetwork, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
