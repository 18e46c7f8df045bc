// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark cases of `brownian` (`cellforge-sim bench brownian`).
#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/grid/grid_bench.hpp"
#include "sim/models/brownian/brownian_model.hpp"

namespace cf::brownian {

namespace {

BenchCase stepCase(const char* name, std::int64_t baseCount) {
    BenchCase c;
    c.name = name;
    c.description =
        "Brownian particles with repulsion at volume fraction ~0.3: one step = "
        "grid build + force gather + integrate";
    c.run = [baseCount](Backend b, const BenchOptions& o) {
        const auto count = std::max<std::int64_t>(
            1000, static_cast<std::int64_t>(static_cast<double>(baseCount) * o.scale));
        // Number density 0.57 / um^3 with radius 0.5 um gives volume fraction 0.3.
        const double box = std::max(3.1, std::cbrt(static_cast<double>(count) / 0.57));
        const std::vector<std::string> overrides = {"system.count=" + std::to_string(count),
                                                    "system.box=" + std::to_string(box),
                                                    "system.radius=0.5"};
        const std::uint64_t steps = b == Backend::Cuda ? 100 : 5;
        BenchResult r = benchModelSteps(descriptor(), b, overrides,
                                        static_cast<std::uint64_t>(count), 2, steps, o);
        // Per particle and step: positions read ~3x (keys, sort, gather), indices and keys
        // sorted (radix passes), neighbor gathers mostly from L2; a lower bound of ~100 B.
        r.bytesPerStep = 100.0 * static_cast<double>(count);
        r.note = "force gather over 27 cells; bound by L2/gather latency, not DRAM";
        return r;
    };
    return c;
}

}  // namespace

std::vector<BenchCase> benchCases() {
    return {stepCase("step-100k", 100'000), stepCase("step-1M", 1'000'000),
            grid::gridBuildBenchCase()};
}

}  // namespace cf::brownian
