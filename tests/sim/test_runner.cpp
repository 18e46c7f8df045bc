// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "sim/core/runner.hpp"
#include "tests/support/counter_model.hpp"

namespace cf {
namespace {

using namespace std::chrono_literals;

class RunnerTest : public testing::Test {
protected:
    ModelDescriptor desc = test::counterDescriptor();
    ParamSet params{desc.parameters()};

    // Waits until the runner has stopped stepping (it pauses itself at a target step).
    static void waitIdle(Runner& r) { ASSERT_TRUE(r.waitUntilIdle(10s)); }
    static double value(Runner& r) { return r.latestFrame()->metrics.at(0).value; }
};

TEST_F(RunnerTest, StepByRunsExactlyAndPublishesAFrame) {
    Runner r(desc, Backend::Cpu, params, 100);
    EXPECT_EQ(r.latestFrame()->step, 0u);
    r.setStepsPerBatch(3);
    r.stepBy(10).get();
    waitIdle(r);
    EXPECT_EQ(r.latestFrame()->step, 10u);
    EXPECT_EQ(value(r), 110.0);  // seed + 10 x rate
}

TEST_F(RunnerTest, SpeedLimitHoldsThePaceAndPauseStillAnswers) {
    Runner r(desc, Backend::Cpu, params, 0);
    r.setStepsPerBatch(1000);
    r.setMaxStepsPerSecond(100.0);  // batches of 3 steps, 30 ms apart
    const auto start = std::chrono::steady_clock::now();
    r.play().get();
    std::this_thread::sleep_for(300ms);
    r.pause().get();  // answered within a batch, not after the wait for the whole run
    waitIdle(r);
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::uint64_t steps = r.latestFrame()->step;
    // The counter model steps in microseconds, so without the limit it would be at tens of
    // thousands. Upper bound only (a loaded machine may run slower, never faster): 100 steps/s
    // over the time waited, plus the batch in flight.
    EXPECT_GE(steps, 1u);
    EXPECT_LE(static_cast<double>(steps), 100.0 * waited + 3.0) << "waited " << waited << " s";
    // Lifting the limit lets it run freely again.
    r.setMaxStepsPerSecond(0.0);
    r.stepBy(5000).get();
    ASSERT_TRUE(r.waitUntilIdle(10s));
    EXPECT_EQ(r.latestFrame()->step, steps + 5000);
}

TEST_F(RunnerTest, LiveEditAppliesAtStepBoundaryAndIsRecorded) {
    Runner r(desc, Backend::Cpu, params, 0);
    r.stepBy(10).get();
    waitIdle(r);
    r.setParameter("dynamics.rate", 2.0).get();
    r.stepBy(5).get();
    waitIdle(r);
    EXPECT_EQ(value(r), 10.0 + 5 * 2.0);
    const auto h = r.history();
    ASSERT_EQ(h.size(), 1u);
    EXPECT_EQ(h[0].step, 10u);
    EXPECT_EQ(h[0].key, "dynamics.rate");
    EXPECT_EQ(std::get<double>(h[0].oldValue), 1.0);
    EXPECT_EQ(std::get<double>(h[0].newValue), 2.0);
    EXPECT_FALSE(h[0].pendingReset);
}

TEST_F(RunnerTest, StructuralEditWaitsForReset) {
    Runner r(desc, Backend::Cpu, params, 0);
    r.setParameter("system.size", std::int64_t{7}).get();
    EXPECT_EQ(r.activeParameters().integer("system.size"), 4);
    EXPECT_EQ(r.parameters().integer("system.size"), 7);
    ASSERT_TRUE(r.history().at(0).pendingReset);
    r.reset().get();
    EXPECT_EQ(r.activeParameters().integer("system.size"), 7);
    EXPECT_FALSE(r.history().at(0).pendingReset);
}

TEST_F(RunnerTest, InvalidEditThrowsInCallerAndChangesNothing) {
    Runner r(desc, Backend::Cpu, params, 0);
    EXPECT_THROW(r.setParameter("dynamics.rate", 1e6), ParameterError);
    EXPECT_THROW(r.setParameter("dynamics.nope", 1.0), ParameterError);
    EXPECT_TRUE(r.history().empty());
}

// A refusal from the simulation thread (the backend's own limit here, a device or a compiler
// in the real models) arrives through the future, and the edit is all or nothing: the
// requested and active parameters, the history and the state are as before, the next valid
// edit takes, and reset() works.
TEST_F(RunnerTest, EditRefusedByTheBackendChangesNothingAndTheRunGoesOn) {
    Runner r(desc, Backend::Cpu, params, 0);
    r.stepBy(10).get();
    waitIdle(r);
    r.setParameter("system.size", std::int64_t{7}).get();  // pending until reset
    const ParamSet requested = r.parameters();
    const ParamSet active = r.activeParameters();
    std::future<void> refused = r.setParameter("dynamics.rate", 60.0);  // passes validate
    EXPECT_THROW(refused.get(), ParameterError);
    EXPECT_TRUE(r.parameters() == requested);
    EXPECT_TRUE(r.activeParameters() == active);
    EXPECT_EQ(r.history().size(), 1u);  // only the structural edit
    r.stepBy(5).get();
    waitIdle(r);
    EXPECT_EQ(value(r), 15.0);  // still the old rate
    EXPECT_FALSE(r.error());

    r.setParameter("dynamics.rate", 3.0).get();  // the next valid edit takes
    r.stepBy(2).get();
    waitIdle(r);
    EXPECT_EQ(value(r), 21.0);
    ASSERT_EQ(r.history().size(), 2u);
    EXPECT_EQ(std::get<double>(r.history()[1].newValue), 3.0);

    r.reset().get();  // and reset applies the pending structural edit
    EXPECT_EQ(r.activeParameters().integer("system.size"), 7);
    EXPECT_EQ(r.activeParameters().real("dynamics.rate"), 3.0);
    EXPECT_EQ(r.latestFrame()->step, 0u);
}

// The model's cross-parameter check is required: a registry refuses a model without one.
TEST(ModelRegistryTest, AModelWithoutACrossParameterCheckIsRefused) {
    ModelDescriptor d = test::counterDescriptor();
    d.validate = nullptr;
    ModelRegistry registry;
    try {
        registry.add(d);
        FAIL() << "registered without validate";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cross-parameter check"), std::string::npos)
            << e.what();
    }
}

TEST_F(RunnerTest, NonFiniteValueStopsTheRunWithStepNamed) {
    params.set("debug.poison", true);
    Runner r(desc, Backend::Cpu, params, 0);
    r.setStepsPerBatch(1);
    r.runUntil(100).get();
    waitIdle(r);
    ASSERT_TRUE(r.error());
    try {
        std::rethrow_exception(r.error());
    } catch (const SimulationError& e) {
        EXPECT_NE(std::string(e.what()).find("step 5"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("entity 0"), std::string::npos) << e.what();
    }
    EXPECT_EQ(r.latestFrame()->step, 5u);
}

class RecordingObserver final : public StepObserver {
public:
    std::uint64_t nextStep(std::uint64_t current) const override { return (current / 3 + 1) * 3; }
    void observe(Model& m) override { steps.push_back(m.step()); }
    std::vector<std::uint64_t> steps;
};

TEST_F(RunnerTest, ObserversSeeEveryRequestedStep) {
    Runner r(desc, Backend::Cpu, params, 0);
    auto obs = std::make_shared<RecordingObserver>();
    r.addObserver(obs).get();
    r.setStepsPerBatch(1000);  // batches must still stop at 3, 6, 9
    r.runUntil(10).get();
    waitIdle(r);
    EXPECT_EQ(obs->steps, (std::vector<std::uint64_t>{3, 6, 9}));
}

TEST_F(RunnerTest, SaveAndLoadContinueBitIdentically) {
    const auto file = std::filesystem::temp_directory_path() / "cf_runner_test.cfchk";
    params.set("dynamics.rate", 0.1);  // not exactly representable: sums expose any drift
    Runner r(desc, Backend::Cpu, params, 3);
    r.stepBy(10).get();
    waitIdle(r);
    r.save(file).get();
    r.setParameter("dynamics.rate", 0.3).get();
    r.stepBy(10).get();
    waitIdle(r);
    const double straight = value(r);

    Runner other(desc, Backend::Cpu, ParamSet(desc.parameters()), 99);
    other.load(file).get();
    EXPECT_EQ(other.latestFrame()->step, 10u);
    EXPECT_EQ(other.seed(), 3u);
    other.setParameter("dynamics.rate", 0.3).get();
    other.stepBy(10).get();
    waitIdle(other);
    EXPECT_EQ(value(other), straight);  // bit-identical, not approximately
    std::filesystem::remove(file);
}

TEST_F(RunnerTest, LoadOfMissingFileReportsThroughFuture) {
    Runner r(desc, Backend::Cpu, params, 0);
    EXPECT_THROW(r.load("/nonexistent/x.cfchk").get(), InputFileError);
}

}  // namespace
}  // namespace cf
