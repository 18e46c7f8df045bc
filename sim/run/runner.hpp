// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// sim::Runner: one model on its own thread (the "GPU simulation thread"). Commands arrive
// through a queue and are applied between step batches; after each batch the runner
// publishes a Frame. No Qt, no GL: the GUI and the CLI wrap it.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/params.hpp"
#include "sim/run/view_exchange.hpp"

namespace cf {

struct Frame {
    std::uint64_t index = 0;  // increases by one per published frame
    std::uint64_t step = 0;
    double time = 0.0;
    std::vector<Metric> metrics;
    std::shared_ptr<const Snapshot> state;  // only when publishState(true)
    double stepsPerSecond = 0.0;            // over the last batch
    bool running = false;                   // playing or stepping when published
};

// Something that wants to see the model at particular steps (output writers). Called on
// the simulation thread; the runner shortens batches so that every requested step is hit.
class StepObserver {
public:
    virtual ~StepObserver() = default;
    // The next step (> current) at which observe() should run; UINT64_MAX for none.
    virtual std::uint64_t nextStep(std::uint64_t current) const = 0;
    virtual void observe(Model& model) = 0;
};

class Runner {
public:
    // Creates the model on `backend`, resets it and starts the thread (paused).
    // `cudaDevice` (CUDA only; -1: the current one) is made current on the calling thread,
    // which creates the model and later destroys it, and on the simulation thread.
    Runner(const ModelDescriptor& model, Backend backend, const ParamSet& parameters,
           std::uint32_t seed, int cudaDevice = -1);
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    // Commands. Each returns a future that is ready once the command has been applied on
    // the simulation thread (or carries its exception).
    std::future<void> play();
    std::future<void> pause();
    std::future<void> stepBy(std::uint64_t steps);   // runs exactly `steps` more, then pauses
    std::future<void> runUntil(std::uint64_t step);  // plays until the step counter reaches it
    std::future<void> reset();                       // applies pending structural edits too
    // All or nothing. Validates at once (throws an InputError here, in the caller's thread:
    // ParameterError, or a file's): the value against its declaration, then the set through
    // ModelDescriptor::validate. On the simulation thread the edit is checked again against
    // the parameters of that moment (another edit may have come first) and, when live,
    // handed to the model, which may refuse it too; only then is anything committed. A
    // refusal there travels through the future and leaves the requested and active
    // parameters, the history, the model and the device as they were. The value takes
    // effect at the next step boundary (live) or at the next reset (structural).
    std::future<void> setParameter(const std::string& key, const ParamValue& value);
    std::future<void> save(const std::filesystem::path& checkpoint);
    // Runs `inspect` on the simulation thread between batches, with the model (diagnostics
    // and tests: e.g. reading back Model::deviceParameterBlock()).
    std::future<void> withModel(std::function<void(Model&)> inspect);
    std::future<void> load(const std::filesystem::path& checkpoint);
    // `observeNow`: also show it the current state right away (the first row of a series).
    std::future<void> addObserver(std::shared_ptr<StepObserver> observer, bool observeNow = false);
    // The most steps in one batch (frames are published between batches).
    void setStepsPerBatch(std::uint64_t steps);
    // Keeps batches to about this much wall time of stepping (0: no bound, the default):
    // a batch runs as many steps as the last batch's time per step fits in the budget,
    // between 1 and the steps per batch; the first batch after construction, a reset or a load runs
    // one step to measure. The window sets about a frame's time, so commands (pause, edits)
    // are answered within a frame and views arrive at the frame rate however much a step
    // costs, while a cheap model still runs its full batches. A single step longer than the
    // budget is not cut: the batch is then that one step. Time spent in observers and in
    // publishing is not counted.
    void setBatchTimeBudget(std::chrono::microseconds budget);
    // Plays no faster than this many steps per second of wall time (0: as fast as it runs),
    // e.g. so that a class can follow a run that would otherwise be over in seconds. Batches
    // shrink to about 30 per second under a limit, so the motion stays smooth.
    void setMaxStepsPerSecond(double stepsPerSecond);
    // Publishes the model's views into `exchange` after each batch (at most once per
    // `minInterval` while playing; always after reset, load and single steps), for a
    // drawing thread. nullptr stops it.
    void setViewExchange(std::shared_ptr<ViewExchange> exchange,
                         std::chrono::milliseconds minInterval = std::chrono::milliseconds(15));
    void setPublishState(bool publish);

    // Queries (any thread).
    std::shared_ptr<const Frame> latestFrame() const;
    // Waits until a frame newer than `afterIndex` exists, the runner is idle, or timeout.
    std::shared_ptr<const Frame> waitForFrame(std::uint64_t afterIndex,
                                              std::chrono::milliseconds timeout) const;
    bool isRunning() const { return running_.load(); }
    // Waits until the runner is not stepping (paused or at its target step); false on
    // timeout.
    bool waitUntilIdle(std::chrono::milliseconds timeout) const;
    // The first error raised while stepping; the runner pauses when one occurs.
    std::exception_ptr error() const;
    std::vector<ParamChange> history() const;
    // Notes the model raised (capacity growth, ...) since the last call, oldest first.
    std::vector<std::string> takeNotes();
    ParamSet parameters() const;        // current values, pending structural edits included
    ParamSet activeParameters() const;  // what the model runs with now
    std::uint32_t seed() const { return seed_; }
    Backend backend() const { return backend_; }
    const ModelDescriptor& descriptor() const { return descriptor_; }

private:
    using Command = std::function<void()>;
    std::future<void> enqueue(Command command);
    void threadMain();
    void runBatch();
    void publish(double stepsPerSecond);
    void publishViews(bool force);
    void applyReset();
    // The simulation thread's half of setParameter; `checked` is the requested set the
    // caller's thread validated (skipped again when nothing changed since).
    void applyEdit(const ParamSpec& spec, const ParamValue& value, const ParamSet& checked);

    const ModelDescriptor& descriptor_;
    const Backend backend_;
    const int cudaDevice_;  // -1: the current one
    std::uint32_t seed_;
    std::unique_ptr<Model> model_;  // touched only on the simulation thread after start

    mutable std::mutex mutex_;
    mutable std::condition_variable wake_;        // commands or play state changed
    mutable std::condition_variable frameReady_;  // a frame was published
    std::deque<std::packaged_task<void()>> queue_;
    bool quit_ = false;
    std::shared_ptr<const Frame> frame_;
    std::exception_ptr error_;
    ParamSet active_;     // what the model runs with
    ParamSet requested_;  // active_ plus pending structural edits
    std::vector<ParamChange> history_;
    std::vector<std::string> notes_;

    // Simulation-thread state.
    bool playing_ = false;
    std::uint64_t targetStep_ = UINT64_MAX;  // stop when reached (stepBy / runUntil)
    std::vector<std::shared_ptr<StepObserver>> observers_;
    std::atomic<std::uint64_t> stepsPerBatch_{10};
    std::atomic<double> maxStepsPerSecond_{0.0};
    std::atomic<double> batchBudgetSeconds_{0.0};  // 0: no bound
    double secondsPerStep_ = 0.0;  // over the last batch; 0: not measured since a (re)start
    std::atomic<bool> publishState_{false};
    std::shared_ptr<ViewExchange> viewExchange_;  // guarded by mutex_
    std::chrono::milliseconds viewInterval_{15};
    std::chrono::steady_clock::time_point lastViews_{};
    std::uint64_t viewsStep_ = UINT64_MAX;  // step of the last view publication
    std::atomic<bool> running_{false};
    std::uint64_t frameIndex_ = 0;

    std::thread thread_;
};

}  // namespace cf
