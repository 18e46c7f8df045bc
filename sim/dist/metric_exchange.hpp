// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Metrics computed on one rank, sent whole (names, units, descriptions, values) to all.
#include <vector>

#include "sim/core/model.hpp"
#include "sim/dist/communicator.hpp"

namespace cf::dist {

// `metrics` of rank `root` on every rank (the others' argument is ignored).
std::vector<Metric> broadcastMetrics(Communicator& comm, std::vector<Metric> metrics, int root);

}  // namespace cf::dist
