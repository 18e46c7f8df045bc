// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/run/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sim/cuda/cuda_device.hpp"
#include "sim/io/checkpoint.hpp"

namespace cf {

Runner::Runner(const ModelDescriptor& model, Backend backend, const ParamSet& parameters,
               std::uint32_t seed, int cudaDevice)
    : descriptor_(model),
      backend_(backend),
      cudaDevice_(backend == Backend::Cuda ? cudaDevice : -1),
      seed_(seed),
      active_(parameters),
      requested_(parameters) {
    if (!model.validate)
        throw Error("model '" + model.name +
                    "' declares no cross-parameter check (ModelDescriptor::validate)");
    if (&parameters.table() != &model.parameters())
        throw ParameterError("parameters given to the runner belong to another model than '" +
                             model.name + "'");
    // Construct and reset on the caller's thread so that errors (no device, bad
    // parameters) surface as exceptions from the constructor.
    useCudaDevice(cudaDevice_);  // throws for a device that does not exist
    model_ = model.create(backend);
    model_->reset(active_, seed_);
    publish(0.0);
    thread_ = std::thread([this] {
        try {
            useCudaDevice(cudaDevice_);  // checked above, so this fails only if CUDA does
        } catch (...) {
            std::lock_guard lock(mutex_);
            error_ = std::current_exception();  // reported like a stepping error
        }
        threadMain();
    });
}

Runner::~Runner() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::future<void> Runner::enqueue(Command command) {
    std::packaged_task<void()> task(std::move(command));
    std::future<void> done = task.get_future();
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(task));
    }
    wake_.notify_all();
    return done;
}

std::future<void> Runner::play() {
    return enqueue([this] {
        playing_ = true;
        targetStep_ = UINT64_MAX;
        running_ = true;
    });
}

std::future<void> Runner::pause() {
    return enqueue([this] {
        playing_ = false;
        if (viewsStep_ != model_->step()) publishViews(true);  // the state it paused at
    });
}

std::future<void> Runner::stepBy(std::uint64_t steps) {
    return enqueue([this, steps] {
        targetStep_ = model_->step() + steps;
        playing_ = steps > 0;
        running_ = playing_;
    });
}

std::future<void> Runner::runUntil(std::uint64_t step) {
    return enqueue([this, step] {
        targetStep_ = step;
        playing_ = model_->step() < step;
        running_ = playing_;
    });
}

std::future<void> Runner::reset() {
    return enqueue([this] { applyReset(); });
}

void Runner::applyReset() {
    ParamSet next = [&] {
        std::lock_guard lock(mutex_);
        return requested_;
    }();
    model_->reset(next, seed_);
    secondsPerStep_ = 0.0;  // another state: measured again
    {
        std::lock_guard lock(mutex_);
        active_ = next;
        for (ParamChange& c : history_)
            c.pendingReset = false;
        error_ = nullptr;
    }
    playing_ = false;
    targetStep_ = UINT64_MAX;
    publish(0.0);
}

std::future<void> Runner::setParameter(const std::string& key, const ParamValue& value) {
    const ParamSpec& spec = descriptor_.parameters().at(key);  // throws here for bad keys
    const ParamValue checked = validateValue(spec, value);     // and for bad values
    ParamSet candidate = parameters();  // and for values the model cannot take with the others
    candidate.set(spec.key(), checked);
    descriptor_.validate(candidate);
    return enqueue([this, &spec, checked, candidate = std::move(candidate)] {
        applyEdit(spec, checked, candidate);
    });
}

void Runner::applyEdit(const ParamSpec& spec, const ParamValue& value, const ParamSet& checked) {
    // Candidates first, committed only when every check and the model have taken them.
    ParamSet requested = parameters();
    ParamSet active = activeParameters();
    const ParamValue old = requested.set(spec.key(), value);
    if (!(requested == checked)) descriptor_.validate(requested);  // another edit came first
    const bool live = spec.mutability == Mutability::Live;
    if (live) {
        active.set(spec.key(), value);
        // With a structural edit waiting for reset, the model runs a set the caller never saw.
        if (!(active == requested)) descriptor_.validate(active);
        model_->setLiveParameters(active);  // all or nothing too (Model's contract)
    }
    ParamChange change;
    change.step = model_->step();
    change.time = model_->time();
    change.key = spec.key();
    change.oldValue = old;
    change.newValue = value;
    change.pendingReset = !live;
    std::lock_guard lock(mutex_);
    requested_ = std::move(requested);
    if (live) active_ = std::move(active);
    history_.push_back(std::move(change));
}

