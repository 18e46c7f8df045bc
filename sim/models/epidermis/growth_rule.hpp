// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which cells grow at a growth event (A.12 of docs/design/epidermis.md, "low Delta"). The
// paper's test did not survive, so it is a fit with one parameter (docs/EPIDERMIS.md,
// "The growth test, calibrated"):
//   lowest   (default) the share growth.fraction of the cells with the lowest Delta grows:
//            exactly round(fraction * cells) cells, ties broken by cell index;
//   lateral  a cell grows when its Delta is below its neighbours' mean;
//   absolute a cell grows when its Delta is below growth.threshold.
// Delta in this network is close to a clock (nearly constant production, decay d_D), so an
// absolute threshold lets the whole tissue grow in step or not at all; ranking the cells
// keeps the share that grows as the one free number. The cut is worked out once per event
// on the host from every cell's Delta and applied by both backends with the same test.
#include <cstdint>
#include <span>

#include "sim/core/host_device.hpp"
#include "sim/models/epidermis/epidermis_params.hpp"

namespace cf::epidermis {

struct GrowthCut {
    std::int32_t rule = 0;  // GrowthRule
    // lowest and absolute: a cell grows when (Delta, cell) < (delta, cell) in that order.
    float delta = 0.0f;
    std::int32_t cell = -1;
};

// Delta as the growth test reads it: 0 for every cell when the network is off.
CF_HD bool cellGrows(const GrowthCut& cut, float delta, float neighbourMean, std::int32_t cell) {
    if (cut.rule == static_cast<std::int32_t>(GrowthRule::Lateral)) return delta < neighbourMean;
    return delta < cut.delta || (delta == cut.delta && cell < cut.cell);
}

// The cut of this event from the Delta of cells 0..n-1 (as cellGrows reads them).
GrowthCut growthCut(const EpidermisParams& p, std::span<const float> delta);

}  // namespace cf::epidermis
