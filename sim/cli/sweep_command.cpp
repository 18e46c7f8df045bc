// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim sweep`: the Cartesian grid of --vary axes, one ordinary run (executeRun,
// as `run` does it) per grid point into OUT/run-0001 ..., a progress bar, and
// OUT/summary.csv with the varied values, the status, the wall time and the last value of
// every metric of each run. Everything is checked before the first run starts. Under
// mpirun the ranks share the runs instead (sweep_ranks.cpp, with what sweep_execution.hpp
// declares).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <thread>

#include "sim/cli/sweep_execution.hpp"
#include "sim/cli/terminal.hpp"
#include "sim/core/data_paths.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/cuda/cuda_device.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/io/series_writer.hpp"

namespace cf::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::string label(const std::string& name, const std::string& unit) {
    return unit.empty() ? name : name + " [" + unit + "]";
}

std::string oneLine(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\r', ' ');
    return text;
}

// Whether the model refuses `parameters` (the scenario's, without a grid point's values)
// with the same message as `error`.
bool refusedAlike(const ModelDescriptor& model, const ParamSet& parameters, const Error& error) {
    try {
        if (model.validate) model.validate(parameters);
    } catch (const Error& e) {
        return std::string(e.what()) == error.what();
    }
    return false;
}

}  // namespace

std::string runName(std::size_t index) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "run-%04zu", index + 1);
    return buf;
}

std::string statusText(const RunRecord& r) {
    if (r.state == RunRecord::State::NotRun) return "not run";
    if (r.state == RunRecord::State::Running) return "running";
    if (!r.error.empty()) return "failed: " + oneLine(r.error);
    if (r.outcome.status == "completed") return "ok";
    if (r.outcome.status == "interrupted")
        return "interrupted at step " + std::to_string(r.outcome.stepsCompleted);
    return "failed: " + oneLine(r.outcome.message);
}

std::string pointText(const std::vector<SweepAxis>& axes, const std::vector<ParamValue>& point) {
    std::string text;
    for (std::size_t k = 0; k < axes.size(); ++k)
        text += (k ? " " : "") + axes[k].spec->key() + "=" + formatValue(point[k]);
    return text;
}

std::string runLine(const SweepPlan& plan, std::size_t index, const RunRecord& r) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " in %.2f s (", r.outcome.wallSeconds);
    return runName(index) + " of " + std::to_string(plan.grid.size()) + ": " + statusText(r) + buf +
           pointText(plan.axes, plan.grid[index]) + ")";
}

void writeSummary(const SweepPlan& plan, const std::vector<RunRecord>& records) {
    // Metric columns in the order they first appear (runs of one model share them; a run
    // that failed early may have none).
    std::vector<std::pair<std::string, std::string>> columns;
    for (const RunRecord& r : records)
        for (const Metric& m : r.outcome.metrics)
            if (std::find(columns.begin(), columns.end(), std::pair(m.name, m.unit)) ==
                columns.end())
                columns.emplace_back(m.name, m.unit);
    std::string text = "run";
    for (const SweepAxis& a : plan.axes)
        text += "," + io::csvCell(label(a.spec->key(), a.spec->unit));
    text += ",status,wall [s]";
    for (const auto& [name, unit] : columns)
        text += "," + io::csvCell(label(name, unit));
    text += "\n";
    for (std::size_t i = 0; i < records.size(); ++i) {
        const RunRecord& r = records[i];
        text += std::to_string(i + 1);
        for (const ParamValue& v : plan.grid[i])
            text += "," + io::csvCell(formatValue(v));
        text += "," + io::csvCell(statusText(r)) + ",";
        if (r.state == RunRecord::State::Done) text += io::formatDouble(r.outcome.wallSeconds);
        for (const auto& column : columns) {
            text += ",";
            for (const Metric& m : r.outcome.metrics)
                if (m.name == column.first && m.unit == column.second) {
                    text += io::formatDouble(m.value);
                    break;
                }
        }
        text += "\n";
    }
    const std::filesystem::path path = plan.dir / "summary.csv";
    const std::filesystem::path tmp = plan.dir / "summary.csv.tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) throw IoError(tmp.string() + ": cannot write");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw IoError(path.string() + ": cannot write: " + ec.message());
}

std::string sweepBar(std::size_t finished, std::size_t running, std::size_t failed,
                     std::size_t total, double fractionDone, double eta) {
    constexpr int kWidth = 24;
    const int filled =
        static_cast<int>(kWidth * std::clamp(fractionDone / static_cast<double>(total), 0.0, 1.0));
    std::string bar = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "]";
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s  %zu/%zu runs  %zu running  %zu failed  ETA %s", bar.c_str(),
                  finished, total, running, failed, formatDuration(eta).c_str());
    return buf;
}