std::future<void> Runner::withModel(std::function<void(Model&)> inspect) {
    return enqueue([this, inspect = std::move(inspect)] { inspect(*model_); });
}

std::future<void> Runner::save(const std::filesystem::path& checkpoint) {
    return enqueue([this, checkpoint] {
        // A model edit still compiling (cardiac on CUDA) is applied first, so the checkpoint's
        // parameters and state belong to the same model.
        model_->applyPendingEdits();
        io::Checkpoint cp{descriptor_.name,   seed_,     backend_,
                          activeParameters(), history(), model_->snapshot()};
        io::writeCheckpoint(checkpoint, cp);
    });
}

std::future<void> Runner::load(const std::filesystem::path& checkpoint) {
    return enqueue([this, checkpoint] {
        ModelRegistry only;
        only.add(descriptor_);
        io::Checkpoint cp = io::readCheckpoint(checkpoint, only);
        model_->reset(cp.parameters, cp.seed);
        secondsPerStep_ = 0.0;
        try {
            model_->restore(cp.state);
        } catch (const IoError& e) {
            // A state the model cannot take (a field missing or mis-sized) came from the
            // file: the checkpoint is refused, as one that does not read is.
            throw InputFileError(checkpoint.string() + ": " + e.what());
        }
        {
            std::lock_guard lock(mutex_);
            seed_ = cp.seed;
            active_ = cp.parameters;
            requested_ = cp.parameters;
            history_ = std::move(cp.history);
            error_ = nullptr;
        }
        playing_ = false;
        targetStep_ = UINT64_MAX;
        publish(0.0);
    });
}

std::future<void> Runner::addObserver(std::shared_ptr<StepObserver> observer, bool observeNow) {
    return enqueue([this, observeNow, observer = std::move(observer)] {
        if (observeNow) observer->observe(*model_);
        observers_.push_back(observer);
    });
}

void Runner::setStepsPerBatch(std::uint64_t steps) {
    stepsPerBatch_ = std::max<std::uint64_t>(1, steps);
}

void Runner::setBatchTimeBudget(std::chrono::microseconds budget) {
    batchBudgetSeconds_ = std::max(0.0, std::chrono::duration<double>(budget).count());
}

void Runner::setMaxStepsPerSecond(double stepsPerSecond) {
    maxStepsPerSecond_ = std::isfinite(stepsPerSecond) ? std::max(0.0, stepsPerSecond) : 0.0;
    wake_.notify_all();  // a waiting batch re-reads the limit
}

void Runner::setPublishState(bool publish) {
    publishState_ = publish;
}

std::shared_ptr<const Frame> Runner::latestFrame() const {
    std::lock_guard lock(mutex_);
    return frame_;
}

std::shared_ptr<const Frame> Runner::waitForFrame(std::uint64_t afterIndex,
                                                  std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    frameReady_.wait_for(lock, timeout,
                         [&] { return (frame_ && frame_->index > afterIndex) || !running_; });
    return frame_;
}

bool Runner::waitUntilIdle(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    return frameReady_.wait_for(lock, timeout, [&] { return !running_; });
}

std::exception_ptr Runner::error() const {
    std::lock_guard lock(mutex_);
    return error_;
}

std::vector<std::string> Runner::takeNotes() {
    std::lock_guard lock(mutex_);
    return std::exchange(notes_, {});
}

std::vector<ParamChange> Runner::history() const {
    std::lock_guard lock(mutex_);
    return history_;
}

ParamSet Runner::parameters() const {
    std::lock_guard lock(mutex_);
    return requested_;
}

ParamSet Runner::activeParameters() const {
    std::lock_guard lock(mutex_);
    return active_;
}

void Runner::setViewExchange(std::shared_ptr<ViewExchange> exchange,
                             std::chrono::milliseconds minInterval) {
    {
        std::lock_guard lock(mutex_);
        viewExchange_ = std::move(exchange);
        viewInterval_ = minInterval;
    }
    // The first views arrive without waiting for a step.
    enqueue([this] { publish(0.0); });
}

