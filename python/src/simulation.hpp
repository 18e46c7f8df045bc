// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One model run for Python: a Runner (sim/run/runner.hpp) driven from the caller's thread,
// so live edits take the same all-or-nothing path as the window's, plus a time series
// recorded on the simulation thread. No pybind11 here: python/src/module.cpp converts.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "python/src/pictures.hpp"
#include "sim/core/model.hpp"
#include "sim/core/params.hpp"
#include "sim/core/scenario.hpp"
#include "sim/core/state_arrays.hpp"
#include "sim/io/snapshot_writer.hpp"
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
    // The model's state arrays where they live (sim/core/state_arrays.hpp), after its queued
    // work and pending edits; valid until the next step. Throws Error for a model that offers
    // none.
    std::vector<StateArray> stateArrays();
    SeriesColumns series() const;
    std::uint64_t seriesEvery() const { return seriesEvery_; }
    void checkpoint(const std::filesystem::path& path);
    // Writes the state as an HDF5 snapshot into `directory`/snapshots and rewrites the XDMF
    // file ParaView opens beside them, as `cellforge-sim run` does; snapshots written into
    // one directory by this Simulation form one time series. Returns the .h5 file.
    std::filesystem::path writeSnapshot(const std::filesystem::path& directory);

    // An image of the model now (Pictures::render), RGBA8 rows top to bottom.
    std::vector<std::uint8_t> render(const PictureOptions& options);
    // A movie of `steps` more steps, a frame now and every `every` steps. Stops early (at a
    // frame boundary, the movie finished and playable) when `keepGoing` says no: then
    // `completed` is false.
    MovieSummary record(const std::filesystem::path& path, std::uint64_t steps, std::uint64_t every,
                        const PictureOptions& options, const KeepGoing& keepGoing, bool& completed);

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
    std::map<std::filesystem::path, std::unique_ptr<io::SnapshotWriter>> snapshotWriters_;
    std::unique_ptr<Pictures> pictures_;  // made, used and destroyed on the model's thread
};

}  // namespace cf::py
