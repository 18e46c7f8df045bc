// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim run` under mpirun: one simulation over the job's ranks (docs/SCALING.md).
// Every rank runs this loop in step: the same batches, the same output steps, the same
// collectives, so a model's halo exchanges and reductions always meet. Rank 0 writes
// run.json, scenario.toml and series.csv and prints; snapshots are one dataset of per-rank
// pieces (io::PieceSnapshotWriter); each rank writes its own checkpoint file
// (io::rankCheckpointPath) and a restart on as many ranks reads them back.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "sim/cli/run_execution.hpp"
#include "sim/core/exit_status.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/cuda/cuda_device.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/io/checkpoint.hpp"
#include "sim/io/piece_snapshot_writer.hpp"
#include "sim/io/run_info.hpp"
#include "sim/io/series_writer.hpp"
#include "sim/io/snapshot_writer.hpp"
#if CELLFORGE_HAVE_MPI
#include "sim/dist/mpi_communicator.hpp"
#endif

namespace cf::cli {

namespace {

// A rank that fails alone while the others may wait for it in a collective: the job ends
// now, this rank and its host named.
[[noreturn]] void endJob(dist::Communicator& comm, const std::string& what) {
    std::fprintf(stderr, "cellforge-sim: rank %d on %s failed alone: %s; ending the job\n",
                 comm.rank(), comm.host().c_str(), what.c_str());
    std::fflush(stderr);
#if CELLFORGE_HAVE_MPI
    dist::MpiSession::abortJob(kExitRunFailed);
#else
    std::_Exit(kExitRunFailed);
#endif
}

// Runs `f` on every rank. If it threw on any, every rank throws the same error: the common
// message when all failed alike, else the first failing rank's, naming it and its host; an
// InputError stays one (exit 2), anything else becomes an Error (exit 3).
template <typename F>
void together(dist::Communicator& comm, F&& f) {
    std::string mine;
    bool input = false;
    try {
        f();
    } catch (const InputError& e) {
        mine = e.what();
        input = true;
    } catch (const std::exception& e) {
        mine = e.what();
    }
    if (!comm.anyOf(!mine.empty())) return;
    const std::string tagged = mine.empty() ? "" : std::string(input ? "I" : "E") + mine;
    const std::vector<std::string> all = comm.gatherStrings(tagged, 0);
    const std::vector<std::string> hosts = comm.gatherStrings(comm.host(), 0);
    std::string chosen;
    if (comm.rank() == 0) {
        const auto failed =
            std::find_if(all.begin(), all.end(), [](const std::string& m) { return !m.empty(); });
        chosen = *failed;
        if (!std::all_of(all.begin(), all.end(),
                         [&](const std::string& m) { return m == *failed; })) {
            const auto r = static_cast<std::size_t>(failed - all.begin());
            chosen = chosen.substr(0, 1) + "rank " + std::to_string(r) + " on " + hosts[r] + ": " +
                     chosen.substr(1);
        }
    }
    std::vector<std::byte> bytes(chosen.size());
    if (!chosen.empty()) std::memcpy(bytes.data(), chosen.data(), chosen.size());
    comm.broadcast(bytes, 0);
    const std::string message(reinterpret_cast<const char*>(bytes.data()) + 1, bytes.size() - 1);
    if (static_cast<char>(bytes[0]) == 'I') throw InputError(message);
    throw Error(message);
}

void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw IoError(path.string() + ": cannot write");
}

// The next step at which `every` asks for output after `step` (UINT64_MAX: never).
std::uint64_t nextMultiple(std::uint64_t step, std::uint64_t every) {
    return every == 0 ? UINT64_MAX : (step / every + 1) * every;
}

}  // namespace

