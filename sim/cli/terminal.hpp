// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Terminal output for the CLI: progress line and Ctrl-C handling.
#include <cstdint>
#include <string>

namespace cf::cli {

// True when stderr is an interactive terminal (progress lines are shown only then).
bool stderrIsTerminal();

// Installs SIGINT/SIGTERM handlers that only set a flag; the run loop polls it so that
// the interruption is handled at a step boundary (checkpoint written, files closed).
void installInterruptHandler();
bool interruptRequested();

// "  42%  step 4200/10000  1.23e+04 steps/s  ETA 0:00:05"
std::string progressLine(std::uint64_t step, std::uint64_t first, std::uint64_t total,
                         double stepsPerSecond);
std::string formatDuration(double seconds);

}  // namespace cf::cli
