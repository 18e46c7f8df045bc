// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The ranks of one distributed run, as models and drivers see them: who this rank is, the
// halo traffic between neighbours and the few collectives a run needs. The implementation
// is MPI (mpi_communicator.hpp, built where the MPI library is) or a single rank
// (SelfCommunicator); models include only this header, so they build without MPI.
//
// Every collective must be called by all ranks in the same order. Buffers are host memory
// unless deviceBuffers() says the library takes device pointers (a CUDA-aware MPI).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cf::dist {

// One message of a halo exchange: `bytes` from `send` to rank `peer`, and as many from
// `peer` into `recv` (either may be null: send only, or receive only). `tag` tells apart
// the messages two ranks exchange in one round (e.g. the plane below and the plane above).
struct Transfer {
    const void* send = nullptr;
    void* recv = nullptr;
    std::size_t bytes = 0;
    int peer = -1;
    int tag = 0;
};

// An exchange in flight: the buffers belong to it until wait() returns.
class PendingExchange {
public:
    virtual ~PendingExchange() = default;
    virtual void wait() = 0;
};

enum class ReduceOp { Sum, Min, Max };

// A point-to-point message of any size (a sweep's manager and its workers,
// sim/cli/sweep_ranks.cpp): who sent it, its tag and its bytes.
struct Message {
    int from = -1;
    int tag = 0;
    std::vector<std::byte> bytes;
};
// `from` of receive()/tryReceive(): a message of any rank.
inline constexpr int kAnyRank = -1;

// Halo traffic between GPUs queued on a CUDA stream (NCCL, nccl_exchange.hpp): nothing waits
// on the host, so a model queues whole batches of steps. Where it exists it replaces the
// host-driven exchange for device buffers; it is never required.
class StreamExchange {
public:
    virtual ~StreamExchange() = default;
    // Queues every transfer (device buffers) on `stream` (a cudaStream_t). Transfers with one
    // peer are matched in the order of their tags on both sides.
    virtual void exchange(std::span<const Transfer> transfers, void* stream) = 0;
    // Queues the sum over the ranks of `count` doubles at `send` into `recv` (device memory;
    // they may be the same) on `stream`: every rank gets the same bytes.
    virtual void sumDoubles(const double* send, double* recv, std::size_t count, void* stream) = 0;
    virtual std::string name() const = 0;  // "NCCL 2.28.9"
};

class Communicator {
public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // This rank's host name (MPI_Get_processor_name), for run.json and error messages.
    virtual std::string host() const = 0;
    // This rank's number among the ranks on its host (0, 1, ...): which GPU it takes.
    virtual int localRank() const = 0;
    // Whether transfers may name device memory (a CUDA-aware MPI, asked at run time).
    virtual bool deviceBuffers() const = 0;
    // The library's own description ("Open MPI v4.1.4", "one rank, no MPI").
    virtual std::string library() const = 0;

    // Starts every transfer at once (non-blocking), so interior work overlaps it.
    virtual std::unique_ptr<PendingExchange> startExchange(std::span<const Transfer> transfers) = 0;
    void exchange(std::span<const Transfer> transfers) { startExchange(transfers)->wait(); }

    virtual void barrier() = 0;
    virtual void allreduce(std::span<double> values, ReduceOp op) = 0;
    virtual void allreduce(std::span<std::uint64_t> values, ReduceOp op) = 0;
    // `bytes` of rank `root` on every rank (resized on the others).
    virtual void broadcast(std::vector<std::byte>& bytes, int root) = 0;
    // Every rank's `mine`, in rank order, on `root` (empty on the others).
    virtual std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine,
                                                       int root) = 0;

    // Point-to-point messages, outside any collective. send() never waits for the
    // receiver (the bytes are copied; `bytes` may be reused at once); every message sent
    // must be received, and messages from one rank with one tag arrive in the order sent.
    virtual void send(std::span<const std::byte> bytes, int to, int tag) = 0;
    // The next message with `tag` from rank `from` (kAnyRank: any rank), waiting for it.
    virtual Message receive(int from, int tag) = 0;
    // The same without waiting: nullopt while none has arrived (a rank that polls between
    // other work).
    virtual std::optional<Message> tryReceive(int from, int tag) = 0;

    // The stream-ordered exchange for device buffers, made on first use (after the rank has
    // chosen its GPU) by the maker the program provided; null without one, or when it could
    // not be made (whyNoStreamExchange() says why). Collective on first use.
    StreamExchange* streamExchange();
    std::string whyNoStreamExchange() const { return whyNoStream_; }
    using StreamExchangeMaker = std::unique_ptr<StreamExchange> (*)(Communicator&,
                                                                    std::string& why);
    void provideStreamExchange(StreamExchangeMaker maker) { maker_ = maker; }

    // Convenience collectives over the ones above.
    bool anyOf(bool mine);
    std::uint64_t min(std::uint64_t mine);
    std::vector<std::string> gatherStrings(const std::string& mine, int root);
    // The values of `mine` of rank `root` on every rank.
    std::vector<double> broadcastDoubles(std::vector<double> mine, int root);

private:
    StreamExchangeMaker maker_ = nullptr;
    std::unique_ptr<StreamExchange> stream_;
    bool streamTried_ = false;
    std::string whyNoStream_ = "the program offers no stream-ordered exchange";
};

// One rank: every collective returns its input, an exchange with a peer is an error.
// Messages to rank 0 (itself) wait in a mailbox until received.
class SelfCommunicator final : public Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string host() const override;
    int localRank() const override { return 0; }
    bool deviceBuffers() const override { return true; }  // nothing is ever sent
    std::string library() const override { return "one rank, no MPI"; }
    std::unique_ptr<PendingExchange> startExchange(std::span<const Transfer> transfers) override;
    void barrier() override {}
    void allreduce(std::span<double>, ReduceOp) override {}
    void allreduce(std::span<std::uint64_t>, ReduceOp) override {}
    void broadcast(std::vector<std::byte>&, int) override {}
    std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine, int root) override;
    void send(std::span<const std::byte> bytes, int to, int tag) override;
    // A message that was never sent is an error (waiting would never end).
    Message receive(int from, int tag) override;
    std::optional<Message> tryReceive(int from, int tag) override;

private:
    std::deque<Message> mailbox_;
};

}  // namespace cf::dist