RunOutcome executeRunOnRanks(const RunRequest& request, dist::Communicator& comm,
                             const RunCallbacks& callbacks) {
    const Scenario& sc = request.scenario;
    const std::filesystem::path dir = sc.output.dir;
    const bool lead = comm.rank() == 0;
    const auto wallStart = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    };
    together(comm, [&] {
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec)
            throw InputFileError(dir.string() +
                                 ": cannot create output directory: " + ec.message());
        if (lead) writeText(dir / "scenario.toml", scenarioToToml(sc, dir));
    });

    std::string device = "host CPU";
    if (request.backend == Backend::Cuda) {
        const int count = cudaDeviceCount();
        const int mine = count > 0 ? comm.localRank() % count : 0;
        useCudaDevice(mine);
        device = cudaStatus() + " (device " + std::to_string(mine) + ")";
    }
    io::RunInfo info;
    info.model = sc.model->name;
    info.seed = sc.seed;
    info.backend = request.backend;
    info.device = device;
    info.scenarioPath = request.scenarioPath;
    info.commandLine = request.commandLine;
    info.stepsRequested = sc.steps;
    info.startedAt = io::isoTimestampNow();
    info.ranks = comm.gatherStrings(comm.host() + ": " + device, 0);
    info.mpi = comm.library();

    RunOutcome outcome;
    outcome.checkpoint = dir / "checkpoint.cfchk";
    const std::filesystem::path myCheckpoint =
        io::rankCheckpointPath(outcome.checkpoint, comm.rank(), comm.size());

    // The model, split over the ranks; a restart reads this rank's checkpoint file.
    std::unique_ptr<Model> model;
    ParamSet parameters = sc.parameters;
    std::vector<ParamChange> history;
    std::uint32_t seed = sc.seed;
    together(comm, [&] {
        model = sc.model->create(request.backend);
        auto* pieces = dynamic_cast<dist::Distributable*>(model.get());
        if (!pieces)
            throw ParameterError(sc.model->name + " does not run on several ranks yet: run it " +
                                 "on one (without mpirun)");
        pieces->distribute(comm);
        std::optional<io::Checkpoint> cp;
        if (request.resume) {
            io::checkCheckpointRanks(*request.resume, comm.size());
            ModelRegistry only;  // the checkpoint must be of this scenario's model
            only.add(*sc.model);
            cp = io::readCheckpoint(
                io::rankCheckpointPath(*request.resume, comm.rank(), comm.size()), only);
            if (cp->model != sc.model->name)
                throw InputFileError(*request.resume + ": a checkpoint of " + cp->model +
                                     ", not of " + sc.model->name);
            parameters = cp->parameters;
            history = cp->history;
            seed = cp->seed;
        }
        model->reset(parameters, seed);
        if (cp) try {
                model->restore(cp->state);
            } catch (const IoError& e) {  // a piece the model cannot take came from the file
                throw InputFileError(*request.resume + ": " + e.what());
            }
    });
    const dist::GridPiece piece = dynamic_cast<dist::Distributable&>(*model).piece();
    const std::uint64_t firstStep = model->step();
    outcome.firstStep = firstStep;
    const std::optional<std::uint64_t> continueAfter =
        request.resume ? std::optional<std::uint64_t>(firstStep) : std::nullopt;

    // Outputs: the series on rank 0 (every rank computes the metrics together), snapshots
    // as pieces, a checkpoint per rank.
    std::unique_ptr<io::SeriesWriter> series;
    std::unique_ptr<io::PieceSnapshotWriter> snapshots;
    together(comm, [&] {
        if (lead && sc.output.seriesEvery > 0)
            series = continueAfter ? std::make_unique<io::SeriesWriter>(
                                         dir / "series.csv", sc.model->timeUnit, *continueAfter)
                                   : std::make_unique<io::SeriesWriter>(dir / "series.csv",
                                                                        sc.model->timeUnit);
    });
    if (sc.output.snapshotEvery > 0 && io::hdf5Available()) {
        snapshots = std::make_unique<io::PieceSnapshotWriter>(dir, sc.model->name, comm);
        if (continueAfter) snapshots->adoptExisting(*continueAfter);
    }
    auto writeSeries = [&] {
        const std::vector<Metric> m = model->metrics();  // collective
        together(comm, [&] {
            if (series) {
                series->append(model->step(), model->time(), m);
                series->flush();
            }
        });
        return m;
    };
    auto writeSnapshot = [&] { snapshots->write(model->snapshot(), piece); };
    auto writeCheckpoint = [&] {
        together(comm, [&] {
            const io::Checkpoint cp{sc.model->name, seed,    request.backend,
                                    parameters,     history, model->snapshot()};
            io::writeCheckpoint(myCheckpoint, cp);
        });
    };

    auto finish = [&](int exitCode, std::string status, std::string message) {
        outcome.metrics = model->metrics();  // collective
        info.stepsCompleted = model->step();
        info.wallSeconds = elapsed();
        info.status = status;
        info.message = message;
        info.finishedAt = io::isoTimestampNow();
        info.parameters = &parameters;
        info.history = history;
        try {
            together(comm, [&] {
                if (lead) io::writeRunJson(dir / "run.json", info);
            });
        } catch (const Error& e) {
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
        outcome.stepsCompleted = model->step();
        std::string text = "output in " + dir.string() + ": run.json, scenario.toml";
        if (sc.output.seriesEvery > 0) text += ", series.csv";
        if (snapshots && snapshots->count() > 0)
            text += ", " + snapshots->xdmfPath().filename().string() + " (" +
                    std::to_string(snapshots->count()) + " snapshots in " +
                    std::to_string(comm.size()) + " pieces each; open in ParaView)";
        text += ", " + outcome.checkpoint.filename().string() + " as " +
                std::to_string(comm.size()) + " files, one per rank (" +
                myCheckpoint.filename().string() + ", ...)";
        outcome.outputs = text;
        return outcome;
    };

    try {
        if (!request.resume) {
            if (sc.output.seriesEvery > 0) writeSeries();
            if (snapshots) writeSnapshot();
        }
        // Batches of about a tenth of a second, decided by rank 0 for all.
        std::uint64_t batch = 1;
        while (model->step() < sc.steps) {
            const std::uint64_t now = model->step();
            const std::uint64_t next =
                std::min({sc.steps, now + batch, nextMultiple(now, sc.output.seriesEvery),
                          snapshots ? nextMultiple(now, sc.output.snapshotEvery) : UINT64_MAX,
                          nextMultiple(now, sc.output.checkpointEvery)});
            const auto t0 = std::chrono::steady_clock::now();
            try {
                model->advance(next - now);
                model->synchronize();
            } catch (const SimulationError&) {
                throw;  // raised on every rank alike (distributable.hpp)
            } catch (const std::exception& e) {
                endJob(comm, e.what());
            }
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const std::uint64_t at = model->step();
            if (sc.output.seriesEvery > 0 && at % sc.output.seriesEvery == 0) writeSeries();
            if (snapshots && at % sc.output.snapshotEvery == 0) writeSnapshot();
            if (sc.output.checkpointEvery > 0 && at % sc.output.checkpointEvery == 0)
                writeCheckpoint();
            const double rate = seconds > 0 ? static_cast<double>(next - now) / seconds : 0.0;
            batch = static_cast<std::uint64_t>(
                comm.broadcastDoubles({std::clamp(rate / 10.0, 1.0, 1e9)}, 0)[0]);
            if (lead && callbacks.note)  // rank 0's notes speak for all (the same model)
                for (const std::string& n : model->takeNotes())
                    callbacks.note(n);
            if (lead && callbacks.progress) {
                Frame frame;
                frame.step = at;
                frame.time = model->time();
                frame.stepsPerSecond = rate;
                frame.running = true;
                callbacks.progress(frame, firstStep);
            }
            // Ctrl-C (mpirun passes the signal on to every rank): all stop at this step.
            if (comm.anyOf(interruptRequested())) {
                try {
                    writeCheckpoint();
                } catch (const Error& e) {
                    return finish(kExitRunFailed, "failed",
                                  std::string("interrupted by signal; ") + e.what());
                }
                return finish(kExitInterrupted, "interrupted", "interrupted by signal");
            }
        }
        writeCheckpoint();
    } catch (const InputError&) {
        throw;
    } catch (const Error& e) {
        return finish(kExitRunFailed, "failed", e.what());
    }
    return finish(kExitOk, "completed", "");
}

}  // namespace cf::cli
