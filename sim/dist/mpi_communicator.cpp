// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/dist/mpi_communicator.hpp"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_Query_cuda_support
#endif

#include <cstdlib>
#include <cstring>
#include <limits>
#include <list>
#include <mutex>

#include "sim/core/errors.hpp"

namespace cf::dist {

namespace {

void check(int rc, const char* what) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(rc, text, &length);
    throw Error(std::string("MPI: ") + what + ": " + text);
}

// MPI counts are int: messages above 2 GiB go as several.
int countOf(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw Error("MPI: a message of " + std::to_string(bytes) + " bytes is above 2 GiB");
    return static_cast<int>(bytes);
}

bool queryDeviceBuffers() {
    if (const char* force = std::getenv("CELLFORGE_MPI_DEVICE_BUFFERS"))  // 0: never
        if (std::strcmp(force, "0") == 0) return false;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return false;
#endif
}

std::string libraryVersion() {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(text, &length);
    std::string s(text, static_cast<std::size_t>(length));
    const std::size_t cut = s.find_first_of(",\n");  // "Open MPI v4.1.4, package: ..."
    return cut == std::string::npos ? s : s.substr(0, cut);
}

class Pending final : public PendingExchange {
public:
    std::vector<MPI_Request> requests;
    void wait() override {
        if (requests.empty()) return;
        check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
              "halo exchange");
        requests.clear();
    }
    ~Pending() override {
        // An exchange abandoned by an exception still owns its buffers: finish it.
        if (!requests.empty())
            MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    }
};

class MpiCommunicator final : public Communicator {
public:
    MpiCommunicator() {
        check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
        MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
        MPI_Comm_rank(comm_, &rank_);
        MPI_Comm_size(comm_, &size_);
        char name[MPI_MAX_PROCESSOR_NAME] = {};
        int length = 0;
        MPI_Get_processor_name(name, &length);
        host_.assign(name, static_cast<std::size_t>(length));
        deviceBuffers_ = queryDeviceBuffers();
        MPI_Comm local = MPI_COMM_NULL;
        check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local),
              "MPI_Comm_split_type");
        MPI_Comm_rank(local, &localRank_);
        MPI_Comm_free(&local);
        library_ = libraryVersion();
    }
    ~MpiCommunicator() override {
        // Messages still on their way are the receivers' (every one sent is received).
        for (Outgoing& o : outgoing_)
            MPI_Wait(&o.request, MPI_STATUS_IGNORE);
        MPI_Comm_free(&comm_);
    }

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    std::string host() const override { return host_; }
    int localRank() const override { return localRank_; }
    bool deviceBuffers() const override { return deviceBuffers_; }
    std::string library() const override { return library_; }

    std::unique_ptr<PendingExchange> startExchange(std::span<const Transfer> transfers) override {
        auto pending = std::make_unique<Pending>();
        pending->requests.reserve(2 * transfers.size());
        // Receives first, so a message finds its buffer posted.
        for (const Transfer& t : transfers)
            if (t.recv && t.peer >= 0) {
                MPI_Request r;
                check(MPI_Irecv(t.recv, countOf(t.bytes), MPI_BYTE, t.peer, t.tag, comm_, &r),
                      "MPI_Irecv");
                pending->requests.push_back(r);
            }
        for (const Transfer& t : transfers)
            if (t.send && t.peer >= 0) {
                MPI_Request r;
                // The tag a receiver posts names the side it receives on; the sender's
                // message for that side carries the same tag (the caller pairs them).
                check(MPI_Isend(t.send, countOf(t.bytes), MPI_BYTE, t.peer, t.tag, comm_, &r),
                      "MPI_Isend");
                pending->requests.push_back(r);
            }
        return pending;
    }

    void barrier() override { check(MPI_Barrier(comm_), "MPI_Barrier"); }

    void allreduce(std::span<double> values, ReduceOp op) override {
        check(MPI_Allreduce(MPI_IN_PLACE, values.data(), countOf(values.size()), MPI_DOUBLE,
                            mpiOp(op), comm_),
              "MPI_Allreduce");
    }
    void allreduce(std::span<std::uint64_t> values, ReduceOp op) override {
        check(MPI_Allreduce(MPI_IN_PLACE, values.data(), countOf(values.size()), MPI_UINT64_T,
                            mpiOp(op), comm_),
              "MPI_Allreduce");
    }

    void broadcast(std::vector<std::byte>& bytes, int root) override {
        std::uint64_t n = bytes.size();
        check(MPI_Bcast(&n, 1, MPI_UINT64_T, root, comm_), "MPI_Bcast");
        bytes.resize(n);
        check(MPI_Bcast(bytes.data(), countOf(n), MPI_BYTE, root, comm_), "MPI_Bcast");
    }

    std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine, int root) override {
        const int n = countOf(mine.size());
        std::vector<int> counts(rank_ == root ? static_cast<std::size_t>(size_) : 0);
        check(MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm_), "MPI_Gather");
        std::vector<int> offsets(counts.size());
        std::size_t total = 0;
        for (std::size_t r = 0; r < counts.size(); ++r) {
            offsets[r] = countOf(total);
            total += static_cast<std::size_t>(counts[r]);
        }
        std::vector<std::byte> all(total);
        check(MPI_Gatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), offsets.data(),
                          MPI_BYTE, root, comm_),
              "MPI_Gatherv");
        std::vector<std::vector<std::byte>> out;
        for (std::size_t r = 0; r < counts.size(); ++r)
            out.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
        return out;
    }

    // A copy goes out in the background (MPI_Isend), so a send never waits for its
    // receiver: not for a large message to this rank itself, nor for two ranks sending
    // to each other at once. Sent copies are released as they complete.
    void send(std::span<const std::byte> bytes, int to, int tag) override {
        std::lock_guard lock(outgoingMutex_);
        outgoing_.remove_if([](Outgoing& o) {
            int done = 0;
            MPI_Test(&o.request, &done, MPI_STATUS_IGNORE);
            return done != 0;
        });
        Outgoing& o = outgoing_.emplace_back();
        o.bytes.assign(bytes.begin(), bytes.end());
        check(MPI_Isend(o.bytes.data(), countOf(o.bytes.size()), MPI_BYTE, to, tag, comm_,
                        &o.request),
              "MPI_Isend");
    }

    Message receive(int from, int tag) override {
        MPI_Message message;
        MPI_Status status;
        check(MPI_Mprobe(from == kAnyRank ? MPI_ANY_SOURCE : from, tag, comm_, &message, &status),
              "MPI_Mprobe");
        return take(message, status);
    }

    std::optional<Message> tryReceive(int from, int tag) override {
        int found = 0;
        MPI_Message message;
        MPI_Status status;
        check(MPI_Improbe(from == kAnyRank ? MPI_ANY_SOURCE : from, tag, comm_, &found, &message,
                          &status),
              "MPI_Improbe");
        if (!found) return std::nullopt;
        return take(message, status);
    }

