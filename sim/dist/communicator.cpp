// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/dist/communicator.hpp"

#include <unistd.h>

#include <array>
#include <cstring>

#include "sim/core/errors.hpp"

namespace cf::dist {

StreamExchange* Communicator::streamExchange() {
    if (!streamTried_) {
        streamTried_ = true;
        if (maker_) {
            std::string why;
            std::unique_ptr<StreamExchange> made = maker_(*this, why);
            // Every rank uses it, or none does.
            if (anyOf(!made)) {
                whyNoStream_ = made ? "another rank could not make it" : why;
            } else {
                stream_ = std::move(made);
                whyNoStream_.clear();
            }
        }
    }
    return stream_.get();
}

bool Communicator::anyOf(bool mine) {
    std::uint64_t v = mine ? 1 : 0;
    allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Max);
    return v != 0;
}

std::uint64_t Communicator::min(std::uint64_t mine) {
    allreduce(std::span<std::uint64_t>(&mine, 1), ReduceOp::Min);
    return mine;
}

std::vector<std::string> Communicator::gatherStrings(const std::string& mine, int root) {
    const auto* p = reinterpret_cast<const std::byte*>(mine.data());
    std::vector<std::string> out;
    for (const std::vector<std::byte>& b : gather(std::span<const std::byte>(p, mine.size()), root))
        out.emplace_back(reinterpret_cast<const char*>(b.data()), b.size());
    return out;
}

std::vector<double> Communicator::broadcastDoubles(std::vector<double> mine, int root) {
    std::vector<std::byte> bytes(mine.size() * sizeof(double));
    if (!bytes.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
    broadcast(bytes, root);
    std::vector<double> out(bytes.size() / sizeof(double));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

std::string SelfCommunicator::host() const {
    std::array<char, 256> name{};
    if (gethostname(name.data(), name.size() - 1) != 0) return "localhost";
    return name.data();
}

std::unique_ptr<PendingExchange> SelfCommunicator::startExchange(
    std::span<const Transfer> transfers) {
    for (const Transfer& t : transfers)
        if (t.peer >= 0) throw Error("a one-rank run has no rank " + std::to_string(t.peer));
    struct Done final : PendingExchange {
        void wait() override {}
    };
    return std::make_unique<Done>();
}

std::vector<std::vector<std::byte>> SelfCommunicator::gather(std::span<const std::byte> mine,
                                                             int /*root*/) {
    return {std::vector<std::byte>(mine.begin(), mine.end())};
}

void SelfCommunicator::send(std::span<const std::byte> bytes, int to, int tag) {
    if (to != 0) throw Error("a one-rank run has no rank " + std::to_string(to));
    mailbox_.push_back(Message{0, tag, std::vector<std::byte>(bytes.begin(), bytes.end())});
}

std::optional<Message> SelfCommunicator::tryReceive(int from, int tag) {
    if (from != 0 && from != kAnyRank)
        throw Error("a one-rank run has no rank " + std::to_string(from));
    for (auto it = mailbox_.begin(); it != mailbox_.end(); ++it)
        if (it->tag == tag) {
            Message m = std::move(*it);
            mailbox_.erase(it);
            return m;
        }
    return std::nullopt;
}

Message SelfCommunicator::receive(int from, int tag) {
    if (std::optional<Message> m = tryReceive(from, tag)) return std::move(*m);
    throw Error("a one-rank run has no message with tag " + std::to_string(tag) +
                " to receive (nothing else could send one)");
}

}  // namespace cf::dist
