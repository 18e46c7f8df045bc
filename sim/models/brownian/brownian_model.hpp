// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <memory>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/models/brownian/brownian_params.hpp"
#include "sim/models/brownian/brownian_state.hpp"

namespace cf::brownian {

ModelDescriptor descriptor();

// The metrics both backends report: msd [um^2] and overlapping_pairs [1].
inline constexpr const char* kMsdDescription =
    "Mean squared displacement of the particles since the start (6 D t when free)";
inline constexpr const char* kOverlapsDescription = "Pairs of particles closer than two radii now";

// Validates parameter combinations that single ranges cannot express; throws
// ParameterError naming the parameters.
BrownianParams checkedParams(const ParamSet& params);

std::unique_ptr<Model> makeCpuModel();
std::unique_ptr<Model> makeCudaModel();  // defined only in CUDA builds

// `cellforge-sim bench brownian` cases (brownian_bench.cpp).
std::vector<BenchCase> benchCases();

}  // namespace cf::brownian
