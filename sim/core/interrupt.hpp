// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Ctrl-C / SIGTERM for the applications: the handler only sets a flag, which the run loop
// polls at a step boundary so it can stop cleanly (checkpoint written, movie finalized).
namespace cf {

void installInterruptHandler();
bool interruptRequested();

}  // namespace cf
