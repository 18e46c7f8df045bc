// SPDX-License-Identifier: GPL-3.0-or-later
// `lattice` on every backend: MSD = 6 D t, per-sweep move probability 2q, exact
// conservation under forced overflows, reflective walls and obstacles, exact restart,
// layouts agreeing. (CPU and CUDA agreeing bit for bit: test_lattice_cuda.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sim/models/lattice/lattice_model.hpp"
#include "tests/sim/models/lattice_test_support.hpp"

namespace cf {
namespace {

using LatticeTest = test::LatticeFixture;
using test::metric;

// Paper's case 1: lambda = 2 nm, tau = 10 ns (lattice D = 200 nm^2/us), 16,380 tracked
// particles per D, for the nine D of the paper (q = 0.5 ... 2.5e-5). The per-axis walk has
// variance 2 q lambda^2 per step, so E[MSD] = 6 D t exactly at every t; the run only has to
// be long enough for the mean to be precise. The relative standard error of the mean |r|^2
// over N tracers is about sqrt((2/3 + 1/m) / N) with m moves per tracer (Gaussian limit
// plus the Poisson count of moves when m is small): each group runs until m >= 3, giving
// <= 0.78% at N = 16,380, so the 2% tolerance is >= 2.5 standard errors; the seed is fixed,
// and the CPU and CUDA lattices are identical, so the outcome is reproducible. The paper's
// lattice is 128^3 (run on CUDA); the CPU runs 32^3 and, for the long run of the smallest
// D, 32 x 16 x 16 (at most 2.5 particles per site, byte16's 16 slots: the chance of an
// overflow, whose re-insertion would add moves, is below 1e-9 per site and sweep), as the
// MSD does not depend on the lattice size.
TEST_P(LatticeTest, FreeDiffusionMsdIsSixDtForThePapersNineD) {
    const int n = 16380;
    const int size = GetParam() == Backend::Cuda ? 128 : 32;
    struct Group {
        std::vector<double> d;
        int steps;
    };
    // 6 q steps >= 3 moves per tracer for the smallest D of each group.
    const Group groups[] = {{{200, 100, 50, 25, 10}, 100}, {{5, 1, 0.1}, 2000}, {{0.01}, 20000}};
    const auto t0 = std::chrono::steady_clock::now();
    for (const Group& grp : groups) {
        const int small = grp.steps > 10000 && GetParam() == Backend::Cpu ? size / 2 : size;
        set({"lattice.nx=" + std::to_string(size), "lattice.ny=" + std::to_string(small),
             "lattice.nz=" + std::to_string(small), "lattice.lambda=2", "lattice.tau=10",
             "lattice.layout=byte16", "species.count=" + std::to_string(grp.d.size()),
             "tracking.per_species=" + std::to_string(n)});
        for (std::size_t s = 0; s < grp.d.size(); ++s) {
            const std::string k = std::to_string(s + 1);
            set({"species.d" + k + "=" + std::to_string(grp.d[s]),
                 "species.n" + k + "=" + std::to_string(n)});
        }
        auto m = make(7);
        m->advance(static_cast<std::uint64_t>(grp.steps));
        const double t = grp.steps * 0.01;  // [us]
        EXPECT_NEAR(m->time(), t, 1e-9 * t);
        EXPECT_EQ(metric(*m, "overflows_total"), 0.0);
        for (std::size_t s = 0; s < grp.d.size(); ++s) {
            const double expected = 6.0 * grp.d[s] * t;
            const double moves = 6.0 * grp.d[s] * 0.01 / 4.0 * grp.steps;
            const double se = std::sqrt((2.0 / 3.0 + 1.0 / moves) / n);
            const double msd = metric(*m, "msd_s" + std::to_string(s + 1));
            std::printf(
                "D = %5g nm^2/us, t = %5g us: MSD %10.4f nm^2, 6Dt %9.3f, error %+.3f%% "
                "(%+.1f SE)\n",
                grp.d[s], t, msd, expected, 100.0 * (msd / expected - 1.0),
                (msd / expected - 1.0) / se);
            EXPECT_NEAR(msd, expected, 0.02 * expected) << "D = " << grp.d[s];
        }
    }
    std::printf("%d^3 sites, nine D: %.2f s\n", size,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

// After one step the x displacement comes from the x sweep alone: a particle moved with
// probability 2q, half each way. Binomial standard error sqrt(2q(1 - 2q) / N); 5 of them.
TEST_P(LatticeTest, MoveProbabilityPerSweepIsTwoQ) {
    const int n = 40000;
    set({"lattice.nx=32", "lattice.ny=32", "lattice.nz=32", "lattice.lambda=2", "lattice.tau=10",
         "species.count=2", "species.d1=100", "species.d2=10", "species.n1=40000",
         "species.n2=40000", "tracking.per_species=40000"});
    auto m = make(3);
    m->advance(1);
    const Snapshot s = m->snapshot();
    const auto disp = s.at("displacement").as<std::int32_t>();
    const auto species = s.at("tracked_species").as<std::uint8_t>();
    ASSERT_EQ(metric(*m, "overflows_total"), 0.0);  // otherwise re-insertions add moves
    for (int sp = 1; sp <= 2; ++sp) {
        const double q = sp == 1 ? 0.25 : 0.025;
        for (int axis = 0; axis < 3; ++axis) {
            int plus = 0, minus = 0;
            for (std::size_t t = 0; t < species.size(); ++t) {
                if (species[t] != sp) continue;
                plus += disp[3 * t + axis] == 1;
                minus += disp[3 * t + axis] == -1;
                ASSERT_LE(std::abs(disp[3 * t + axis]), 1);
            }
            const double se = std::sqrt(2 * q * (1 - 2 * q) / n);
            EXPECT_NEAR((plus + minus) / double(n), 2 * q, 5 * se) << "species " << sp;
            EXPECT_NEAR(plus / double(n), q, 5 * std::sqrt(q * (1 - q) / n));
        }
    }
}

// n_max = 2 at 0.74 particles per site, 10^5 steps: a few per cent of the sites overflow
// each sweep (hundreds of thousands of re-insertions over the run).
// validation.check_counts throws at the first step where any species count changes.
TEST_P(LatticeTest, ConservationUnderForcedOverflows) {
    set({"lattice.nx=8", "lattice.ny=8", "lattice.nz=8", "lattice.layout=packed32",
         "lattice.n_max=2", "lattice.lambda=2", "lattice.tau=10", "species.count=3",
         "species.d1=200", "species.d2=100", "species.d3=20", "species.n1=150", "species.n2=130",
         "species.n3=100", "tracking.per_species=100", "validation.check_counts=true"});
    auto m = make(9);
    const auto t0 = std::chrono::steady_clock::now();
    const int steps = 100000;
    ASSERT_NO_THROW(m->advance(steps));
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(metric(*m, "count_s1"), 150);
    EXPECT_EQ(metric(*m, "count_s2"), 130);
    EXPECT_EQ(metric(*m, "count_s3"), 100);
    const double total = metric(*m, "overflows_total");
    EXPECT_GT(total, 100000);
    // Every tracked id is still present exactly once.
    const auto ids = m->snapshot().at("ids").as<std::uint32_t>();
    std::vector<int> seen(300, 0);
    for (std::uint32_t id : ids)
        if (id) ++seen.at(id - 1);
    for (int c : seen)
        EXPECT_EQ(c, 1);
    std::printf(
        "%d steps, 512 sites x 2 slots, 380 particles: %.0f overflows (%.1f per "
        "step), %.2f s\n",
        steps, total, total / steps, secs);
}

// Position of each tracked id (site index) from a snapshot.
std::vector<std::int64_t> positionsOf(const Snapshot& s, std::size_t tracked) {
    const auto ids = s.at("ids").as<std::uint32_t>();
    const std::size_t sites = s.at("site_type").count;
    std::vector<std::int64_t> where(tracked, -1);
    for (std::size_t k = 0; k < ids.size(); ++k)
        if (ids[k]) where.at(ids[k] - 1) = static_cast<std::int64_t>(k % sites);
    return where;
}

// Reflective walls on all axes and 25% obstacle sites: obstacles stay empty every step,
// and each tracked particle's site equals its start plus its unwrapped displacement (a
// particle that crossed a wall would be off by a lattice length).
TEST_P(LatticeTest, ReflectiveWallsAndObstacles) {
    const int nx = 14, ny = 12, nz = 10;
    set({"lattice.nx=14", "lattice.ny=12", "lattice.nz=10", "lattice.boundary_x=reflective",
         "lattice.boundary_y=reflective", "lattice.boundary_z=reflective",
         "lattice.obstacle_fraction=0.25", "lattice.lambda=2", "lattice.tau=10", "species.count=2",
         "species.d1=200", "species.d2=60", "species.n1=1500", "species.n2=1500",
         "tracking.per_species=1500"});
    auto m = make(5);
    const Snapshot s0 = m->snapshot();
    const auto types = s0.at("site_type").as<std::uint8_t>();
    int obstacles = 0;
    for (auto t : types)
        obstacles += t == lattice::kSiteObstacle;
    EXPECT_NEAR(obstacles / double(types.size()), 0.25, 0.05);
    const auto start = positionsOf(s0, 3000);
    for (int step = 1; step <= 300; ++step) {
        m->advance(1);
        const Snapshot s = m->snapshot();
        const auto occ = s.at("occupancy").as<std::uint8_t>();
        for (std::size_t i = 0; i < occ.size(); ++i)
            if (types[i] == lattice::kSiteObstacle) {
                ASSERT_EQ(occ[i], 0) << "site " << i;
            }
        if (step % 50) continue;
        const auto now = positionsOf(s, 3000);
        const auto disp = s.at("displacement").as<std::int32_t>();
        for (std::size_t t = 0; t < now.size(); ++t) {
            const std::int64_t a = start[t];
            const std::int64_t x = a % nx + disp[3 * t], y = a / nx % ny + disp[3 * t + 1],
                               z = a / nx / ny + disp[3 * t + 2];
            ASSERT_TRUE(x >= 0 && x < nx && y >= 0 && y < ny && z >= 0 && z < nz);
            ASSERT_EQ(now[t], x + nx * (y + ny * z)) << "tracked particle " << t;
        }
    }
}

// Snapshot at step k, restore into a fresh model, continue: identical to the straight run,
// field for field, including the overflow counters (n_max = 2 forces overflows).
TEST_P(LatticeTest, RestartFromSnapshotIsBitIdentical) {
    set({"lattice.nx=10", "lattice.ny=10", "lattice.nz=10", "lattice.layout=packed32",
         "lattice.n_max=2", "species.count=2", "species.d1=100", "species.d2=40", "species.n1=700",
         "species.n2=500", "tracking.per_species=200"});
    auto a = make(21);
    a->advance(30);
    const Snapshot mid = a->snapshot();
    a->advance(40);
    const Snapshot straight = a->snapshot();
    auto b = make(21);
    b->restore(mid);
    b->advance(40);
    const Snapshot resumed = b->snapshot();
    EXPECT_EQ(resumed.step, straight.step);
    EXPECT_EQ(resumed.time, straight.time);
    ASSERT_EQ(resumed.fields.size(), straight.fields.size());
    for (std::size_t f = 0; f < straight.fields.size(); ++f)
        EXPECT_EQ(resumed.fields[f].bytes, straight.fields[f].bytes) << straight.fields[f].name;
    EXPECT_GT(metric(*b, "overflows_total"), 0);
}

// Without overflows the layouts hold the same particles in the same slots, so packed32
// (n_max = 8) and byte16 runs coincide exactly; their MSDs are then equal too.
TEST_P(LatticeTest, LayoutsAgreeWithoutOverflows) {
    set({"lattice.nx=24", "lattice.ny=24", "lattice.nz=24", "species.count=2", "species.d1=100",
         "species.d2=25", "species.n1=1500", "species.n2=1500", "tracking.per_species=1500"});
    set({"lattice.layout=byte16"});
    auto a = make(4);
    set({"lattice.layout=packed32", "lattice.n_max=8"});
    auto b = make(4);
    a->advance(50);
    b->advance(50);
    ASSERT_EQ(metric(*a, "overflows_total"), 0);
    ASSERT_EQ(metric(*b, "overflows_total"), 0);
    const Snapshot sa = a->snapshot(), sb = b->snapshot();
    EXPECT_EQ(sa.at("occupancy").bytes, sb.at("occupancy").bytes);
    // byte16 has 16 id planes, packed32 (n_max 8) 8: the extra planes stay empty.
    const auto ia = sa.at("ids").as<std::uint32_t>(), ib = sb.at("ids").as<std::uint32_t>();
    ASSERT_EQ(ia.size(), 2 * ib.size());
    EXPECT_TRUE(std::equal(ib.begin(), ib.end(), ia.begin()));
    EXPECT_TRUE(std::all_of(ia.begin() + ib.size(), ia.end(), [](auto v) { return v == 0; }));
    EXPECT_EQ(sa.at("displacement").bytes, sb.at("displacement").bytes);
    EXPECT_EQ(metric(*a, "msd_s1"), metric(*b, "msd_s1"));
    EXPECT_GT(metric(*a, "msd_s1"), 0);
}

// Views: one point per particle inside the domain, species as category.
TEST_P(LatticeTest, ViewsHaveOnePointPerParticle) {
    set({"lattice.nx=8", "lattice.ny=8", "lattice.nz=8", "species.count=2", "species.n1=100",
         "species.n2=50"});
    auto m = make(1);
    m->advance(3);
    const ModelViews v = m->views();
    ASSERT_EQ(v.clouds.size(), 1u);
    const PointCloudView& c = v.clouds[0];
    EXPECT_EQ(c.space, GetParam() == Backend::Cuda ? MemorySpace::Device : MemorySpace::Host);
    ASSERT_EQ(c.count, 150u);
    EXPECT_DOUBLE_EQ(v.boxHi[0], 8 * 2.0);
    const auto xyzr = viewToHost(c.positions, 4 * c.count, c.space);
    const auto category = viewToHost(c.categories.at(0).data, c.count, c.space);
    int second = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        for (int a = 0; a < 3; ++a) {
            EXPECT_GE(xyzr[4 * i + a], 0.0f);
            EXPECT_LE(xyzr[4 * i + a], 16.0f);
        }
        EXPECT_FLOAT_EQ(xyzr[4 * i + 3], 0.5f);
        second += category[i] == 1;
    }
    EXPECT_EQ(second, 50);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, LatticeTest, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
