// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/run_info.hpp"

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "sim/io/atomic_file.hpp"
#include "sim/io/json_values.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
#if CELLFORGE_HAVE_HDF5
#include <hdf5.h>
#endif

#ifndef CELLFORGE_VERSION
#define CELLFORGE_VERSION "unknown"
#endif

namespace cf::io {

using nlohmann::json;

namespace {

#if CELLFORGE_HAVE_CUDA
// CUDA encodes versions as 1000 * major + 10 * minor.
std::string cudaVersionText(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}
#endif

json versions() {
    json v;
    v["cellforge"] = CELLFORGE_VERSION;
#if defined(__VERSION__)
    v["compiler"] = __VERSION__;
#else
    v["compiler"] = "unknown";
#endif
    v["cxx_standard"] = static_cast<long>(__cplusplus);
    v["cuda_runtime"] = nullptr;
    v["cuda_driver"] = nullptr;
#if CELLFORGE_HAVE_CUDA
    // Both calls work without a device; the driver one reports 0 when no driver is
    // installed, which is worth recording as such.
    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess)
        v["cuda_runtime"] = cudaVersionText(runtime);
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess)
        v["cuda_driver"] = driver > 0 ? json(cudaVersionText(driver)) : json("none");
#endif
    v["hdf5"] = nullptr;
#if CELLFORGE_HAVE_HDF5
    unsigned major = 0, minor = 0, release = 0;
    if (H5get_libversion(&major, &minor, &release) >= 0)
        v["hdf5"] =
            std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
#endif
    return v;
}

}  // namespace

void writeRunJson(const std::filesystem::path& path, const RunInfo& info) {
    json j;
    j["model"] = info.model;
    j["seed"] = info.seed;
    j["backend"] = std::string(toString(info.backend));
    j["device"] = info.device;
    if (!info.ranks.empty())
        j["ranks"] = {{"count", info.ranks.size()}, {"mpi", info.mpi}, {"per_rank", info.ranks}};
    j["scenario"] = info.scenarioPath;
    j["command_line"] = info.commandLine;
    j["status"] = info.status;
    j["message"] = info.message;
    j["started_at"] = info.startedAt;
    j["finished_at"] = info.finishedAt;
    j["steps_requested"] = info.stepsRequested;
    j["steps_completed"] = info.stepsCompleted;
    j["wall_seconds"] = detail::doubleToJson(info.wallSeconds);
    j["versions"] = versions();
    j["parameters"] =
        info.parameters != nullptr ? detail::parametersToJson(*info.parameters) : json::object();
    j["history"] = detail::historyToJson(info.history);
    // An object keyed by phase reads best in tools (run["timings"]["advance"]); phases are
    // unique per run.
    json timings = json::object();
    for (const auto& [name, seconds] : info.timings)
        timings[name] = detail::doubleToJson(seconds);
    j["timings"] = std::move(timings);

    std::string text;
    try {
        text = j.dump(2) + "\n";
    } catch (const json::exception& e) {
        // Invalid UTF-8 in a command-line argument or message is the only way dump fails.
        throw IoError(
            detail::where(path, std::string("cannot encode run information: ") + e.what()));
    }
    detail::writeAtomically(path, [&](std::ostream& out) { out << text; });
}

std::string isoTimestampNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buf;
}

}  // namespace cf::io
