// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One model run for Python: a Runner (sim/run/runner.hpp) driven from the caller's thread,
// so live edits take the same all-or-nothing path as the window's, plus a time series
// recorded on the simulation thread. No pybind11 here: python/src/module.cpp converts.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/params.hpp"
#include "sim/core/scenario.hpp"
#include "sim/run/runner.hpp"

namespace cf::py {

// The models this module offers; lives as long as the process (Scenario and Runner keep
// pointers into it).
const ModelRegistry& registry();

// Metrics recorded every `every` steps (and at the step the run starts from): the rows of
// Simulation.series. Filled on the simulation thread, read on the caller's.
class SeriesRecorder;

struct SeriesColumns {
    std::vector<std::string> names;  // the metrics, in the model's order
    std::vector<std::string> units;
    std::vector<std::uint64_t> steps;
    std::vector<double> times;
    std::vector<std::vector<double>> values;  // one column per metric
};

// Called between waits while the simulation steps; returns false to stop at the next step
// boundary (Python's signal check: a pending Ctrl-C).
using KeepGoing = std::function<bool()>;

class Simulation {
public:
    // A scenario with its parameters already overridden. `backend`: "cpu", "cuda" or
    // nullopt (the scenario's choice, else the best available). `seriesEvery` 0: none.
    Simulation(const Scenario& scenario, const std::optional<std::string>& backend,
               std::uint64_t seriesEvery);
    // Continues a checkpoint (sim/io/checkpoint.hpp) on its backend, or on `backend`.
    static std::unique_ptr<Simulation> resume(const std::filesystem::path& checkpoint,
                                              const std::optional<std::string>& backend,
                                              std::uint64_t seriesEvery);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    // Runs `steps` more steps. `keepGoing` is asked every `poll` of wall time; when it says
    // no, the run pauses at the next step boundary and this returns false (the state is
    // that of a completed step). Rethrows the error that stopped the model.
    bool step(std::uint64_t steps, const KeepGoing& keepGoing, std::chrono::milliseconds poll);

    std::uint64_t stepCount();
    double time();
    std::vector<Metric> metrics();
    Snapshot snapshot();
    SeriesColumns series() const;
    std::uint64_t seriesEvery() const { return seriesEvery_; }
    void checkpoint(const std::filesystem::path& path);

    // A live edit through Runner::setParameter; structural parameters are refused with a
    // ParameterError (they would wait for a reset this API does not offer yet).
    void setParameter(const std::string& key, const ParamValue& value);
    ParamSet parameters() const { return runner_->parameters(); }
    const ModelDescriptor& descriptor() const { return runner_->descriptor(); }
    Backend backend() const { return runner_->backend(); }
    std::uint32_t seed() const { return runner_->seed(); }
    std::vector<std::string> takeNotes() { return runner_->takeNotes(); }

private:
    Simulation(const ModelDescriptor& model, Backend backend, const ParamSet& parameters,
               std::uint32_t seed, std::uint64_t seriesEvery);
    void startSeries(bool observeNow);
    void rethrowRunError() const;

    std::unique_ptr<Runner> runner_;
    std::uint64_t seriesEvery_;
    std::shared_ptr<SeriesRecorder> series_;
};

}  // namespace cf::py
