// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Benchmark cases of `epidermis` (Table 3 of the paper and the targets).
#include <vector>

#include "sim/core/model.hpp"

namespace cf::epidermis {

std::vector<BenchCase> benchCases();

}  // namespace cf::epidermis
