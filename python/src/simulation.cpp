// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/src/simulation.hpp"

#include <algorithm>
#include <mutex>

#include "sim/core/errors.hpp"
#include "sim/io/checkpoint.hpp"

namespace cf::py {

const ModelRegistry& registry() {
    static const ModelRegistry models = builtinModels();
    return models;
}

class SeriesRecorder : public StepObserver {
public:
    explicit SeriesRecorder(std::uint64_t every) : every_(every) {}

    std::uint64_t nextStep(std::uint64_t current) const override {
        return (current / every_ + 1) * every_;
    }

    void observe(Model& model) override {
        const std::vector<Metric> metrics = model.metrics();
        std::lock_guard lock(mutex_);
        if (columns_.steps.empty() && columns_.names.empty()) {
            for (const Metric& m : metrics) {
                columns_.names.push_back(m.name);
                columns_.units.push_back(m.unit);
            }
            columns_.values.resize(metrics.size());
        }
        // A step seen twice (observed at the start, then reached again) keeps one row.
        if (!columns_.steps.empty() && columns_.steps.back() == model.step()) return;
        columns_.steps.push_back(model.step());
        columns_.times.push_back(model.time());
        for (std::size_t i = 0; i < columns_.names.size(); ++i) {
            // Metrics are matched by name: a model that adds one later leaves it out here.
            double value = 0.0;
            for (const Metric& m : metrics)
                if (m.name == columns_.names[i]) value = m.value;
            columns_.values[i].push_back(value);
        }
    }

