// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench spheres`: the paper's benchmark A (ms per 10 iterations) and
// benchmark B's seven densities (design note section 3). CPU only until the CUDA backend.
#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/models/spheres/spheres_model.hpp"

namespace cf::spheres {

namespace {

BenchCase benchmarkA() {
    BenchCase c;
    c.name = "benchmark-a";
    c.description =
        "Benchmark A: 64^3 cells, spacing 20, D 30, growth on (no division in 10 steps); "
        "one repeat = 10 iterations (paper: UG serial 14,497 ms, GPU v2 199 ms)";
    c.run = [](Backend b, const BenchOptions& o) {
        // --scale shrinks the cube at the same spacing (same neighbourhood per cell).
        const int axis =
            std::clamp(static_cast<int>(std::lround(64.0 * std::cbrt(o.scale))), 2, 256);
        const std::vector<std::string> overrides = {"init.layout=lattice",
                                                    "init.cells_per_axis=" + std::to_string(axis)};
        const auto cells = static_cast<std::uint64_t>(axis) * axis * axis;
        BenchResult r = benchModelSteps(descriptor(), b, overrides, cells, 2, 10, o);
        r.note =
            "median = ms per 10 iterations x 1e-3; interior cells: ~95 candidates, 18 "
            "neighbours within rc = 30";
        r.bytesPerStep = 120.0 * static_cast<double>(cells);
        return r;
    };
    return c;
}

// B at box L: 2e6 agents uniform in [0, L)^3, D = 10, rc = D, frozen (max_displacement 0),
// growth off, 5 iterations. `sqrt20`: D = sqrt(20) so that rc equals the paper's neighbour
// radius (BDM passes 20 as a squared radius; design note section 0).
BenchCase benchmarkB(int box, bool sqrt20) {
    BenchCase c;
    c.name = (sqrt20 ? "b-sqrt20-" : "benchmark-b-") + std::to_string(box);
    const double rho = 2.0e6 / (static_cast<double>(box) * box * box);
    const double d = sqrt20 ? std::sqrt(20.0) : 10.0;
    c.description = "Benchmark B: 2M agents in a cube of " + std::to_string(box) +
                    " um, D = " + std::to_string(d) + ", rc = D, frozen; " +
                    std::to_string(rho * 4.18879 * std::pow(20.0, 1.5)).substr(0, 5) +
                    " neighbours within sqrt(20) per agent";
    c.runByDefault = !sqrt20;
    c.run = [box, d](Backend b, const BenchOptions& o) {
        // --scale keeps the density: fewer agents in a proportionally smaller cube.
        const double count = std::max(1000.0, 2.0e6 * o.scale);
        const double edge = box * std::cbrt(count / 2.0e6);
        const std::vector<std::string> overrides = {
            "init.layout=random",
            "init.count=" + std::to_string(std::llround(count)),
            "init.box=" + std::to_string(edge),
            "init.diameter=" + std::to_string(d),
            "mechanics.max_displacement=0",
            "growth.enabled=false",
            "domain.margin=0"};
        BenchResult r =
            benchModelSteps(descriptor(), b, overrides, static_cast<std::uint64_t>(count), 1, 5, o);
        r.note = "5 iterations per repeat; force loop over 27 grid cells of edge ~1.02 D";
        return r;
    };
    return c;
}

}  // namespace

std::vector<BenchCase> benchCases() {
    std::vector<BenchCase> cases{benchmarkA()};
    for (int box : {600, 500, 400, 350, 300, 275, 250})
        cases.push_back(benchmarkB(box, false));
    for (int box : {600, 500, 400, 350, 300, 275, 250})
        cases.push_back(benchmarkB(box, true));
    return cases;
}

}  // namespace cf::spheres
