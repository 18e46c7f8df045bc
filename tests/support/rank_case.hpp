// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A rank test case that runs on both backends (tests/sim/dist): Suite.NameCpu, and
// Suite.NameCuda, which tests.cmake runs as the .gpu entries (one GPU per rank) and which
// skips, saying why, where no CUDA device is. The body takes the backend as `b`:
//   CF_RANK_CASE(LatticeRanks, FreeDiffusionEqualsOneRank) { runCase(b, ...); }
#include <gtest/gtest.h>

#include "sim/core/backend.hpp"
#include "tests/support/backends.hpp"

#define CF_RANK_CASE(suite, name)          \
    void name(Backend b);                  \
    TEST(suite, name##Cpu) {               \
        name(Backend::Cpu);                \
    }                                      \
    TEST(suite, name##Cuda) {              \
        CF_REQUIRE_BACKEND(Backend::Cuda); \
        name(Backend::Cuda);               \
    }                                      \
    void name(Backend b)
