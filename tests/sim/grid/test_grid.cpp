// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/rng.hpp"
#include "sim/grid/uniform_grid.hpp"
#include "sim/grid/uniform_grid_cpu.hpp"
#include "tests/sim/grid/grid_test_support.hpp"
#include "tests/support/backends.hpp"

namespace cf::test {
namespace {

using grid::GridGeometry;

struct Case {
    GridGeometry geometry;
    GridPoints points;
    float cutoff = 1.0f;  // query cutoff, <= geometry.cutoff
};

GridGeometry geometry(std::array<float, 3> lo, std::array<float, 3> hi, float cutoff,
                      std::array<bool, 3> periodic) {
    const bool p[3] = {periodic[0], periodic[1], periodic[2]};
    return grid::makeGridGeometry(lo.data(), hi.data(), cutoff, p);
}

void addUniform(GridPoints& pts, const GridGeometry& g, int count, std::uint32_t seed) {
    const rng::Philox gen(seed, 1u);
    for (int i = 0; i < count; ++i) {
        const rng::Word4 w = gen(0, static_cast<std::uint32_t>(i), 0);
        pts.x.push_back(g.lo[0] + g.length[0] * (1.0f - rng::uniformFloat(w.x)));
        pts.y.push_back(g.lo[1] + g.length[1] * (1.0f - rng::uniformFloat(w.y)));
        pts.z.push_back(g.lo[2] + g.length[2] * (1.0f - rng::uniformFloat(w.z)));
    }
}

// Dense Gaussian blobs; tails leave the box, which tests clamping (open axes) and wrapping
// of unwrapped positions (periodic axes).
void addBlobs(GridPoints& pts, const GridGeometry& g, int blobs, int perBlob, float sigma,
              std::uint32_t seed) {
    const rng::Philox gen(seed, 2u);
    for (int b = 0; b < blobs; ++b) {
        const rng::Word4 c = gen(1, static_cast<std::uint32_t>(b), 0);
        const float cx = g.lo[0] + g.length[0] * rng::uniformFloat(c.x);
        const float cy = g.lo[1] + g.length[1] * rng::uniformFloat(c.y);
        const float cz = g.lo[2] + g.length[2] * rng::uniformFloat(c.z);
        for (int i = 0; i < perBlob; ++i) {
            const auto e = static_cast<std::uint32_t>(b * perBlob + i);
            const rng::Normal2 n1 = rng::normalPair(gen(2, e, 0));
            const rng::Normal2 n2 = rng::normalPair(gen(2, e, 1));
            pts.x.push_back(cx + sigma * static_cast<float>(n1.a));
            pts.y.push_back(cy + sigma * static_cast<float>(n1.b));
            pts.z.push_back(cz + sigma * static_cast<float>(n2.a));
        }
    }
}

Case uniformOpen() {
    Case c;
    c.geometry = geometry({-2.0f, 0.0f, 1.0f}, {6.0f, 5.0f, 4.5f}, 0.7f, {false, false, false});
    addUniform(c.points, c.geometry, 2000, 11u);
    c.cutoff = 0.6f;  // a query cutoff below the cell edge must work too
    return c;
}

Case uniformPeriodic() {
    Case c;
    c.geometry = geometry({0.0f, 0.0f, 0.0f}, {6.0f, 6.0f, 6.0f}, 0.9f, {true, true, true});
    addUniform(c.points, c.geometry, 2000, 12u);
    c.cutoff = 0.9f;
    return c;
}

Case clusteredMixed() {
    Case c;
    c.geometry = geometry({0.0f, 0.0f, 0.0f}, {8.0f, 7.0f, 8.0f}, 0.8f, {true, false, true});
    addBlobs(c.points, c.geometry, 4, 400, 0.6f, 13u);
    addUniform(c.points, c.geometry, 200, 14u);
    c.cutoff = 0.8f;
    return c;
}

Case threeCells() {
    Case c;
    // x: periodic, 3 cells; y: open, 2 cells; z: periodic, exactly 3 * cutoff long.
    c.geometry = geometry({0.0f, 0.0f, 0.0f}, {3.3f, 2.5f, 3.0f}, 1.0f, {true, false, true});
    addUniform(c.points, c.geometry, 600, 15u);
    c.cutoff = 1.0f;
    return c;
}

Case upperBoundary() {
    Case c;
    c.geometry = geometry({0.0f, 0.0f, 0.0f}, {4.0f, 4.0f, 4.0f}, 1.0f, {true, false, false});
    const float edges[] = {0.0f, 0.5f, 3.5f, 4.0f};
    for (float x : edges)
        for (float y : edges)
            for (float z : edges) {
                c.points.x.push_back(x);
                c.points.y.push_back(y);
                c.points.z.push_back(z);
            }
    addUniform(c.points, c.geometry, 400, 16u);
    c.cutoff = 1.0f;
    return c;
}

GridQueryResult buildAndQueryCpu(const GridGeometry& g, const GridPoints& pts, float cutoff,
                                 const GridPoints* rebuildFrom = nullptr) {
    grid::CpuUniformGrid cpu;
    if (rebuildFrom != nullptr)
        cpu.build(g, {rebuildFrom->x.data(), rebuildFrom->y.data(), rebuildFrom->z.data(),
                      rebuildFrom->count()});
    cpu.build(g, {pts.x.data(), pts.y.data(), pts.z.data(), pts.count()});
    GridQueryResult r;
    r.sortedIndex = cpu.sortedIndex();
    r.sortedKeys = cpu.sortedKeys();
    r.cellStart = cpu.cellStart();
    r.cellEnd = cpu.cellEnd();
    r.neighborOffset.push_back(0);
    const grid::GridView view = cpu.view();
    for (int i = 0; i < pts.count(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        long long sum = 0;
        grid::forEachNeighbor(view, {pts.x[k], pts.y[k], pts.z[k]}, cutoff,
                              [&](std::int32_t j, grid::Vec3, float) {
                                  r.neighbors.push_back(j);
                                  sum += j;
                              });
        r.neighborIndexSum.push_back(sum);
        r.neighborOffset.push_back(static_cast<std::int32_t>(r.neighbors.size()));
    }
    return r;
}

GridQueryResult buildAndQuery(Backend backend, const Case& c,
                              const GridPoints* rebuildFrom = nullptr) {
    if (backend == Backend::Cpu)
        return buildAndQueryCpu(c.geometry, c.points, c.cutoff, rebuildFrom);
#if CELLFORGE_HAVE_CUDA
    return buildAndQueryCuda(c.geometry, c.points, c.cutoff, rebuildFrom);
#else
    throw Error("this build has no CUDA backend");
#endif
}

// Checks the sort and the neighbor lists of `r` against first principles and O(N^2).
void checkAgainstBruteForce(const Case& c, const GridQueryResult& r) {
    const GridGeometry& g = c.geometry;
    const GridPoints& p = c.points;
    const int n = p.count();
    const auto un = static_cast<std::size_t>(n);
    const std::vector<std::int32_t> rank = grid::mortonRankTable(g);
    auto cellOfPoint = [&](std::int32_t i) {
        const auto k = static_cast<std::size_t>(i);
        return grid::cellOf(g, p.x[k], p.y[k], p.z[k]);
    };

    ASSERT_EQ(r.sortedIndex.size(), un);
    ASSERT_EQ(r.sortedKeys.size(), un);
    ASSERT_EQ(r.cellStart.size(), static_cast<std::size_t>(g.cellCount()));
    ASSERT_EQ(r.cellEnd.size(), static_cast<std::size_t>(g.cellCount()));

    std::vector<int> seen(un, 0);
    for (std::size_t s = 0; s < un; ++s) {
        const std::int32_t i = r.sortedIndex[s];
        ASSERT_GE(i, 0);
        ASSERT_LT(i, n);
        ++seen[static_cast<std::size_t>(i)];
        const int cell = cellOfPoint(i);
        ASSERT_EQ(r.sortedKeys[s], static_cast<std::uint32_t>(rank[static_cast<std::size_t>(cell)]))
            << "slot " << s;
        if (s > 0) {
            ASSERT_LE(r.sortedKeys[s - 1], r.sortedKeys[s]) << "keys decrease at slot " << s;
            if (r.sortedKeys[s - 1] == r.sortedKeys[s]) {
                ASSERT_LT(r.sortedIndex[s - 1], i) << "ties not in index order at slot " << s;
            }
        }
        const auto sc = static_cast<std::int32_t>(s);
        ASSERT_LE(r.cellStart[static_cast<std::size_t>(cell)], sc) << "point " << i;
        ASSERT_GT(r.cellEnd[static_cast<std::size_t>(cell)], sc) << "point " << i;
    }
    for (std::size_t i = 0; i < un; ++i)
        ASSERT_EQ(seen[i], 1) << "point " << i;
    long long covered = 0;
    for (std::size_t cell = 0; cell < r.cellStart.size(); ++cell) {
        if (r.cellStart[cell] == grid::kEmptyCell) {
            ASSERT_EQ(r.cellEnd[cell], grid::kEmptyCell);
            continue;
        }
        ASSERT_LT(r.cellStart[cell], r.cellEnd[cell]);
        covered += r.cellEnd[cell] - r.cellStart[cell];
    }
    ASSERT_EQ(covered, n);

    // Brute force with the same distance helpers, so equality is exact.
    ASSERT_EQ(r.neighborOffset.size(), un + 1);
    ASSERT_EQ(r.neighborIndexSum.size(), un);
    const float cutoff2 = c.cutoff * c.cutoff;
    int mismatches = 0;
    long long pairs = 0;
    for (std::size_t i = 0; i < un; ++i) {
        const grid::Vec3 pi{p.x[i], p.y[i], p.z[i]};
        std::vector<std::int32_t> expected;
        for (std::size_t j = 0; j < un; ++j) {
            const grid::Vec3 d = grid::displacement(g, pi, {p.x[j], p.y[j], p.z[j]});
            if (grid::squaredLength(d) <= cutoff2) expected.push_back(static_cast<std::int32_t>(j));
        }
        std::vector<std::int32_t> got(r.neighbors.begin() + r.neighborOffset[i],
                                      r.neighbors.begin() + r.neighborOffset[i + 1]);
        long long sum = 0;
        for (std::int32_t j : got)
            sum += j;
        EXPECT_EQ(sum, r.neighborIndexSum[i]) << "point " << i;
        std::sort(got.begin(), got.end());
        pairs += static_cast<long long>(expected.size());
        if (got != expected && ++mismatches <= 5)
            ADD_FAILURE() << "point " << i << ": found " << got.size() << " neighbors, brute force "
                          << expected.size();
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(pairs, static_cast<long long>(n)) << "the case should have real neighbor pairs";
}

class GridBackendTest : public testing::TestWithParam<Backend> {
protected:
    void run(const Case& c) {
        const GridQueryResult r = buildAndQuery(GetParam(), c);
        checkAgainstBruteForce(c, r);
    }
};

TEST_P(GridBackendTest, UniformOpenBox) {
    CF_REQUIRE_BACKEND(GetParam());
    run(uniformOpen());
}

TEST_P(GridBackendTest, UniformPeriodicBox) {
    CF_REQUIRE_BACKEND(GetParam());
    run(uniformPeriodic());
}

TEST_P(GridBackendTest, ClusteredMixedBoundaries) {
    CF_REQUIRE_BACKEND(GetParam());
    run(clusteredMixed());
}

TEST_P(GridBackendTest, ThreeCellsAlongPeriodicAxes) {
    CF_REQUIRE_BACKEND(GetParam());
    const Case c = threeCells();
    ASSERT_EQ(c.geometry.dims[0], 3);
    ASSERT_EQ(c.geometry.dims[2], 3);
    run(c);
}

TEST_P(GridBackendTest, PointsOnUpperBoundary) {
    CF_REQUIRE_BACKEND(GetParam());
    run(upperBoundary());
}

// A second build on the same grid object (buffers from a larger or smaller first build)
// must give the same answer as a fresh one.
TEST_P(GridBackendTest, RebuildReusesBuffers) {
    CF_REQUIRE_BACKEND(GetParam());
    const Case big = uniformPeriodic();
    Case small = big;
    for (auto* v : {&small.points.x, &small.points.y, &small.points.z})
        v->resize(300);
    checkAgainstBruteForce(small, buildAndQuery(GetParam(), small, &big.points));
    checkAgainstBruteForce(big, buildAndQuery(GetParam(), big, &small.points));
}

TEST_P(GridBackendTest, EmptyPointSet) {
    CF_REQUIRE_BACKEND(GetParam());
    Case c = uniformPeriodic();
    c.points = {};
    const GridQueryResult r = buildAndQuery(GetParam(), c);
    EXPECT_TRUE(r.sortedIndex.empty());
    EXPECT_TRUE(std::all_of(r.cellStart.begin(), r.cellStart.end(),
                            [](std::int32_t s) { return s == grid::kEmptyCell; }));
}

INSTANTIATE_TEST_SUITE_P(Backends, GridBackendTest, testing::ValuesIn(builtBackends()),
                         backendName);

TEST(GridCuda, IdenticalPermutationToCpu) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
#if CELLFORGE_HAVE_CUDA
    for (const Case& c :
         {uniformOpen(), uniformPeriodic(), clusteredMixed(), threeCells(), upperBoundary()}) {
        const GridQueryResult cpu = buildAndQuery(Backend::Cpu, c);
        const GridQueryResult gpu = buildAndQuery(Backend::Cuda, c);
        EXPECT_EQ(cpu.sortedIndex, gpu.sortedIndex);
        EXPECT_EQ(cpu.sortedKeys, gpu.sortedKeys);
        EXPECT_EQ(cpu.cellStart, gpu.cellStart);
        EXPECT_EQ(cpu.cellEnd, gpu.cellEnd);
        EXPECT_EQ(cpu.neighborOffset, gpu.neighborOffset);
        EXPECT_EQ(cpu.neighborIndexSum, gpu.neighborIndexSum);
    }
#endif
}

TEST(GridGeometryTest, PeriodicBoxTooSmallThrows) {
    try {
        geometry({0.0f, 0.0f, 0.0f}, {10.0f, 2.9f, 10.0f}, 1.0f, {true, true, true});
        FAIL() << "expected cf::Error";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("periodic axis y"), std::string::npos) << what;
        EXPECT_NE(what.find("at least 3"), std::string::npos) << what;
    }
    // The same box is fine when that axis is open (2 cells).
    const GridGeometry g = geometry({0, 0, 0}, {10.0f, 2.9f, 10.0f}, 1.0f, {true, false, true});
    EXPECT_EQ(g.dims[1], 2);
}

TEST(GridGeometryTest, InvalidInputsThrow) {
    const std::array<bool, 3> open{false, false, false};
    EXPECT_THROW(geometry({0, 0, 0}, {1, 1, 1}, 0.0f, open), Error);
    EXPECT_THROW(geometry({0, 0, 0}, {1, 1, 1}, NAN, open), Error);
    EXPECT_THROW(geometry({0, 0, 0}, {1, 0, 1}, 0.1f, open), Error);
    EXPECT_THROW(geometry({0, 0, 0}, {1e6f, 1e6f, 1e6f}, 1e-3f, open), Error);
}

TEST(GridGeometryTest, CellsAreAtLeastCutoff) {
    for (float cutoff : {0.1f, 0.3f, 0.7f, 1.0f, 1.3f}) {
        const GridGeometry g =
            geometry({-1.0f, 0.5f, 2.0f}, {4.1f, 5.0f, 9.7f}, cutoff, {false, true, false});
        for (int a = 0; a < 3; ++a) {
            EXPECT_GE(g.cellSize[a], cutoff);
            EXPECT_NEAR(g.cellSize[a] * static_cast<float>(g.dims[a]), g.length[a], 1e-4f);
            // One more cell would be smaller than the cutoff: the grid is as fine as allowed.
            EXPECT_LT(g.length[a] / static_cast<float>(g.dims[a] + 1), cutoff);
        }
    }
}

TEST(GridGeometryTest, CellCoordClampsAndWraps) {
    const GridGeometry g = geometry({0, 0, 0}, {5.0f, 5.0f, 5.0f}, 1.0f, {true, false, false});
    EXPECT_EQ(grid::cellCoord(g, 1, -3.0f), 0);
    EXPECT_EQ(grid::cellCoord(g, 1, 5.0f), 4);
    EXPECT_EQ(grid::cellCoord(g, 1, 1e30f), 4);
    EXPECT_EQ(grid::cellCoord(g, 1, NAN), 0);
    EXPECT_EQ(grid::cellCoord(g, 0, 5.0f), 0);
    EXPECT_EQ(grid::cellCoord(g, 0, -0.5f), 4);
    EXPECT_EQ(grid::cellCoord(g, 0, 25.5f), 0);
    EXPECT_EQ(grid::cellCoord(g, 0, -12.5f), 2);
    const grid::Vec3 d = grid::displacement(g, {4.8f, 1.0f, 1.0f}, {0.1f, 1.0f, 1.0f});
    EXPECT_NEAR(d.x, 0.3f, 1e-6f);
}

TEST(GridGeometryTest, MortonRankIsDenseZOrder) {
    // On a power-of-two cube the dense rank is the Morton code itself.
    const GridGeometry cube = geometry({0, 0, 0}, {4, 4, 4}, 1.0f, {false, false, false});
    const std::vector<std::int32_t> rank = grid::mortonRankTable(cube);
    EXPECT_EQ(rank[static_cast<std::size_t>(grid::linearCell(cube, 1, 0, 0))], 1);
    EXPECT_EQ(rank[static_cast<std::size_t>(grid::linearCell(cube, 0, 1, 0))], 2);
    EXPECT_EQ(rank[static_cast<std::size_t>(grid::linearCell(cube, 0, 0, 1))], 4);
    EXPECT_EQ(rank[static_cast<std::size_t>(grid::linearCell(cube, 1, 1, 1))], 7);
    EXPECT_EQ(rank[static_cast<std::size_t>(grid::linearCell(cube, 2, 0, 0))], 8);
    EXPECT_EQ(rank[static_cast<std::size_t>(grid::linearCell(cube, 3, 3, 3))], 63);
    // Otherwise a permutation of 0..ncells-1.
    const GridGeometry odd = geometry({0, 0, 0}, {5, 3, 7}, 1.0f, {false, false, false});
    std::vector<std::int32_t> r = grid::mortonRankTable(odd);
    std::sort(r.begin(), r.end());
    for (std::size_t k = 0; k < r.size(); ++k)
        ASSERT_EQ(r[k], static_cast<std::int32_t>(k));
    EXPECT_EQ(grid::mortonKeyBits(odd), 7);  // 105 cells
    EXPECT_EQ(grid::mortonKeyBits(cube), 6);
    EXPECT_EQ(grid::mortonKeyBits(geometry({0, 0, 0}, {1, 1, 1}, 1.0f, {false, false, false})), 1);
}

}  // namespace
}  // namespace cf::test