SweepPlan planSweep(const ModelRegistry& registry, const SweepOptionsCli& options) {
    // Input checking: every error up to the first run is bad input (InputError, printed by
    // main()) and writes nothing. The models' validate() loads the files they name.
    const std::filesystem::path scenarioPath = resolveScenarioArgument(options.scenario);
    SweepPlan plan(loadScenario(scenarioPath, registry));
    plan.scenarioPath = scenarioPath;
    plan.commandLine = options.commandLine;
    Scenario& base = plan.base;
    for (const std::string& assignment : options.sets)
        base.parameters.setFromAssignment(assignment);
    resolveFilePaths(base.parameters, std::filesystem::current_path());
    if (options.steps) base.steps = *options.steps;
    if (options.vary.empty()) throw ParameterError("sweep needs at least one --vary");
    std::vector<SweepAxisText> texts;
    for (const std::string& v : options.vary)
        texts.push_back(parseSweepAxis(v));
    plan.axes = expandSweepAxes(base.parameters.table(), texts, options.logKeys);
    plan.grid = sweepGrid(plan.axes);
    const auto& axes = plan.axes;
    const auto& grid = plan.grid;

    const Backend backend = resolveModelBackend(*base.model, options.backend, base.backend);
    plan.backend = backend;
    // Slots: what runs at the same time. CUDA: one per listed GPU (none listed: the
    // current device); CPU: one (each run already uses every core) unless --jobs.
    std::vector<int>& slots = plan.slots;
    if (backend == Backend::Cuda) {
        if (options.jobs) throw ParameterError("--jobs is for CPU runs; use --gpus with cuda");
        for (int g : options.gpus) {
            if (std::count(options.gpus.begin(), options.gpus.end(), g) > 1)
                throw ParameterError("--gpus lists device " + std::to_string(g) + " twice");
            if (g < 0 || g >= cudaDeviceCount())
                throw ParameterError("--gpus: CUDA device " + std::to_string(g) +
                                     " does not exist (this machine has " +
                                     std::to_string(cudaDeviceCount()) + ")");
        }
        slots = options.gpus.empty() ? std::vector<int>{-1} : options.gpus;
    } else {
        if (!options.gpus.empty())
            throw ParameterError("--gpus needs the cuda backend (this sweep runs on cpu)");
        if (options.jobs && *options.jobs == 0) throw ParameterError("--jobs must be at least 1");
        slots.assign(options.jobs.value_or(1), -1);
    }
    slots.resize(std::min(slots.size(), grid.size()));

    // Every grid point as a full parameter set, checked across parameters too, so that a
    // combination the model refuses is reported now rather than as a failed run.
    for (std::size_t i = 0; i < grid.size(); ++i) {
        ParamSet p = base.parameters;
        try {
            for (std::size_t k = 0; k < axes.size(); ++k)
                p.set(axes[k].spec->key(), grid[i][k]);
            if (base.model->validate) base.model->validate(p);
        } catch (const Error& e) {
            // What the scenario's own values are refused for too (a file it names) is not
            // this point's: it is said as it is, naming no run.
            if (i == 0 && refusedAlike(*base.model, base.parameters, e)) throw;
            throw ParameterError(runName(i) + " (" + pointText(axes, grid[i]) + "): " + e.what());
        }
        plan.pointParameters.push_back(std::move(p));
    }
    plan.dir = options.outDir.value_or(base.output.dir + "/sweep");
    return plan;
}

void createSweepDirectory(const std::filesystem::path& dir) {
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_empty(dir, ec))
        throw InputFileError(dir.string() +
                             ": the output directory is not empty (a sweep starts in a new one)");
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw InputFileError(dir.string() + ": cannot create output directory: " + ec.message());
}

RunRecord executeSweepRun(const SweepPlan& plan, std::size_t index, int cudaDevice,
                          const RunCallbacks& callbacks) {
    RunRequest request(plan.base);
    request.scenario.parameters = plan.pointParameters[index];
    request.scenario.output.dir = (plan.dir / runName(index)).string();
    request.backend = plan.backend;
    request.cudaDevice = cudaDevice;
    request.scenarioPath = plan.scenarioPath.string();
    request.commandLine = plan.commandLine;
    RunRecord record;
    record.state = RunRecord::State::Done;
    try {
        record.outcome = executeRun(request, callbacks);
    } catch (const std::exception& e) {  // the model refused its parameters, ...
        record.error = e.what();
    }
    return record;
}

std::vector<std::string> missingRuns(const std::vector<RunRecord>& records) {
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < records.size(); ++i)
        if (records[i].state != RunRecord::State::Done ||
            records[i].outcome.status == "interrupted")
            missing.push_back(runName(i));
    return missing;
}

