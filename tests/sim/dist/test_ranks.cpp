// SPDX-License-Identifier: GPL-3.0-or-later
// The communicator and the slab arithmetic on as many ranks as mpirun gave (1 to 4 in CI).
#include <gtest/gtest.h>

#include <numeric>

#include "sim/core/errors.hpp"
#include "sim/dist/grid_gather.hpp"
#include "sim/dist/slab.hpp"
#include "tests/support/ranks.hpp"

namespace cf::dist {
namespace {

TEST(Slabs, CoverThePlanesOnceInRankOrderWithinOnePlaneOfEachOther) {
    for (int ranks = 1; ranks <= 7; ++ranks)
        for (int planes : {ranks, ranks + 1, 13, 64, 1000}) {
            int next = 0, smallest = planes, largest = 0;
            for (int r = 0; r < ranks; ++r) {
                const Slab s = slabOf(2, planes, r, ranks, false, "n");
                EXPECT_EQ(s.begin, next);
                next = s.end;
                smallest = std::min(smallest, s.count());
                largest = std::max(largest, s.count());
                EXPECT_EQ(s.below, r == 0 ? -1 : r - 1);
                EXPECT_EQ(s.above, r + 1 == ranks ? -1 : r + 1);
            }
            EXPECT_EQ(next, planes);
            EXPECT_LE(largest - smallest, 1);
            EXPECT_GE(smallest, 1);
        }
}

TEST(Slabs, PeriodicEndsAreNeighboursAndTooFewPlanesAreRefusedByName) {
    const Slab first = slabOf(2, 10, 0, 3, true, "lattice.nz");
    EXPECT_EQ(first.below, 2);
    EXPECT_EQ(slabOf(2, 10, 2, 3, true, "lattice.nz").above, 0);
    try {
        slabOf(0, 3, 0, 4, false, "tissue.nx");
        FAIL() << "3 planes on 4 ranks accepted";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("tissue.nx = 3"), std::string::npos) << e.what();
    }
}

TEST(Ranks, HaloExchangeWithBothNeighboursDeliversTheirPlanes) {
    Communicator& comm = cf::test::ranks();
    const Slab s = slabOf(2, 4 * comm.size(), comm, true, "n");
    // Each rank sends its rank id to the rank below (tag 0: "your upper halo") and above
    // (tag 1: "your lower halo").
    std::vector<double> mine = {double(comm.rank()), double(comm.rank()) + 0.5};
    std::vector<double> fromBelow(2, -1.0), fromAbove(2, -1.0);
    // Tags name the side a plane arrives on: what a rank sends up is its upper neighbour's
    // "from below" (tag 0), what it sends down its lower neighbour's "from above" (tag 1).
    const Transfer paired[] = {
        {nullptr, fromBelow.data(), 2 * sizeof(double), s.below, 0},
        {nullptr, fromAbove.data(), 2 * sizeof(double), s.above, 1},
        {mine.data(), nullptr, 2 * sizeof(double), s.above, 0},
        {mine.data(), nullptr, 2 * sizeof(double), s.below, 1},
    };
    if (comm.size() == 1) {  // periodic on one rank: no neighbour exists to send to
        EXPECT_EQ(s.below, -1);
        EXPECT_NO_THROW(comm.exchange(paired));
        EXPECT_EQ(fromBelow[0], -1.0);
        return;
    }
    comm.exchange(paired);
    EXPECT_EQ(fromBelow[0], double(s.below));
    EXPECT_EQ(fromAbove[1], double(s.above) + 0.5);
}

TEST(Ranks, GatherGridAssemblesThePiecesAlongEveryAxis) {
    Communicator& comm = cf::test::ranks();
    const std::size_t dims[3] = {5, 6, 7};
    std::vector<std::uint32_t> whole(dims[0] * dims[1] * dims[2]);
    std::iota(whole.begin(), whole.end(), 100u);
    for (int axis = 0; axis < 3; ++axis) {
        const Slab s = slabOf(axis, static_cast<int>(dims[axis]), comm, false, "n");
        const GridPiece piece = pieceOf(s, dims);
        const std::vector<std::uint32_t> local = cutPiece(piece, whole);
        EXPECT_EQ(local.size(), piece.dims[0] * piece.dims[1] * piece.dims[2]);
        const std::vector<std::uint32_t> back =
            gatherGrid(comm, piece, std::span<const std::uint32_t>(local));
        if (comm.rank() == 0)
            EXPECT_EQ(back, whole) << "axis " << axis;
        else
            EXPECT_TRUE(back.empty());
    }
}

TEST(Ranks, CollectivesAgreeOnEveryRank) {
    Communicator& comm = cf::test::ranks();
    EXPECT_EQ(comm.anyOf(comm.rank() == comm.size() - 1), true);
    EXPECT_EQ(comm.anyOf(false), false);
    EXPECT_EQ(comm.min(100 + static_cast<std::uint64_t>(comm.rank())), 100u);
    const std::vector<double> v =
        comm.broadcastDoubles({double(comm.rank()), 2.5}, comm.size() - 1);
    EXPECT_EQ(v, (std::vector<double>{double(comm.size() - 1), 2.5}));
    const std::vector<std::string> names = comm.gatherStrings("r" + std::to_string(comm.rank()), 0);
    if (comm.rank() == 0) {
        ASSERT_EQ(names.size(), static_cast<std::size_t>(comm.size()));
        EXPECT_EQ(names.back(), "r" + std::to_string(comm.size() - 1));
    }
}

}  // namespace
}  // namespace cf::dist
