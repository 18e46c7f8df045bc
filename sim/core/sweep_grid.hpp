// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Parameter sweeps: the axes given as `--vary group.name=a:b:n` and the Cartesian grid of
// runs they span. Everything here is checked against the model's parameter table before a
// sweep runs anything, so a bad key or value is reported without a single run written.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/params.hpp"

namespace cf {

// One `--vary` argument as typed: n values from `from` to `to` inclusive.
struct SweepAxisText {
    std::string key;
    double from = 0.0;
    double to = 0.0;
    std::size_t count = 0;
    bool geometric = false;  // --log: equal ratios instead of equal differences
};

// Parses "group.name=a:b:n" (a, b real numbers, n a positive integer). Throws
// ParameterError quoting the argument; the key itself is checked by expandSweepAxis.
SweepAxisText parseSweepAxis(std::string_view text);

// An axis resolved against a parameter table: its spec and the distinct values it takes.
struct SweepAxis {
    const ParamSpec* spec = nullptr;
    std::vector<ParamValue> values;
};

// The values of one axis. Linear: a + (b - a) i / (n - 1); geometric: a (b / a)^(i / (n - 1));
// the end points are exactly a and b. An integer parameter takes the rounded values with
// repeats dropped (1:4:10 gives 1, 2, 3, 4), so no two runs are the same. Throws
// ParameterError for an unknown key (with the closest known one), a parameter that is not
// a number, n = 0, n = 1 with a != b, a geometric axis through zero or negative values, or
// a value outside the declared range (naming the key and the value).
SweepAxis expandSweepAxis(const ParamTable& table, const SweepAxisText& text);

// Every axis of a sweep: each key at most once; `geometricKeys` (--log) must name keys
// among the axes. Throws ParameterError.
std::vector<SweepAxis> expandSweepAxes(const ParamTable& table, std::vector<SweepAxisText> axes,
                                       const std::vector<std::string>& geometricKeys);

// The grid points in run order: the first axis varies slowest and the last fastest (as
// nested loops written in the order of the --vary arguments). Each point holds one value
// per axis, in axis order. No axes: no points.
std::vector<std::vector<ParamValue>> sweepGrid(const std::vector<SweepAxis>& axes);

}  // namespace cf
