// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/dist/metric_exchange.hpp"

#include <cstring>

#include "sim/core/errors.hpp"

namespace cf::dist {

namespace {

void put(std::vector<std::byte>& out, const void* data, std::size_t size) {
    const auto* p = static_cast<const std::byte*>(data);
    out.insert(out.end(), p, p + size);
}

void putString(std::vector<std::byte>& out, const std::string& s) {
    const std::uint64_t n = s.size();
    put(out, &n, sizeof n);
    put(out, s.data(), s.size());
}

class Reader {
public:
    explicit Reader(const std::vector<std::byte>& b) : b_(b) {}
    void get(void* out, std::size_t size) {
        if (at_ + size > b_.size()) throw Error("broadcastMetrics: a truncated message");
        std::memcpy(out, b_.data() + at_, size);
        at_ += size;
    }
    std::string getString() {
        std::uint64_t n = 0;
        get(&n, sizeof n);
        std::string s(n, '\0');
        get(s.data(), n);
        return s;
    }

private:
    const std::vector<std::byte>& b_;
    std::size_t at_ = 0;
};

}  // namespace

std::vector<Metric> broadcastMetrics(Communicator& comm, std::vector<Metric> metrics, int root) {
    std::vector<std::byte> bytes;
    if (comm.rank() == root) {
        const std::uint64_t n = metrics.size();
        put(bytes, &n, sizeof n);
        for (const Metric& m : metrics) {
            putString(bytes, m.name);
            putString(bytes, m.unit);
            put(bytes, &m.value, sizeof m.value);
            putString(bytes, m.description);
        }
    }
    comm.broadcast(bytes, root);
    if (comm.rank() == root) return metrics;
    Reader r(bytes);
    std::uint64_t n = 0;
    r.get(&n, sizeof n);
    std::vector<Metric> out(n);
    for (Metric& m : out) {
        m.name = r.getString();
        m.unit = r.getString();
        r.get(&m.value, sizeof m.value);
        m.description = r.getString();
    }
    return out;
}

}  // namespace cf::dist
