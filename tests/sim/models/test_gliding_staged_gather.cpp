// SPDX-License-Identifier: GPL-3.0-or-later
// The staged bound gather's tables (staged_gather.hpp; motors.bound_gather = staged): the
// CUDA kernel copies orientation j's staged elements into shared memory and each lane sums
// element index[e] for gather entry e, so its sums equal the list kernel's exactly when
// - every entry's element holds the entry's own motor (the same offset and slot),
// - every element of j is the motor of exactly one entry of the lists (j, 0 .. ns - 1), so
//   staging reads no motor twice and none the sums skip,
// - a chord's elements are consecutive slots (the contiguous loads the layout is for).
// Checked at three resolutions on the orbit-ordered lists the kernels walk.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/cpu/motors_cpu.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/staged_gather.hpp"

namespace cf {
namespace {

using gliding::GatherEntry;

gliding::GlidingTables tablesAt(int n, int ninner) {
    ParamSet ps(gliding::parameterTable());
    ps.setFromAssignment("grid.n=" + std::to_string(n));
    ps.setFromAssignment("grid.ninner=" + std::to_string(ninner));
    return gliding::buildTables(gliding::checkedParams(ps));
}

TEST(GlidingStagedGather, EveryEntryReadsItsOwnMotorOnceFromContiguousChords) {
    for (const auto& [n, ninner] : {std::pair{64, 16}, std::pair{64, 32}, std::pair{128, 32}}) {
        const gliding::GlidingTables t = tablesAt(n, ninner);
        const gliding::MotorOrbits o = gliding::buildMotorOrbits(t);
        const gliding::StagedGather g = gliding::buildStagedGather(t, o.gatherStart, o.gather);
        ASSERT_EQ(g.start.size(), static_cast<std::size_t>(t.ntheta) + 1);
        EXPECT_EQ(g.staged.size(), static_cast<std::size_t>(t.sliceSize));
        std::int32_t most = 0;
        for (int j = 0; j < t.ntheta; ++j) {
            const std::int32_t first = g.start[static_cast<std::size_t>(j)];
            const std::int32_t count = g.start[static_cast<std::size_t>(j) + 1] - first;
            most = std::max(most, count);
            std::int32_t lanes = 0;
            for (const gliding::Chord& c : t.chords)
                if (c.j == j) lanes += c.len;
            EXPECT_EQ(count, lanes) << "orientation " << j;
            // Consecutive elements of one chord (same offset) are consecutive slots.
            for (std::int32_t f = 1; f < count; ++f) {
                const GatherEntry& a = g.staged[static_cast<std::size_t>(first + f - 1)];
                const GatherEntry& b = g.staged[static_cast<std::size_t>(first + f)];
                if (a.ox == b.ox && a.oy == b.oy) {
                    EXPECT_EQ(b.slot, a.slot + 1) << j << " " << f;
                }
            }
            std::vector<int> uses(static_cast<std::size_t>(count), 0);
            for (int k = 0; k < t.ns; ++k) {
                const std::size_t b = static_cast<std::size_t>(j) * t.ns + k;
                for (std::int32_t e = o.gatherStart[b]; e < o.gatherStart[b + 1]; ++e) {
                    const std::int32_t i = g.index[static_cast<std::size_t>(e)];
                    ASSERT_TRUE(i >= 0 && i < count) << "entry " << e;
                    const GatherEntry& want = o.gather[static_cast<std::size_t>(e)];
                    const GatherEntry& got = g.staged[static_cast<std::size_t>(first + i)];
                    EXPECT_TRUE(got.ox == want.ox && got.oy == want.oy && got.slot == want.slot)
                        << "entry " << e;
                    ++uses[static_cast<std::size_t>(i)];
                }
            }
            for (std::int32_t f = 0; f < count; ++f)
                EXPECT_EQ(uses[static_cast<std::size_t>(f)], 1)
                    << "orientation " << j << ", element " << f;
        }
        EXPECT_EQ(g.maxCount, most);
        std::printf("%d^2 x %d^2: %zu staged motors, at most %d of one orientation\n", n, ninner,
                    g.staged.size(), g.maxCount);
    }
}

TEST(GlidingStagedGather, AnEntryOfNoChordIsAnInternalError) {
    const gliding::GlidingTables t = tablesAt(64, 16);
    gliding::MotorOrbits o = gliding::buildMotorOrbits(t);
    // Entry 0 belongs to orientation 0; give it the slot of a chord of another orientation.
    for (const gliding::Chord& c : t.chords)
        if (c.j != 0) {
            o.gather[0].slot = c.off;
            break;
        }
    try {
        gliding::buildStagedGather(t, o.gatherStart, o.gather);
        ADD_FAILURE() << "no error";
    } catch (const SimulationError& e) {
        EXPECT_NE(std::string(e.what()).find("gather entry 0 of orientation 0"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace cf
