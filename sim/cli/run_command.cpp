// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim run`: load a scenario, apply overrides, run it on the Runner's thread,
// show progress, write output, and stop cleanly (checkpoint first) on Ctrl-C.
#include <chrono>
#include <cstdio>
#include <fstream>

#include "sim/cli/commands.hpp"
#include "sim/cli/run_execution.hpp"
#include "sim/cli/terminal.hpp"
#include "sim/core/data_paths.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/scenario.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/io/run_info.hpp"
#include "sim/io/snapshot_writer.hpp"
#include "sim/run/output_observers.hpp"
#include "sim/run/runner.hpp"

namespace cf::cli {

namespace {

void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw IoError(path.string() + ": cannot write");
}

struct Outputs {
    std::shared_ptr<SeriesObserver> series;
    std::shared_ptr<SnapshotObserver> snapshots;
    std::filesystem::path checkpoint;
};

std::string describeOutputs(const std::filesystem::path& dir, const Outputs& o) {
    std::string text = "output in " + dir.string() + ": run.json, scenario.toml";
    if (o.series) text += ", series.csv";
    if (o.snapshots && o.snapshots->count() > 0) {
        text += ", " + o.snapshots->xdmfPath().filename().string();
        if (const auto grid = o.snapshots->gridXdmfPath())
            text += " and " + grid->filename().string();
        text += " (" + std::to_string(o.snapshots->count()) + " snapshots; open in ParaView)";
    }
    text += ", " + o.checkpoint.filename().string();
    return text;
}

}  // namespace

