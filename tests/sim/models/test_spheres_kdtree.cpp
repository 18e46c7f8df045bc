// SPDX-License-Identifier: GPL-3.0-or-later
// The CPU kd-tree neighbour search (mechanics.neighbour_search = kdtree, nanoflann): it finds
// exactly the points a brute-force scan finds, and a dividing spheroid run with it follows
// the grid run; the CUDA backend refuses it by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/spheres/cpu/kd_tree_search.hpp"
#include "sim/models/spheres/spheres_model.hpp"
#include "sim/models/spheres/spheres_state.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

// 5000 points uniform in a 100 um cube; radius queries of 3, 7 and 15 um at 200 of them
// against a scan of all pairs (float distances, as both compute them): the same indices, in
// ascending order.
TEST(SpheresKdTree, FindsExactlyThePointsWithinTheRadius) {
    const std::size_t n = 5000;
    std::vector<float> x(n), y(n), z(n);
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> u(0.0f, 100.0f);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = u(gen);
        y[i] = u(gen);
        z[i] = u(gen);
    }
    spheres::KdTreeSearch tree;
    tree.build(x.data(), y.data(), z.data(), n);
    std::size_t found = 0;
    for (float r : {3.0f, 7.0f, 15.0f})
        for (std::size_t q = 0; q < n; q += 25) {
            std::vector<std::int32_t> got, want;
            tree.forEachWithin(x[q], y[q], z[q], r, [&](std::int32_t j) { got.push_back(j); });
            for (std::size_t j = 0; j < n; ++j) {
                const float dx = x[j] - x[q], dy = y[j] - y[q], dz = z[j] - z[q];
                if (dx * dx + dy * dy + dz * dz <= r * r)
                    want.push_back(static_cast<std::int32_t>(j));
            }
            ASSERT_EQ(got, want) << "query " << q << ", radius " << r;
            found += got.size();
        }
    EXPECT_GT(found, 10000u) << "the queries must find neighbours to compare";
}

// A dividing ball of 300 cells over 60 steps on the CPU, grid against kd-tree: the same pairs
// interact, so the population (ids, volumes) is identical; positions agree to 1e-9 um (the
// forces add up in another order: grid order against ascending index).
TEST(SpheresKdTree, DividingSpheroidFollowsTheGridRun) {
    auto run = [](const char* search) {
        ParamSet ps{spheres::descriptor().parameters()};
        for (const char* a : {"init.layout=ball", "init.count=300", "init.radius=80",
                              "init.age_spread=1", "growth.rate=30000", "mechanics.sort_every=3"})
            ps.setFromAssignment(a);
        ps.setFromAssignment(std::string("mechanics.neighbour_search=") + search);
        auto m = spheres::descriptor().create(Backend::Cpu);
        m->reset(ps, 11);
        m->advance(60);
        return spheres::readSnapshot(m->snapshot());
    };
    const spheres::HostState grid = run("grid"), tree = run("kdtree");
    ASSERT_EQ(grid.size(), tree.size());
    EXPECT_GT(grid.size(), 400u) << "the ball must have divided";
    EXPECT_EQ(grid.id, tree.id);
    EXPECT_EQ(grid.volume, tree.volume);
    double worst = 0;
    for (std::size_t i = 0; i < grid.size(); ++i)
        worst = std::max({worst, std::fabs(grid.x[i] - tree.x[i]), std::fabs(grid.y[i] - tree.y[i]),
                          std::fabs(grid.z[i] - tree.z[i])});
    std::printf("%zu cells after 60 steps: max |x_grid - x_kdtree| %.3g um\n", grid.size(), worst);
    EXPECT_LE(worst, 1e-9);
}

TEST(SpheresKdTree, CudaRefusesItByName) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    ParamSet ps{spheres::descriptor().parameters()};
    ps.setFromAssignment("mechanics.neighbour_search=kdtree");
    auto m = spheres::descriptor().create(Backend::Cuda);
    try {
        m->reset(ps, 1);
        FAIL() << "kdtree on CUDA must be refused";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("mechanics.neighbour_search"), std::string::npos);
    }
}

}  // namespace
}  // namespace cf
