// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/staged_gather.hpp"

#include <algorithm>
#include <string>

#include "sim/core/errors.hpp"

namespace cf::gliding {

StagedGather buildStagedGather(const GlidingTables& t, const std::vector<std::int32_t>& gatherStart,
                               const std::vector<GatherEntry>& gather) {
    StagedGather g;
    g.start.assign(static_cast<std::size_t>(t.ntheta) + 1, 0);
    // The element each slot of a tail's slice is staged as, within its orientation.
    std::vector<std::int32_t> elementOfSlot(static_cast<std::size_t>(t.sliceSize), -1);
    for (std::int32_t j = 0; j < t.ntheta; ++j) {
        g.start[static_cast<std::size_t>(j)] = static_cast<std::int32_t>(g.staged.size());
        for (const Chord& c : t.chords) {
            if (c.j != j) continue;
            for (std::int32_t l = 0; l < c.len; ++l) {
                elementOfSlot[static_cast<std::size_t>(c.off + l)] =
                    static_cast<std::int32_t>(g.staged.size()) -
                    g.start[static_cast<std::size_t>(j)];
                g.staged.push_back({c.ox, c.oy, c.off + l});
            }
        }
        g.maxCount = std::max(g.maxCount, static_cast<std::int32_t>(g.staged.size()) -
                                              g.start[static_cast<std::size_t>(j)]);
    }
    g.start.back() = static_cast<std::int32_t>(g.staged.size());

    g.index.resize(gather.size());
    for (std::int32_t j = 0; j < t.ntheta; ++j)
        for (std::int32_t k = 0; k < t.ns; ++k) {
            const std::size_t b = static_cast<std::size_t>(j) * t.ns + k;
            for (std::int32_t e = gatherStart[b]; e < gatherStart[b + 1]; ++e) {
                const GatherEntry& entry = gather[static_cast<std::size_t>(e)];
                const std::int32_t element =
                    entry.slot >= 0 && entry.slot < t.sliceSize
                        ? elementOfSlot[static_cast<std::size_t>(entry.slot)]
                        : -1;
                const std::int32_t at =
                    element < 0 ? -1 : g.start[static_cast<std::size_t>(j)] + element;
                if (at < 0 || at >= g.start[static_cast<std::size_t>(j) + 1] ||
                    g.staged[static_cast<std::size_t>(at)].ox != entry.ox ||
                    g.staged[static_cast<std::size_t>(at)].oy != entry.oy)
                    throw SimulationError("gliding: gather entry " + std::to_string(e) +
                                          " of orientation " + std::to_string(j) + " names slot " +
                                          std::to_string(entry.slot) +
                                          ", no chord of that orientation and offset");
                g.index[static_cast<std::size_t>(e)] = element;
            }
        }
    return g;
}

}  // namespace cf::gliding