RunOutcome executeRun(const RunRequest& request, const RunCallbacks& callbacks) {
    const Scenario& sc = request.scenario;
    const Backend backend = request.backend;
    const std::filesystem::path dir = sc.output.dir;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)  // a path the user gave (--out, [output] dir)
        throw InputFileError(dir.string() + ": cannot create output directory: " + ec.message());
    writeText(dir / "scenario.toml", scenarioToToml(sc, dir));

    io::RunInfo info;
    info.model = sc.model->name;
    info.seed = sc.seed;
    info.backend = backend;
    info.device = backend == Backend::Cuda ? cudaStatus() : "host CPU";
    if (backend == Backend::Cuda && request.cudaDevice >= 0)
        info.device += " (device " + std::to_string(request.cudaDevice) + ")";
    info.scenarioPath = request.scenarioPath;
    info.commandLine = request.commandLine;
    info.stepsRequested = sc.steps;
    info.startedAt = io::isoTimestampNow();
    const auto wallStart = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    };

    RunOutcome outcome;
    outcome.checkpoint = dir / "checkpoint.cfchk";
    // Creating the model allocates device memory and builds the initial state: a failure
    // there is a run failure, unless the model refuses its input (a parameter, or a file it
    // names: an SBML, model or mesh file), which is bad input.
    std::unique_ptr<Runner> runnerOwner;
    try {
        runnerOwner = std::make_unique<Runner>(*sc.model, backend, sc.parameters, sc.seed,
                                               request.cudaDevice);
    } catch (const InputError&) {
        throw;
    } catch (const Error& e) {
        outcome.exitCode = kExitRunFailed;
        outcome.status = "failed";
        outcome.message = std::string("cannot start the run: ") + e.what();
        outcome.wallSeconds = elapsed();
        return outcome;
    }
    Runner& runner = *runnerOwner;
    if (request.resume) runner.load(*request.resume).get();
    const std::uint64_t firstStep = runner.latestFrame()->step;
    outcome.firstStep = firstStep;
    // Continuing: keep what the earlier run wrote up to the checkpoint's step.
    const std::optional<std::uint64_t> continueAfter =
        request.resume ? std::optional<std::uint64_t>(firstStep) : std::nullopt;
    const std::string timeUnit = sc.model->timeUnit;

    Outputs outputs;
    outputs.checkpoint = outcome.checkpoint;
    if (sc.output.seriesEvery > 0) {
        outputs.series = std::make_shared<SeriesObserver>(dir / "series.csv", sc.output.seriesEvery,
                                                          timeUnit, continueAfter);
        runner.addObserver(outputs.series, !request.resume).get();
    }
    if (sc.output.snapshotEvery > 0) {
        if (io::hdf5Available()) {
            outputs.snapshots = std::make_shared<SnapshotObserver>(
                dir, sc.model->name, sc.output.snapshotEvery, continueAfter);
            runner.addObserver(outputs.snapshots, !request.resume).get();
        } else if (callbacks.note) {
            callbacks.note("this build has no HDF5, so no snapshots are written");
        }
    }
    if (sc.output.checkpointEvery > 0)
        runner
            .addObserver(std::make_shared<CheckpointObserver>(runner, outputs.checkpoint,
                                                              sc.output.checkpointEvery))
            .get();

    auto finish = [&](int exitCode, std::string status, std::string message) {
        const auto frame = runner.latestFrame();
        info.stepsCompleted = frame->step;
        info.wallSeconds = elapsed();
        info.status = status;
        info.message = message;
        info.finishedAt = io::isoTimestampNow();
        const ParamSet active = runner.activeParameters();
        info.parameters = &active;
        info.history = runner.history();
        try {
            io::writeRunJson(dir / "run.json", info);
        } catch (const Error& e) {
            // Without its record the run's output is incomplete, whatever else went well.
            message += std::string(message.empty() ? "" : "; ") + e.what();
            if (exitCode == kExitOk) {
                exitCode = kExitRunFailed;
                status = "failed";
            }
        }
        outcome.exitCode = exitCode;
        outcome.status = status;
        outcome.message = message;
        outcome.wallSeconds = info.wallSeconds;
        outcome.stepsCompleted = frame->step;
        outcome.metrics = frame->metrics;
        outcome.outputs = describeOutputs(dir, outputs);
        return outcome;
    };

    runner.runUntil(sc.steps).get();
    std::uint64_t seen = 0;
    for (;;) {
        const auto frame = runner.waitForFrame(seen, std::chrono::milliseconds(100));
        seen = frame->index;
        for (const std::string& n : runner.takeNotes())
            if (callbacks.note) callbacks.note(n);
        // Aim for about ten frames per second whatever the model's speed.
        if (frame->stepsPerSecond > 0)
            runner.setStepsPerBatch(static_cast<std::uint64_t>(frame->stepsPerSecond / 10.0) + 1);
        if (callbacks.progress) callbacks.progress(*frame, firstStep);
        if (std::exception_ptr err = runner.error()) {
            std::string message;
            try {
                std::rethrow_exception(err);
            } catch (const OutOfDeviceMemoryError& e) {
                // The state is that of the last completed step: keep it, so the run can go on
                // where there is more memory.
                message = e.what();
                try {
                    runner.save(outputs.checkpoint).get();
                    message += "; that state is in the checkpoint " + outputs.checkpoint.string() +
                               " (continue with --resume on a device with more memory, or "
                               "with --backend cpu)";
                } catch (const std::exception& saveError) {
                    message +=
                        std::string("; the checkpoint could not be written: ") + saveError.what();
                }
            } catch (const std::exception& e) {
                message = e.what();
            }
            return finish(kExitRunFailed, "failed", message);
        }
        if (interruptRequested()) {
            runner.pause().get();
            try {
                runner.save(outputs.checkpoint).get();
            } catch (const Error& e) {
                return finish(kExitRunFailed, "failed",
                              std::string("interrupted by signal; ") + e.what());
            }
            return finish(kExitInterrupted, "interrupted", "interrupted by signal");
        }
        if (!runner.isRunning()) {
            if (runner.latestFrame()->step >= sc.steps) break;
            runner.runUntil(sc.steps).get();  // defensive: nothing else pauses this runner
        }
    }
    try {
        runner.save(outputs.checkpoint).get();
    } catch (const Error& e) {
        return finish(kExitRunFailed, "failed", e.what());
    }
    return finish(kExitOk, "completed", "");
}

