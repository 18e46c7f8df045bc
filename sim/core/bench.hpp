// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for benchmark cases (`cellforge-sim bench`). Benchmarks measure throughput on
// the GPU machine; they are not tests and assert nothing about speed.
#include <functional>
#include <string>
#include <vector>

#include "sim/core/model.hpp"

namespace cf {

// Times `body` (which must include any device synchronization) `repeats` times after
// one warm-up call; fills median/min/max seconds.
void timeRepeats(BenchResult& result, int repeats, const std::function<void()>& body);

// The common case: a model with some parameters overridden ("group.name=value"), reset,
// `warmupSteps` steps, then `repeats` x `steps` steps.
BenchResult benchModelSteps(const ModelDescriptor& model, Backend backend,
                            const std::vector<std::string>& overrides, std::uint64_t entities,
                            std::uint64_t warmupSteps, std::uint64_t steps,
                            const BenchOptions& options);

}  // namespace cf
