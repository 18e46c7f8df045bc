// SPDX-License-Identifier: GPL-3.0-or-later
// Determinism, per model family and backend, on a small version of a bundled scenario:
//  - the same seed gives the same bits, run after run (on CUDA this also covers the order
//    in which blocks and atomics happen to run);
//  - on the CPU, the same bits for any number of threads and any split of the work
//    (parallelFor's promise: one writer per index);
//  - a run stopped at a checkpoint file and continued in a fresh model ends with the same
//    bits as the run that never stopped.
// Tolerance: none. Every field of the state is compared byte for byte, with step and time.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/scenario.hpp"
#include "sim/io/checkpoint.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

const std::filesystem::path kScenarios = CELLFORGE_ASSETS_DIR "/scenarios";

struct Case {
    std::string name;      // the test's name
    std::string scenario;  // a bundled scenario, made small by `overrides`
    std::vector<std::string> overrides;
    std::uint64_t steps = 0;
    std::uint64_t checkpointAt = 0;
};

// Small enough for a quick CPU run, large enough that every stage of the step runs (growth
// and divisions in spheres, reactions in the lattice, a wave in the cardiac tissue).
std::vector<Case> cases() {
    return {
        {"brownian", "default", {"system.count=3000", "system.box=12"}, 30, 11},
        {"spheres", "welcome", {"init.count=60", "init.radius=60"}, 60, 23},
        {"epidermis", "epidermis-network", {"init.cells=20"}, 30, 13},
        {"lattice",
         "lattice-conversion-cell",
         {"lattice.nx=16", "lattice.ny=16", "lattice.nz=16"},
         30,
         12},
        {"gliding", "gliding-single-ring", {"grid.n=32", "grid.ninner=8"}, 12, 5},
        {"cardiac", "cardiac-aliev-panfilov", {"tissue.nx=24", "tissue.ny=24"}, 200, 77},
    };
}

class Determinism : public testing::TestWithParam<std::tuple<Case, Backend>> {
protected:
    void SetUp() override {
        CF_REQUIRE_BACKEND(backend());
        loaded_.emplace(loadScenario(kScenarios / (c().scenario + ".toml"), registry_));
        for (const std::string& a : c().overrides)
            scenario_().parameters.setFromAssignment(a);
        if (!scenario_().model->offers(backend()))
            GTEST_SKIP() << c().name << " has no " << toString(backend()) << " backend";
    }
    const Case& c() const { return std::get<0>(GetParam()); }
    Backend backend() const { return std::get<1>(GetParam()); }

    std::unique_ptr<Model> fresh() {
        auto m = scenario_().model->create(backend());
        m->reset(scenario_().parameters, scenario_().seed);
        return m;
    }
    Snapshot run(std::uint64_t steps) {
        auto m = fresh();
        m->advance(steps);
        return m->snapshot();
    }

    ModelRegistry registry_ = builtinModels();
    std::optional<Scenario> loaded_;
    Scenario& scenario_() { return *loaded_; }
};

// Byte-for-byte, naming the first field and element that differ.
void expectSameBits(const Snapshot& a, const Snapshot& b, const std::string& what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(a.step, b.step);
    EXPECT_EQ(a.time, b.time);
    ASSERT_EQ(a.fields.size(), b.fields.size());
    for (std::size_t i = 0; i < a.fields.size(); ++i) {
        const Field& fa = a.fields[i];
        const Field& fb = b.fields[i];
        ASSERT_EQ(fa.name, fb.name);
        ASSERT_EQ(fa.bytes.size(), fb.bytes.size()) << fa.name;
        if (fa.bytes != fb.bytes) {
            std::size_t k = 0;
            while (fa.bytes[k] == fb.bytes[k])
                ++k;
            ADD_FAILURE() << "field '" << fa.name << "' differs first at byte " << k << " (element "
                          << k / sizeOf(fa.type) << " of " << fa.bytes.size() / sizeOf(fa.type)
                          << ")";
        }
    }
}

TEST_P(Determinism, SameSeedSameBitsRunAfterRun) {
    const Snapshot first = run(c().steps);
    ASSERT_EQ(first.step, c().steps);
    // The state moved (a model that did nothing would pass the rest trivially).
    const Snapshot start = run(0);
    bool moved = false;
    for (std::size_t i = 0; i < first.fields.size() && i < start.fields.size(); ++i)
        moved = moved || first.fields[i].bytes != start.fields[i].bytes;
    EXPECT_TRUE(moved) << "no field changed in " << c().steps << " steps";
    expectSameBits(first, run(c().steps), "second run");
    expectSameBits(first, run(c().steps), "third run");
}

TEST_P(Determinism, ACheckpointFileContinuesBitForBit) {
    const Snapshot straight = run(c().steps);
    const std::filesystem::path file =
        std::filesystem::path(testing::TempDir()) /
        ("determinism-" + c().name + "-" + std::string(toString(backend())) + ".cfchk");
    {
        auto m = fresh();
        m->advance(c().checkpointAt);
        io::writeCheckpoint(file, io::Checkpoint{scenario_().model->name,
                                                 scenario_().seed,
                                                 backend(),
                                                 scenario_().parameters,
                                                 {},
                                                 m->snapshot()});
    }
    const io::Checkpoint back = io::readCheckpoint(file, registry_);
    auto resumed = scenario_().model->create(backend());
    resumed->reset(back.parameters, back.seed);
    resumed->restore(back.state);
    resumed->advance(c().steps - c().checkpointAt);
    expectSameBits(straight, resumed->snapshot(),
                   "continued from step " + std::to_string(c().checkpointAt));
    std::filesystem::remove(file);
}

// CPU only: 1 thread against several, with the work cut into small pieces so that even
// this small problem is shared among them (and more threads than the machine has cores).
class ThreadCountDeterminism : public Determinism {};

TEST_P(ThreadCountDeterminism, AnyThreadCountSameBits) {
    Snapshot one;
    {
        ScopedParallelism p(1, 1u << 30);
        one = run(c().steps);
    }
    for (const auto& [threads, grain] :
         {std::pair<std::size_t, std::size_t>{2, 64}, {3, 7}, {8, 1}}) {
        ScopedParallelism p(threads, grain);
        expectSameBits(one, run(c().steps),
                       std::to_string(threads) + " threads, pieces of " + std::to_string(grain));
    }
}

std::string caseName(const testing::TestParamInfo<std::tuple<Case, Backend>>& info) {
    return std::get<0>(info.param).name + "_" + std::string(toString(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(Models, Determinism,
                         testing::Combine(testing::ValuesIn(cases()),
                                          testing::ValuesIn(test::builtBackends())),
                         caseName);
INSTANTIATE_TEST_SUITE_P(Models, ThreadCountDeterminism,
                         testing::Combine(testing::ValuesIn(cases()),
                                          testing::Values(Backend::Cpu)),
                         caseName);

}  // namespace
}  // namespace cf