int runScenario(const ModelRegistry& registry, const RunOptions& options) {
    // Input checking first: what it throws is bad input (InputError), printed by main().
    const std::filesystem::path scenarioPath = resolveScenarioArgument(options.scenario);
    Scenario sc = loadScenario(scenarioPath, registry);
    for (const std::string& assignment : options.sets)
        sc.parameters.setFromAssignment(assignment);
    // File paths given on the command line are relative to where the command runs (those
    // from the scenario file are already resolved against its directory).
    resolveFilePaths(sc.parameters, std::filesystem::current_path());
    if (options.steps) sc.steps = *options.steps;
    if (options.outDir) sc.output.dir = *options.outDir;
    if (options.every) sc.output.snapshotEvery = *options.every;
    RunRequest request(std::move(sc));
    request.backend =
        resolveModelBackend(*request.scenario.model, options.backend, request.scenario.backend);
    request.scenarioPath = scenarioPath.string();
    request.commandLine = options.commandLine;
    request.resume = options.resume;
    const std::uint64_t steps = request.scenario.steps;

    // Under mpirun every rank runs its part of one simulation; rank 0 speaks for them.
    dist::Communicator* ranks =
        options.ranks && options.ranks->size() > 1 ? options.ranks : nullptr;
    const bool lead = !ranks || ranks->rank() == 0;
    if (lead)
        std::fprintf(stderr, "cellforge-sim: backend %s%s\n", backendLine(request.backend).c_str(),
                     ranks ? (", on " + std::to_string(ranks->size()) + " MPI ranks").c_str() : "");
    installInterruptHandler();
    const bool showProgress = lead && stderrIsTerminal();
    bool lineOpen = false;  // a progress line waits for its newline
    auto lastPrint = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    RunCallbacks callbacks;
    callbacks.note = [&](const std::string& n) {
        if (!lead) return;
        if (lineOpen) std::fputc('\n', stderr);
        lineOpen = false;
        std::fprintf(stderr, "cellforge-sim: note: %s\n", n.c_str());
    };
    callbacks.progress = [&](const Frame& frame, std::uint64_t firstStep) {
        if (!showProgress ||
            std::chrono::steady_clock::now() - lastPrint < std::chrono::milliseconds(200))
            return;
        std::fprintf(stderr, "\r%s ",
                     progressLine(frame.step, firstStep, steps, frame.stepsPerSecond).c_str());
        lineOpen = true;
        lastPrint = std::chrono::steady_clock::now();
    };
    const RunOutcome out =
        ranks ? executeRunOnRanks(request, *ranks, callbacks) : executeRun(request, callbacks);
    if (!lead) return out.exitCode;

    if (lineOpen) std::fputc('\n', stderr);
    if (out.exitCode == kExitRunFailed) {
        std::fprintf(
            stderr, "cellforge-sim: %s%s\n",
            out.message.rfind("cannot start", 0) == 0 ? "" : "run failed: ", out.message.c_str());
        const std::filesystem::path& checkpoint = out.checkpoint;
        std::error_code ec;
        if (std::filesystem::exists(checkpoint, ec) &&
            out.message.find(checkpoint.string()) == std::string::npos)
            std::fprintf(stderr, "cellforge-sim: the last checkpoint written is %s\n",
                         checkpoint.string().c_str());
        return kExitRunFailed;
    }
    if (out.exitCode == kExitInterrupted) {
        std::fprintf(stderr,
                     "cellforge-sim: interrupted at step %llu; checkpoint %s "
                     "(continue with --resume)\n",
                     static_cast<unsigned long long>(out.stepsCompleted),
                     out.checkpoint.string().c_str());
        return kExitInterrupted;
    }
    if (showProgress)
        std::fprintf(stderr, "\r%s\n", progressLine(steps, out.firstStep, steps, 0).c_str());
    const double secs = out.wallSeconds;
    std::printf(
        "completed %llu steps of '%s' on %s in %.2f s (%.4g steps/s)\n%s\n",
        static_cast<unsigned long long>(steps - out.firstStep),
        request.scenario.model->name.c_str(), std::string(toString(request.backend)).c_str(), secs,
        secs > 0 ? static_cast<double>(steps - out.firstStep) / secs : 0.0, out.outputs.c_str());
    return kExitOk;
}

}  // namespace cf::cli
