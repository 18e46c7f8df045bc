// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench gliding`: ms per outer step at S1's six resolutions (S1 Table 2), split by
// stage, against S1's optimised one-GPU figures and the targets (docs/design/gliding.md
// 6.3). The 64^2 cases run by default; the larger ones with --all or --case (the CPU takes
// seconds per step there).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/models/gliding/gliding_model.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding {

namespace {

struct Resolution {
    int n, ninner;
    double s1OptimisedMs;  // S1's optimised 1-GPU ms per outer step (design 0: S1 Table 2)
    double targetMs;       // the H100 target, 0 where it names none
};

constexpr Resolution kResolutions[] = {
    {64, 16, 46, 5},   {64, 32, 97, 0},    {128, 16, 322, 0},
    {128, 32, 526, 0}, {256, 16, 1220, 0}, {256, 32, 2314, 50},
};

// One switch of the motor kernels against the default (docs/GLIDING.md "Kernel switches"): Cook
// & Shinar's Table 3 rows, each changed alone. Not in the default set.
struct KernelVariant {
    const char* suffix;
    const char* description;
    std::vector<std::string> sets;
    bool cpuBackend = false;         // a variant of the CPU backend (its motors on the GPU)
    bool firstVersionBlock = false;  // the first version's block size (firstVersionThreads)
};

const std::vector<KernelVariant>& kernelVariants() {
    static const std::vector<KernelVariant> variants = {
        {"", "", {}},
        {"-f64", "double motors (their row: mixed precision removed)", {"motors.precision=double"}},
        {"-fastmath", "motor kernels built with --use_fast_math", {"motors.fast_math=true"}},
        {"-bounds",
         "sub-cycle kernel with launch bounds (512 threads, 2 blocks per SM)",
         {"motors.launch_bounds=true"}},
        {"-segments",
         "adjacent threads on adjacent s-cells of one chord (our runs mapping removed)",
         {"motors.lane_mapping=segments"}},
        {"-strided",
         "adjacent threads on adjacent chords (their row: dimension mapping removed)",
         {"motors.lane_mapping=strided"}},
        {"-threads64", "64 threads per motor block", {"motors.block_threads=64"}},
        {"-threads128", "128 threads per motor block", {"motors.block_threads=128"}},
        {"-threads256", "256 threads per motor block", {"motors.block_threads=256"}},
        {"-threads512", "512 threads per motor block", {"motors.block_threads=512"}},
        {"-threads1024", "1024 threads per motor block", {"motors.block_threads=1024"}},
        {"-staged",
         "bound gather staged through shared memory chord by chord",
         {"motors.bound_gather=staged"}},
        {"-lanes",
         "bound motors stored lane by lane (their row: reorder storage removed)",
         {"motors.storage=lanes"}},
        {"-v1",
         "the first CUDA version's launch: segments, launch bounds, the smallest block covering "
         "every chord's lanes (at most 512)",
         {"motors.lane_mapping=segments", "motors.launch_bounds=true"},
         false,
         true},
        {"-hybrid",
         "CPU backend with the bound motors on the GPU (Cook & Shinar's hybrid placement)",
         {"motors.placement=gpu"},
         true},
    };
    return variants;
}

// The block size of the first CUDA version (before the occupancy calculator chose it): the
// smallest power of two from 64 covering every chord's segment of lanes, at most 512.
int firstVersionThreads(const ParamSet& params) {
    const GlidingTables t = buildTables(checkedParams(params));
    int segment = 1;
    while (segment < t.maxChord)
        segment *= 2;
    const auto lanes = static_cast<std::int64_t>(t.chords.size()) * segment;
    int threads = 64;
    while (threads < 512 && threads < lanes)
        threads *= 2;
    return threads;
}

double metricOf(const std::vector<Metric>& metrics, const char* name) {
    for (const Metric& m : metrics)
        if (m.name == name) return m.value;
    return 0.0;
}

BenchCase fig6Case(const Resolution& r, const KernelVariant& v) {
    BenchCase c;
    c.name = "fig6-" + std::to_string(r.n) + "x" + std::to_string(r.ninner) + v.suffix;
    c.description = "S1 Fig. 6 ring lattice at " + std::to_string(r.n) + "^2 x " +
                    std::to_string(r.ninner) +
                    "^2, motors burnt in for 1/koff, 5 warm-up then timed outer steps (CFL dt); "
                    "S1 optimised 1 GPU: " +
                    std::to_string(static_cast<int>(r.s1OptimisedMs)) + " ms per outer step";
    if (*v.description) c.description += "; " + std::string(v.description);
    c.runByDefault = r.n == 64 && v.sets.empty();
    // The CPU ignores the kernel switches; the hybrid placement is the CPU backend's.
    if (!v.sets.empty()) c.onlyOn = {v.cpuBackend ? Backend::Cpu : Backend::Cuda};
    c.run = [r, v](Backend b, const BenchOptions& o) {
        ParamSet params(parameterTable());
        params.setFromAssignment("grid.n=" + std::to_string(r.n));
        params.setFromAssignment("grid.ninner=" + std::to_string(r.ninner));
        params.setFromAssignment("motors.burn_in=0.5");  // 1/koff at the default koff = 2
        for (const std::string& set : v.sets)
            params.setFromAssignment(set);
        if (v.firstVersionBlock)
            params.setFromAssignment("motors.block_threads=" +
                                     std::to_string(firstVersionThreads(params)));
        std::unique_ptr<Model> m = descriptor().create(b);
        m->reset(params, 12345u);
        m->advance(5);
        m->synchronize();
        const std::uint64_t steps =
            b == Backend::Cuda ? 20 : std::max<std::uint64_t>(2, std::lround(10 * o.scale));
        BenchResult result;
        result.backend = b;
        result.entities = static_cast<std::uint64_t>(r.n) * r.n;
        result.stepsPerRepeat = steps;
        timeRepeats(result, o.repeats, [&] {
            m->advance(steps);
            m->synchronize();
        });
        // The stage split of the last repeat (metrics download the state: not timed).
        const std::vector<Metric> last = m->metrics();
        m->checkFinite();
        const double ms = 1e3 * result.medianSeconds / static_cast<double>(steps);
        result.extra = {{"ms_per_outer_step", ms},
                        {"ms_filaments", metricOf(last, "time filaments")},
                        {"ms_motors", metricOf(last, "time motors")},
                        {"ms_force", metricOf(last, "time force")},
                        {"ms_fluid", metricOf(last, "time fluid")},
                        {"motor_substeps_max", metricOf(last, "motor substeps (max)")},
                        {"motor_block_threads", metricOf(last, "motor block threads")},
                        {"dt", metricOf(last, "dt")},
                        {"s1_optimised_ms", r.s1OptimisedMs},
                        {"speedup_vs_s1", r.s1OptimisedMs / ms}};
        if (r.targetMs > 0) result.extra.push_back({"target_ms", r.targetMs});
        result.note = "entities = anchors N^2; ms per outer step " + std::to_string(ms) + " (S1 " +
                      std::to_string(static_cast<int>(r.s1OptimisedMs)) + " ms)";
        return result;
    };
    return c;
}

}  // namespace

std::vector<BenchCase> benchCases() {
    std::vector<BenchCase> cases;
    for (const KernelVariant& v : kernelVariants())
        for (const Resolution& r : kResolutions)
            cases.push_back(fig6Case(r, v));
    return cases;
}

}  // namespace cf::gliding
