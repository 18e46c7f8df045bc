// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A minimal parallel loop for the CPU reference backends. Each index is processed by
// exactly one thread and results are written per index, so output does not depend on
// the number of threads.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <thread>
#include <vector>

namespace cf {

// Tests that show results do not depend on the thread count set these (ScopedParallelism);
// 0: not set.
inline std::atomic<std::size_t>& parallelThreadsOverride() {
    static std::atomic<std::size_t> threads{0};
    return threads;
}
inline std::atomic<std::size_t>& parallelGrainOverride() {
    static std::atomic<std::size_t> grain{0};
    return grain;
}

// Threads parallelFor may use: the hardware's, capped by the environment variable
// CELLFORGE_THREADS when it holds a positive integer (one-core benchmarks; taskset does not
// change hardware_concurrency). Read once per process.
inline std::size_t workerThreads() {
    if (const std::size_t forced = parallelThreadsOverride().load()) return forced;
    static const std::size_t threads = [] {
        std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
        if (const char* env = std::getenv("CELLFORGE_THREADS")) {
            char* end = nullptr;
            const long cap = std::strtol(env, &end, 10);
            if (end != env && *end == '\0' && cap > 0)
                hw = std::min(hw, static_cast<std::size_t>(cap));
        }
        return hw;
    }();
    return threads;
}

// For tests: within its lifetime every parallelFor in the process uses `threads` threads
// (more than the hardware has, if asked) and splits work down to `grain` items, so that even
// a small test problem is cut among threads. Not for use while other code runs models.
class ScopedParallelism {
public:
    ScopedParallelism(std::size_t threads, std::size_t grain) {
        parallelThreadsOverride() = threads;
        parallelGrainOverride() = grain;
    }
    ~ScopedParallelism() {
        parallelThreadsOverride() = 0;
        parallelGrainOverride() = 0;
    }
    ScopedParallelism(const ScopedParallelism&) = delete;
    ScopedParallelism& operator=(const ScopedParallelism&) = delete;
};

template <typename Body>
void parallelFor(std::size_t n, Body&& body, std::size_t grain = 4096) {
    if (const std::size_t forced = parallelGrainOverride().load()) grain = forced;
    const std::size_t hw = workerThreads();
    const std::size_t threads = std::min(hw, (n + grain - 1) / grain);
    if (threads <= 1) {
        for (std::size_t i = 0; i < n; ++i)
            body(i);
        return;
    }
    std::vector<std::thread> pool;
    pool.reserve(threads);
    const std::size_t chunk = (n + threads - 1) / threads;
    for (std::size_t t = 0; t < threads; ++t) {
        const std::size_t begin = t * chunk;
        const std::size_t end = std::min(n, begin + chunk);
        pool.emplace_back([begin, end, &body] {
            for (std::size_t i = begin; i < end; ++i)
                body(i);
        });
    }
    for (std::thread& th : pool)
        th.join();
}

}  // namespace cf
