// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A minimal parallel loop for the CPU reference backends. Each index is processed by
// exactly one thread and results are written per index, so output does not depend on
// the number of threads.
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <thread>
#include <vector>

namespace cf {

// Threads parallelFor may use: the hardware's, capped by the environment variable
// CELLFORGE_THREADS when it holds a positive integer (one-core benchmarks; taskset does not
// change hardware_concurrency). Read once per process.
inline std::size_t workerThreads() {
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

template <typename Body>
void parallelFor(std::size_t n, Body&& body, std::size_t grain = 4096) {
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
