// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The subcommands of cellforge-sim. Each returns the process exit code, or throws for main()
// to print and map with exitStatusFor() (InputError: bad input, 2; else 3).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/exit_status.hpp"  // the exit codes (`cellforge-sim --help`, the README)
#include "sim/core/model.hpp"

namespace cf::dist {
class Communicator;
}

namespace cf::cli {

struct RunOptions {
    std::string scenario;
    std::optional<std::uint64_t> steps;
    std::optional<std::string> backend;
    std::vector<std::string> sets;
    std::optional<std::string> outDir;
    std::optional<std::uint64_t> every;  // snapshot interval
    std::optional<std::string> resume;   // checkpoint to continue from
    std::vector<std::string> commandLine;
    // The job's ranks when mpirun started this process (null: one rank, no MPI).
    dist::Communicator* ranks = nullptr;
};

struct BenchOptionsCli {
    std::string model;
    std::vector<std::string> cases;  // empty: the default cases (all with `all`)
    bool all = false;
    bool list = false;
    std::optional<std::string> backend;
    std::optional<std::string> json;
    int repeats = 10;
    double scale = 1.0;
    // A case of the user's own (bench_ranks.cpp): the model with these overrides, `steps`
    // per repeat, on the job's ranks (one rank without mpirun).
    std::vector<std::string> sets;
    std::optional<std::uint64_t> steps;
    dist::Communicator* ranks = nullptr;
};

// `sweep`: a grid of runs of one scenario (sweep_command.cpp).
struct SweepOptionsCli {
    std::string scenario;
    std::vector<std::string> vary;     // group.name=FROM:TO:COUNT
    std::vector<std::string> logKeys;  // axes spaced geometrically
    std::vector<std::string> sets;     // fixed overrides, as `run --set`
    std::vector<int> gpus;             // CUDA devices, one run on each at a time
    std::optional<std::string> backend;
    std::optional<std::uint64_t> steps;
    std::optional<std::string> outDir;
    std::optional<unsigned> jobs;  // CPU runs at a time (default 1)
    std::vector<std::string> commandLine;
    // The job's ranks when mpirun started this process (null: one rank, no MPI).
    dist::Communicator* ranks = nullptr;
};

int runScenario(const ModelRegistry& registry, const RunOptions& options);
int runBench(const ModelRegistry& registry, const BenchOptionsCli& options);
int runRankBench(const ModelRegistry& registry, const BenchOptionsCli& options);
int runSweep(const ModelRegistry& registry, const SweepOptionsCli& options);

}  // namespace cf::cli
