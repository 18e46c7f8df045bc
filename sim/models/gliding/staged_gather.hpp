// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tables of the staged bound gather (motors.bound_gather = staged, the CUDA backend's
// boundGather): a warp forming W(y, j, k) for every k first copies each chord of orientation j
// it reads, lane by lane, into shared memory (contiguous loads of a tail's slice), then each
// lane sums its gather list from there in the list's own order. Host code, tested on the CPU.
#include <cstdint>
#include <vector>

#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding {

struct StagedGather {
    // Orientation j's staged elements: start[j] .. start[j + 1] - 1, its chords in chord order
    // and each chord's lanes in order; element = (ox, oy, slot) of the motor it holds.
    std::vector<std::int32_t> start;
    std::vector<GatherEntry> staged;
    // index[e]: the element of gather entry e within its orientation (0 .. count - 1).
    std::vector<std::int32_t> index;
    std::int32_t maxCount = 0;  // the most elements of one orientation
};

// From the tables' chords and the gather lists the kernels walk (gatherStart[j * ns + k],
// gather; the orbit-ordered lists of MotorOrbits). Throws SimulationError if an entry names a
// slot of no chord of its orientation (an internal error).
StagedGather buildStagedGather(const GlidingTables& t, const std::vector<std::int32_t>& gatherStart,
                               const std::vector<GatherEntry>& gather);

}  // namespace cf::gliding
