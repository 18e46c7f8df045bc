// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/grid/grid_bench.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/rng.hpp"
#include "sim/grid/uniform_grid_cpu.hpp"

#if CELLFORGE_HAVE_CUDA
#include "sim/grid/cuda/uniform_grid_cuda.cuh"
#endif

namespace cf::grid {

namespace {

constexpr double kPointsPerCell = 8.0;

struct Problem {
    GridGeometry geometry;
    std::vector<float> x, y, z;
    int count = 0;
};

Problem makeProblem(double scale) {
    const double wanted = std::round(1.0e6 * scale);
    if (!(wanted >= 1.0) || wanted > static_cast<double>(INT_MAX))
        throw Error("grid-build: scale " + std::to_string(scale) +
                    " gives a point count outside [1, 2^31)");
    Problem p;
    p.count = static_cast<int>(wanted);
    // Periodic axes need >= 3 cells, so tiny scales get a denser box.
    const int cells =
        std::max(3, static_cast<int>(std::lround(std::cbrt(wanted / kPointsPerCell))));
    const float lo[3] = {0.0f, 0.0f, 0.0f};
    const float hi[3] = {static_cast<float>(cells), static_cast<float>(cells),
                         static_cast<float>(cells)};
    const bool periodic[3] = {true, true, true};
    p.geometry = makeGridGeometry(lo, hi, 1.0f, periodic);
    const auto n = static_cast<std::size_t>(p.count);
    p.x.resize(n);
    p.y.resize(n);
    p.z.resize(n);
    const rng::Philox gen(20240601u, 0u);
    for (int i = 0; i < p.count; ++i) {
        const rng::Word4 w = gen(0, static_cast<std::uint32_t>(i), 0);
        const auto k = static_cast<std::size_t>(i);
        p.x[k] = hi[0] * (1.0f - rng::uniformFloat(w.x));  // [0, hi)
        p.y[k] = hi[1] * (1.0f - rng::uniformFloat(w.y));
        p.z[k] = hi[2] * (1.0f - rng::uniformFloat(w.z));
    }
    return p;
}

std::vector<double> timeCpuBuilds(const Problem& p, int repeats) {
    CpuUniformGrid grid;
    const PointsView points{p.x.data(), p.y.data(), p.z.data(), p.count};
    grid.build(p.geometry, points);  // warm-up: Morton table, first-touch allocations
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        grid.build(p.geometry, points);
        seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return seconds;
}

#if CELLFORGE_HAVE_CUDA
// Device traffic of one build, counting each array pass once (gathers assumed cached):
// keys kernel reads positions and the rank table and writes key+index; each 8-bit radix
// pass reads and writes key+index, plus one histogram read of the keys; the boundary pass
// reads keys; the memsets and bounds write two ints per cell.
double cudaBytesPerBuild(const Problem& p) {
    const double n = p.count;
    const double cells = p.geometry.cellCount();
    const double passes = std::ceil(mortonKeyBits(p.geometry) / 8.0);
    return n * (12.0 + 4.0 + 8.0) + n * 4.0 + passes * n * 16.0 + n * 4.0 + cells * 16.0;
}
#endif

BenchResult runGridBuild(Backend backend, const BenchOptions& options) {
    const int repeats = std::max(1, options.repeats);
    const Problem p = makeProblem(options.scale);
    BenchResult result;
    result.caseName = "grid-build";
    result.backend = backend;
    result.entities = static_cast<std::uint64_t>(p.count);
    result.stepsPerRepeat = 1;
    result.repeats = repeats;
    std::vector<double> seconds;
    if (backend == Backend::Cpu) {
        seconds = timeCpuBuilds(p, repeats);
        result.note =
            "single-threaded counting sort; the histogram and scatter passes are random "
            "accesses over " +
            std::to_string(p.geometry.cellCount()) + " cells, bound by cache misses";
    } else {
#if CELLFORGE_HAVE_CUDA
        if (!isAvailable(Backend::Cuda))
            throw Error("grid-build: the CUDA backend is unavailable: " + cudaStatus());
        seconds =
            timeCudaGridBuilds(p.geometry, p.x.data(), p.y.data(), p.z.data(), p.count, repeats);
        result.bytesPerStep = cudaBytesPerBuild(p);
        result.note =
            "keys kernel + CUB radix sort (" + std::to_string(mortonKeyBits(p.geometry)) +
            " key bits) + boundary kernel; at 1e6 points launch latency and the radix passes "
            "dominate, larger scales approach memory bandwidth";
#else
        throw Error("grid-build: this build has no CUDA backend");
#endif
    }
    std::sort(seconds.begin(), seconds.end());
    const std::size_t m = seconds.size();
    result.minSeconds = seconds.front();
    result.maxSeconds = seconds.back();
    result.medianSeconds = m % 2 ? seconds[m / 2] : 0.5 * (seconds[m / 2 - 1] + seconds[m / 2]);
    return result;
}

}  // namespace

BenchCase gridBuildBenchCase() {
    BenchCase c;
    c.name = "grid-build";
    c.description =
        "uniform-grid build (Morton keys, sort, cell ranges) for 1e6 x scale random points, "
        "~8 per cell, periodic box";
    c.run = runGridBuild;
    return c;
}

}  // namespace cf::grid
