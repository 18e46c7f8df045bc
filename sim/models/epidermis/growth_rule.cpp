// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/epidermis/growth_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace cf::epidermis {

GrowthCut growthCut(const EpidermisParams& p, std::span<const float> delta) {
    GrowthCut cut;
    cut.rule = p.growthRule;
    switch (static_cast<GrowthRule>(p.growthRule)) {
        case GrowthRule::Lateral:
            return cut;
        case GrowthRule::Absolute:
            cut.delta = p.growthThreshold;
            cut.cell = -1;  // Delta equal to the threshold is not below it
            return cut;
        case GrowthRule::Lowest:
            break;
    }
    const std::size_t n = delta.size();
    const auto growing = static_cast<std::size_t>(
        std::clamp(std::llround(static_cast<double>(p.growthFraction) * static_cast<double>(n)),
                   0LL, static_cast<long long>(n)));
    if (growing == n) {  // every cell, whatever its Delta
        cut.delta = std::numeric_limits<float>::infinity();
        cut.cell = std::numeric_limits<std::int32_t>::max();
        return cut;
    }
    // The first cell (in (Delta, index) order) that does not grow is the cut.
    std::vector<std::int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    const auto before = [&](std::int32_t a, std::int32_t b) {
        const float da = delta[static_cast<std::size_t>(a)];
        const float db = delta[static_cast<std::size_t>(b)];
        return da < db || (da == db && a < b);
    };
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(growing),
                     order.end(), before);
    cut.cell = order[growing];
    cut.delta = delta[static_cast<std::size_t>(cut.cell)];
    return cut;
}

}  // namespace cf::epidermis
