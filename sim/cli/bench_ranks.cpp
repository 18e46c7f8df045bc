// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench MODEL --set ... --steps N`: a case of the user's own, on the ranks
// mpirun started (one rank without it): what the scaling tables of docs/SCALING.md are
// measured with. The ranks start each repeat together (a barrier) and the repeat ends
// when the slowest has finished; each rank reports its wait for halo data, so the table
// can say how much of a step the exchange costs where the interior work does not hide it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/cli/commands.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/params.hpp"
#include "sim/cuda/cuda_device.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/dist/distributable.hpp"

namespace cf::cli {

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int runRankBench(const ModelRegistry& registry, const BenchOptionsCli& options) {
    const ModelDescriptor& desc = registry.at(options.model);
    ParamSet params{desc.parameters()};
    for (const std::string& a : options.sets)
        params.setFromAssignment(a);
    desc.validate(params);
    if (!options.steps) throw ParameterError("bench --set: give --steps, the steps per repeat");
    const std::uint64_t steps = *options.steps;
    const Backend backend = resolveModelBackend(desc, options.backend, std::nullopt);
    dist::SelfCommunicator self;
    dist::Communicator& comm = options.ranks ? *options.ranks : self;
    const bool lead = comm.rank() == 0;
    std::string device = "host CPU";
    if (backend == Backend::Cuda) {
        const int count = cudaDeviceCount();
        const int mine = count > 0 ? comm.localRank() % count : 0;
        useCudaDevice(mine);
        device = cudaStatus() + " (device " + std::to_string(mine) + ")";
    }

    std::unique_ptr<Model> model = desc.create(backend);
    auto* pieces = dynamic_cast<dist::Distributable*>(model.get());
    if (comm.size() > 1) {
        if (!pieces)
            throw ParameterError(desc.name + " does not run on several ranks yet; run it with one");
        pieces->distribute(comm);
    }
    model->reset(params, 1u);
    const std::uint64_t entities = pieces ? pieces->entities() : 0;
    // Warm-up: kernels compiled and loaded, caches and pools filled.
    model->advance(std::max<std::uint64_t>(1, steps / 10));
    model->synchronize();
    const double haloBefore = pieces ? pieces->haloSeconds() : 0.0;
    std::vector<double> times;
    for (int r = 0; r < options.repeats; ++r) {
        comm.barrier();
        const auto start = std::chrono::steady_clock::now();
        model->advance(steps);
        model->synchronize();
        comm.barrier();
        times.push_back(seconds(start));
    }
    const double haloMine = (pieces ? pieces->haloSeconds() : 0.0) - haloBefore;
    std::vector<double> halo = {haloMine, haloMine};
    comm.allreduce(std::span<double>(&halo[0], 1), dist::ReduceOp::Max);
    comm.allreduce(std::span<double>(&halo[1], 1), dist::ReduceOp::Min);
    const std::vector<std::string> where = comm.gatherStrings(comm.host() + ": " + device, 0);
    // A model that times its stages reports them as "time <stage>" metrics (ms per step of the
    // last repeat, the slowest rank's: metrics are collective).
    std::vector<std::pair<std::string, double>> stages;
    for (const Metric& m : model->metrics())
        if (m.name.rfind("time ", 0) == 0) stages.emplace_back(m.name.substr(5), m.value);
    if (!lead) return kExitOk;

    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    double total = 0.0;
    for (double t : times)
        total += t;
    const double stepsPerSecond = static_cast<double>(steps) / median;
    // The share of the run's wall time the most-waiting rank spent blocked on halo data.
    const double haloShare = total > 0 ? halo[0] / total : 0.0;
    std::printf("%-10s %-5s %5s %14s %12s %12s %14s %10s\n", "model", "backend", "ranks",
                "entities", "median ms", "steps/s", "entity-steps/s", "halo wait");
    std::printf("%-10s %-5s %5d %14llu %12.4g %12.4g %14.4g %9.1f%%  halos: %s\n",
                desc.name.c_str(), std::string(toString(backend)).c_str(), comm.size(),
                static_cast<unsigned long long>(entities), median * 1e3, stepsPerSecond,
                stepsPerSecond * static_cast<double>(entities), 100.0 * haloShare,
                pieces && comm.size() > 1 ? pieces->haloTransport().c_str() : "none");
    if (!stages.empty()) {
        std::printf("stages (ms per step, slowest rank):");
        for (const auto& [name, ms] : stages)
            std::printf("  %s %.4g", name.c_str(), ms);
        std::printf("\n");
    }
    if (options.json) {
        nlohmann::json doc = {
            {"cellforge_version", CELLFORGE_VERSION},
            {"model", desc.name},
            {"backend", std::string(toString(backend))},
            {"overrides", options.sets},
            {"ranks", comm.size()},
            {"rank_devices", where},
            {"mpi", comm.library()},
            {"halo_in_device_memory", comm.deviceBuffers()},
            {"halo_transport", pieces ? pieces->haloTransport() : "none"},
            {"entities", entities},
            {"steps_per_repeat", steps},
            {"repeats", options.repeats},
            {"median_s", median},
            {"min_s", sorted.front()},
            {"max_s", sorted.back()},
            {"steps_per_s", stepsPerSecond},
            {"entity_steps_per_s", stepsPerSecond * static_cast<double>(entities)},
            {"halo_wait_s_max_rank", halo[0]},
            {"halo_wait_s_min_rank", halo[1]},
            {"halo_wait_share", haloShare}};
        nlohmann::json stageJson = nlohmann::json::object();
        for (const auto& [name, ms] : stages)
            stageJson[name] = ms;
        if (!stages.empty()) doc["stages_ms"] = stageJson;
        std::ofstream out(*options.json, std::ios::trunc);
        out << doc.dump(2) << '\n';
        if (!out) throw IoError(*options.json + ": cannot write benchmark results");
    }
    return kExitOk;
}

}  // namespace cf::cli
