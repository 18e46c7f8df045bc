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

// Point-to-point messages (a sweep's manager and workers): every other rank sends rank 0 a
// message of its own size and an empty one; rank 0 receives them from any rank, each
// sender's in order, and answers each; nothing is left to receive afterwards.
TEST(Ranks, MessagesOfAnySizeArriveInOrderFromEveryRank) {
    Communicator& comm = cf::test::ranks();
    constexpr int kTag = 41;
    auto payload = [](int rank) {
        std::vector<std::byte> b(static_cast<std::size_t>(rank) * 10007);
        for (std::size_t i = 0; i < b.size(); ++i)
            b[i] = static_cast<std::byte>((i * 7 + static_cast<std::size_t>(rank)) & 0xff);
        return b;
    };
    if (comm.size() == 1) {  // a message to itself waits until received
        const std::vector<std::byte> b = payload(3);
        comm.send(b, 0, kTag);
        std::optional<Message> m = comm.tryReceive(0, kTag);
        ASSERT_TRUE(m);
        EXPECT_EQ(m->bytes, b);
        EXPECT_FALSE(comm.tryReceive(kAnyRank, kTag));
        return;
    }
    if (comm.rank() == 0) {
        std::vector<int> seen(static_cast<std::size_t>(comm.size()), 0);
        for (int k = 0; k < 2 * (comm.size() - 1); ++k) {
            const Message m = comm.receive(kAnyRank, kTag);
            ASSERT_GT(m.from, 0);
            EXPECT_EQ(m.tag, kTag);
            int& n = seen[static_cast<std::size_t>(m.from)];
            EXPECT_EQ(m.bytes, n == 0 ? payload(m.from) : std::vector<std::byte>{})
                << "message " << n << " of rank " << m.from;
            if (++n == 2) {
                const std::byte answer{42};
                comm.send(std::span<const std::byte>(&answer, 1), m.from, kTag + 1);
            }
        }
        EXPECT_FALSE(comm.tryReceive(kAnyRank, kTag));
    } else {
        comm.send(payload(comm.rank()), 0, kTag);
        comm.send({}, 0, kTag);
        const Message answer = comm.receive(0, kTag + 1);
        EXPECT_EQ(answer.from, 0);
        EXPECT_EQ(answer.bytes, std::vector<std::byte>{std::byte{42}});
    }
    comm.barrier();
}

TEST(SelfCommunicator, KeepsMessagesToItselfByTagAndRefusesPeers) {
    SelfCommunicator self;
    const std::vector<std::byte> a{std::byte{1}}, b{std::byte{2}, std::byte{3}};
    self.send(a, 0, 1);
    self.send(b, 0, 2);
    EXPECT_FALSE(self.tryReceive(0, 3));
    EXPECT_EQ(self.receive(kAnyRank, 2).bytes, b);
    EXPECT_EQ(self.tryReceive(0, 1)->bytes, a);
    EXPECT_THROW(self.receive(0, 1), Error);  // none left: waiting would never end
    EXPECT_THROW(self.send(a, 1, 1), Error);
    EXPECT_THROW(self.tryReceive(1, 1), Error);
}

}  // namespace
}  // namespace cf::dist