void Runner::publishViews(bool force) {
    std::shared_ptr<ViewExchange> exchange;
    std::chrono::milliseconds interval;
    {
        std::lock_guard lock(mutex_);
        exchange = viewExchange_;
        interval = viewInterval_;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!exchange || (!force && now - lastViews_ < interval)) return;
    exchange->publish(*model_);
    lastViews_ = now;
    viewsStep_ = model_->step();
}

void Runner::publish(double stepsPerSecond) {
    // While playing, at most one view publication per interval; a stopped run shows its
    // last state.
    publishViews(!playing_);
    auto frame = std::make_shared<Frame>();
    frame->step = model_->step();
    frame->time = model_->time();
    frame->metrics = model_->metrics();
    if (publishState_) frame->state = std::make_shared<const Snapshot>(model_->snapshot());
    frame->stepsPerSecond = stepsPerSecond;
    frame->running = playing_;
    std::vector<std::string> notes = model_->takeNotes();
    {
        std::lock_guard lock(mutex_);
        frame->index = ++frameIndex_;
        for (std::string& n : notes)
            notes_.push_back("step " + std::to_string(frame->step) + ": " + std::move(n));
        frame_ = std::move(frame);
    }
    frameReady_.notify_all();
}

void Runner::runBatch() {
    const std::uint64_t now = model_->step();
    const double pace = maxStepsPerSecond_.load();
    std::uint64_t batch = stepsPerBatch_.load();
    if (pace > 0)  // about 30 batches a second under a limit
        batch = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(pace / 30.0), 1, batch);
    if (const double budget = batchBudgetSeconds_.load(); budget > 0) {
        // As many steps as fit in the budget at the last batch's cost; one to measure.
        const double fit = secondsPerStep_ > 0 ? std::floor(budget / secondsPerStep_) : 1.0;
        if (fit < static_cast<double>(batch))
            batch = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(fit));
    }
    std::uint64_t until = std::min(targetStep_, now + batch);
    for (const auto& o : observers_)
        until = std::min(until, o->nextStep(now));
    const std::uint64_t n = until > now ? until - now : 0;

    const auto t0 = std::chrono::steady_clock::now();
    if (n > 0) {
        model_->advance(n);
        // Never 0, which means "not measured" (a clock that did not tick).
        secondsPerStep_ = std::max(
            1e-12, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                       static_cast<double>(n));
        model_->checkFinite();
    }
    for (const auto& o : observers_)
        if (o->nextStep(now) == model_->step()) o->observe(*model_);
    if (model_->step() >= targetStep_) playing_ = false;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double rate = seconds > 0 ? static_cast<double>(n) / seconds : 0.0;
    publish(pace > 0 && rate > pace ? pace : rate);
    if (pace > 0 && n > 0) {
        // Wait out the rest of the batch's share of time; commands (pause, edits) and a
        // changed limit end the wait early.
        const auto due = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(static_cast<double>(n) / pace));
        std::unique_lock lock(mutex_);
        wake_.wait_until(lock, due, [&] {
            return quit_ || !queue_.empty() || maxStepsPerSecond_.load() != pace;
        });
    }
}

void Runner::threadMain() {
    for (;;) {
        std::deque<std::packaged_task<void()>> commands;
        {
            std::unique_lock lock(mutex_);
            running_ = playing_;
            frameReady_.notify_all();  // wake waiters when the runner goes idle
            wake_.wait(lock, [&] { return quit_ || !queue_.empty() || playing_; });
            if (quit_) return;
            commands.swap(queue_);
        }
        // Commands run between batches: edits take effect at a step boundary.
        for (auto& command : commands)
            command();
        if (!playing_) continue;
        running_ = true;
        try {
            runBatch();
        } catch (...) {
            playing_ = false;
            {
                std::lock_guard lock(mutex_);
                if (!error_) error_ = std::current_exception();
            }
            try {
                publish(0.0);  // let waiters see that the run stopped
            } catch (...) {
                // The model may be unusable after the failure; the error above says why.
            }
        }
    }
}

}  // namespace cf