std::string runList(const std::vector<std::string>& names) {
    std::string list;
    for (const std::string& n : names)
        list += (list.empty() ? "" : ", ") + n;
    return list.empty() ? "none" : list;
}

int finishSweep(const SweepPlan& plan, const std::vector<RunRecord>& records, bool interrupted) {
    writeSummary(plan, records);
    const std::vector<std::string> missing = missingRuns(records);
    std::size_t ok = 0;
    for (const RunRecord& r : records)
        if (r.state == RunRecord::State::Done && r.error.empty() && r.outcome.status == "completed")
            ++ok;
    const std::size_t failed = records.size() - ok - missing.size();
    std::printf("sweep of %zu runs of '%s' on %s: %zu ok, %zu failed, %zu missing\nsummary: %s\n",
                records.size(), plan.base.model->name.c_str(),
                std::string(toString(plan.backend)).c_str(), ok, failed, missing.size(),
                (plan.dir / "summary.csv").string().c_str());
    if (interrupted) {
        std::fprintf(stderr, "cellforge-sim: interrupted; missing: %s (finished runs kept)\n",
                     runList(missing).c_str());
        return kExitInterrupted;
    }
    return failed > 0 ? kExitRunFailed : kExitOk;
}

int runSweep(const ModelRegistry& registry, const SweepOptionsCli& options) {
    // Several ranks (mpirun -n K, K > 1): a manager and workers. One rank: this process.
    if (options.ranks && options.ranks->size() > 1)
        return runSweepOnRanks(registry, options, *options.ranks);
    const SweepPlan plan = planSweep(registry, options);
    const std::vector<int>& slots = plan.slots;
    const std::size_t total = plan.grid.size();
    createSweepDirectory(plan.dir);

    std::vector<RunRecord> records(total);
    std::mutex mutex;  // guards records, the summary file and stderr
    writeSummary(plan, records);

    installInterruptHandler();
    const bool showBar = stderrIsTerminal();
    std::vector<std::atomic<double>> inFlight(slots.size());  // fraction of the current run
    for (auto& f : inFlight)
        f = 0.0;
    std::size_t next = 0;  // the next grid point to start
    std::size_t finished = 0, failed = 0, running = 0;
    const auto start = Clock::now();

    auto worker = [&](std::size_t slot) {
        for (;;) {
            std::size_t i = 0;
            {
                // Taken and marked running at once, so the bar never sees a run in between.
                std::lock_guard lock(mutex);
                if (interruptRequested() || next >= total) return;
                i = next++;
                records[i].state = RunRecord::State::Running;
                ++running;
            }
            const double steps = static_cast<double>(plan.base.steps);
            RunCallbacks callbacks;
            callbacks.progress = [&, slot](const Frame& frame, std::uint64_t first) {
                const double span = steps - static_cast<double>(first);
                inFlight[slot] = span > 0 ? static_cast<double>(frame.step - first) / span : 1.0;
            };
            callbacks.note = [&, i](const std::string& n) {
                std::lock_guard lock(mutex);
                std::fprintf(stderr, "%scellforge-sim: %s: note: %s\n", showBar ? "\r\033[K" : "",
                             runName(i).c_str(), n.c_str());
            };
            RunRecord record = executeSweepRun(plan, i, slots[slot], callbacks);
            inFlight[slot] = 0.0;
            std::lock_guard lock(mutex);
            --running;
            const bool interrupted = record.error.empty() && record.outcome.status == "interrupted";
            if (!interrupted) ++finished;
            const bool ok = record.error.empty() && record.outcome.status == "completed";
            if (!ok && !interrupted) ++failed;
            records[i] = std::move(record);
            std::fprintf(stderr, "%s%s\n", showBar ? "\r\033[K" : "",
                         runLine(plan, i, records[i]).c_str());
            try {
                writeSummary(plan, records);
            } catch (const Error& e) {
                std::fprintf(stderr, "cellforge-sim: %s\n", e.what());
            }
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t s = 0; s < slots.size(); ++s)
        threads.emplace_back(worker, s);

    // The bar: runs finished, and in the ETA the part of the running ones already done.
    for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        std::lock_guard lock(mutex);
        const bool over =
            (finished == total || next >= total || interruptRequested()) && running == 0;
        if (showBar) {
            double done = static_cast<double>(finished);
            for (const auto& f : inFlight)
                done += f.load();
            const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
            const double eta =
                done > 0 ? elapsed * (static_cast<double>(total) - done) / done : -1.0;
            std::fprintf(stderr, "\r\033[K%s",
                         sweepBar(finished, running, failed, total, done, over ? 0 : eta).c_str());
            if (over) std::fputc('\n', stderr);
        }
        if (over) break;
    }
    for (std::thread& t : threads)
        t.join();
    return finishSweep(plan, records, interruptRequested());
}

}  // namespace cf::cli
