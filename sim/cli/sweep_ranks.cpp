// SPDX-License-Identifier: GPL-3.0-or-later
// `mpirun -n K cellforge-sim sweep ...`: the sweep over the ranks of a job. Rank 0 is the
// manager: it hands out one grid point at a time to whichever worker asks (runs differ in
// cost), prints the progress and writes summary.csv. Ranks 1..K-1 are workers: each runs
// its points as the one-process sweep does (executeSweepRun, writing DIR/run-NNNN itself,
// so on several hosts DIR must be a shared file system) and reports the record back.
//
// Every rank plans the sweep (the same checks as one process) and they agree before any
// run starts; a rank that fails outside a run stops the sweep with its rank and host
// named. A worker that dies outright is the launcher's to notice: mpirun ends the whole
// job, and the summary on disk is the one written after the last finished run.
//
// Messages (sim/dist/communicator.hpp send/receive), one tag each way, so that messages
// between two ranks stay in order:
//   worker -> manager   Ready | Note(run, text) | Result(run, record) | Failed(code, text)
//   manager -> worker   Run(run) | Done | Stop (stop the run in hand, as Ctrl-C does)
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <thread>

#include "sim/cli/sweep_execution.hpp"
#include "sim/cli/terminal.hpp"
#include "sim/core/fault_injection.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/cuda/cuda_device.hpp"
#include "sim/dist/communicator.hpp"
#if CELLFORGE_HAVE_MPI
#include "sim/dist/mpi_communicator.hpp"
#endif

