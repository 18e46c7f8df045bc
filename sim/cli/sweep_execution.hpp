// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parts of `cellforge-sim sweep` that one process (sweep_command.cpp: threads, one run
// per slot) and the ranks of an MPI job (sweep_ranks.cpp: a manager and workers) share:
// the plan checked before anything runs, one grid point's run, the summary and the final
// report. Keeping them here is what makes both write the same folders and summary.csv.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/run_execution.hpp"
#include "sim/core/sweep_grid.hpp"

namespace cf::cli {

// What the summary knows about one grid point.
struct RunRecord {
    enum class State { NotRun, Running, Done } state = State::NotRun;
    RunOutcome outcome;
    std::string error;  // bad input found when the run started (no outcome then)
};

// A sweep with every input checked: the scenario with the fixed overrides, the grid, each
// point's full parameter set (validated by the model), the backend, the slots (the CUDA
// device of each run at a time, -1: the current one) and the output directory.
struct SweepPlan {
    explicit SweepPlan(Scenario s) : base(std::move(s)) {}
    std::filesystem::path scenarioPath;
    Scenario base;
    std::vector<SweepAxis> axes;
    std::vector<std::vector<ParamValue>> grid;
    std::vector<ParamSet> pointParameters;
    Backend backend = Backend::Cpu;
    std::vector<int> slots;
    std::filesystem::path dir;
    std::vector<std::string> commandLine;
};

// Checks everything up to the first run and writes nothing: every error is bad input
// (InputError). Deterministic, so the ranks of a job each plan the same sweep.
SweepPlan planSweep(const ModelRegistry& registry, const SweepOptionsCli& options);
// The output directory, new or empty (InputFileError otherwise).
void createSweepDirectory(const std::filesystem::path& dir);

// Grid point `index` into DIR/run-NNNN on `cudaDevice` (-1: the current device), as `run`
// runs it; bad input found when it starts is the record's error, not an exception.
RunRecord executeSweepRun(const SweepPlan& plan, std::size_t index, int cudaDevice,
                          const RunCallbacks& callbacks);

std::string runName(std::size_t index);  // "run-0001" for index 0
std::string statusText(const RunRecord& r);
std::string pointText(const std::vector<SweepAxis>& axes, const std::vector<ParamValue>& point);
// "run-0003 of 6: ok in 1.20 s (system.count=200 dynamics.dt=1e-04)"
std::string runLine(const SweepPlan& plan, std::size_t index, const RunRecord& r);
// "[########............]  3/8 runs  2 running  1 failed  ETA 0:01:10"
std::string sweepBar(std::size_t finished, std::size_t running, std::size_t failed,
                     std::size_t total, double fractionDone, double eta);

// DIR/summary.csv, whole (through a temporary file), so it is complete at any moment.
void writeSummary(const SweepPlan& plan, const std::vector<RunRecord>& records);

// The runs the summary lacks: interrupted or never started ("run-0004", ...).
std::vector<std::string> missingRuns(const std::vector<RunRecord>& records);
// "run-0004, run-0005" (or "none")
std::string runList(const std::vector<std::string>& names);

// Writes the summary, prints the closing line (and, when `interrupted`, the runs missing)
// and returns the exit code: 130 interrupted, 3 a run failed, else 0.
int finishSweep(const SweepPlan& plan, const std::vector<RunRecord>& records, bool interrupted);

// The sweep over the ranks of an MPI job (sweep_ranks.cpp): rank 0 hands out the runs and
// writes the summary, the others run them. Every rank calls it; all return the same code.
int runSweepOnRanks(const ModelRegistry& registry, const SweepOptionsCli& options,
                    dist::Communicator& ranks);

}  // namespace cf::cli
