// SPDX-License-Identifier: GPL-3.0-or-later
// The sweep grid (sim/core/sweep_grid.hpp): parsing of --vary, linear and geometric axes,
// integer rounding without repeats, range checks naming key and value, and the run order.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "sim/core/sweep_grid.hpp"

namespace cf {
namespace {

struct SweepParams {
    double x = 1.0;
    double rate = 1.0;
    std::int64_t n = 10;
    bool flag = false;
};

// A table of our own, so the expected values do not depend on any model's ranges.
const ParamTable& table() {
    static const ParamTable t = [] {
        ParamTableBuilder<SweepParams> b;
        b.real("g", "x", &SweepParams::x, 1.0, 0.0, 10.0, "um", "length", Mutability::Live);
        b.real("g", "rate", &SweepParams::rate, 1.0, -1.0e3, 1.0e3, "1/s", "signed rate",
               Mutability::Live);
        b.integer("g", "n", &SweepParams::n, 10, 1, 1000, "1", "count", Mutability::Live);
        b.boolean("g", "flag", &SweepParams::flag, false, "a switch", Mutability::Live);
        return b.build();
    }();
    return t;
}

std::vector<double> reals(const SweepAxis& a) {
    std::vector<double> out;
    for (const ParamValue& v : a.values)
        out.push_back(std::get<double>(v));
    return out;
}

std::vector<std::int64_t> integers(const SweepAxis& a) {
    std::vector<std::int64_t> out;
    for (const ParamValue& v : a.values)
        out.push_back(std::get<std::int64_t>(v));
    return out;
}

SweepAxis axis(const std::string& text, bool geometric = false) {
    SweepAxisText t = parseSweepAxis(text);
    t.geometric = geometric;
    return expandSweepAxis(table(), t);
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const ParameterError& e) {
        return e.what();
    }
    return "(no ParameterError)";
}

TEST(SweepGrid, ParsesTheThreeFields) {
    const SweepAxisText t = parseSweepAxis("dynamics.dt=1e-4:2.5e-3:7");
    EXPECT_EQ(t.key, "dynamics.dt");
    EXPECT_EQ(t.from, 1e-4);
    EXPECT_EQ(t.to, 2.5e-3);
    EXPECT_EQ(t.count, 7u);
    EXPECT_FALSE(t.geometric);
    for (const char* bad : {"dt", "=1:2:3", "g.x=1:2", "g.x=1:2:3:4", "g.x=a:2:3", "g.x=1:2:0",
                            "g.x=1:2:-3", "g.x=1:2:2.5", "g.x=nan:1:2", "g.x=1::2"})
        EXPECT_THROW(parseSweepAxis(bad), ParameterError) << bad;
    EXPECT_NE(errorOf([] { parseSweepAxis("g.x=1:2"); }).find("'g.x=1:2'"), std::string::npos);
}

TEST(SweepGrid, LinearAxisIncludesBothEnds) {
    // Quarters are exact in binary floating point, so the values compare exactly.
    EXPECT_EQ(reals(axis("g.x=0:1:5")), (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
    EXPECT_EQ(reals(axis("g.x=2:0:3")), (std::vector<double>{2.0, 1.0, 0.0}));  // descending
    EXPECT_EQ(reals(axis("g.x=3:3:1")), (std::vector<double>{3.0}));
    // The ends are the typed numbers themselves even where a + (b - a) would round off.
    const std::vector<double> v = reals(axis("g.x=0.1:0.7:3"));
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v.front(), 0.1);
    EXPECT_EQ(v.back(), 0.7);
    EXPECT_NEAR(v[1], 0.4, 1e-15);  // one rounding of a + (b - a) / 2
}

TEST(SweepGrid, GeometricAxisHasEqualRatios) {
    const std::vector<double> v = reals(axis("g.x=1e-3:10:5", true));
    const std::vector<double> want{1e-3, 1e-2, 1e-1, 1.0, 10.0};
    ASSERT_EQ(v.size(), want.size());
    EXPECT_EQ(v.front(), 1e-3);
    EXPECT_EQ(v.back(), 10.0);
    // exp(log a + f log(b/a)): the logarithms (~7) carry a few ulps, which exp turns into a
    // relative error of ~1e-14; 1e-13 relative is still far from
    // the factor 10 between neighbours.
    for (std::size_t i = 0; i < v.size(); ++i)
        EXPECT_NEAR(v[i], want[i], 1e-13 * want[i]) << i;
    // Negative ranges mirror the positive ones.
    const std::vector<double> neg = reals(axis("g.rate=-1:-100:3", true));
    ASSERT_EQ(neg.size(), 3u);
    EXPECT_NEAR(neg[1], -10.0, 1e-13);
    EXPECT_EQ(neg[2], -100.0);
    // Through or at zero there is no geometric spacing.
    EXPECT_NE(errorOf([] { axis("g.rate=-1:1:3", true); }).find("same sign"), std::string::npos);
    EXPECT_THROW(axis("g.x=0:1:3", true), ParameterError);
}

TEST(SweepGrid, IntegersAreRoundedAndDistinct) {
    EXPECT_EQ(integers(axis("g.n=1:10:4")), (std::vector<std::int64_t>{1, 4, 7, 10}));
    // 1, 1.33, 1.67, 2 round to 1, 1, 2, 2: two runs, not four.
    EXPECT_EQ(integers(axis("g.n=1:2:4")), (std::vector<std::int64_t>{1, 2}));
    EXPECT_EQ(integers(axis("g.n=1:4:10")), (std::vector<std::int64_t>{1, 2, 3, 4}));
    // Ends are rounded too (half away from zero, as llround).
    EXPECT_EQ(integers(axis("g.n=1.4:3.5:2")), (std::vector<std::int64_t>{1, 4}));
    // exp(log) lands a hair off 10 and 100; rounding gives the decades exactly.
    EXPECT_EQ(integers(axis("g.n=1:1000:4", true)), (std::vector<std::int64_t>{1, 10, 100, 1000}));
    // 2^(0..9) geometric from 1 to 512 over 10 points, and with 19 points the half powers
    // (1.41 -> 1, 2.83 -> 3, ...) are kept only where they are new.
    EXPECT_EQ(integers(axis("g.n=1:512:10", true)),
              (std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}));
    const std::vector<std::int64_t> half = integers(axis("g.n=1:512:19", true));
    EXPECT_EQ(half.size(), 18u);  // 1, (1.41 -> 1 dropped), 2, 3, 4, 6, 8, 11, ...
    EXPECT_EQ(half[1], 2);
    EXPECT_EQ(half[2], 3);
}

TEST(SweepGrid, BadKeysAndValuesNameThemselves) {
    const std::string unknown = errorOf([] { axis("g.xx=0:1:2"); });
    EXPECT_NE(unknown.find("unknown parameter 'g.xx'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("did you mean 'g.x'"), std::string::npos) << unknown;
    // 0, 10, 20 in [0, 10]: the end out of range is named, with the range.
    const std::string range = errorOf([] { axis("g.x=0:20:3"); });
    EXPECT_NE(range.find("'g.x' = 20 is out of range"), std::string::npos) << range;
    EXPECT_NE(range.find("[0, 10] um"), std::string::npos) << range;
    // The typed end, not the first point past the bound (0.25 + 9.75 / 2 here).
    const std::string end = errorOf([] { axis("g.x=0.25:20:3"); });
    EXPECT_NE(end.find("'g.x' = 20 is out of range"), std::string::npos) << end;
    const std::string integer = errorOf([] { axis("g.n=0:10:2"); });
    EXPECT_NE(integer.find("'g.n' = 0"), std::string::npos) << integer;
    EXPECT_NE(errorOf([] { axis("g.flag=0:1:2"); }).find("cannot be swept"), std::string::npos);
    EXPECT_NE(errorOf([] { axis("g.x=1:2:1"); }).find("FROM = TO"), std::string::npos);
}

TEST(SweepGrid, AxesTogether) {
    std::vector<SweepAxisText> t{parseSweepAxis("g.x=1:10:2"), parseSweepAxis("g.n=1:100:3")};
    const std::vector<SweepAxis> axes = expandSweepAxes(table(), t, {"g.n"});
    ASSERT_EQ(axes.size(), 2u);
    EXPECT_EQ(reals(axes[0]), (std::vector<double>{1.0, 10.0}));  // linear still
    EXPECT_EQ(integers(axes[1]), (std::vector<std::int64_t>{1, 10, 100}));
    EXPECT_NE(errorOf([&] { expandSweepAxes(table(), t, {"g.rate"}); }).find("no --vary g.rate"),
              std::string::npos);
    t.push_back(parseSweepAxis("g.x=2:3:2"));
    EXPECT_NE(errorOf([&] { expandSweepAxes(table(), t, {}); }).find("g.x is given twice"),
              std::string::npos);
}

TEST(SweepGrid, FirstAxisVariesSlowest) {
    std::vector<SweepAxisText> t{parseSweepAxis("g.n=1:2:2"), parseSweepAxis("g.x=0:2:3"),
                                 parseSweepAxis("g.rate=5:6:2")};
    const auto grid = sweepGrid(expandSweepAxes(table(), t, {}));
    ASSERT_EQ(grid.size(), 12u);  // 2 x 3 x 2
    // Run k (from 0) = n index * 6 + x index * 2 + rate index, like three nested loops.
    std::size_t k = 0;
    for (std::int64_t n : {1, 2})
        for (double x : {0.0, 1.0, 2.0})
            for (double rate : {5.0, 6.0}) {
                ASSERT_EQ(grid[k].size(), 3u);
                EXPECT_EQ(std::get<std::int64_t>(grid[k][0]), n) << k;
                EXPECT_EQ(std::get<double>(grid[k][1]), x) << k;
                EXPECT_EQ(std::get<double>(grid[k][2]), rate) << k;
                ++k;
            }
    EXPECT_TRUE(sweepGrid({}).empty());
}

}  // namespace
}  // namespace cf
