// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <thread>

#include "sim/run/runner.hpp"
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

// A model whose steps cost wall time (a sleep per step) and that records every batch it is
// asked to run, so the runner's batch sizes can be read back exactly.
class SleepyModel final : public Model {
public:
    explicit SleepyModel(std::chrono::microseconds perStep) : perStep_(perStep) {}
    Backend backend() const override { return Backend::Cpu; }
    void reset(const ParamSet&, std::uint32_t) override { step_ = 0; }
    void setLiveParameters(const ParamSet&) override {}
    void advance(std::uint64_t steps) override {
        std::this_thread::sleep_for(perStep_ * static_cast<long>(steps));
        step_ += steps;
        std::lock_guard lock(mutex_);
        batches_.push_back(steps);
    }
    std::uint64_t step() const override { return step_; }
    double time() const override { return static_cast<double>(step_); }
    std::vector<Metric> metrics() override {
        return {{"steps", "1", static_cast<double>(step_), "steps taken"}};
    }
    Snapshot snapshot() override { return {}; }
    void restore(const Snapshot&) override {}
    void checkFinite() override {}
    std::vector<std::uint64_t> batches() const {
        std::lock_guard lock(mutex_);
        return batches_;
    }

private:
    std::chrono::microseconds perStep_;
    std::uint64_t step_ = 0;
    mutable std::mutex mutex_;
    std::vector<std::uint64_t> batches_;
};

ModelDescriptor sleepyDescriptor(std::chrono::microseconds perStep, SleepyModel** made) {
    ModelDescriptor d = test::counterDescriptor();
    d.name = "sleepy";
    d.create = [perStep, made](Backend) -> std::unique_ptr<Model> {
        auto m = std::make_unique<SleepyModel>(perStep);
        *made = m.get();
        return m;
    };
    return d;
}

// A costly model under a 25 ms budget: every batch asks for at most 25 ms / 4 ms = 6 steps
// (a sleep is never shorter than asked, so the measured cost per step is >= 4 ms whatever
// the machine's load), where without the budget it would run batches of 1000. Every step
// is run exactly once: the batches add up to the target and the step counter lands on it.
TEST_F(RunnerTest, BatchTimeBudgetBoundsCostlyBatchesAndLosesNoStep) {
    SleepyModel* model = nullptr;
    const ModelDescriptor sleepy = sleepyDescriptor(4ms, &model);
    Runner r(sleepy, Backend::Cpu, ParamSet(sleepy.parameters()), 0);
    r.setStepsPerBatch(1000);
    r.setBatchTimeBudget(25ms);
    r.runUntil(120).get();
    ASSERT_TRUE(r.waitUntilIdle(30s));
    EXPECT_EQ(r.latestFrame()->step, 120u);
    const std::vector<std::uint64_t> batches = model->batches();
    ASSERT_FALSE(batches.empty());
    EXPECT_EQ(batches.front(), 1u) << "the first batch measures one step";
    std::uint64_t total = 0;
    for (std::uint64_t n : batches) {
        EXPECT_GE(n, 1u);
        EXPECT_LE(n, 6u) << "a batch of " << n << " steps of >= 4 ms exceeds the 25 ms budget";
        total += n;
    }
    EXPECT_EQ(total, 120u) << "steps lost or repeated";
    // Unless the machine stalls for a whole 25 ms per step, the batches are not all single
    // steps: the budget is used, not just respected.
    EXPECT_GT(*std::max_element(batches.begin(), batches.end()), 1u);
}

// A cheap model keeps its full batches under the budget (no slower than without it): after
// the one measuring step, every batch is the 10 steps per batch asked for.
TEST_F(RunnerTest, BatchTimeBudgetKeepsFullBatchesForACheapModel) {
    SleepyModel* model = nullptr;
    const ModelDescriptor cheap = sleepyDescriptor(0us, &model);
    Runner r(cheap, Backend::Cpu, ParamSet(cheap.parameters()), 0);
    r.setStepsPerBatch(10);
    r.setBatchTimeBudget(25ms);
    r.runUntil(201).get();
    ASSERT_TRUE(r.waitUntilIdle(30s));
    EXPECT_EQ(r.latestFrame()->step, 201u);
    const std::vector<std::uint64_t> batches = model->batches();
    ASSERT_EQ(batches.size(), 21u);
    EXPECT_EQ(batches.front(), 1u);
    for (std::size_t i = 1; i < batches.size(); ++i)
        EXPECT_EQ(batches[i], 10u) << "batch " << i;
    // A reset measures again from one step.
    r.reset().get();
    r.runUntil(5).get();
    ASSERT_TRUE(r.waitUntilIdle(30s));
    const std::vector<std::uint64_t> after = model->batches();
    ASSERT_GE(after.size(), 23u);
    EXPECT_EQ(after[21], 1u);
    EXPECT_EQ(after[22], 4u);
}

TEST_F(RunnerTest, LoadOfMissingFileReportsThroughFuture) {
    Runner r(desc, Backend::Cpu, params, 0);
    EXPECT_THROW(r.load("/nonexistent/x.cfchk").get(), InputFileError);
}

}  // namespace
}  // namespace cf
