// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `cardiac` draws (layout shared by both backends).
#include <cstddef>
#include <vector>

#include "sim/core/views.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"

namespace cf::cardiac {

// views.states resolved to state indices of `m` (qualified or unique short names); throws
// ParameterError naming the unknown state and listing the model's.
std::vector<std::size_t> viewStates(const CardiacParams& p, const CheckedModel& m);
// Volume "tissue" with channels V [mV] (a fixed range from rest - 5 to rest + 120 mV),
// activation_time [ms] (0 to the current time; NaN, drawn grey, where not yet activated)
// and one per state of viewStates (its own range), `extra[k]` holding state k's values;
// arrays in `space`.
ModelViews tissueViews(const CardiacParams& p, const CheckedModel& m, MemorySpace space,
                       const float* potential, const float* activation, double time,
                       const std::vector<const float*>& extra = {});

}  // namespace cf::cardiac
