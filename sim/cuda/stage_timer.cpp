// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/cuda/stage_timer.hpp"

#include <algorithm>
#include <cstdint>

#include "sim/cuda/cuda_check.hpp"

namespace cf::cuda {

StageTimer::~StageTimer() {
    for (cudaEvent_t e : events_)
        cudaEventDestroy(e);
}

cudaEvent_t StageTimer::event(std::size_t i) {
    while (events_.size() <= i) {
        cudaEvent_t e = nullptr;
        CF_CUDA_CHECK(cudaEventCreate(&e));
        events_.push_back(e);
    }
    return events_[i];
}

void StageTimer::start() {
    active_ = true;
    totals_.clear();
    steps_ = 0;
}

void StageTimer::beginStep(cudaStream_t stream) {
    if (!active_) return;
    marks_.clear();
    CF_CUDA_CHECK(cudaEventRecord(event(0), stream));
}

void StageTimer::mark(const char* stage, cudaStream_t stream) {
    if (!active_) return;
    marks_.push_back(stage);
    CF_CUDA_CHECK(cudaEventRecord(event(marks_.size()), stream));
}

void StageTimer::endStep() {
    if (!active_ || marks_.empty()) return;
    CF_CUDA_CHECK(cudaEventSynchronize(events_[marks_.size()]));
    for (std::size_t i = 0; i < marks_.size(); ++i) {
        float ms = 0.0f;
        CF_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
        // A stage that runs twice in a step (the grid, say) adds up under one name.
        auto it = std::find_if(totals_.begin(), totals_.end(),
                               [&](const auto& t) { return t.first == marks_[i]; });
        if (it == totals_.end()) it = totals_.insert(totals_.end(), {marks_[i], 0.0});
        it->second += 1e-3 * static_cast<double>(ms);
    }
    ++steps_;
}

std::vector<std::pair<std::string, double>> StageTimer::stop() {
    active_ = false;
    std::vector<std::pair<std::string, double>> out = totals_;
    for (auto& [stage, seconds] : out)
        seconds /= static_cast<double>(std::max<std::uint64_t>(1, steps_));
    return out;
}

}  // namespace cf::cuda
