// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// run.json: what ran, with which parameters and software versions, and how it ended, so
// a result directory documents itself.
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/core/params.hpp"

namespace cf::io {

struct RunInfo {
    std::string model;
    std::uint32_t seed = 0;
    Backend backend = Backend::Cpu;
    std::string device;  // "NVIDIA H100 80GB HBM3", "cpu (16 threads)", ...
    std::string scenarioPath;
    std::vector<std::string> commandLine;
    const ParamSet* parameters = nullptr;  // final values; null writes an empty object
    std::vector<ParamChange> history;
    std::uint64_t stepsRequested = 0;
    std::uint64_t stepsCompleted = 0;
    double wallSeconds = 0.0;
    std::string status;  // "completed", "interrupted", "failed"
    std::string message;
    std::string startedAt;  // ISO 8601 UTC
    std::string finishedAt;
    std::vector<std::pair<std::string, double>> timings;  // phase name, seconds
    // A run over several MPI ranks: "host: device" per rank, in rank order, and the MPI
    // library (empty for a run on one process).
    std::vector<std::string> ranks;
    std::string mpi;
};

// Writes atomically (temporary file + rename); creates the parent directory. The JSON
// holds a "versions" block (cellforge, compiler, C++ standard, CUDA runtime and driver,
// HDF5), "parameters" as group -> name -> value with JSON types (number, boolean,
// string) and "history" as [{step, time, parameter, old, new, pending_reset}].
void writeRunJson(const std::filesystem::path& path, const RunInfo& info);

// The current time as "YYYY-MM-DDTHH:MM:SSZ".
std::string isoTimestampNow();

}  // namespace cf::io