    SeriesColumns columns() const {
        std::lock_guard lock(mutex_);
        return columns_;
    }

private:
    const std::uint64_t every_;
    mutable std::mutex mutex_;
    SeriesColumns columns_;
};

Simulation::Simulation(const ModelDescriptor& model, Backend backend, const ParamSet& parameters,
                       std::uint32_t seed, std::uint64_t seriesEvery)
    : runner_(std::make_unique<Runner>(model, backend, parameters, seed)),
      seriesEvery_(seriesEvery) {
    // Large batches for speed, cut to about 50 ms of stepping so that a pause (Ctrl-C) is
    // answered promptly; batches never change the result (each model's step is the same
    // whatever the batch: tests/python checks a checkpoint round trip bit for bit).
    runner_->setStepsPerBatch(1000);
    runner_->setBatchTimeBudget(std::chrono::milliseconds(50));
}

Simulation::Simulation(const Scenario& scenario, const std::optional<std::string>& backend,
                       std::uint64_t seriesEvery)
    : Simulation(
          *scenario.model, resolveModelBackend(*scenario.model, backend, scenario.backend),
          [&]() -> const ParamSet& {
              // The checks across parameters, as `cellforge-sim sweep` does before
              // it starts a run: a bad combination is a ParameterError here.
              scenario.model->validate(scenario.parameters);
              return scenario.parameters;
          }(),
          scenario.seed, seriesEvery) {
    startSeries(true);
}

std::unique_ptr<Simulation> Simulation::resume(const std::filesystem::path& checkpoint,
                                               const std::optional<std::string>& backend,
                                               std::uint64_t seriesEvery) {
    // Read once for the model, seed and parameters to build the runner on; Runner::load
    // reads it again and restores the state (with the history).
    const io::Checkpoint cp = io::readCheckpoint(checkpoint, registry());
    const ModelDescriptor& model = registry().at(cp.model);
    const Backend chosen = backend ? resolveModelBackend(model, backend, std::nullopt) : cp.backend;
    std::unique_ptr<Simulation> sim(
        new Simulation(model, chosen, cp.parameters, cp.seed, seriesEvery));
    sim->runner_->load(checkpoint).get();
    sim->startSeries(true);
    return sim;
}

Simulation::~Simulation() {
    // The GL context lives on the simulation thread: it goes there, before the runner.
    if (pictures_) {
        try {
            runner_->withModel([&](Model&) { pictures_.reset(); }).get();
        } catch (...) {  // a destructor never throws; the process keeps running
        }
    }
}

void Simulation::startSeries(bool observeNow) {
    if (seriesEvery_ == 0) return;
    series_ = std::make_shared<SeriesRecorder>(seriesEvery_);
    runner_->addObserver(series_, observeNow).get();
}

void Simulation::rethrowRunError() const {
    if (std::exception_ptr error = runner_->error()) std::rethrow_exception(error);
}

bool Simulation::step(std::uint64_t steps, const KeepGoing& keepGoing,
                      std::chrono::milliseconds poll) {
    // A model that failed stays failed: its state is that of the failure.
    rethrowRunError();
    if (steps == 0) return true;
    runner_->stepBy(steps).get();
    bool completed = true;
    while (!runner_->waitUntilIdle(poll)) {
        if (!keepGoing()) {
            // Stops between batches: the state is that of a completed step.
            runner_->pause().get();
            while (!runner_->waitUntilIdle(poll)) {
            }
            completed = false;
            break;
        }
    }
    rethrowRunError();
    return completed;
}

std::uint64_t Simulation::stepCount() {
    std::uint64_t step = 0;
    runner_->withModel([&](Model& m) { step = m.step(); }).get();
    return step;
}

double Simulation::time() {
    double t = 0.0;
    runner_->withModel([&](Model& m) { t = m.time(); }).get();
    return t;
}

std::vector<Metric> Simulation::metrics() {
    std::vector<Metric> out;
    runner_->withModel([&](Model& m) { out = m.metrics(); }).get();
    return out;
}

Snapshot Simulation::snapshot() {
    Snapshot out;
    runner_
        ->withModel([&](Model& m) {
            m.applyPendingEdits();
            out = m.snapshot();
        })
        .get();
    return out;
}

std::vector<StateArray> Simulation::stateArrays() {
    std::vector<StateArray> out;
    runner_
        ->withModel([&](Model& m) {
            m.applyPendingEdits();
            auto* provider = dynamic_cast<StateArrayProvider*>(&m);
            if (!provider)
                throw Error(descriptor().name + " on " + std::string(toString(m.backend())) +
                            " offers no state arrays; snapshot_arrays() copies its state");
            out = provider->stateArrays();
            m.synchronize();
        })
        .get();
    return out;
}

SeriesColumns Simulation::series() const {
    return series_ ? series_->columns() : SeriesColumns{};
}

void Simulation::checkpoint(const std::filesystem::path& path) {
    runner_->save(path).get();
}

std::filesystem::path Simulation::writeSnapshot(const std::filesystem::path& directory) {
    const std::filesystem::path key = std::filesystem::absolute(directory).lexically_normal();
    auto found = snapshotWriters_.find(key);
    if (found == snapshotWriters_.end()) {
        auto writer = std::make_unique<io::SnapshotWriter>(key, descriptor().name);
        // Snapshots already there up to this step stay in the series (a resumed run's).
        writer->adoptExisting(stepCount());
        found = snapshotWriters_.emplace(key, std::move(writer)).first;
    }
    return found->second->write(snapshot());
}

std::vector<std::uint8_t> Simulation::render(const PictureOptions& options) {
    rethrowRunError();
    std::vector<std::uint8_t> pixels;
    runner_
        ->withModel([&](Model& m) {
            m.applyPendingEdits();
            if (!pictures_) pictures_ = std::make_unique<Pictures>();
            pixels = pictures_->render(m, descriptor().name, descriptor().timeUnit, options);
        })
        .get();
    return pixels;
}

MovieSummary Simulation::record(const std::filesystem::path& path, std::uint64_t steps,
                                std::uint64_t every, const PictureOptions& options,
                                const KeepGoing& keepGoing, bool& completed) {
    if (every == 0) throw ParameterError("every: steps between frames must be at least 1");
    rethrowRunError();
    runner_
        ->withModel([&](Model& m) {
            m.applyPendingEdits();
            if (!pictures_) pictures_ = std::make_unique<Pictures>();
            pictures_->beginMovie(path, descriptor().name, descriptor().timeUnit, options);
            pictures_->addMovieFrame(m);
        })
        .get();
    completed = true;
    // The movie is finished whatever stops the loop, so what was recorded stays playable.
    const auto finish = [&] {
        MovieSummary summary;
        runner_->withModel([&](Model&) { summary = pictures_->finishMovie(); }).get();
        return summary;
    };
    try {
        for (std::uint64_t done = 0; done < steps;) {
            const std::uint64_t n = std::min(every, steps - done);
            if (!step(n, keepGoing, std::chrono::milliseconds(50))) {
                completed = false;
                break;
            }
            done += n;
            runner_->withModel([&](Model& m) { pictures_->addMovieFrame(m); }).get();
        }
    } catch (...) {
        try {
            finish();
        } catch (...) {  // the first error is the one to report
        }
        throw;
    }
    return finish();
}

void Simulation::setParameter(const std::string& key, const ParamValue& value) {
    const ParamSpec& spec = descriptor().parameters().at(key);  // names the closest keys
    if (spec.mutability == Mutability::Structural)
        throw ParameterError(spec.key() +
                             " is structural: it sets the model's arrays or "
                             "geometry and takes effect only when the model is built; give it "
                             "when creating the Simulation (" +
                             spec.group + "__" + spec.name + "=...)");
    runner_->setParameter(spec.key(), value).get();
}

}  // namespace cf::py
