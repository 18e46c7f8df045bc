// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One run of a scenario with its output folder (run.json, scenario.toml, series.csv,
// snapshots, checkpoint): what `run` does after reading its options, and what `sweep` does
// once per grid point. Implemented in run_command.cpp.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/scenario.hpp"
#include "sim/run/runner.hpp"

namespace cf::dist {
class Communicator;
}

namespace cf::cli {

// A scenario with every override applied (output.dir is where the run writes).
struct RunRequest {
    explicit RunRequest(Scenario s) : scenario(std::move(s)) {}
    Scenario scenario;
    Backend backend = Backend::Cpu;
    int cudaDevice = -1;  // -1: the current device
    std::string scenarioPath;
    std::vector<std::string> commandLine;
    std::optional<std::string> resume;  // checkpoint to continue from
};

// Called on the calling thread while the run goes on (about ten times a second) and for
// each note the model raises.
struct RunCallbacks {
    std::function<void(const Frame& frame, std::uint64_t firstStep)> progress;
    std::function<void(const std::string& note)> note;
};

struct RunOutcome {
    int exitCode = 0;        // kExitOk, kExitRunFailed or kExitInterrupted
    std::string status;      // "completed", "failed" or "interrupted" (as in run.json)
    std::string message;     // why it failed or stopped
    double wallSeconds = 0;  // from the start of the model's creation
    std::uint64_t firstStep = 0;
    std::uint64_t stepsCompleted = 0;
    std::vector<Metric> metrics;       // of the last frame
    std::string outputs;               // "output in DIR: run.json, ..." for the user
    std::filesystem::path checkpoint;  // where the run's checkpoint is written
};

// Runs `request` to its step count, or until it fails or Ctrl-C (interruptRequested())
// stops it; the checkpoint is written either way but on failure. Throws for bad input found
// before the run starts (an InputError: the output directory, a parameter or file the model
// refuses, the checkpoint to resume), and for output it cannot write before then.
RunOutcome executeRun(const RunRequest& request, const RunCallbacks& callbacks);

// The same over the ranks of `comm` (run_ranks.cpp), every rank calling it: one model split
// over them (dist::Distributable), snapshots as one dataset of per-rank pieces, a checkpoint
// file per rank, run.json and series.csv by rank 0. Errors raised on every rank alike are
// returned (or thrown, for bad input) on every rank; a rank that fails alone ends the job,
// naming its rank and host.
RunOutcome executeRunOnRanks(const RunRequest& request, dist::Communicator& comm,
                             const RunCallbacks& callbacks);

}  // namespace cf::cli
