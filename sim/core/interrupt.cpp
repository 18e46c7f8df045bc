// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/interrupt.hpp"

#include <csignal>

namespace cf {

namespace {
volatile std::sig_atomic_t gInterrupted = 0;
extern "C" void onInterrupt(int) {
    gInterrupted = 1;
}
}  // namespace

void installInterruptHandler() {
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

bool interruptRequested() {
    return gInterrupted != 0;
}

}  // namespace cf
