// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/cli/terminal.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace cf::cli {

bool stderrIsTerminal() {
    return isatty(STDERR_FILENO) == 1;
}

std::string formatDuration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "--:--";
    const auto s = static_cast<long long>(seconds + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
    return buf;
}

std::string progressLine(std::uint64_t step, std::uint64_t first, std::uint64_t total,
                         double stepsPerSecond) {
    const double span = total > first ? static_cast<double>(total - first) : 1.0;
    const double done = static_cast<double>(step - first);
    const double eta = stepsPerSecond > 0 ? (span - done) / stepsPerSecond : -1.0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%5.1f%%  step %llu/%llu  %.3g steps/s  ETA %s",
                  100.0 * done / span, static_cast<unsigned long long>(step),
                  static_cast<unsigned long long>(total), stepsPerSecond,
                  formatDuration(eta).c_str());
    return buf;
}

}  // namespace cf::cli
