// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for tests that run one body on every backend.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/core/backend.hpp"

namespace cf::test {

// Both backends this build knows, so that CUDA cases exist (and skip with a reason)
// on machines without a device instead of silently disappearing.
inline std::vector<Backend> builtBackends() {
    std::vector<Backend> out{Backend::Cpu};
    if (builtWithCuda()) out.push_back(Backend::Cuda);
    return out;
}

inline std::string backendName(const testing::TestParamInfo<Backend>& info) {
    return std::string(toString(info.param));
}

}  // namespace cf::test

// Skips the current test, printing why, when `backend` cannot run here.
#define CF_REQUIRE_BACKEND(backend)                                                             \
    do {                                                                                        \
        if (!::cf::isAvailable(backend))                                                        \
            GTEST_SKIP() << "CUDA backend unavailable on this machine: " << ::cf::cudaStatus(); \
    } while (0)
