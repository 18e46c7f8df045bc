// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench spheres`: the paper's benchmark A (ms per 10 iterations), benchmark B's
// seven densities, FLAME GPU 2's circles density at 1M agents, and a dividing spheroid with
// and without the substance (design note section 3).
#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/models/spheres/spheres_model.hpp"
#include "sim/models/spheres/spheres_physics.hpp"

namespace cf::spheres {

namespace {

// Candidates per agent in the 27 grid cells around it at density rho (agents per um^3), for
// pairs within `bound` in a box of `extent` um: the grid's cells have edge
// extent / floor(extent / gridCutoff(bound)).
double candidatesPerAgent(double rho, double bound, double extent) {
    const double lo[3] = {0, 0, 0}, hi[3] = {extent, extent, extent};
    const double cutoff = gridCutoff(bound, lo, hi);
    const double edge = extent / std::max(1.0, std::floor(extent / cutoff));
    return 27.0 * rho * edge * edge * edge;
}

// The variants of a case that Hesam et al.'s ablation compares (not in the default set):
// "kdtree", the CPU baseline search (nanoflann); "f64", their v0 (double mechanics on CUDA);
// "unsorted", their v1 (no Z-order sort after the initial layout); "voxel", their v3 force
// kernel (CUDA); "" the case itself (v2).
void variant(BenchCase& c, std::vector<std::string>& overrides, const std::string& which) {
    if (which.empty()) return;
    c.name += "-" + which;
    c.runByDefault = false;
    if (which == "kdtree") {
        c.description += "; CPU kd-tree search (nanoflann), the grid's baseline";
        c.onlyOn = {Backend::Cpu};
        overrides.push_back("mechanics.neighbour_search=kdtree");
    } else if (which == "f64") {
        c.description += "; positions, forces and moves in double on CUDA (Hesam et al.'s v0)";
        c.onlyOn = {Backend::Cuda};
        overrides.push_back("mechanics.precision=double");
    } else if (which == "unsorted") {
        c.description += "; never re-sorted into Z order (Hesam et al.'s v1)";
        overrides.push_back("mechanics.sort_every=1000000");
    } else {  // voxel
        c.description += "; a block per grid voxel, neighbours in shared memory (their v3)";
        c.onlyOn = {Backend::Cuda};
        overrides.push_back("mechanics.force_kernel=voxel");
    }
}

BenchCase benchmarkA(const std::string& which = {}) {
    BenchCase c;
    c.name = "benchmark-a";
    c.description =
        "Benchmark A: 64^3 cells, spacing 20, D 30, growth on (no division in 10 steps); "
        "one repeat = 10 iterations (paper: UG serial 14,497 ms, GPU v2 199 ms)";
    std::vector<std::string> extra;
    variant(c, extra, which);
    c.run = [extra](Backend b, const BenchOptions& o) {
        // --scale shrinks the cube at the same spacing (same neighbourhood per cell).
        const int axis =
            std::clamp(static_cast<int>(std::lround(64.0 * std::cbrt(o.scale))), 2, 256);
        std::vector<std::string> overrides = {"init.layout=lattice",
                                              "init.cells_per_axis=" + std::to_string(axis)};
        overrides.insert(overrides.end(), extra.begin(), extra.end());
        const auto cells = static_cast<std::uint64_t>(axis) * axis * axis;
        BenchResult r = benchModelSteps(descriptor(), b, overrides, cells, 2, 10, o);
        r.note =
            "median = ms per 10 iterations x 1e-3; interior cells: about " +
            std::to_string(std::lround(candidatesPerAgent(
                1.0 / 8000.0, diameterOf(sphereVolume(30.0) + 3.0), 20.0 * (axis - 1) + 200.0))) +
            " candidates, 18 neighbours within rc = 30";
        r.bytesPerStep = 120.0 * static_cast<double>(cells);
        return r;
    };
    return c;
}

// B at box L: 2e6 agents uniform in [0, L)^3, D = 10, rc = D, frozen (max_displacement 0),
// growth off, 5 iterations. `sqrt20`: D = sqrt(20) so that rc equals the paper's neighbour
// radius (BDM passes 20 as a squared radius; design note section 0).
BenchCase benchmarkB(int box, bool sqrt20, const std::string& which = {}) {
    BenchCase c;
    c.name = (sqrt20 ? "b-sqrt20-" : "benchmark-b-") + std::to_string(box);
    const double rho = 2.0e6 / (static_cast<double>(box) * box * box);
    const double d = sqrt20 ? std::sqrt(20.0) : 10.0;
    c.description = "Benchmark B: 2M agents in a cube of " + std::to_string(box) +
                    " um, D = " + std::to_string(d) + ", rc = D, frozen; " +
                    std::to_string(rho * 4.18879 * std::pow(20.0, 1.5)).substr(0, 5) +
                    " neighbours within sqrt(20) per agent";
    c.runByDefault = !sqrt20;
    std::vector<std::string> extra;
    variant(c, extra, which);
    c.run = [box, d, extra](Backend b, const BenchOptions& o) {
        // --scale keeps the density: fewer agents in a proportionally smaller cube.
        const double count = std::max(1000.0, 2.0e6 * o.scale);
        const double edge = box * std::cbrt(count / 2.0e6);
        std::vector<std::string> overrides = {"init.layout=random",
                                              "init.count=" + std::to_string(std::llround(count)),
                                              "init.box=" + std::to_string(edge),
                                              "init.diameter=" + std::to_string(d),
                                              "mechanics.max_displacement=0",
                                              "growth.enabled=false",
                                              "domain.margin=0"};
        overrides.insert(overrides.end(), extra.begin(), extra.end());
        BenchResult r =
            benchModelSteps(descriptor(), b, overrides, static_cast<std::uint64_t>(count), 1, 5, o);
        r.note =
            "5 iterations per repeat; about " +
            std::to_string(std::lround(candidatesPerAgent(count / (edge * edge * edge), d, edge))) +
            " candidates per agent in 27 grid cells";
        return r;
    };
    return c;
}

// FLAME GPU 2's circles benchmark density (1 agent/um^3, radius 2: ~205 candidates and 33.5
// neighbours per agent): 1M agents in [0, 100)^3, D = rc = 2, frozen, growth off.
BenchCase circles(const std::string& which = {}) {
    BenchCase c;
    c.name = "circles-1m";
    c.description =
        "1M agents uniform in a 100 um cube, D = rc = 2 um (FLAME GPU 2 circles density: "
        "2.12 ms/step on an H100 PCIe); one repeat = 10 steps";
    std::vector<std::string> extra;
    variant(c, extra, which);
    c.run = [extra](Backend b, const BenchOptions& o) {
        const double count = std::max(1000.0, 1.0e6 * o.scale);
        const double edge = 100.0 * std::cbrt(count / 1.0e6);
        std::vector<std::string> overrides = {"init.layout=random",
                                              "init.count=" + std::to_string(std::llround(count)),
                                              "init.box=" + std::to_string(edge),
                                              "init.diameter=2",
                                              "mechanics.max_displacement=0",
                                              "growth.enabled=false",
                                              "domain.margin=0"};
        overrides.insert(overrides.end(), extra.begin(), extra.end());
        BenchResult r = benchModelSteps(descriptor(), b, overrides,
                                        static_cast<std::uint64_t>(count), 2, 10, o);
        r.note = "ms per step = median / 10; about " +
                 std::to_string(std::lround(candidatesPerAgent(1.0, 2.0, edge))) +
                 " candidates and 33.5 neighbours within rc per agent";
        r.bytesPerStep = 16.0 * 27.0 * count;  // candidate loads, mostly from L1/L2
        return r;
    };
    return c;
}

// A growing spheroid: 10^4 cells in a ball at ~60 % packing, spread over the cycle, growth
// 10x BDM, so about 2 % of the cells divide per 10 steps: every step is a checked step (one
// 16-byte readback) and the capacity grows on the way. `substance`: plus the field (20 um
// voxels over the domain), secretion, decay and chemotaxis.
BenchCase spheroid(bool substance) {
    BenchCase c;
    c.name = substance ? "spheroid-substance" : "spheroid-10k";
    c.description = std::string("Spheroid of 10^4 dividing cells (growth 3000 um^3/h)") +
                    (substance ? " with the substance field and chemotaxis" : "") +
                    "; one repeat = 10 steps, the population grows ~2 % per repeat";
    c.run = [substance](Backend b, const BenchOptions& o) {
        const double count = std::max(100.0, 1.0e4 * o.scale);
        const double radius = 383.0 * std::cbrt(count / 1.0e4);
        std::vector<std::string> overrides = {"init.layout=ball",
                                              "init.count=" + std::to_string(std::llround(count)),
                                              "init.radius=" + std::to_string(radius),
                                              "init.age_spread=1",
                                              "growth.rate=3000",
                                              "domain.margin=200"};
        if (substance)
            for (const char* s : {"substance.enabled=true", "substance.diffusion=2000",
                                  "substance.secretion=50", "substance.chemotaxis=1e5"})
                overrides.emplace_back(s);
        BenchResult r = benchModelSteps(descriptor(), b, overrides,
                                        static_cast<std::uint64_t>(count), 1, 10, o);
        r.note = "entities = initial cells; one checked step (division count readback) per step";
        return r;
    };
    return c;
}

}  // namespace

std::vector<BenchCase> benchCases() {
    std::vector<BenchCase> cases{benchmarkA(), circles(), spheroid(false), spheroid(true)};
    for (int box : {600, 500, 400, 350, 300, 275, 250})
        cases.push_back(benchmarkB(box, false));
    for (int box : {600, 500, 400, 350, 300, 275, 250})
        cases.push_back(benchmarkB(box, true));
    // The paper's CPU baseline search (nanoflann's kd-tree) on the same cases, CPU only.
    // The ablation's variants: the kd-tree (CPU), v0 double (CUDA), v1 unsorted, v3 voxel
    // kernel (CUDA).
    for (const char* which : {"kdtree", "f64", "unsorted", "voxel"}) {
        cases.push_back(benchmarkA(which));
        for (int box : {600, 400, 250})
            cases.push_back(benchmarkB(box, true, which));
    }
    for (const char* which : {"f64", "unsorted", "voxel"})
        cases.push_back(circles(which));
    return cases;
}

}  // namespace cf::spheres
