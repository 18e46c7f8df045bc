// SPDX-License-Identifier: GPL-3.0-or-later
// `epidermis` runs on every backend: determinism, restart bit-identity across a division
// and a capacity growth, rejected input, non-finite state; then CPU against CUDA.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "tests/sim/models/epidermis_test_support.hpp"

namespace cf {
namespace {

using namespace test::epi;

class EpidermisRun : public EpidermisFixture {};

TEST_P(EpidermisRun, SameSeedSameRunDifferentSeedDifferentRun) {
    set({"init.cells=100", "init.species_noise=0.1"});
    auto run = [&](std::uint32_t seed) {
        auto m = make();
        m->reset(params, seed);
        m->advance(50);
        return m->snapshot();
    };
    const Snapshot a = run(1);
    expectIdentical(a, run(1));
    const Snapshot c = run(2);
    EXPECT_NE(a.at("position").bytes, c.at("position").bytes);
    EXPECT_NE(a.at("delta").bytes, c.at("delta").bytes);
}

// 38-element cells grow every 5 steps, so all 100 divide at step 10 and the cell slots
// (capacity.initial_cells = 100) double; a snapshot at step 20 restored into a fresh model
// must continue to exactly the bytes of the uninterrupted run at step 40.
TEST_P(EpidermisRun, RestartAfterDivisionIsBitIdentical) {
    set({"init.cells=100", "init.elements_per_cell=38", "init.species_noise=0.1",
         "capacity.initial_cells=100", "growth.interval=5", "growth.rule=absolute",
         "growth.threshold=1e6"});
    auto a = make();
    a->reset(params, 9);
    a->advance(20);
    const Snapshot mid = a->snapshot();
    ASSERT_EQ(counts(mid).size(), 200u) << "every cell divided before step 20";
    bool grew = false;
    for (const std::string& note : a->takeNotes())
        grew = grew || note.find("capacity") != std::string::npos;
    EXPECT_TRUE(grew) << "the capacity growth is reported as a note";
    a->advance(20);
    const Snapshot straight = a->snapshot();

    auto b = make();
    b->reset(params, 9);
    b->restore(mid);
    EXPECT_EQ(b->step(), 20u);
    b->advance(20);
    EXPECT_EQ(b->time(), a->time());
    expectIdentical(b->snapshot(), straight);
}

template <typename F>
void expectParameterError(F&& f, const std::string& name) {
    try {
        f();
        ADD_FAILURE() << "expected ParameterError naming " << name;
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
}

TEST_P(EpidermisRun, BadInputIsRejected) {
    expectParameterError([&] { params.set("time.dt", 0.0); }, "time.dt");
    expectParameterError([&] { params.set("time.dt", -1.0); }, "time.dt");
    expectParameterError([&] { params.set("capacity.elements_per_cell", std::int64_t{39}); },
                         "capacity.elements_per_cell");
    expectParameterError(
        [&] { params.set("mechanics.intra_u0", std::numeric_limits<double>::quiet_NaN()); },
        "mechanics.intra_u0");
    // A period below twice the cut-off would let the minimum image miss pairs.
    for (const char* method : {"naive", "grid"}) {
        ParamSet small(desc.parameters());
        small.set("mechanics.neighbor_method", std::string(method));
        small.set("domain.size_x", 1.0);
        auto m = make();
        expectParameterError([&] { m->reset(small, 1); }, "domain.size_x");
    }
}

TEST_P(EpidermisRun, NonFiniteStateNamesTheCell) {
    set({"init.cells=10"});
    auto m = make();
    m->reset(params, 1);
    Snapshot s = m->snapshot();
    std::vector<float> pos = positions(s);
    pos[3 * (7 * 20 + 3) + 1] = std::nanf("");  // cell 7, element 3, y
    replaceField(
        s, Field::of<float>("position", "1", FieldRole::Positions, 3, std::span<const float>(pos)));
    m->restore(s);
    try {
        m->checkFinite();
        FAIL() << "expected SimulationError";
    } catch (const SimulationError& e) {
        EXPECT_NE(std::string(e.what()).find("cell 7"), std::string::npos) << e.what();
    }
    auto clean = make();
    clean->reset(params, 1);
    EXPECT_NO_THROW(clean->checkFinite());
}

INSTANTIATE_TEST_SUITE_P(AllBackends, EpidermisRun, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

// ---- CPU against CUDA -----------------------------------------------------------------

ParamSet movementAndNetwork() {
    ParamSet params(epidermis::parameterTable());
    params.setFromAssignment("init.cells=100");
    params.setFromAssignment("domain.size_x=6");
    params.setFromAssignment("domain.size_y=6");
    params.setFromAssignment("init.species_noise=0.1");
    params.setFromAssignment("growth.enabled=false");
    return params;
}

// Same initial state; the CPU sums forces and integrates the network in double, the device
// in float. The dynamics is dissipative (overdamped, decaying species), so the per-step
// rounding differences (~1e-7) do not grow exponentially: after 1000 steps positions
// agree to 1e-3 (minimum image) and species to 1e-3 relative + 1e-5.
TEST(EpidermisCuda, MovementAndNetworkMatchCpu) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = epidermis::descriptor();
    const ParamSet params = movementAndNetwork();
    auto cpu = desc.create(Backend::Cpu);
    auto gpu = desc.create(Backend::Cuda);
    cpu->reset(params, 12);
    gpu->reset(params, 12);
    expectIdentical(cpu->snapshot(), gpu->snapshot());
    cpu->advance(1000);
    gpu->advance(1000);
    const Snapshot a = cpu->snapshot(), b = gpu->snapshot();
    ASSERT_EQ(counts(a), counts(b));
    EXPECT_LT(maxPositionDifference(positions(a), positions(b), 6.0, 6.0), 1e-3);
    for (int k = 0; k < kSpeciesCount; ++k) {
        const std::vector<float> x = species(a, k), y = species(b, k);
        for (std::size_t c = 0; c < x.size(); ++c)
            ASSERT_NEAR(x[c], y[c], 1e-3 * std::abs(x[c]) + 1e-5)
                << epidermis::speciesName(k) << " cell " << c;
    }
}

// With growth on (a lateral-inhibition event every 50 steps, cells starting at 32 elements
// so that those growing at 8 of the 12 events divide) the decisions D < <D> depend on
// species that agree to ~1e-6 (above), far from any tie: the same cells grow and divide,
// so cell and element counts are identical after 600 steps.
TEST(EpidermisCuda, GrowthMatchesCpuCounts) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = epidermis::descriptor();
    ParamSet params = movementAndNetwork();
    params.setFromAssignment("growth.enabled=true");
    params.setFromAssignment("growth.interval=50");
    params.setFromAssignment("init.elements_per_cell=32");
    auto cpu = desc.create(Backend::Cpu);
    auto gpu = desc.create(Backend::Cuda);
    cpu->reset(params, 13);
    gpu->reset(params, 13);
    cpu->advance(600);
    gpu->advance(600);
    EXPECT_EQ(metric(*cpu, "cells"), metric(*gpu, "cells"));
    EXPECT_EQ(metric(*cpu, "elements"), metric(*gpu, "elements"));
    EXPECT_EQ(counts(cpu->snapshot()), counts(gpu->snapshot()));
    EXPECT_GT(metric(*cpu, "elements"), 100.0 * 32.0) << "some cells grew";
}

}  // namespace
}  // namespace cf
