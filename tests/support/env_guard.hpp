// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Restores an environment variable (its value, or its absence) when the test scope ends, for
// tests that force a choice through the environment (CELLFORGE_LATTICE_SWEEP, cuFFT's path).
#include <cstdlib>
#include <string>

namespace cf::test {

struct EnvGuard {
    std::string name, old;
    bool had;
    explicit EnvGuard(const char* n) : name(n) {
        const char* v = std::getenv(n);
        had = v != nullptr;
        if (had) old = v;
    }
    ~EnvGuard() {
        if (had)
            setenv(name.c_str(), old.c_str(), 1);
        else
            unsetenv(name.c_str());
    }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;
};

}  // namespace cf::test