private:
    // Receives the message a matched probe found (MPI_Mprobe: no other thread can take it
    // between the probe and the receive).
    static Message take(MPI_Message& message, const MPI_Status& status) {
        int count = 0;
        check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
        Message m;
        m.from = status.MPI_SOURCE;
        m.tag = status.MPI_TAG;
        m.bytes.resize(static_cast<std::size_t>(count));
        check(MPI_Mrecv(m.bytes.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
        return m;
    }

    static MPI_Op mpiOp(ReduceOp op) {
        switch (op) {
            case ReduceOp::Sum:
                return MPI_SUM;
            case ReduceOp::Min:
                return MPI_MIN;
            case ReduceOp::Max:
                return MPI_MAX;
        }
        return MPI_SUM;
    }

    struct Outgoing {
        std::vector<std::byte> bytes;
        MPI_Request request = MPI_REQUEST_NULL;
    };
    std::mutex outgoingMutex_;
    std::list<Outgoing> outgoing_;  // sent, maybe not yet delivered (a list: stable buffers)
    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1, localRank_ = 0;
    std::string host_, library_;
    bool deviceBuffers_ = false;
};

}  // namespace

bool launchedAsRank() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
        if (std::getenv(v)) return true;
    return false;
}

MpiSession::MpiSession(int* argc, char*** argv) {
    int provided = 0;
    check(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    if (provided < MPI_THREAD_SERIALIZED) {
        MPI_Finalize();
        throw Error("MPI: the library offers no thread support (MPI_THREAD_SERIALIZED needed)");
    }
}

MpiSession::~MpiSession() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

std::unique_ptr<Communicator> MpiSession::world() const {
    return std::make_unique<MpiCommunicator>();
}

void MpiSession::abortJob(int exitCode) {
    MPI_Abort(MPI_COMM_WORLD, exitCode);
    std::_Exit(exitCode);
}

std::string mpiDescription() {
    std::string s = libraryVersion();
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    s += ", built CUDA-aware (device buffers when the run-time library agrees)";
#else
    s += ", not CUDA-aware (halos go through pinned host buffers)";
#endif
    return s;
}

}  // namespace cf::dist
