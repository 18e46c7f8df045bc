// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Terminal output for the CLI: the progress line (Ctrl-C: sim/core/interrupt.hpp).
#include <cstdint>
#include <string>

namespace cf::cli {

// True when stderr is an interactive terminal (progress lines are shown only then).
bool stderrIsTerminal();

// "  42%  step 4200/10000  1.23e+04 steps/s  ETA 0:00:05"
std::string progressLine(std::uint64_t step, std::uint64_t first, std::uint64_t total,
                         double stepsPerSecond);
std::string formatDuration(double seconds);

}  // namespace cf::cli
