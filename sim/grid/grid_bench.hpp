// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Benchmark of the uniform-grid build, for `cellforge-sim bench`.
#include "sim/core/model.hpp"

namespace cf::grid {

// "grid-build": 1,000,000 * scale uniformly random points in a periodic box with about 8
// points per cell; one repeat is one full build (keys, sort, cell ranges).
BenchCase gridBuildBenchCase();

}  // namespace cf::grid
