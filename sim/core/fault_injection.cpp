// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/fault_injection.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

namespace cf {

namespace {

std::atomic<std::size_t> gDeviceBytes{0};

// The value after `name=` (empty for a bare `name`), or nullopt when not listed.
std::optional<std::string> faultEntry(std::string_view name) {
    const char* env = std::getenv("CELLFORGE_FAULTS");
    if (env == nullptr) return std::nullopt;
    std::string_view list(env);
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        const std::size_t eq = item.find('=');
        if (item.substr(0, eq) == name)
            return eq == std::string_view::npos ? std::string() : std::string(item.substr(eq + 1));
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return std::nullopt;
}

}  // namespace

bool faultInjected(std::string_view name) {
    return faultEntry(name).has_value();
}

std::optional<std::size_t> faultBytes(std::string_view name) {
    const std::optional<std::string> v = faultEntry(name);
    if (!v || v->empty()) return std::nullopt;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
    if (end == v->c_str()) return std::nullopt;
    std::size_t scale = 1;
    if (*end == 'K' || *end == 'k')
        scale = std::size_t{1} << 10;
    else if (*end == 'M' || *end == 'm')
        scale = std::size_t{1} << 20;
    else if (*end == 'G' || *end == 'g')
        scale = std::size_t{1} << 30;
    else if (*end != '\0')
        return std::nullopt;
    return static_cast<std::size_t>(n) * scale;
}

bool deviceAllocationFails(std::size_t bytes) {
    const std::optional<std::size_t> limit = faultBytes("device-memory");
    return limit && gDeviceBytes.load() + bytes > *limit;
}

std::size_t deviceBytesHeld() {
    return gDeviceBytes.load();
}

void deviceBytesAllocated(std::size_t bytes) {
    gDeviceBytes += bytes;
}

void deviceBytesReleased(std::size_t bytes) {
    gDeviceBytes -= bytes;
}

}  // namespace cf