namespace cf::cli {

namespace {

constexpr int kManager = 0;
constexpr int kTagToManager = 7101;
constexpr int kTagToWorker = 7102;

enum class ToManager : std::uint8_t { Ready = 1, Note, Result, Failed };
enum class ToWorker : std::uint8_t { Run = 1, Done, Stop };

// The bytes of one message: fixed-size numbers as they are in memory (every rank runs the
// same program) and strings with their length.
class Writer {
public:
    Writer& u64(std::uint64_t v) { return raw(&v, sizeof v); }
    Writer& f64(double v) { return raw(&v, sizeof v); }
    Writer& str(const std::string& s) {
        u64(s.size());
        return raw(s.data(), s.size());
    }
    std::span<const std::byte> bytes() const { return bytes_; }

private:
    Writer& raw(const void* p, std::size_t n) {
        // resize and copy (not insert: GCC 12 warns falsely about insert's memmove)
        const std::size_t at = bytes_.size();
        bytes_.resize(at + n);
        if (n > 0) std::memcpy(bytes_.data() + at, p, n);
        return *this;
    }
    std::vector<std::byte> bytes_;
};

class Reader {
public:
    explicit Reader(const std::vector<std::byte>& bytes) : bytes_(bytes) {}
    std::uint64_t u64() {
        std::uint64_t v = 0;
        raw(&v, sizeof v);
        return v;
    }
    double f64() {
        double v = 0;
        raw(&v, sizeof v);
        return v;
    }
    std::string str() {
        const std::size_t n = u64();
        const std::size_t at = take(n);
        return std::string(reinterpret_cast<const char*>(bytes_.data() + at), n);
    }

private:
    void raw(void* p, std::size_t n) { std::memcpy(p, bytes_.data() + take(n), n); }
    // Moves past `n` bytes and returns where they start.
    std::size_t take(std::size_t n) {
        if (n > bytes_.size() - pos_) throw Error("sweep: a message between ranks is truncated");
        pos_ += n;
        return pos_ - n;
    }
    const std::vector<std::byte>& bytes_;
    std::size_t pos_ = 0;
};

Writer message(ToManager type) {
    Writer w;
    w.u64(static_cast<std::uint64_t>(type));
    return w;
}
Writer message(ToWorker type) {
    Writer w;
    w.u64(static_cast<std::uint64_t>(type));
    return w;
}

// What the summary needs of a record (a metric's description stays with the worker).
void encode(Writer& w, const RunRecord& r) {
    w.u64(static_cast<std::uint64_t>(r.state)).str(r.error);
    const RunOutcome& o = r.outcome;
    w.u64(static_cast<std::uint64_t>(o.exitCode)).str(o.status).str(o.message);
    w.f64(o.wallSeconds).u64(o.firstStep).u64(o.stepsCompleted).u64(o.metrics.size());
    for (const Metric& m : o.metrics)
        w.str(m.name).str(m.unit).f64(m.value);
}

RunRecord decodeRecord(Reader& in) {
    RunRecord r;
    r.state = static_cast<RunRecord::State>(in.u64());
    r.error = in.str();
    RunOutcome& o = r.outcome;
    o.exitCode = static_cast<int>(in.u64());
    o.status = in.str();
    o.message = in.str();
    o.wallSeconds = in.f64();
    o.firstStep = in.u64();
    o.stepsCompleted = in.u64();
    o.metrics.resize(in.u64());
    for (Metric& m : o.metrics) {
        m.name = in.str();
        m.unit = in.str();
        m.value = in.f64();
    }
    return r;
}

// Every rank's host, in rank order, on every rank.
std::vector<std::string> allHosts(dist::Communicator& ranks) {
    std::string joined;
    for (const std::string& h : ranks.gatherStrings(ranks.host(), kManager))
        joined += h + '\n';
    std::vector<std::byte> bytes(joined.size());
    std::memcpy(bytes.data(), joined.data(), joined.size());
    ranks.broadcast(bytes, kManager);
    std::vector<std::string> hosts;
    std::string line;
    for (std::byte b : bytes) {
        if (static_cast<char>(b) != '\n') {
            line += static_cast<char>(b);
            continue;
        }
        hosts.push_back(line);
        line.clear();
    }
    return hosts;
}

// "2 on node-a, 4 on node-b": the workers (ranks 1..) of each host.
std::string workersPerHost(const std::vector<std::string>& hosts) {
    std::vector<std::pair<std::string, int>> counts;
    for (std::size_t r = 1; r < hosts.size(); ++r) {
        auto it = std::find_if(counts.begin(), counts.end(),
                               [&](const auto& c) { return c.first == hosts[r]; });
        if (it == counts.end())
            counts.emplace_back(hosts[r], 1);
        else
            ++it->second;
    }
    std::string text;
    for (const auto& [host, n] : counts)
        text += (text.empty() ? "" : ", ") + std::to_string(n) + " on " + host;
    return text;
}

std::string rankName(int rank, const std::vector<std::string>& hosts) {
    return "rank " + std::to_string(rank) + " on " + hosts[static_cast<std::size_t>(rank)];
}

// The CUDA device of a worker: the n-th worker on its host takes device n (of --gpus when
// given, else of the host's devices), round the list when there are more workers.
int workerDevice(const SweepOptionsCli& options, int rank, const std::vector<std::string>& hosts) {
    int local = 0;
    for (int r = 1; r < rank; ++r)
        if (hosts[static_cast<std::size_t>(r)] == hosts[static_cast<std::size_t>(rank)]) ++local;
    if (!options.gpus.empty())
        return options.gpus[static_cast<std::size_t>(local) % options.gpus.size()];
    const int count = cudaDeviceCount();
    return count > 0 ? local % count : -1;
}

// Ends the job from the manager when it can no longer hand out runs (workers would wait
// for it forever).
[[noreturn]] void abortJob(int code) {
#if CELLFORGE_HAVE_MPI
    dist::MpiSession::abortJob(code);
#else
    std::_Exit(code);
#endif
}

// A test's way to make a worker fail outside a run (CELLFORGE_FAULTS=sweep-worker-error=R:
// rank R throws when handed its first run; sweep-worker-abort=R: rank R dies).
void injectedWorkerFault(int rank) {
    if (faultBytes("sweep-worker-abort") == static_cast<std::size_t>(rank)) std::abort();
    if (faultBytes("sweep-worker-error") == static_cast<std::size_t>(rank))
        throw SimulationError("fault injected by CELLFORGE_FAULTS=sweep-worker-error");
}

// Runs what the manager hands out until it says Done. Returns 0, or the exit status when
// this rank failed and could not tell the manager.
int worker(const SweepPlan& plan, dist::Communicator& ranks, const std::vector<std::string>& hosts,
           int device) {
    const int me = ranks.rank();
    try {
        ranks.send(message(ToManager::Ready).bytes(), kManager, kTagToManager);
        for (;;) {
            const dist::Message m = ranks.receive(kManager, kTagToWorker);
            Reader in(m.bytes);
            const auto type = static_cast<ToWorker>(in.u64());
            if (type == ToWorker::Done) return 0;
            if (type == ToWorker::Stop) continue;  // for a run that ended before it came
            const std::size_t i = in.u64();
            injectedWorkerFault(me);
            RunRecord record;  // not run: the sweep is being interrupted
            if (!interruptRequested()) {
                RunCallbacks callbacks;
                callbacks.note = [&](const std::string& note) {
                    ranks.send(message(ToManager::Note).u64(i).str(note).bytes(), kManager,
                               kTagToManager);
                };
                // The manager's Stop comes while the run goes on: the run stops as on Ctrl-C
                // (executeRun polls the flag the signal handler sets).
                callbacks.progress = [&](const Frame&, std::uint64_t) {
                    if (ranks.tryReceive(kManager, kTagToWorker)) std::raise(SIGTERM);
                };
                record = executeSweepRun(plan, i, device, callbacks);
            }
            Writer result = message(ToManager::Result);
            result.u64(i);
            encode(result, record);
            ranks.send(result.bytes(), kManager, kTagToManager);
        }
    } catch (const std::exception& e) {
        // The manager names this rank and its host and stops the sweep.
        Writer failed = message(ToManager::Failed);
        failed.u64(static_cast<std::uint64_t>(exitStatusFor(e))).str(e.what());
        try {
            ranks.send(failed.bytes(), kManager, kTagToManager);
            // Take what the manager sent meanwhile (a Stop), up to its Done: every message
            // sent is received.
            while (
                static_cast<ToWorker>(Reader(ranks.receive(kManager, kTagToWorker).bytes).u64()) !=
                ToWorker::Done) {
            }
        } catch (const std::exception& link) {
            // The manager cannot be told: say it here, and leave without the final
            // collective (mpirun ends the job when a rank returns non-zero).
            std::fprintf(stderr,
                         "cellforge-sim: error: %s: %s (and the manager cannot be told: %s)\n",
                         rankName(me, hosts).c_str(), e.what(), link.what());
            return exitStatusFor(e);
        }
    }
    return 0;
}

struct ManagerResult {
    std::vector<RunRecord> records;
    bool interrupted = false;
    std::vector<std::string> rankErrors;  // "rank 2 on host: message"
};

ManagerResult manage(const SweepPlan& plan, dist::Communicator& ranks,
                     const std::vector<std::string>& hosts) {
    const std::size_t total = plan.grid.size();
    ManagerResult out;
    std::vector<RunRecord>& records = out.records;
    records.resize(total);
    writeSummary(plan, records);

    const std::size_t size = static_cast<std::size_t>(ranks.size());
    std::vector<std::optional<std::size_t>> held(size);  // the run each worker has
    std::size_t active = size - 1;                       // workers not yet sent Done
    std::size_t next = 0, finished = 0, failed = 0, running = 0;
    bool stopping = false;
    const bool showBar = stderrIsTerminal();
    const char* clear = showBar ? "\r\033[K" : "";
    const auto start = std::chrono::steady_clock::now();
    auto lastBar = start - std::chrono::seconds(1);

    auto send = [&](int to, const Writer& w) { ranks.send(w.bytes(), to, kTagToWorker); };
    auto stopRuns = [&] {
        stopping = true;
        for (std::size_t w = 1; w < size; ++w)
            if (held[w]) send(static_cast<int>(w), message(ToWorker::Stop));
    };
    auto handOut = [&](int w) {
        if (stopping || next >= total) {
            send(w, message(ToWorker::Done));
            --active;
            return;
        }
        const std::size_t i = next++;
        held[static_cast<std::size_t>(w)] = i;
        records[i].state = RunRecord::State::Running;
        ++running;
        send(w, message(ToWorker::Run).u64(i));
    };

    while (active > 0) {
        if (interruptRequested() && !out.interrupted) {
            out.interrupted = true;
            stopRuns();
        }
        std::optional<dist::Message> m = ranks.tryReceive(dist::kAnyRank, kTagToManager);
        if (!m) {
            const auto now = std::chrono::steady_clock::now();
            if (showBar && now - lastBar > std::chrono::milliseconds(200)) {
                const double elapsed = std::chrono::duration<double>(now - start).count();
                const double done = static_cast<double>(finished);
                const double eta =
                    done > 0 ? elapsed * (static_cast<double>(total) - done) / done : -1.0;
                std::fprintf(stderr, "\r\033[K%s",
                             sweepBar(finished, running, failed, total, done, eta).c_str());
                lastBar = now;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            continue;
        }
        const int w = m->from;
        Reader in(m->bytes);
        switch (static_cast<ToManager>(in.u64())) {
            case ToManager::Ready:
                handOut(w);
                break;
            case ToManager::Note: {
                const std::size_t i = in.u64();
                std::fprintf(stderr, "%scellforge-sim: %s: note: %s\n", clear, runName(i).c_str(),
                             in.str().c_str());
                break;
            }
            case ToManager::Result: {
                const std::size_t i = in.u64();
                RunRecord record = decodeRecord(in);
                held[static_cast<std::size_t>(w)].reset();
                --running;
                const bool done = record.state == RunRecord::State::Done;
                // Stopped, or not started because the worker had a signal already.
                const bool interrupted =
                    !done || (record.error.empty() && record.outcome.status == "interrupted");
                const bool ok =
                    done && record.error.empty() && record.outcome.status == "completed";
                if (!interrupted) ++finished;
                if (!ok && !interrupted) ++failed;
                // A worker's own signal interrupts the whole sweep, as Ctrl-C would (unless
                // the manager stopped it for another rank's error).
                if (interrupted && out.rankErrors.empty() && !out.interrupted) {
                    out.interrupted = true;
                    stopRuns();
                }
                if (done) std::fprintf(stderr, "%s%s\n", clear, runLine(plan, i, record).c_str());
                records[i] = std::move(record);
                try {
                    writeSummary(plan, records);
                } catch (const Error& e) {
                    std::fprintf(stderr, "cellforge-sim: %s\n", e.what());
                }
                handOut(w);
                break;
            }
            case ToManager::Failed: {
                in.u64();  // the worker's exit status: a rank that fails is a failed sweep
                const std::string error = rankName(w, hosts) + ": " + in.str();
                std::optional<std::size_t>& run = held[static_cast<std::size_t>(w)];
                if (run) {
                    records[*run].state = RunRecord::State::NotRun;
                    --running;
                    run.reset();
                }
                std::fprintf(stderr, "%scellforge-sim: error: %s; stopping the sweep\n", clear,
                             error.c_str());
                out.rankErrors.push_back(error);
                send(w, message(ToWorker::Done));
                --active;
                stopRuns();
                break;
            }
            default:
                throw Error("sweep: " + rankName(w, hosts) + " sent a message of unknown type");
        }
    }
    if (showBar)
        std::fprintf(
            stderr, "\r\033[K%s\n",
            sweepBar(finished, running, failed, total, static_cast<double>(finished), 0).c_str());
    return out;
}

// Every rank's verdict on the plan, agreed: 0 to go on, else the exit status of the first
// rank (the manager first) that cannot; the manager then throws that rank's error.
int agreeOnPlan(dist::Communicator& ranks, const std::vector<std::string>& hosts,
                std::exception_ptr mine) {
    std::string verdict = "0";
    if (mine) {
        try {
            std::rethrow_exception(mine);
        } catch (const std::exception& e) {
            verdict = std::to_string(exitStatusFor(e)) + " " + e.what();
        }
    }
    const std::vector<std::string> all = ranks.gatherStrings(verdict, kManager);
    int code = 0;
    std::string error;
    for (std::size_t r = 0; r < all.size() && code == 0; ++r) {
        code = std::stoi(all[r]);
        const std::size_t space = all[r].find(' ');
        if (code != 0 && r > 0)
            error = rankName(static_cast<int>(r), hosts) + ": " + all[r].substr(space + 1);
    }
    code = static_cast<int>(ranks.broadcastDoubles({static_cast<double>(code)}, kManager)[0]);
    if (code == 0 || ranks.rank() != kManager) return code;
    if (mine) std::rethrow_exception(mine);
    if (code == kExitBadInput) throw InputError(error);
    throw Error(error);
}

}  // namespace

int runSweepOnRanks(const ModelRegistry& registry, const SweepOptionsCli& options,
                    dist::Communicator& ranks) {
    // mpirun passes Ctrl-C on to every rank as SIGTERM, and SIGKILL after Open MPI's
    // odls_base_sigkill_timeout (1 s unless set): runs stop at their next step boundary.
    installInterruptHandler();
    const int me = ranks.rank();
    const std::vector<std::string> hosts = allHosts(ranks);

    // Every rank checks the whole sweep (same files, same checks as one process), as it
    // sees them on its host; then the manager creates the output directory.
    std::optional<SweepPlan> plan;
    int device = -1;
    std::exception_ptr mine;
    try {
        plan.emplace(planSweep(registry, options));
        if (options.jobs && *options.jobs != 1)
            throw ParameterError(
                "--jobs is for one process; under mpirun each worker rank runs one run at a "
                "time (start more ranks)");
        if (plan->backend == Backend::Cuda) device = workerDevice(options, me, hosts);
    } catch (const std::exception&) {
        mine = std::current_exception();
    }
    if (const int code = agreeOnPlan(ranks, hosts, mine); code != 0) return code;
    // Only once every rank can run the sweep: nothing is written for bad input.
    if (me == kManager) {
        try {
            createSweepDirectory(plan->dir);
        } catch (const std::exception&) {
            mine = std::current_exception();
        }
    }
    if (const int code = agreeOnPlan(ranks, hosts, mine); code != 0) return code;

    if (me != kManager) {
        if (const int code = worker(*plan, ranks, hosts, device); code != 0) return code;
        // The manager's exit status, so that every rank (and mpirun) returns it.
        return static_cast<int>(ranks.broadcastDoubles({}, kManager)[0]);
    }

    std::fprintf(stderr, "cellforge-sim: %zu runs on %d worker ranks: %s\n", plan->grid.size(),
                 ranks.size() - 1, workersPerHost(hosts).c_str());
    ManagerResult result;
    try {
        result = manage(*plan, ranks, hosts);
    } catch (const std::exception& e) {
        // The workers wait for this rank: without it the job would never end.
        std::fprintf(stderr, "cellforge-sim: error: %s: %s\n", rankName(me, hosts).c_str(),
                     e.what());
        abortJob(exitStatusFor(e));
    }
    int code = kExitRunFailed;
    try {
        code = finishSweep(*plan, result.records, result.interrupted && result.rankErrors.empty());
        if (!result.rankErrors.empty()) {
            for (const std::string& e : result.rankErrors)
                std::fprintf(stderr, "cellforge-sim: error: %s\n", e.c_str());
            std::fprintf(stderr, "cellforge-sim: the sweep stopped; missing: %s\n",
                         runList(missingRuns(result.records)).c_str());
            code = kExitRunFailed;
        }
    } catch (const std::exception& e) {
        ranks.broadcastDoubles({static_cast<double>(exitStatusFor(e))}, kManager);
        throw;
    }
    ranks.broadcastDoubles({static_cast<double>(code)}, kManager);
    return code;
}

}  // namespace cf::cli
