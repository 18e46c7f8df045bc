// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/bench.hpp"

#include <algorithm>
#include <chrono>

namespace cf {

void timeRepeats(BenchResult& result, int repeats, const std::function<void()>& body) {
    repeats = std::max(1, repeats);
    body();  // warm-up: first-touch allocations, lazy module loading, caches
    std::vector<double> seconds;
    seconds.reserve(static_cast<std::size_t>(repeats));
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        body();
        seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(seconds.begin(), seconds.end());
    const std::size_t n = seconds.size();
    result.repeats = repeats;
    result.minSeconds = seconds.front();
    result.maxSeconds = seconds.back();
    result.medianSeconds = n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
}

BenchResult benchModelSteps(const ModelDescriptor& model, Backend backend,
                            const std::vector<std::string>& overrides, std::uint64_t entities,
                            std::uint64_t warmupSteps, std::uint64_t steps,
                            const BenchOptions& options) {
    ParamSet params(model.parameters());
    for (const std::string& o : overrides)
        params.setFromAssignment(o);
    std::unique_ptr<Model> m = model.create(backend);
    m->reset(params, 12345u);
    if (warmupSteps > 0) {
        m->advance(warmupSteps);
        m->synchronize();
    }
    BenchResult r;
    r.backend = backend;
    r.entities = entities;
    r.stepsPerRepeat = steps;
    timeRepeats(r, options.repeats, [&] {
        m->advance(steps);
        m->synchronize();
    });
    m->checkFinite();  // a benchmark of a blown-up state measures nothing
    return r;
}

}  // namespace cf
